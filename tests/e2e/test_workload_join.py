"""The joins docs/exporter.md documents, run by a real Prometheus against MIG and non-MIG nodes attributed by
fake kubelets."""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from gpuscope.exporter.attribution.source import WorkloadSettings
from gpuscope.exporter.settings import ExporterSettings
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key, parse_mig_layout
from gpuscope.simulator.kubelet import KubeletServer, pod
from tests.support.exporter import collected
from tests.support.exporters import serving
from tests.support.fleets import fleet_of, scrape_config, sim_nodes
from tests.support.net import wait_for
from tests.support.prom import run_prometheus

pytestmark = pytest.mark.e2e

METRIC = "DCGM_FI_PROF_GR_ENGINE_ACTIVE"  # per GPU, and per GPU instance under MIG
PER_POD = f"gpuscope_gpu_workload_info * on(UUID, GPU_I_ID) group_left(modelName) {METRIC}"


def readme_queries() -> list[str]:
    """The PromQL docs/exporter.md documents for the join (its first ```promql block, comments left out)."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "exporter.md").read_text()
    block = text.split("```promql\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


JOIN, SUM_BY_POD = readme_queries()


@contextmanager
def kubelets(names: list[str]) -> Iterator[tuple[str, dict[str, KubeletServer]]]:
    workdir = tempfile.mkdtemp(prefix="kubelets-")
    started = {name: KubeletServer(f"{workdir}/{name}.sock") for name in names}
    for kubelet in started.values():
        kubelet.start()
    try:
        yield workdir, started
    finally:
        for kubelet in started.values():
            kubelet.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def test_joins_on_mig_and_whole_gpus(tmp_path: Path) -> None:
    model = model_by_key("h100")
    nodes = sim_nodes(
        count=2,
        gpus_per_node=4,
        model=model,
        hostname_prefix="gpu",
        mig_nodes=1,
        mig_layout=parse_mig_layout(model, "1g.10gb:7"),
    )
    names = [n.config.hostname for n in nodes]
    with kubelets(names) as (workdir, kl):
        settings = ExporterSettings(
            collectors=load_collectors(None),
            interval_s=1.0,
            workloads=WorkloadSettings(kubernetes=True, socket_path=f"{workdir}/{{hostname}}.sock"),
        )
        fleet = fleet_of(nodes, settings)
        mig_gpus, whole_gpus = (collected(lst.runtime).gpus for lst in fleet.listeners)
        mig_a, mig_b = mig_gpus[0].instances[0].identity, mig_gpus[1].instances[2].identity
        kl[names[0]].set_pods(
            [
                pod("ml", "mig-a", ("main", "nvidia.com/mig-1g.10gb", [mig_a.uuid])),
                pod("ml", "mig-b", ("main", "nvidia.com/mig-1g.10gb", [f"nvidia1/gi{mig_b.gpu_instance_id}"])),
            ]
        )
        kl[names[1]].set_pods([pod("web", "whole", ("srv", "nvidia.com/gpu", [whole_gpus[3].identity.uuid]))])
        config = scrape_config(fleet.write_targets(tmp_path / "targets.json"))
        with serving(fleet.listeners, 1.0), run_prometheus(config, tmp_path / "prom") as prom:
            joined = wait_for(lambda: len(r := prom.query(JOIN)) == 3 and r, timeout=60, what="3 joined series")
            got = {(s["metric"]["pod"], s["metric"]["gpu"], s["metric"].get("GPU_I_ID")) for s in joined}
            assert got == {
                ("mig-a", "0", str(mig_a.gpu_instance_id)),
                ("mig-b", "1", str(mig_b.gpu_instance_id)),
                ("whole", "3", None),  # no GPU_I_ID on either side: "" matches ""
            }
            # The joined value is the GPU's (or instance's) own value, both read at one evaluation time (a scrape
            # between two "now" queries changes the value).
            at = time.time()
            joined = prom.query(JOIN, at=at)
            by_uuid = {
                (s["metric"]["UUID"], s["metric"].get("GPU_I_ID")): s["value"][1] for s in prom.query(METRIC, at=at)
            }
            assert len(joined) == 3 and all(
                s["value"][1] == by_uuid[(s["metric"]["UUID"], s["metric"].get("GPU_I_ID"))] for s in joined
            )

            # Time-slicing: two pods share one GPU. The per-pod form gives each pod the GPU's value.
            shared = whole_gpus[1].identity.uuid
            kl[names[1]].set_pods(
                [
                    pod("web", "whole", ("srv", "nvidia.com/gpu", [whole_gpus[3].identity.uuid])),
                    pod("web", "slice-a", ("srv", "nvidia.com/gpu", [f"{shared}::0"])),
                    pod("web", "slice-b", ("srv", "nvidia.com/gpu", [f"{shared}::1"])),
                ]
            )
            per_pod = wait_for(lambda: len(r := prom.query(PER_POD)) == 5 and r, timeout=60, what="5 per-pod series")
            assert {s["metric"]["pod"] for s in per_pod} == {"mig-a", "mig-b", "whole", "slice-a", "slice-b"}
            assert {s["metric"]["modelName"] for s in per_pod} == {model.name}
            slices = [s for s in per_pod if s["metric"]["pod"].startswith("slice-")]
            assert {s["metric"]["UUID"] for s in slices} == {shared}
            summed = {(s["metric"]["namespace"], s["metric"]["pod"]) for s in prom.query(SUM_BY_POD)}
            assert summed == {
                ("ml", "mig-a"),
                ("ml", "mig-b"),
                ("web", "whole"),
                ("web", "slice-a"),
                ("web", "slice-b"),
            }
            # docs/exporter.md says why the first query is for one pod per GPU: with a shared GPU it is an error.
            response = httpx.get(f"{prom.url}/api/v1/query", params={"query": JOIN}, timeout=10)
            assert response.status_code == 422 and "many-to-many matching not allowed" in response.json()["error"]
