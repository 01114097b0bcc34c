"""A real Prometheus (Debian's 2.42) scrapes `gpuscope sim` nodes on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.exporters import serving
from tests.support.fleets import scrape_config, sim_fleet
from tests.support.net import wait_for
from tests.support.prom import run_prometheus

pytestmark = pytest.mark.e2e


def test_prometheus_scrapes_simulated_fleet(tmp_path: Path) -> None:
    fleet = sim_fleet(count=3, gpus_per_node=8, hostname_prefix="gpu")
    nodes = fleet.nodes
    config = scrape_config(fleet.write_targets(tmp_path / "targets.json"))
    with serving(fleet.listeners, 1.0), run_prometheus(config, tmp_path / "prom") as prom:
        up = wait_for(
            lambda: len(r := prom.query('up{job="dcgm-exporter"} == 1')) == 3 and r, timeout=60, what="3 targets up"
        )
        assert {s["metric"]["instance"] for s in up} == {n.target for n in nodes}
        temps = wait_for(lambda: len(r := prom.query("DCGM_FI_DEV_GPU_TEMP")) == 24 and r, what="24 GPU temps")
        assert {s["metric"]["Hostname"] for s in temps} == {"gpu-0000", "gpu-0001", "gpu-0002"}
        assert all(20 <= float(s["value"][1]) <= 95 for s in temps)
        prof = prom.query("DCGM_FI_PROF_GR_ENGINE_ACTIVE")
        assert len(prof) == 24 and all(0.0 <= float(s["value"][1]) <= 1.0 for s in prof)
        # The exposition parses cleanly for Prometheus: no scrape errors, no dropped samples.
        health = {t["scrapeUrl"]: (t["health"], t["lastError"]) for t in prom.targets()}
        assert all(h == ("up", "") for h in health.values()), health
        assert prom.query('gpuscope_exporter_backend_up{backend="sim"} == 1')
