"""A real Prometheus (Debian's 2.42) scrapes `gpuscope sim` nodes on loopback."""

from __future__ import annotations

from pathlib import Path

from gpuscope.exporter.settings import ExporterSettings
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from gpuscope.simulator.fleet import build_listeners, plan_nodes, write_targets_file
from tests.support.exporters import serving
from tests.support.fleets import loopback_base
from tests.support.net import free_port, wait_for
from tests.support.prom import run_prometheus


def test_prometheus_scrapes_simulated_fleet(tmp_path: Path) -> None:
    nodes = plan_nodes(
        count=3,
        model=model_by_key("h100"),
        gpus_per_node=8,
        base_address=loopback_base(),
        port=free_port(),
        hostname_prefix="gpu",
    )
    listeners = build_listeners(nodes, ExporterSettings(collectors=load_collectors(None), interval_s=1.0))
    write_targets_file(str(tmp_path / "targets.json"), nodes)
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "scrape_configs": [
            {"job_name": "dcgm-exporter", "file_sd_configs": [{"files": [str(tmp_path / "targets.json")]}]}
        ],
    }
    with serving(listeners, 1.0), run_prometheus(config, tmp_path / "prom") as prom:
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
