"""The bundle's remediation pieces: Alertmanager's routes (checked by amtool), the policies (read by the
remediator's own loader), the Kubernetes objects and their RBAC, the Slurm unit and scripts, and the spec's
mistakes as located lines."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.bundle import write_bundle
from gpuscope.errors import SpecError
from gpuscope.generate.compose import generate_bundle
from gpuscope.remediate.policy import TAINT_KEY, load_policy, parse_policy
from gpuscope.runner.binaries import find_binary
from gpuscope.spec.fleet import FleetSpec
from gpuscope.spec.load import parse_fleet
from tests.support.bundle_links import Files, broken_links, links_of, replace_in
from tests.support.specs import fleet

CLUSTERS = """
  - name: gpu-k
    kind: kubernetes
    node_groups: [{name: h100, gpu_model: h100, nodes: 40}]
  - name: hpc
    kind: baremetal
    slurm: {}
    node_groups: [{name: a100, gpu_model: a100, nodes: 16}]
  - name: lab
    kind: baremetal
    node_groups: [{name: l40s, gpu_model: l40s, nodes: 2}]
"""
REMEDIATION = "remediation: {return_after: 30m, max_nodes: 3}"


def build(extra: str, tmp_path: Path) -> tuple[Files, FleetSpec, Path]:
    loaded = parse_fleet(fleet(CLUSTERS, extra), "fleet.yaml", tmp_path)
    bundle = generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv)
    out = tmp_path / "bundle"
    write_bundle(bundle, str(out))
    return bundle.files, loaded.spec, out


def routes(config: Path, *labels: str) -> str:
    done = subprocess.run(
        [find_binary("amtool"), "config", "routes", "test", f"--config.file={config}", *labels],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
    )
    return done.stdout.strip()


def test_pages_of_acting_clusters_reach_their_remediator_and_still_page(tmp_path: Path) -> None:
    files, spec, out = build(REMEDIATION, tmp_path)
    config = out / "alertmanager/alertmanager.yml"
    checked = subprocess.run([find_binary("amtool"), "check-config", str(config)], capture_output=True, check=False)
    assert checked.returncode == 0, checked.stdout
    page = ("alertname=GPUFellOffBus", "severity=page", "owner=infra")
    assert routes(config, *page, "cluster=hpc") == "gpuscope-remediate-hpc,infra-page"
    assert routes(config, *page, "cluster=gpu-k") == "gpuscope-remediate-gpu-k,infra-page"
    assert routes(config, *page, "cluster=lab") == "infra-page"  # no scheduler to act on
    ticket = ("alertname=GPUFabricDegraded", "severity=ticket", "owner=infra", "cluster=hpc")
    assert routes(config, *ticket) == "infra-ticket"  # tickets never reach it
    assert routes(config, "alertname=GPUThermalThrottling", "severity=page", "owner=infra", "cluster=hpc") == (
        "infra-page"
    )
    hooks = {
        r["name"]: r["webhook_configs"][0]
        for r in yaml.safe_load(config.read_text())["receivers"]
        if "remediate" in r["name"]
    }
    assert hooks["gpuscope-remediate-gpu-k"]["url"] == "http://gpuscope-remediate.gpu-monitoring.svc:9450/webhook"
    assert hooks["gpuscope-remediate-hpc"]["send_resolved"] is True  # a resolution starts the hold of good health
    assert hooks["gpuscope-remediate-hpc"]["http_config"]["authorization"]["type"] == "Bearer"
    assert broken_links(files, spec) == []
    assert {link.protocol for link in links_of(files, spec)} >= {"remediate_webhook"}


def test_a_route_to_a_remediator_that_wants_a_token_must_send_it(tmp_path: Path) -> None:
    files, spec, _ = build(REMEDIATION, tmp_path)
    broken = yaml.safe_load(files["alertmanager/alertmanager.yml"])
    for receiver in broken["receivers"]:
        for hook in receiver.get("webhook_configs", []):
            hook.pop("http_config", None)
    edited = {**files, "alertmanager/alertmanager.yml": yaml.safe_dump(broken)}
    assert any("needs the Authorization header" in p for p in broken_links(edited, spec))
    moved = replace_in(files, "alertmanager/alertmanager.yml", "svc:9450", "svc:9451")
    assert any(
        "gpuscope-remediate.gpu-monitoring.svc:9451/webhook names no generated listener" in p
        for p in broken_links(moved, spec)
    )


def test_the_policies_are_the_remediators_own(tmp_path: Path) -> None:
    files, _, out = build(REMEDIATION, tmp_path)
    fleet_policy = load_policy(str(out / "remediation/policy.yaml"))
    assert [(c.name, c.kind, c.nodes) for c in fleet_policy.clusters] == [
        ("gpu-k", "kubernetes", 40),
        ("hpc", "slurm", 16),
    ]
    assert fleet_policy.return_to_service.after == "30m"
    assert fleet_policy.clusters[0].budget.max_nodes == 3 and fleet_policy.clusters[0].budget.max_percent is None
    slurm = load_policy(str(out / "slurm/hpc/policy.yaml"))
    assert [c.name for c in slurm.clusters] == ["hpc"]
    configmap = yaml.safe_load(files["kubernetes/gpu-k/remediate/configmap-policy.yaml"])
    assert [c.name for c in parse_policy(configmap["data"]["policy.yaml"]).clusters] == ["gpu-k"]


def _objects(files: Files, cluster: str) -> dict[str, Any]:
    base = f"kubernetes/{cluster}/remediate/"
    return {p.removeprefix(base): yaml.safe_load(t) for p, t in files.items() if p.startswith(base)}


def test_the_kubernetes_objects_dry_run_by_default_with_the_least_rbac(tmp_path: Path) -> None:
    files, _, _ = build(REMEDIATION, tmp_path)
    objects = _objects(files, "gpu-k")
    assert sorted(objects["kustomization.yaml"]["resources"]) == sorted(set(objects) - {"kustomization.yaml"})
    pod = objects["deployment.yaml"]["spec"]["template"]["spec"]
    command = pod["containers"][0]["command"]
    assert command[:2] == ["gpuscope", "remediate"] and "--dry-run" in command and "--apply" not in command
    assert objects["deployment.yaml"]["spec"]["replicas"] == 1
    assert {"key": TAINT_KEY, "operator": "Exists"} in pod["tolerations"]
    rules = objects["clusterrole.yaml"]["rules"]
    assert {(r["resources"][0], tuple(r["verbs"])) for r in rules} == {
        ("nodes", ("get", "list", "patch")),
        ("nodes/status", ("patch",)),
    }
    role = {
        (r["resources"][0], tuple(r["verbs"]), tuple(r.get("resourceNames", ()))) for r in objects["role.yaml"]["rules"]
    }
    assert role == {
        ("events", ("create",), ()),
        ("leases", ("create",), ()),
        ("leases", ("get", "update"), ("gpuscope-remediate",)),
    }
    # The exporter keeps running on a node gpuscope tainted: it must see the GPU recover.
    daemonset = yaml.safe_load(files["kubernetes/gpu-k/daemonset.yaml"])
    assert {"key": TAINT_KEY, "operator": "Exists"} in daemonset["spec"]["template"]["spec"]["tolerations"]
    applied, _, _ = build("remediation: {apply: true}", tmp_path / "apply")
    command = _objects(applied, "gpu-k")["deployment.yaml"]["spec"]["template"]["spec"]["containers"][0]["command"]
    assert "--apply" in command


def test_a_slurm_cluster_gets_its_scripts_and_unit(tmp_path: Path) -> None:
    files, _, out = build(REMEDIATION, tmp_path)
    unit = files["slurm/hpc/gpuscope-remediate.service"]
    assert "User=slurm" in unit and "--dry-run" in unit and "--policy=/etc/gpuscope/remediate/hpc/policy.yaml" in unit
    for script in ("prolog.sh", "epilog.sh"):
        text = files[f"slurm/hpc/{script}"]
        assert "dir='/run/gpuscope/hpc-jobs'" in text and text.rstrip().endswith("exit 0")
        assert subprocess.run(["sh", "-n", str(out / "slurm/hpc" / script)], check=False).returncode == 0
    assert "--hpc-job-mapping-dir /run/gpuscope/hpc-jobs" in files["slurm/hpc/README.md"]
    if shutil.which("systemd-analyze"):
        done = subprocess.run(
            ["systemd-analyze", "verify", str(out / "slurm/hpc/gpuscope-remediate.service")],
            capture_output=True,
            text=True,
            check=False,
        )
        # Only the installed gpuscope binary is missing here; every directive and value is systemd's.
        assert [line for line in done.stderr.splitlines() if "is not executable" not in line] == []
    # Without remediation: the scripts, no unit, no route.
    plain, _, plain_out = build("", tmp_path / "plain")
    assert {p for p in plain if p.startswith("slurm/")} == {
        "slurm/hpc/prolog.sh",
        "slurm/hpc/epilog.sh",
        "slurm/hpc/README.md",
    }
    assert not [p for p in plain if "remediat" in p]
    assert "gpuscope-remediate" not in (plain_out / "alertmanager/alertmanager.yml").read_text()


G = "node_groups: [{name: g, gpu_model: a100, nodes: 1}]"
BARE = f"  - {{name: b, kind: baremetal, {G}}}"


@pytest.mark.parametrize(
    ("clusters", "extra", "where", "message"),
    [
        (f"  - {{name: k, kind: kubernetes, slurm: {{}}, {G}}}", "", "3:5", "slurm: is for kind: baremetal clusters"),
        (
            f"  - {{name: b, kind: baremetal, slurm: {{job_mapping_dir: run/jobs}}, {G}}}",
            "",
            "3:57",
            "an absolute path",
        ),
        (
            f"  - {{name: b, kind: baremetal, slurm: {{job_mapping_dir: '/run/../etc'}}, {G}}}",
            "",
            "3:57",
            "an absolute path",
        ),
        (BARE, "remediation: {max_nodes: null, max_percent: null}", "", "set max_nodes or max_percent"),
        (BARE, "remediation: {apply: yes please}", "", "remediation.apply"),
        (BARE, "remediation: {urls: {b: 'ftp://x'}}", "", "an http:// or https:// URL"),
    ],
)
def test_spec_mistakes_are_located(clusters: str, extra: str, where: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        parse_fleet(fleet(clusters, extra), "fleet.yaml", tmp_path)
    assert message in str(caught.value), str(caught.value)
    if where:
        assert str(caught.value).startswith(f"fleet.yaml:{where}:"), str(caught.value)
