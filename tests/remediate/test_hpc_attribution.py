"""The job-mapping prolog/epilog the bundle ships, run by a real slurmd, and the exporter reading what they write.

Real sbatch jobs on a real Slurm (``tests/support/slurm.py``): the prolog writes each job's id into the file of
every GPU Slurm gave it, the epilog takes it out when the job ends, and simulated exporters on nodes of the same
names attribute their GPUs to exactly those job ids (``gpuscope_gpu_job_info``), then to none.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gpuscope.exporter.attribution.source import WorkloadSettings
from gpuscope.exporter.settings import ExporterSettings
from gpuscope.fields.collectors import load_collectors
from tests.support.exporters import serving
from tests.support.fleets import fleet_of, sim_nodes
from tests.support.net import wait_for
from tests.support.remediate import write_bundle
from tests.support.slurm import Slurm, slurm_cluster

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

CLUSTER = "gpu-h"


@dataclass
class World:
    slurm: Slurm
    urls: dict[str, str]  # node -> its exporter
    mapping: Path  # the mapping directory, %n for the node


def spec(mapping_dir: str) -> str:
    return f"""
name: hpc
clusters:
  - name: {CLUSTER}
    kind: baremetal
    slurm: {{job_mapping_dir: "{mapping_dir}"}}
    node_groups: [{{name: a100, gpu_model: a100, gpus_per_node: 4, nodes: 2}}]
receivers:
  infra: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  platform: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  workload: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
"""


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("hpc")
    mapping = root / "hpc-jobs"
    bundle = write_bundle(spec(f"{mapping}/%n"), root)
    scripts = bundle.root / "slurm" / CLUSTER
    for name in ("prolog.sh", "epilog.sh"):
        (scripts / name).chmod(0o755)  # what the README's install step does
    nodes = sim_nodes(count=2, gpus_per_node=4, model="a100", hostname_prefix=CLUSTER)
    names = tuple(n.config.hostname for n in nodes)
    settings = ExporterSettings(
        collectors=load_collectors(None),
        interval_s=1.0,
        workloads=WorkloadSettings(hpc_dir=f"{mapping}/{{hostname}}"),
    )
    fleet = fleet_of(nodes, settings)
    with (
        slurm_cluster(root / "slurm", nodes=names, gpus=4, prolog=scripts / "prolog.sh", epilog=scripts / "epilog.sh")
        as slurm,
        serving(fleet.listeners, 1.0),
    ):  # fmt: skip
        yield World(slurm, {n.config.hostname: f"http://{n.target}" for n in nodes}, mapping)


def attribution(url: str) -> dict[str, set[str]]:
    """GPU index -> the job ids the exporter attributes it to."""
    out: dict[str, set[str]] = {}
    text = httpx.get(f"{url}/metrics", timeout=10).text
    for family in text_string_to_metric_families(text):
        if family.name == "gpuscope_gpu_job_info":
            for sample in family.samples:
                out.setdefault(sample.labels["gpu"], set()).add(sample.labels["hpc_job"])
    return out


def attributed(url: str, expected: dict[str, set[str]]) -> bool:
    return attribution(url) == expected


def test_gpus_are_attributed_to_the_real_jobs_and_cleared_when_they_end(world: World) -> None:
    slurm = world.slurm
    first, second = slurm.nodes
    a = slurm.sbatch(first, gpus=2)
    b = slurm.sbatch(first, gpus=1)
    c = slurm.sbatch(second, gpus=3)
    for job in (a, b, c):
        slurm.wait_running(job)
    expected = {first: {"0": {a}, "1": {a}, "2": {b}}, second: {"0": {c}, "1": {c}, "2": {c}}}
    for node, gpus in expected.items():
        wait_for(
            partial(attributed, world.urls[node], gpus),
            timeout=30,
            what=f"{node}'s GPUs attributed to {gpus} (files: {sorted(p.name for p in world.mapping.rglob('*'))})",
        )
    assert (world.mapping / first / "0").read_text() == f"{a}\n"
    slurm.run("scancel", a)
    wait_for(lambda: attribution(world.urls[first]) == {"2": {b}}, timeout=30, what=f"job {a} cleared")
    slurm.cancel_all()
    for node in (first, second):
        wait_for(partial(attributed, world.urls[node], {}), timeout=30, what=f"{node} cleared")
        assert sorted(p.name for p in (world.mapping / node).iterdir()) == [".lock"]  # no file left, no temporary


def test_a_job_without_gpus_writes_nothing_and_the_scripts_never_fail_a_job(world: World) -> None:
    slurm = world.slurm
    node = slurm.nodes[1]
    job = slurm.run("sbatch", "--parsable", "-w", node, "-o", "/dev/null", "--wrap", "sleep 600").strip()
    slurm.wait_running(job)
    assert attribution(world.urls[node]) == {}
    assert "DRAIN" not in slurm.node(node).flags  # a failing prolog would have drained the node
    slurm.cancel_all()
