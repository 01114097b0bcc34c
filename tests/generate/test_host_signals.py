"""Host signals in the bundle: scrape jobs and targets with the GPU series' host label, ServiceMonitors, the
budget's series, rules and panels only for the exporters the spec scrapes, and hostile host_signals values."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.bundle import write_bundle
from gpuscope.dashboards import dashboards
from gpuscope.dashboards.options import options_for
from gpuscope.fields.companion import markdown_table
from gpuscope.generate.budget import compute_budget
from gpuscope.generate.compose import generate_bundle
from gpuscope.generate.prometheus import choose_store
from gpuscope.rules import alerts
from gpuscope.spec.load import parse_fleet
from tests.support.cli import gpuscope_here
from tests.support.specs import fleet

CLUSTERS = """
  - name: k8s
    kind: kubernetes
    node_groups:
      - {name: h100, gpu_model: h100, nodes: 2}
  - name: metal
    kind: baremetal
    node_groups:
      - {name: a100, gpu_model: a100, nodes: 2, hosts: ["10.0.0.1:9400", "10.0.0.2:9400"],
         hostnames: [gpu-01, gpu-02]}
"""
ROOT = Path(__file__).resolve().parents[2]


def build(tmp_path: Path, extra: str = "", clusters: str = CLUSTERS) -> Path:
    loaded = parse_fleet(fleet(clusters, extra), "fleet.yaml", tmp_path)
    out = tmp_path / "bundle"
    write_bundle(generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv), str(out))
    return out


def jobs(bundle: Path, cluster: str) -> dict[str, dict[str, Any]]:
    config = yaml.safe_load((bundle / "clusters" / cluster / "prometheus-a.yml").read_text())
    return {j["job_name"]: j for j in config["scrape_configs"]}


def test_node_exporter_targets_carry_the_gpu_series_host_label(tmp_path: Path) -> None:
    bundle = build(tmp_path)
    metal = json.loads((bundle / "clusters/metal/targets/node-exporter.json").read_text())
    # the host label is the exporter's Hostname (hostnames), not the address the target is reached at
    assert metal == [
        {"targets": ["gpu-01:9100"], "labels": {"Hostname": "gpu-01"}},
        {"targets": ["gpu-02:9100"], "labels": {"Hostname": "gpu-02"}},
    ]
    k8s = json.loads((bundle / "clusters/k8s/targets/node-exporter.json").read_text())
    assert [g["labels"]["Hostname"] for g in k8s] == ["k8s-h100-0000", "k8s-h100-0001"]
    # the GPU exporter's targets file is unchanged: one group, no labels
    assert json.loads((bundle / "clusters/k8s/targets/dcgm-exporter.json").read_text())[0]["labels"] == {}


def test_kubernetes_clusters_scrape_kube_state_metrics_and_bare_metal_does_not(tmp_path: Path) -> None:
    bundle = build(tmp_path, "host_signals: {kubelet_token_file: /dev/null}\n")
    k8s, metal = jobs(bundle, "k8s"), jobs(bundle, "metal")
    assert k8s["kube-state-metrics"]["static_configs"] == [{"targets": ["kube-state-metrics.kube-system.svc:8080"]}]
    assert k8s["kube-state-metrics"]["honor_labels"] is True
    assert k8s["cadvisor"]["metrics_path"] == "/metrics/cadvisor" and k8s["cadvisor"]["scheme"] == "https"
    assert k8s["cadvisor"]["authorization"] == {"credentials_file": "/dev/null"}
    cadvisor = json.loads((bundle / "clusters/k8s/targets/cadvisor.json").read_text())
    assert cadvisor[0] == {"targets": ["k8s-h100-0000:10250"], "labels": {"Hostname": "k8s-h100-0000"}}
    assert "node-exporter" in metal and not {"kube-state-metrics", "cadvisor"} & set(metal)
    monitors = yaml.safe_load((bundle / "kubernetes/k8s/servicemonitors-host.yaml").read_text())
    names = [m["metadata"]["name"] for m in monitors["items"]]
    assert names == ["gpuscope-node-exporter", "gpuscope-kube-state-metrics", "gpuscope-cadvisor"]
    node_relabel = monitors["items"][0]["spec"]["endpoints"][0]["relabelings"]
    assert {"sourceLabels": ["__meta_kubernetes_pod_node_name"], "targetLabel": "Hostname", "action": "replace"} in (
        node_relabel
    )
    assert (
        "servicemonitors-host.yaml"
        in yaml.safe_load((bundle / "kubernetes/k8s/kustomization.yaml").read_text())["resources"]
    )
    for config in sorted(bundle.glob("clusters/*/prometheus-*.yml")):
        done = subprocess.run(["promtool", "check", "config", str(config)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


def test_without_a_kubelet_token_the_plain_config_leaves_cadvisor_to_the_service_monitor(tmp_path: Path) -> None:
    bundle = build(tmp_path)
    assert "cadvisor" not in jobs(bundle, "k8s")
    assert "kube-state-metrics" in jobs(bundle, "k8s")


def test_switched_off_exporters_get_no_job_no_rule_and_no_panel(tmp_path: Path) -> None:
    text = fleet(CLUSTERS, "host_signals: {node_exporter: false, kube_state_metrics: false, cadvisor: false}\n")
    spec = parse_fleet(text, "fleet.yaml", tmp_path).spec
    names = {a.name for a in alerts(spec.rules_config())}
    assert not {n for n in names if n.startswith(("GPUHost", "GPUNode", "GPURequests", "GPUPod"))}
    restarted = next(a for a in alerts(spec.rules_config()) if a.name == "GPUExporterRestarted")
    assert "kube_pod_container_status_restarts_total" not in restarted.expr
    bundle = build(tmp_path, "host_signals: {node_exporter: false, kube_state_metrics: false, cadvisor: false}\n")
    assert set(jobs(bundle, "k8s")) & {"node-exporter", "kube-state-metrics", "cadvisor"} == set()
    assert not (bundle / "clusters/k8s/targets/node-exporter.json").exists()
    loaded = parse_fleet(text, "fleet.yaml", tmp_path)
    models = dashboards(options_for(loaded.spec, loaded.collectors, choose_store(loaded.spec)[0]))
    rows = {r.title for d in models for r in d.rows}
    assert not {r for r in rows if "node-exporter" in r or "kube-state-metrics" in r or "cAdvisor" in r}


def test_bare_metal_only_fleets_have_no_kubernetes_rules_or_panels(tmp_path: Path) -> None:
    metal = "  - name: metal\n    kind: baremetal\n    node_groups: [{name: a, gpu_model: a100, nodes: 1}]\n"
    loaded = parse_fleet(fleet(metal), "fleet.yaml", tmp_path)
    names = {a.name for a in alerts(loaded.spec.rules_config())}
    assert "GPUHostCPUSaturated" in names and "GPURequestsNearAllocatable" not in names
    models = dashboards(options_for(loaded.spec, loaded.collectors, choose_store(loaded.spec)[0]))
    rows = {r.title for d in models for r in d.rows}
    assert "Host (node-exporter)" in rows and not {r for r in rows if "kube-state-metrics" in r}


def test_the_budget_counts_kube_state_metrics_and_cadvisor_on_kubernetes_only(tmp_path: Path) -> None:
    loaded = parse_fleet(fleet(CLUSTERS), "fleet.yaml", tmp_path)
    by = {c.cluster: c for c in compute_budget(loaded.spec, loaded.collectors).clusters}
    b = loaded.spec.host_signals.budget
    assert by["k8s"].kube_state_metrics_series == 2 * (
        b.kube_state_metrics_series_per_node + b.pods_per_node * b.kube_state_metrics_series_per_pod
    )
    assert by["k8s"].cadvisor_series == 2 * b.pods_per_node * b.cadvisor_series_per_pod
    assert by["metal"].kube_state_metrics_series == by["metal"].cadvisor_series == 0
    off = parse_fleet(fleet(CLUSTERS, "host_signals: {cadvisor: false}\n"), "fleet.yaml", tmp_path)
    k8s_off = next(c for c in compute_budget(off.spec, off.collectors).clusters if c.cluster == "k8s")
    assert by["k8s"].head_series - k8s_off.head_series == by["k8s"].cadvisor_series + 5 * 2  # series + 2 targets' own


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ("host_signals: {scrape_interval: soon}\n", "scrape_interval"),
        ('host_signals: {filesystem_mountpoints: "/\\"}"}\n', "filesystem_mountpoints"),
        ("host_signals: {node_exporter_collectors: [cpu, 'rm -rf']}\n", "node_exporter_collectors"),
        ("host_signals: {cadvisor_scheme: ftp}\n", "cadvisor_scheme"),
        ("host_signals: {thresholds: {cpu_busy_ratio: 2}}\n", "cpu_busy_ratio"),
        ("host_signals: {budget: {pods_per_node: true}}\n", "pods_per_node"),
    ],
)
def test_hostile_host_signals_are_one_located_line(extra: str, words: str, tmp_path: Path) -> None:
    (tmp_path / "fleet.yaml").write_text(fleet(CLUSTERS, extra))
    done = gpuscope_here("generate", str(tmp_path / "fleet.yaml"), "-o", str(tmp_path / "out"))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and "fleet.yaml:" in lines[0], done.stderr


def test_the_docs_list_every_series_with_its_exporter_and_version() -> None:
    text = (ROOT / "docs" / "host-signals.md").read_text()
    marker = "<!-- series table: generated from gpuscope.fields.companion.markdown_table() -->\n"
    assert text.split(marker, 1)[1] == markdown_table(), "docs/host-signals.md: paste markdown_table() after the marker"


def test_host_signals_scrape_interval_applies_to_the_three_jobs_only(tmp_path: Path) -> None:
    bundle = build(tmp_path, "host_signals: {scrape_interval: 1m, kubelet_token_file: /dev/null}\n")
    k8s = jobs(bundle, "k8s")
    for name in ("node-exporter", "kube-state-metrics", "cadvisor"):
        assert (k8s[name]["scrape_interval"], k8s[name]["scrape_timeout"]) == ("1m", "10s"), name
    assert "scrape_interval" not in k8s["pushgateway"]
