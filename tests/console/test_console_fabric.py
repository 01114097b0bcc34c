"""The Fabric dashboard of the example NVL72 rack spec (docs/examples/nvl72-rack.yaml) drawn by the console in a
real headless Chromium, from a real Prometheus holding two trays' series and the fabric records (backfilled with
promtool: no stack). One GPU link is down: the link matrix shows it red among green links, and the partition table
counts it against the rack's partition."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver

from gpuscope.bundle import write_bundle
from gpuscope.generate.compose import generate_bundle
from gpuscope.spec.load import load_fleet
from tests.support.browser import errors, loaded, panels, running_chromium, wait
from tests.support.console import running_console
from tests.support.net import wait_for
from tests.support.prom import Prometheus, backfill, run_prometheus

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "nvl72-rack.yaml"
CLUSTER, RACK, CLIQUE = "nvl72", "7c0ffee0-0000-4000-8000-0000000000a1", "1"
PARTITION = f"{RACK}/{CLIQUE}"
TRAYS, GPUS, LINKS = ("nvl72-rack-a-00", "nvl72-rack-a-01"), 4, 18
DOWN = ("nvl72-rack-a-01", 2, 9)  # (tray, GPU, link)
GREEN, RED = "rgb(115, 191, 105)", "rgb(242, 73, 92)"  # Grafana's green and red


def openmetrics(now: int) -> list[str]:
    """Twenty minutes either side of ``now``: the console's panels query the last minutes."""
    lines = [f"# TYPE {name} gauge" for name in ("up", "DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_NVLINK_GET_STATE")]
    for t in range(now - 1200, now + 1200, 15):
        for tray in TRAYS:
            target = f'job="dcgm-exporter",cluster="{CLUSTER}",instance="{tray}:9400"'
            lines.append(f"up{{{target}}} 1 {t}")
            for gpu in range(GPUS):
                uuid = f"GPU-{tray}-{gpu}"
                lines.append(
                    f'DCGM_FI_DEV_GPU_TEMP{{{target},gpu="{gpu}",UUID="{uuid}",modelName="NVIDIA GB200",'
                    f'Hostname="{tray}"}} 60 {t}'
                )
                lines.append(
                    f'gpu:fabric_partition:info{{cluster="{CLUSTER}",Hostname="{tray}",gpu="{gpu}",UUID="{uuid}",'
                    f'cluster_uuid="{RACK}",clique_id="{CLIQUE}",partition="{PARTITION}"}} 1 {t}'
                )
                for link in range(LINKS):
                    down = (tray, gpu, link) == DOWN
                    lines.append(
                        f'DCGM_FI_DEV_NVLINK_GET_STATE{{{target},nvlink="{link}",gpu="{gpu}",gpu_uuid="{uuid}",'
                        f'Hostname="{tray}"}} {0 if down else 1} {t}'
                    )
                    if down:
                        lines.append(
                            f'nvlink:link_down:max{{cluster="{CLUSTER}",instance="{tray}:9400",Hostname="{tray}",'
                            f'gpu="{gpu}",gpu_uuid="{uuid}",nvlink="{link}",cluster_uuid="{RACK}",'
                            f'clique_id="{CLIQUE}",partition="{PARTITION}"}} 1 {t}'
                        )
    return lines


@pytest.fixture(scope="module")
def prom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    work = tmp_path_factory.mktemp("fabric-prom")
    now = int(time.time())
    with run_prometheus({"scrape_configs": []}, backfill(work, openmetrics(now))) as p:
        wait_for(lambda: p.query("count(DCGM_FI_DEV_NVLINK_GET_STATE)"), timeout=30, what="the backfilled blocks")
        yield p


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    loaded_spec = load_fleet(str(EXAMPLE))
    out = tmp_path_factory.mktemp("bundle")
    write_bundle(generate_bundle(loaded_spec.spec, loaded_spec.collectors, loaded_spec.collectors_csv), str(out))
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    with running_chromium() as driver:
        yield driver


def _table(driver: webdriver.Chrome, title: str) -> dict[str, Any] | None:
    found: dict[str, Any] | None = driver.execute_script(
        "const t = document.querySelector(`section.panel[data-title='${arguments[0]}'] table`); if (!t) return null;"
        " return {cols: [...t.querySelectorAll('th')].map(h => h.textContent),"
        " rows: [...t.querySelectorAll('tbody tr')].map(r => [...r.children].map(c =>"
        " [c.textContent, getComputedStyle(c).backgroundColor]))};",
        title,
    )
    return found


def test_the_fabric_dashboard_shows_the_down_link_in_its_partition(
    prom: Prometheus, bundle: Path, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    with running_console(tmp_path, "--bundle", str(bundle), "--prometheus", prom.url) as console:
        errors(browser)  # start from an empty log
        browser.get(f"{console.url}/d/nvl72-fabric?from=now-15m&to=now")
        wait(browser, loaded, what="the Fabric dashboard")

        def drawn(driver: webdriver.Chrome) -> dict[str, Any] | None:
            matrix = _table(driver, "NVLink state (GPU x link)")
            return matrix if matrix and len(matrix["rows"]) == len(TRAYS) * GPUS else None

        matrix = wait(browser, drawn, timeout=60, what="the link matrix, one row per GPU")
        assert matrix["cols"][1:] == [str(link) for link in range(LINKS)]
        cells = {row[0][0]: row[1:] for row in matrix["rows"]}
        tray, gpu, link = DOWN
        down = cells.pop(f"{tray} GPU {gpu}")
        assert down[link] == ["down", RED]
        assert {tuple(c) for i, c in enumerate(down) if i != link} == {("up", GREEN)}
        assert {tuple(c) for row in cells.values() for c in row} == {("up", GREEN)}

        partitions = wait(browser, lambda d: _table(d, "Partitions"), what="the partition table")
        assert partitions["rows"] and partitions["rows"][0][0][0] == PARTITION
        columns = partitions["cols"]
        row = [cell[0] for cell in partitions["rows"][0]]
        assert (row[columns.index("GPUs")], row[columns.index("nodes")], row[columns.index("links down")]) == (
            str(len(TRAYS) * GPUS),
            str(len(TRAYS)),
            "1",
        )
        failed = [p for p in panels(browser) if p["state"] not in ("data", "empty")]
        assert not failed, failed
        assert errors(browser) == []
