"""The exporter's Kubernetes API access: attribution env vars, and RBAC only when the attribution reads the API.

Pod labels and pod UIDs (and the UIDs of the per-pod split of shared GPUs) come from a pod watch per node
(``get``/``list``/``watch`` on ``pods``, cluster-wide because pods of every namespace run on a node; the field
selector ``spec.nodeName`` limits what is sent, not what is allowed); DRA reads the node's ResourceSlices
(cluster-scoped). Without these options the exporter needs no API access at all: no role, and no service account
token mounted.
"""

from __future__ import annotations

from typing import Any

from gpuscope.spec.fleet import Cluster, FleetSpec

APP = "gpuscope-exporter"
ROLE_FILES = ("clusterrole.yaml", "clusterrolebinding.yaml")
_VERBS = ["get", "list", "watch"]


def per_pod_split(spec: FleetSpec) -> bool:
    """Whether the exporter splits shared GPUs' GPU_UTIL/FB_USED per pod (``--kubernetes-virtual-gpus`` in ``info``
    or ``labels`` mode, as dcgm-exporter): it then watches the node's pods for their UIDs and reads the host's
    ``/proc`` (``kubernetes_processes.host_pid``); without them every sharing pod's series would read 0."""
    return spec.exporter.virtual_gpus and spec.exporter.workload_labels != "off"


def reads_api_server(spec: FleetSpec) -> bool:
    """Whether the exporter reads the API server (its service account token and RBAC): pod labels/UID, DRA, or
    the per-pod split's pod UIDs."""
    return spec.exporter.api_server or per_pod_split(spec)


def attribution_env(spec: FleetSpec) -> list[dict[str, Any]]:
    """dcgm-exporter's env vars for the attribution options that are on."""
    e = spec.exporter
    env: list[dict[str, Any]] = []
    if e.pod_labels:
        env.append({"name": "DCGM_EXPORTER_KUBERNETES_ENABLE_POD_LABELS", "value": "true"})
    if e.pod_labels and e.pod_label_allowlist:
        env.append(
            {"name": "DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX", "value": ",".join(e.pod_label_allowlist)}
        )
    if e.pod_uid:
        env.append({"name": "DCGM_EXPORTER_KUBERNETES_ENABLE_POD_UID", "value": "true"})
    if e.virtual_gpus:
        env.append({"name": "KUBERNETES_VIRTUAL_GPUS", "value": "true"})
    if e.dra:
        env.append({"name": "KUBERNETES_ENABLE_DRA", "value": "true"})
    return env


def _rules(spec: FleetSpec) -> list[dict[str, Any]]:
    rules = []
    if spec.exporter.pod_labels or spec.exporter.pod_uid or per_pod_split(spec):
        rules.append({"apiGroups": [""], "resources": ["pods"], "verbs": list(_VERBS)})
    if spec.exporter.dra:
        rules.append({"apiGroups": ["resource.k8s.io"], "resources": ["resourceslices"], "verbs": list(_VERBS)})
    return rules


def rbac_files(spec: FleetSpec, cluster: Cluster, base: str) -> dict[str, dict[str, Any]]:
    """``clusterrole.yaml`` and ``clusterrolebinding.yaml`` under ``base``, or nothing when no API access is needed."""
    rules = _rules(spec)
    if not rules:
        return {}
    name = f"{APP}-{cluster.namespace}"  # cluster-scoped: one per namespace the exporter is installed in
    labels = {"app.kubernetes.io/name": APP, "app.kubernetes.io/part-of": "gpuscope"}
    role = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": name, "labels": labels},
        "rules": rules,
    }
    binding = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRoleBinding",
        "metadata": {"name": name, "labels": labels},
        "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": name},
        "subjects": [{"kind": "ServiceAccount", "name": APP, "namespace": cluster.namespace}],
    }
    return {f"{base}/{ROLE_FILES[0]}": role, f"{base}/{ROLE_FILES[1]}": binding}
