"""Generated bundles checked by the real tools: promtool, amtool, and structural Kubernetes checks."""

from __future__ import annotations

import contextlib
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.bundle import write_bundle
from gpuscope.fields.collectors import parse_collectors
from gpuscope.generate.compose import generate_bundle
from gpuscope.generate.prometheus import choose_store
from gpuscope.rules import COLD_TIER_REGEX
from gpuscope.spec.load import LoadedSpec, parse_fleet
from tests.support.cli import gpuscope_here
from tests.support.prom import binary
from tests.support.specs import ONE, clusters, fleet

TWO = (
    ONE
    + """
  - name: gpu-k
    kind: kubernetes
    pod_restarts_per_hour: 10
    node_groups:
      - {name: h100, gpu_model: h100, nodes: 4, mig: {layout: '3g.40gb,4g.40gb', nodes: 1}}
      - {name: l40s, gpu_model: l40s, nodes: 2}
"""
)


def load(text: str, tmp_path: Path) -> LoadedSpec:
    return parse_fleet(text, "fleet.yaml", tmp_path)


def build(text: str, tmp_path: Path) -> Path:
    loaded = load(text, tmp_path)
    out = tmp_path / "bundle"
    write_bundle(generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv), str(out))
    return out


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, check=False)


def check_with_promtool(out: Path) -> None:
    configs = sorted(out.glob("clusters/*/prometheus-*.yml")) + sorted(out.glob("global/prometheus.yml"))
    assert configs
    for config in configs:
        result = run(binary("promtool"), "check", "config", str(config))
        assert result.returncode == 0, f"{config}: {result.stdout}{result.stderr}"
    rules = sorted(out.glob("**/rules/*.yaml"))
    result = run(binary("promtool"), "check", "rules", *map(str, rules))
    assert result.returncode == 0, result.stdout + result.stderr


def check_alertmanager(out: Path) -> None:
    config = str(out / "alertmanager/alertmanager.yml")
    result = run(binary("amtool"), "check-config", config)
    assert result.returncode == 0, result.stdout + result.stderr
    for owner in ("infra", "platform", "workload"):
        for severity in ("page", "ticket"):
            routed = run(
                binary("amtool"),
                "config",
                "routes",
                "test",
                f"--config.file={config}",
                f"--verify.receivers={owner}-{severity}",
                f"owner={owner}",
                f"severity={severity}",
                "alertname=GPUFellOffBus",
                "cluster=gpu-a",
            )
            assert routed.returncode == 0, routed.stdout + routed.stderr
    unowned = run(
        binary("amtool"),
        "config",
        "routes",
        "test",
        f"--config.file={config}",
        "--verify.receivers=platform-ticket",
        "alertname=SomebodyElses",
    )
    assert unowned.returncode == 0, unowned.stdout


@pytest.mark.parametrize(
    ("extra", "store"),
    [("", "federation"), ("long_term_store: thanos", "thanos"), ("long_term_store: mimir", "mimir")],
)
def test_every_store_variant_passes_promtool_and_amtool(extra: str, store: str, tmp_path: Path) -> None:
    token = tmp_path / "token"
    token.write_text("secret\n")
    out = build(fleet(TWO, f"{extra}\nremote_write_token_file: {token}"), tmp_path)
    check_with_promtool(out)
    check_alertmanager(out)
    readme = (out / "README.md").read_text()
    assert f"## Long-term store: {store}" in readme
    if store == "federation":
        federate = yaml.safe_load((out / "global/prometheus.yml").read_text())
        assert federate["scrape_configs"][0]["params"]["match[]"][0] == f'{{__name__=~"{COLD_TIER_REGEX}"}}'
    if store == "thanos":
        assert "--query.replica-label=replica" in (out / "global/thanos/query.args").read_text()
    if store == "mimir":
        overrides = yaml.safe_load((out / "global/mimir/runtime-overrides.yaml").read_text())["overrides"]
        assert set(overrides) == {"gpu-a", "gpu-k"} and overrides["gpu-a"]["accept_ha_samples"] is True
        mimir = yaml.safe_load((out / "global/mimir/mimir.yaml").read_text())
        assert mimir["tenant_federation"] == {"enabled": True}  # the global data source reads both tenants
        assert "Mimir 2.17 or newer" in readme and "tenant_federation.enabled: true" in readme


def test_replicas_differ_only_by_replica_label(tmp_path: Path) -> None:
    out = build(fleet(TWO, "long_term_store: mimir\nremote_write_token_file: null"), tmp_path)
    a = yaml.safe_load((out / "clusters/gpu-a/prometheus-a.yml").read_text())
    b = yaml.safe_load((out / "clusters/gpu-a/prometheus-b.yml").read_text())
    assert a["global"]["external_labels"] == {"cluster": "gpu-a", "__replica__": "a"}
    b["global"]["external_labels"]["__replica__"] = "a"
    assert a == b
    assert a["alerting"]["alert_relabel_configs"] == [{"action": "labeldrop", "regex": "__replica__"}]
    (rw,) = a["remote_write"]
    assert rw["write_relabel_configs"] == [{"source_labels": ["__name__"], "regex": COLD_TIER_REGEX, "action": "keep"}]
    assert rw["headers"] == {"X-Scope-OrgID": "gpu-a"}
    dcgm = next(j for j in a["scrape_configs"] if j["job_name"] == "dcgm-exporter")
    assert dcgm["sample_limit"] >= 239 * 1.5 and dcgm["label_limit"] == 30
    pushgateway = next(j for j in a["scrape_configs"] if j["job_name"] == "pushgateway")
    assert pushgateway["honor_labels"] is True
    full = build(fleet(TWO, "long_term_store: mimir\nretention: {cold_tier: full}"), tmp_path / "full")
    assert (
        "write_relabel_configs"
        not in yaml.safe_load((full / "clusters/gpu-a/prometheus-a.yml").read_text())["remote_write"][0]
    )


def test_auto_store_follows_the_decision_matrix(tmp_path: Path) -> None:
    def store(text: str) -> str:
        return choose_store(load(text, tmp_path).spec)[0]

    assert store(fleet(clusters(1))) == "federation"
    assert store(fleet(clusters(6))) == "thanos"
    assert store(fleet(clusters(12))) == "mimir"
    assert store(fleet(clusters(2), "tenants: [{name: team-a, clusters: [c0]}]")) == "mimir"


def _docs(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(path.read_text())
    assert doc["apiVersion"] and doc["kind"] and doc["metadata"]["name"], path
    return doc


def test_kubernetes_manifests_fit_together(tmp_path: Path) -> None:
    out = build(fleet(TWO, "kube_prometheus_release: kps"), tmp_path)
    base = out / "kubernetes/gpu-k"
    assert not (out / "kubernetes/gpu-a").exists()  # bare metal: no manifests
    kustomization = yaml.safe_load((base / "kustomization.yaml").read_text())
    for resource in kustomization["resources"]:
        assert (base / resource).exists(), resource
    ds, svc, sm = _docs(base / "daemonset.yaml"), _docs(base / "service.yaml"), _docs(base / "servicemonitor.yaml")
    pod_labels = ds["spec"]["template"]["metadata"]["labels"]
    assert ds["spec"]["selector"]["matchLabels"].items() <= pod_labels.items()
    assert svc["spec"]["selector"].items() <= pod_labels.items()
    assert sm["spec"]["selector"]["matchLabels"].items() <= svc["metadata"]["labels"].items()
    assert sm["metadata"]["labels"]["release"] == "kps"
    (endpoint,) = sm["spec"]["endpoints"]
    assert endpoint["port"] in {p["name"] for p in svc["spec"]["ports"]}
    assert endpoint["honorLabels"] is True and endpoint["interval"] == "15s"
    container = ds["spec"]["template"]["spec"]["containers"][0]
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"
    env = {e["name"]: e for e in container["env"]}
    assert env["NODE_NAME"]["valueFrom"]["fieldRef"]["fieldPath"] == "spec.nodeName"
    mounts = {m["mountPath"] for m in container["volumeMounts"]}
    assert "/var/lib/kubelet/pod-resources" in mounts
    csv = _docs(base / "configmap-collectors.yaml")["data"]["collectors.csv"]
    assert len(parse_collectors(csv, "configmap").metrics) == 25
    rule = _docs(base / "prometheusrule.yaml")
    spec_file = tmp_path / "prometheusrule-spec.yaml"
    spec_file.write_text(yaml.safe_dump(rule["spec"]))
    result = run(binary("promtool"), "check", "rules", str(spec_file))
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(
    ("exporter", "remote", "capabilities"),
    [
        ("{}", None, ["SYS_ADMIN"]),
        ("{backend: dcgm}", None, ["SYS_ADMIN"]),
        ("{backend: dcgm, dcgm_hostengine: standalone}", "$(NODE_IP):5555", None),
    ],
)
def test_daemonset_backend_and_dcgm_host_engine(
    tmp_path: Path, exporter: str, remote: str | None, capabilities: list[str] | None
) -> None:
    out = build(fleet(TWO, f"exporter: {exporter}"), tmp_path)
    container = _docs(out / "kubernetes/gpu-k/daemonset.yaml")["spec"]["template"]["spec"]["containers"][0]
    env = {e["name"]: e for e in container["env"]}
    assert env["GPUSCOPE_BACKEND"]["value"] == ("nvml" if exporter == "{}" else "dcgm")
    assert env.get("DCGM_REMOTE_HOSTENGINE_INFO", {}).get("value") == remote
    if remote:
        assert env["NODE_IP"]["valueFrom"]["fieldRef"]["fieldPath"] == "status.hostIP"
    assert container["securityContext"]["capabilities"].get("add") == capabilities


def test_deterministic_and_rewrites_only_what_changed(tmp_path: Path) -> None:
    text = fleet(TWO)
    a = generate_bundle(*_args(load(text, tmp_path)))
    b = generate_bundle(*_args(load(text, tmp_path)))
    assert a.files == b.files
    out = tmp_path / "out"
    assert len(write_bundle(a, str(out))) == len(a.files)
    assert write_bundle(b, str(out)) == []
    modes = {(out / rel).stat().st_mode & 0o777 for rel in a.files}
    assert modes == {0o644}, "Grafana and Prometheus must be able to read a copied bundle"
    (out / "notes.txt").write_text("mine")
    smaller = generate_bundle(*_args(load(fleet(ONE), tmp_path)))
    write_bundle(smaller, str(out))
    assert not (out / "clusters/gpu-k").exists() or not any((out / "clusters/gpu-k").rglob("*.yml"))
    assert (out / "notes.txt").read_text() == "mine"  # files we did not generate are left alone


def _args(loaded: LoadedSpec) -> tuple[Any, ...]:
    return loaded.spec, loaded.collectors, loaded.collectors_csv


def gpuscope(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The documented commands, run in ``cwd`` through the entry point in this process (each new process spent a
    second importing gpuscope; ``tests/test_cli.py`` runs the real one)."""
    with contextlib.chdir(cwd):
        return gpuscope_here(*args)


def test_init_generate_budget_as_documented(tmp_path: Path) -> None:
    assert gpuscope("init", cwd=tmp_path).returncode == 0
    again = gpuscope("init", cwd=tmp_path)
    assert again.returncode == 2 and "already exists; pass --force" in again.stderr
    generated = gpuscope("generate", "fleet.yaml", "-o", "bundle", cwd=tmp_path)
    assert generated.returncode == 0, generated.stderr
    check_with_promtool(tmp_path / "bundle")
    check_alertmanager(tmp_path / "bundle")
    report = json.loads(gpuscope("budget", "fleet.yaml", "--json", cwd=tmp_path).stdout)
    assert {c["cluster"] for c in report["clusters"]} == {"gpu-east", "hpc-west"}
    table = gpuscope("budget", "fleet.yaml", cwd=tmp_path).stdout
    assert "gpu-east" in table and "head series" in table
    (tmp_path / "fleet.yaml").write_text("name: x\nclusters: [{name: a}]\n")
    broken = gpuscope("generate", "fleet.yaml", cwd=tmp_path)
    assert broken.returncode == 2
    assert broken.stderr == "gpuscope: error: fleet.yaml:1:1: missing required key 'receivers'\n"
