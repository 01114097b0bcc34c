"""The exporter's API access in the generated manifests: RBAC only when pod labels/UID or DRA are on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.errors import SpecError
from gpuscope.generate.compose import generate_bundle
from gpuscope.spec.load import parse_fleet
from tests.support.specs import ONE, fleet

K8S = (
    ONE
    + """
  - name: gpu-k
    kind: kubernetes
    node_groups:
      - {name: h100, gpu_model: h100, nodes: 2}
"""
)


def manifests(exporter: str, tmp_path: Path) -> dict[str, Any]:
    loaded = parse_fleet(fleet(K8S, f"exporter: {exporter}"), "fleet.yaml", tmp_path)
    bundle = generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv)
    prefix = "kubernetes/gpu-k/"
    return {p[len(prefix) :]: yaml.safe_load(c) for p, c in bundle.files.items() if p.startswith(prefix)}


def env(objects: dict[str, Any]) -> dict[str, str]:
    container = objects["daemonset.yaml"]["spec"]["template"]["spec"]["containers"][0]
    return {e["name"]: e.get("value", "") for e in container["env"]}


def test_no_api_access_without_pod_metadata(tmp_path: Path) -> None:
    objects = manifests("{}", tmp_path)
    assert "clusterrole.yaml" not in objects and "clusterrolebinding.yaml" not in objects
    assert objects["serviceaccount.yaml"]["automountServiceAccountToken"] is False
    assert not {k for k in env(objects) if "POD_LABELS" in k or "POD_UID" in k or "DRA" in k}


def test_pod_labels_grant_pods_only_and_set_dcgm_exporter_env(tmp_path: Path) -> None:
    allow = "['^team$', 'app\\.kubernetes\\.io/']"
    objects = manifests(f"{{pod_labels: true, pod_uid: true, pod_label_allowlist: {allow}}}", tmp_path)
    role, binding = objects["clusterrole.yaml"], objects["clusterrolebinding.yaml"]
    assert role["rules"] == [{"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]}]
    assert binding["roleRef"]["name"] == role["metadata"]["name"]
    account = objects["serviceaccount.yaml"]["metadata"]
    assert binding["subjects"] == [
        {"kind": "ServiceAccount", "name": account["name"], "namespace": account["namespace"]}
    ]
    assert objects["serviceaccount.yaml"]["automountServiceAccountToken"] is True
    assert {"clusterrole.yaml", "clusterrolebinding.yaml"} <= set(objects["kustomization.yaml"]["resources"])
    e = env(objects)
    assert e["DCGM_EXPORTER_KUBERNETES_ENABLE_POD_LABELS"] == "true"
    assert e["DCGM_EXPORTER_KUBERNETES_ENABLE_POD_UID"] == "true"
    assert e["DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX"] == "^team$,app\\.kubernetes\\.io/"
    # pod_uid on: the default drop of pod_uid at scrape goes, or the label would never reach Prometheus.
    assert "metricRelabelings" not in objects["servicemonitor.yaml"]["spec"]["endpoints"][0]


def test_dra_grants_resourceslices(tmp_path: Path) -> None:
    objects = manifests("{dra: true}", tmp_path)
    assert objects["clusterrole.yaml"]["rules"] == [
        {"apiGroups": ["resource.k8s.io"], "resources": ["resourceslices"], "verbs": ["get", "list", "watch"]}
    ]
    assert env(objects)["KUBERNETES_ENABLE_DRA"] == "true"
    shared = manifests("{dra: true, virtual_gpus: true}", tmp_path)  # the split's pod watch beside the slices
    assert [r["resources"] for r in shared["clusterrole.yaml"]["rules"]] == [["pods"], ["resourceslices"]]
    assert env(shared)["KUBERNETES_ENABLE_DRA"] == env(shared)["KUBERNETES_VIRTUAL_GPUS"] == "true"


@pytest.mark.parametrize(
    ("exporter", "message"),
    [
        ("{pod_label_allowlist: ['(team']}", "pattern '(team' is not a regular expression"),
        ("{pod_label_allowlist: ['a,b']}", "pattern 'a,b': write one non-empty pattern per entry, without commas"),
        ("{pod_uid: true, drop_labels: [pod_uid]}", "pod_uid is on but drop_labels drops pod_uid at scrape"),
        ("{workload_labels: labels, pod_labels: true}", "list the labels you need in pod_label_allowlist"),
        ("{pod_group_labels: [team]}", "pod_group_labels needs pod_labels: true"),
    ],
)
def test_bad_attribution_settings(exporter: str, message: str, tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="exporter") as info:
        parse_fleet(fleet(K8S, f"exporter: {exporter}"), "fleet.yaml", tmp_path)
    assert message in str(info.value)


@pytest.mark.parametrize("mode", ["labels", "info"])
def test_the_per_pod_split_of_shared_gpus_grants_pods_and_sees_host_processes(mode: str, tmp_path: Path) -> None:
    # The exporter splits in info mode too (a dcgm-exporter command line has no mode and lands in info).
    objects = manifests(f"{{virtual_gpus: true, workload_labels: {mode}}}", tmp_path)
    assert objects["clusterrole.yaml"]["rules"] == [
        {"apiGroups": [""], "resources": ["pods"], "verbs": ["get", "list", "watch"]}
    ]
    assert objects["serviceaccount.yaml"]["automountServiceAccountToken"] is True
    assert objects["daemonset.yaml"]["spec"]["template"]["spec"]["hostPID"] is True


def test_no_split_without_attribution(tmp_path: Path) -> None:
    off = manifests("{virtual_gpus: true, workload_labels: 'off'}", tmp_path)  # the kubelet is not asked: no split
    assert "clusterrole.yaml" not in off and "hostPID" not in off["daemonset.yaml"]["spec"]["template"]["spec"]
