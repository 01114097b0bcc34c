"""The NVLink inventory check against a real Prometheus holding two HGX H100 nodes' series (backfilled with
promtool): every link and NVSwitch the spec's model promises is up at first; ten minutes later one GPU has a link
down (state 0), another has lost a link's series (dcgm-exporter serves only links that are Up) and one node an
NVSwitch, and the check names each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from gpuscope.doctor import Access, Endpoints, Report, audit
from gpuscope.hardware.models import MODELS
from tests.support.net import wait_for
from tests.support.prom import Prometheus, backfill, run_prometheus

pytestmark = pytest.mark.e2e

H100 = MODELS["h100"]
HOSTS = ("hgx-a", "hgx-b")
END = 1_795_305_600
HEALTHY, BROKEN = END - 600, END  # the two evaluation times
SCRAPE = 15
HOOK = {"webhook": {"url": "http://127.0.0.1:1/"}}
SPEC = {
    "name": "fabric",
    "clusters": [{"name": "gpu-a", "node_groups": [{"name": "hgx", "gpu_model": "h100", "nodes": len(HOSTS)}]}],
    "receivers": {"infra": HOOK, "platform": HOOK, "workload": HOOK},
}
DOWN = ("hgx-b", 3, 7)  # (host, GPU, link): state 0 after HEALTHY
GONE = ("hgx-a", 5, 11)  # its series stops after HEALTHY
SWITCH_GONE = ("hgx-b", 2)  # the switch's series stop after HEALTHY


def openmetrics() -> list[str]:
    lines = [
        "# TYPE up gauge",
        "# TYPE DCGM_FI_DEV_GPU_TEMP gauge",
        "# TYPE DCGM_FI_DEV_NVLINK_GET_STATE gauge",
        "# TYPE DCGM_FI_DEV_SXID_FATAL_ERROR gauge",
    ]
    for t in range(END - 1800, END + 1, SCRAPE):
        late = t > HEALTHY
        for host in HOSTS:
            lines.append(f'up{{job="dcgm-exporter",instance="{host}:9400"}} 1 {t}')
            for gpu in range(8):
                gpu_labels = (
                    f'job="dcgm-exporter",instance="{host}:9400",gpu="{gpu}",UUID="GPU-{host}-{gpu}",'
                    f'modelName="{H100.name}",Hostname="{host}"'
                )
                lines.append(f"DCGM_FI_DEV_GPU_TEMP{{{gpu_labels}}} 60 {t}")
                for link in range(H100.nvlinks):
                    if late and (host, gpu, link) == GONE:
                        continue
                    state = 0 if late and (host, gpu, link) == DOWN else 1
                    labels = (
                        f'job="dcgm-exporter",instance="{host}:9400",nvlink="{link}",gpu="{gpu}",'
                        f'gpu_uuid="GPU-{host}-{gpu}",Hostname="{host}"'
                    )
                    lines.append(f"DCGM_FI_DEV_NVLINK_GET_STATE{{{labels}}} {state} {t}")
            for switch in range(H100.nvswitches):
                if late and (host, switch) == SWITCH_GONE:
                    continue
                labels = f'job="dcgm-exporter",instance="{host}:9400",nvswitch="nvswitch{switch}",Hostname="{host}"'
                lines.append(f"DCGM_FI_DEV_SXID_FATAL_ERROR{{{labels}}} 0 {t}")
    return lines


@pytest.fixture(scope="module")
def prom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    work = tmp_path_factory.mktemp("fabric")
    config = {"global": {"scrape_interval": "15s"}, "scrape_configs": []}
    with run_prometheus(config, backfill(work, openmetrics()), extra_args=("--storage.tsdb.retention.time=100y",)) as p:
        wait_for(lambda: p.query("count(DCGM_FI_DEV_NVLINK_GET_STATE)", END), timeout=30, what="the backfilled blocks")
        yield p


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "fleet.yaml"
    path.write_text(yaml.safe_dump(SPEC))
    return path


def inventory(prom: Prometheus, fleet: Path | None, at: float) -> tuple[str, str]:
    report: Report = audit(
        Endpoints(prom.url), Access(timeout_s=20), fleet=str(fleet) if fleet else None, window_s=300, clock=lambda: at
    )
    result = next(r for r in report.results if r.id == "nvlink-inventory")
    return result.status.value, result.summary


def test_every_link_and_switch_the_model_has_is_up(prom: Prometheus, fleet: Path) -> None:
    assert inventory(prom, fleet, HEALTHY) == (
        "PASS",
        "16 GPUs with every NVLink up, 8 NVSwitches, as the fleet spec's models have them",
    )


def test_a_link_down_a_link_gone_and_a_switch_gone_fail_by_name(prom: Prometheus, fleet: Path) -> None:
    status, summary = inventory(prom, fleet, BROKEN)
    assert status == "FAIL"
    assert summary == "hgx-a GPU 5: 17/18 links up; hgx-b GPU 3: 17/18 links up; hgx-b: 3/4 NVSwitches"


def test_without_a_fleet_spec_there_is_no_inventory_to_hold_it_to(prom: Prometheus) -> None:
    status, summary = inventory(prom, None, BROKEN)
    assert (status, summary.split(":")[0]) == ("SKIP", "no --fleet")
