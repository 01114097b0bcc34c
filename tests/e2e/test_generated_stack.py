"""A generated bundle really runs: Prometheus on the generated config scrapes simulated nodes, evaluates the
generated rules, and remote-writes to a receiver — only the cold-tier rollups when the spec says so."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuscope.bundle import write_bundle
from gpuscope.generate.compose import generate_bundle
from gpuscope.rules import COLD_TIER_REGEX
from gpuscope.spec.load import parse_fleet
from tests.support.exporters import serving
from tests.support.fleets import sim_fleet
from tests.support.net import free_port, wait_for
from tests.support.prom import run_prometheus, run_prometheus_file
from tests.support.specs import RECEIVERS

pytestmark = pytest.mark.e2e


def spec_text(targets: list[str], prom_port: int, receiver: str, cold_tier: str) -> str:
    hosts = ", ".join(f'"{t}"' for t in targets)
    return f"""
name: e2e
clusters:
  - name: gpu-a
    kind: baremetal
    node_groups: [{{name: h100, gpu_model: h100, nodes: {len(targets)}, hosts: [{hosts}]}}]
    endpoints:
      prometheus_a: 127.0.0.1:{prom_port}
      prometheus_b: 127.0.0.1:{free_port()}
      alertmanagers: [127.0.0.1:{free_port()}]
      pushgateway: 127.0.0.1:{free_port()}
scrape_interval: 1s
scrape_timeout: 1s
evaluation_interval: 1s
speedup: 15
long_term_store: mimir
remote_write_url: {receiver}/api/v1/write
remote_write_token_file: null
retention: {{cold_tier: {cold_tier}}}
{RECEIVERS}
"""


@pytest.mark.parametrize("cold_tier", ["rollups", "full"])
def test_generated_config_scrapes_evaluates_and_remote_writes(cold_tier: str, tmp_path: Path) -> None:
    fleet = sim_fleet(count=2, gpus_per_node=8)
    nodes = fleet.nodes
    receiver_cfg = {"global": {"scrape_interval": "1m"}}
    with (
        serving(fleet.listeners, 1.0),
        run_prometheus(receiver_cfg, tmp_path / "receiver", ("--web.enable-remote-write-receiver",)) as receiver,
    ):
        port = free_port()
        loaded = parse_fleet(
            spec_text([n.target for n in nodes], port, receiver.url, cold_tier), "fleet.yaml", tmp_path
        )
        out = tmp_path / "bundle"
        write_bundle(generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv), str(out))
        config = out / "clusters/gpu-a/prometheus-a.yml"
        with run_prometheus_file(config, tmp_path / "prom-a", port) as prom:
            wait_for(lambda: len(prom.query('up{job="dcgm-exporter"} == 1')) == 2, timeout=60, what="targets up")
            wait_for(
                lambda: [float(s["value"][1]) for s in prom.query("cluster:gpus_reporting:count")] == [16.0],
                timeout=60,
                what="recording rules see all 16 GPUs",
            )
            # rate-based: a GPU appears once its second scrape has been evaluated, so wait for all of them
            wait_for(lambda: len(prom.query("gpu:activity:avg5m")) == 16, what="per-GPU rules for all 16 GPUs")
            rules = prom.get("/api/v1/rules")["groups"]
            assert {g["name"] for g in rules} >= {"gpuscope-gpu.rules", "gpuscope-gpu-health.alerts"}
            failing = [(r["name"], r.get("lastError")) for g in rules for r in g["rules"] if r["health"] == "err"]
            assert not failing, failing  # "unknown" is fine: the 5m/1h rollup groups may not have run yet
            rollup = wait_for(
                lambda: receiver.query("cluster:gpus_reporting:count_rollup5m"),
                timeout=90,
                what="a rollup in the receiver",
            )
            assert rollup[0]["metric"]["cluster"] == "gpu-a"
            names = {s["metric"]["__name__"] for s in receiver.query('count by (__name__) ({__name__=~".+"})')}
            raw = receiver.query("DCGM_FI_DEV_GPU_TEMP")
            if cold_tier == "rollups":
                assert all(re.fullmatch(COLD_TIER_REGEX, n) for n in names), sorted(names)
                assert not raw
            else:
                assert len(raw) == 16 and "up" in names
