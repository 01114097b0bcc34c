"""Broken fleet specs and the exact one-line messages they produce."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gpuscope.errors import SpecError, UsageError
from gpuscope.spec.load import parse_fleet
from tests.support.specs import ONE, RECEIVERS, fleet

CASES = [
    (fleet(ONE, "clusterz: []"), "fleet.yaml:16:1: unknown key 'clusterz' (did you mean 'clusters'?); allowed here: "),
    (
        fleet(ONE.replace("gpu_model: h100", "gpu_model: b300")),
        "fleet.yaml:7:33: clusters[0].node_groups[0].gpu_model: unknown GPU model 'b300'; choose one of: h100, h200, "
        "b200, gb200, a100, l40s",
    ),
    (
        fleet(ONE.replace("nodes: 2}", "nodes: 2, mig: {layout: '1g.10gb:7', nodes: 3}}")),
        "fleet.yaml:7:54: clusters[0].node_groups[0].mig: mig.nodes (3) is more than the group's nodes (2)",
    ),
    (
        fleet(ONE.replace("nodes: 2}", "nodes: 2, mig: {layout: '1g.10gb:8', nodes: 1}}")),
        "fleet.yaml:7:54: clusters[0].node_groups[0].mig: MIG layout '1g.10gb:8' uses 8 compute slices; a h100 has 7",
    ),
    (
        fleet(ONE.replace("nodes: 2}", "nodes: 2, hosts: ['a:9400']}")),
        "fleet.yaml:7:56: clusters[0].node_groups[0].hosts: lists 1 targets but the group has 2 nodes",
    ),
    (fleet(ONE + ONE), "fleet.yaml:4:3: clusters: cluster names must be unique; repeated: gpu-a"),
    (
        fleet(ONE, "tenants: [{name: t1, clusters: [gpu-b]}]"),
        "fleet.yaml:16:10: tenants: tenant 't1' names unknown clusters: gpu-b",
    ),
    (
        fleet(ONE, "scrape_interval: 15s\nscrape_timeout: 20s"),
        "fleet.yaml:17:17: scrape_timeout: 20s is longer than scrape_interval (15s)",
    ),
    (
        fleet(ONE, "scrape_interval: 5m"),
        "fleet.yaml:16:18: scrape_interval: 5m is longer than the rules support; use 1m or less (the rules widen "
        "their windows to fit any interval up to 1m)",
    ),
    (
        fleet(ONE, "scrape_interval: 15 seconds"),
        "fleet.yaml:16:18: scrape_interval: '15 seconds' is not a Prometheus duration like 15s, 5m, 6h or 15d",
    ),
    (
        fleet(ONE.replace("name: gpu-a", "name: GPU_A")),
        "fleet.yaml:4:11: clusters[0].name: 'GPU_A' is not a lowercase DNS label (a-z, 0-9 and '-', at most 63 "
        "characters)",
    ),
    (
        fleet(ONE).replace('workload: {webhook: {url: "http://127.0.0.1:1/hook"}}', "workload: {}"),
        "fleet.yaml:14:13: receivers.workload: configure at least one of pagerduty, slack, webhook",
    ),
    (
        fleet(ONE).replace("platform: {slack:", "platform: {tickets_to: webhook, slack:"),
        "fleet.yaml:13:13: receivers.platform: tickets_to is 'webhook' but no webhook integration is configured",
    ),
    (
        fleet(ONE).replace('channel: "#platform"', "channel: platform"),
        "fleet.yaml:13:60: receivers.platform.slack.channel: 'platform' is not a Slack channel (#name) or user (@name)",
    ),
    ("name: x\nclusters: []\n" + RECEIVERS, "fleet.yaml:2:11: clusters: list at least 1"),
    (f"clusters:\n{ONE}", "fleet.yaml:1:1: missing required key 'name'"),
    (
        fleet(ONE, "long_term_store: cortex"),
        "fleet.yaml:16:18: long_term_store: Input should be 'auto', 'federation', 'thanos', 'mimir' or "
        "'victoriametrics' (got 'cortex')",
    ),
    (
        fleet(ONE, "long_term_store: victoriametrics\ntenants: [{name: t1, clusters: [gpu-a]}]"),
        "fleet.yaml:17:10: tenants: tenants are Mimir-only (X-Scope-OrgID limits); remove tenants: for "
        "long_term_store: victoriametrics, or choose long_term_store: mimir",
    ),
    (
        fleet(
            ONE.replace("kind: baremetal", "kind: baremetal\n    tenant: research"), "long_term_store: victoriametrics"
        ),
        "fleet.yaml:17:18: long_term_store: clusters[0] (gpu-a) sets tenant: 'research', a Mimir-only setting; remove "
        "it (VictoriaMetrics keeps clusters apart by their cluster label) or choose long_term_store: mimir",
    ),
    (
        fleet(ONE, "long_term_store: victoriametrics\nvictoriametrics: {cluster: {vmstorage: 1}}"),
        "fleet.yaml:17:28: victoriametrics.cluster: replication_factor 2 needs at least 2 vmstorage nodes "
        "(vmstorage is 1)",
    ),
    (
        fleet(ONE.replace("nodes: 2}", "nodes: 2, nvlink_domain: rack}")),
        "fleet.yaml:7:9: clusters[0].node_groups[0]: nvlink_domain: rack needs a rack-scale model (gb200, gb300), "
        "not h100",
    ),
    (
        fleet(ONE.replace("gpu_model: h100, nodes: 2}", "gpu_model: gb200, nodes: 19, nvlink_domain: rack}")),
        "fleet.yaml:7:9: clusters[0].node_groups[0]: a gb200 rack has 18 compute trays, not 19: write one node group "
        "per rack",
    ),
    (
        fleet(
            ONE.replace(
                "gpu_model: h100, nodes: 2}", "gpu_model: gb200, gpus_per_node: 8, nodes: 18, nvlink_domain: rack}"
            )
        ),
        "fleet.yaml:7:9: clusters[0].node_groups[0]: a gb200 compute tray has 4 GPUs: set gpus_per_node to 4 or leave "
        "it out",
    ),
]


@pytest.mark.parametrize(("text", "message"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_broken_specs_say_where_and_what(text: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(SpecError) as info:
        parse_fleet(text, "fleet.yaml", tmp_path)
    assert str(info.value).startswith(message), str(info.value)


def test_missing_collectors_file_names_the_spec_key(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"missing\.csv' does not exist \(exporter\.collectors in the fleet spec\)"):
        parse_fleet(fleet(ONE, "exporter: {collectors: missing.csv}"), "fleet.yaml", tmp_path)


def test_generate_refuses_a_scrape_interval_the_rules_cannot_fit_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "fleet.yaml").write_text(fleet(ONE, "scrape_interval: 2m\nscrape_timeout: 1m"))
    done = subprocess.run(
        [sys.executable, "-m", "gpuscope", "generate", "fleet.yaml", "-o", "bundle"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "gpuscope: error: fleet.yaml:16:18: scrape_interval: 2m is longer than the rules support; use 1m or less "
        "(the rules widen their windows to fit any interval up to 1m)\n"
    )
    assert not (tmp_path / "bundle").exists()


def test_a_rack_group_is_the_trays_of_one_nvlink_domain(tmp_path: Path) -> None:
    loaded = parse_fleet(
        fleet(ONE.replace("gpu_model: h100, nodes: 2}", "gpu_model: gb200, nodes: 18, nvlink_domain: rack}")),
        "fleet.yaml",
        tmp_path,
    )
    (group,) = loaded.spec.clusters[0].node_groups
    assert (group.gpus_per_node, group.nodes, group.nvlink_domain) == (4, 18, "rack")  # a tray's 4 GPUs
    # The built-in fleet and every spec without the key keep their nodes as they were: each its own domain.
    assert parse_fleet(fleet(ONE), "fleet.yaml", tmp_path).spec.clusters[0].node_groups[0].nvlink_domain == "node"
