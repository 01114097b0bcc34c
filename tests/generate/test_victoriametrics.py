"""The ``victoriametrics`` topology's bundle: every flag is one the real binaries accept, every URL names a component
that listens on it, the HA pair is deduplicated at the scrape interval, and the README says when to pick it."""

from __future__ import annotations

import functools
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.bundle import Bundle
from gpuscope.generate.compose import generate_bundle
from gpuscope.generate.prometheus import choose_store
from gpuscope.rules import COLD_TIER_REGEX
from gpuscope.spec.load import parse_fleet
from tests.support.prom import binary
from tests.support.specs import ONE, clusters, fleet

VM = "long_term_store: victoriametrics\n"
CLUSTER = VM + "victoriametrics: {cluster: {namespace: tsdb, vmstorage: 3, replication_factor: 2}}\n"
# Flags of the cluster components that the single-node binary lacks, as the cluster version documents them
# (docs.victoriametrics.com/Cluster-VictoriaMetrics): vminsert/vmselect -storageNode and vminsert's
# -replicationFactor, vmstorage's -vminsertAddr/-vmselectAddr. Every other flag is shared code and is checked
# against the Debian single-node binary.
CLUSTER_ONLY = {"-storageNode", "-replicationFactor", "-vminsertAddr", "-vmselectAddr"}


def bundle(text: str, tmp_path: Path) -> Bundle:
    loaded = parse_fleet(text, "fleet.yaml", tmp_path)
    return generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv)


@functools.cache
def flags_of(tool: str) -> frozenset[str]:
    """The flags ``<tool> -help`` documents (the Debian package's 1.79 binaries)."""
    out = subprocess.run([binary(tool), "-help"], capture_output=True, text=True, timeout=30, check=False)
    return frozenset(re.findall(r"^\s+(-[A-Za-z][\w.]*)", out.stdout + out.stderr, re.M))


def flag_names(args: list[str]) -> set[str]:
    return {a.split("=", 1)[0] for a in args}


def args_file(b: Bundle, path: str) -> list[str]:
    return b.files[path].split()


def test_single_node_and_vmalert_flags_are_real_and_dedup_at_the_scrape_interval(tmp_path: Path) -> None:
    b = bundle(fleet(ONE, VM + "scrape_interval: 30s\nscrape_timeout: 10s\nretention: {cold: 2y}"), tmp_path)
    server = args_file(b, "global/victoriametrics/single-node.args")
    vmalert = args_file(b, "global/victoriametrics/vmalert.args")
    assert flag_names(server) <= flags_of("victoria-metrics"), flag_names(server) - flags_of("victoria-metrics")
    assert flag_names(vmalert) <= flags_of("vmalert"), flag_names(vmalert) - flags_of("vmalert")
    assert {"-dedup.minScrapeInterval=30s", "-retentionPeriod=730d", "-httpListenAddr=:8428"} <= set(server)
    # The replica label goes on ingestion, so the pair's samples meet in one series.
    assert yaml.safe_load(b.files["global/victoriametrics/relabel.yml"]) == [
        {"action": "labeldrop", "regex": "replica"}
    ]
    prom = yaml.safe_load(b.files["clusters/gpu-a/prometheus-a.yml"])
    assert prom["global"]["external_labels"] == {"cluster": "gpu-a", "replica": "a"}
    [rw] = prom["remote_write"]
    assert rw["url"] == "http://victoria-metrics:8428/api/v1/write"
    assert "headers" not in rw and "authorization" not in rw  # X-Scope-OrgID and the token file are Mimir's
    assert rw["write_relabel_configs"] == [{"source_labels": ["__name__"], "regex": COLD_TIER_REGEX, "action": "keep"}]
    # vmalert sends to the same Alertmanagers as the clusters' Prometheus servers
    assert [a for a in vmalert if a.startswith("-notifier.url=")] == [
        "-notifier.url=http://alertmanager-0:9093",
        "-notifier.url=http://alertmanager-1:9093",
    ]


def test_vmalert_accepts_the_fleet_rules(tmp_path: Path) -> None:
    b = bundle(fleet(ONE, VM), tmp_path)
    rules = tmp_path / "fleet.yaml"
    rules.write_text(b.files["global/rules/gpuscope-fleet.yaml"])
    done = subprocess.run([binary("vmalert"), "-dryRun", f"-rule={rules}"], capture_output=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text("groups: [{name: x, rules: [{record: 'a:b', expr: 'sum(('}]}]\n")
    assert subprocess.run([binary("vmalert"), "-dryRun", f"-rule={broken}"], capture_output=True).returncode != 0


def _cluster_objects(b: Bundle) -> dict[str, dict[str, Any]]:
    base = "global/victoriametrics/cluster/"
    return {p.removeprefix(base): yaml.safe_load(t) for p, t in b.files.items() if p.startswith(base)}


def _container_args(obj: dict[str, Any]) -> list[str]:
    return [a for c in obj["spec"]["template"]["spec"]["containers"] for a in c["args"]]


def test_cluster_version_objects_use_real_flags_and_replicate(tmp_path: Path) -> None:
    b = bundle(fleet(ONE, CLUSTER), tmp_path)
    assert "global/victoriametrics/single-node.args" not in b.files
    objects = _cluster_objects(b)
    kinds = {(o["kind"], o["metadata"]["name"]) for n, o in objects.items() if n != "kustomization.yaml"}
    assert {("StatefulSet", "vmstorage"), ("Deployment", "vminsert"), ("Deployment", "vmselect")} <= kinds
    assert sorted(objects["kustomization.yaml"]["resources"]) == sorted(n for n in objects if n != "kustomization.yaml")
    shared = flags_of("victoria-metrics") | CLUSTER_ONLY
    for name in ("vmstorage-statefulset.yaml", "vminsert-deployment.yaml", "vmselect-deployment.yaml"):
        args = _container_args(objects[name])
        assert flag_names(args) <= shared, (name, flag_names(args) - shared)
    assert flag_names(_container_args(objects["vmalert-deployment.yaml"])) <= flags_of("vmalert")
    assert "-replicationFactor=2" in _container_args(objects["vminsert-deployment.yaml"])
    assert "-dedup.minScrapeInterval=15s" in _container_args(objects["vmstorage-statefulset.yaml"])
    assert "-dedup.minScrapeInterval=15s" in _container_args(objects["vmselect-deployment.yaml"])
    assert objects["vmstorage-statefulset.yaml"]["spec"]["replicas"] == 3
    for obj in objects.values():
        assert obj.get("metadata", {}).get("namespace", "tsdb") == "tsdb"


def _listeners(b: Bundle) -> set[str]:
    """host:port of every component the bundle runs: Services (and each StatefulSet pod behind a headless one),
    or the single node and vmalert at the ports their own flags listen on."""
    out: set[str] = set()
    objects = _cluster_objects(b)
    if objects:
        for obj in objects.values():
            if obj["kind"] != "Service":
                continue
            name, ns = obj["metadata"]["name"], obj["metadata"]["namespace"]
            ports = [p["port"] for p in obj["spec"]["ports"]]
            hosts = [f"{name}.{ns}.svc"]
            if obj["spec"].get("clusterIP") == "None":
                sts = next(
                    o for o in objects.values() if o["kind"] == "StatefulSet" and o["spec"]["serviceName"] == name
                )
                hosts = [f"{name}-{i}.{name}.{ns}.svc" for i in range(sts["spec"]["replicas"])]
                container = sts["spec"]["template"]["spec"]["containers"][0]
                assert sorted(ports) == sorted(p["containerPort"] for p in container["ports"])
            out |= {f"{h}:{p}" for h in hosts for p in ports}
        return out
    for path, host in (("single-node.args", "victoria-metrics"), ("vmalert.args", "vmalert")):
        [listen] = [a for a in args_file(b, f"global/victoriametrics/{path}") if a.startswith("-httpListenAddr=")]
        out.add(f"{host}{listen.split('=', 1)[1]}")
    return out


def _urls(b: Bundle) -> set[str]:
    """host:port of every URL the bundle points at, outside the clusters' own scrape targets."""
    text = "\n".join(
        t for p, t in b.files.items() if p.startswith(("global/", "grafana/provisioning/")) or "prometheus-" in p
    )
    return set(re.findall(r"https?://([A-Za-z0-9.\-]+:[0-9]+)", text)) | {
        n for a in re.findall(r"-storageNode=(\S+)", text) for n in a.split(",")
    }


@pytest.mark.parametrize("extra", [VM, CLUSTER], ids=["single-node", "cluster"])
def test_every_url_names_a_component_that_listens_on_it(tmp_path: Path, extra: str) -> None:
    b = bundle(fleet(ONE, extra), tmp_path)
    listeners = _listeners(b)
    alertmanagers = {"alertmanager-0:9093", "alertmanager-1:9093"}  # the clusters' own, as in their configs
    cluster_prometheus = {"prometheus-a:9090", "prometheus-b:9090"}  # Grafana's per-cluster data sources
    urls = _urls(b)
    assert urls and not (urls - listeners - alertmanagers - cluster_prometheus), urls - listeners
    store = "victoria-metrics:8428" if extra == VM else "vminsert.tsdb.svc:8480"
    assert store in urls and store in listeners


def test_grafana_reads_the_store_through_vmselect(tmp_path: Path) -> None:
    b = bundle(fleet(ONE, CLUSTER), tmp_path)
    sources = yaml.safe_load(b.files["grafana/provisioning/datasources/prometheus.yaml"])["datasources"]
    default = next(s for s in sources if s["isDefault"])
    assert default["url"] == "http://vmselect.tsdb.svc:8481/select/0/prometheus"
    assert default["type"] == "prometheus" and "secureJsonData" not in default


def _pipeline_rows(b: Bundle) -> dict[str, list[str]]:
    board = json.loads(b.files["grafana/dashboards/pipeline.json"])
    rows: dict[str, list[str]] = {}
    current = ""
    for panel in board["panels"]:
        if panel["type"] == "row":
            current = panel["title"]
            rows[current] = []
        else:
            rows[current].append(panel["title"])
    return rows


@pytest.mark.parametrize(
    ("store", "row", "panel"),
    [
        (
            "victoriametrics",
            "Prometheus → long-term store (VictoriaMetrics)",
            "VictoriaMetrics: samples deduplicated/s",
        ),
        ("mimir", "Prometheus → long-term store (Mimir)", "remote_write lag"),
        ("thanos", "Prometheus → long-term store (Thanos sidecar)", "Blocks uploaded in range"),
        ("federation", "Clusters → global Prometheus (federation)", "Federation targets up"),
    ],
)
def test_the_pipeline_page_has_a_long_term_row_for_every_store(
    tmp_path: Path, store: str, row: str, panel: str
) -> None:
    rows = _pipeline_rows(bundle(fleet(ONE, f"long_term_store: {store}\n"), tmp_path))
    assert panel in rows[row]
    assert [r for r in rows if "long-term" in r or "global" in r] == [row]


def test_readme_matrix_and_auto_never_picks_it(tmp_path: Path) -> None:
    readme = bundle(fleet(ONE, VM), tmp_path).files["README.md"]
    assert "| **victoriametrics** (chosen) |" in readme and "| mimir |" in readme
    assert "victoria-metrics $(cat global/victoriametrics/single-node.args)" in readme
    for n in (1, 7, 12):
        spec = parse_fleet(fleet(clusters(n)), "fleet.yaml", tmp_path).spec
        assert choose_store(spec)[0] != "victoriametrics"
