"""Kubernetes manifests for one cluster: the exporter DaemonSet and what Prometheus Operator needs to scrape it.

The DaemonSet reads the kubelet's pod-resources socket (read-only hostPath) for workload attribution, gets its
host label from ``NODE_NAME``, and is probed on ``/health`` (which, unlike dcgm-exporter's, reports a hung or
unavailable GPU backend). With ``exporter.backend: dcgm`` it reads GPUs through DCGM, as the GPU Operator runs
dcgm-exporter: an engine embedded in the exporter, or the operator's standalone ``nvidia-dcgm`` host engine on the
node's port 5555 (``DCGM_REMOTE_HOSTENGINE_INFO``). The ServiceMonitor scrapes every 15 s with
``honorLabels: true`` — otherwise the exporter pod's own namespace/pod labels would rename the workload's to
``exported_*`` — and sets ``job="dcgm-exporter"`` so rules and dashboards match.
"""

from __future__ import annotations

from typing import Any

from gpuscope.durations import prometheus_seconds
from gpuscope.generate.budget_report import ClusterBudget
from gpuscope.generate.kubernetes_processes import host_pid, process_env, process_mounts
from gpuscope.generate.kubernetes_rbac import ROLE_FILES, attribution_env, reads_api_server
from gpuscope.remediate.policy import TAINT_KEY
from gpuscope.ruleconfig.config import EXPORTER_JOB
from gpuscope.spec.fleet import LABEL_LIMIT, Cluster, FleetSpec

APP = "gpuscope-exporter"
SELECTOR = {"app.kubernetes.io/name": APP}
COLLECTORS_PATH = "/etc/gpuscope/collectors.csv"
DCGM_HOSTENGINE_PORT = 5555


def _labels(spec: FleetSpec) -> dict[str, str]:
    labels = {**SELECTOR, "app.kubernetes.io/part-of": "gpuscope"}
    if spec.kube_prometheus_release:
        labels["release"] = spec.kube_prometheus_release
    return labels


def _meta(name: str, cluster: Cluster, spec: FleetSpec) -> dict[str, Any]:
    return {"name": name, "namespace": cluster.namespace, "labels": _labels(spec)}


def _env(spec: FleetSpec) -> list[dict[str, Any]]:
    e = spec.exporter
    env: list[dict[str, Any]] = [
        {"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}},
        {"name": "DCGM_EXPORTER_KUBERNETES", "value": "true"},
        {"name": "DCGM_EXPORTER_LISTEN", "value": ":9400"},
        {"name": "DCGM_EXPORTER_INTERVAL", "value": str(int(_interval_ms(spec)))},
        {"name": "DCGM_EXPORTER_COLLECTORS", "value": COLLECTORS_PATH},
        {"name": "GPUSCOPE_BACKEND", "value": e.backend},
        {"name": "GPUSCOPE_HOST_LABEL", "value": e.host_label},
        {"name": "GPUSCOPE_DIALECT", "value": e.dialect},
        {"name": "GPUSCOPE_WORKLOAD_LABELS", "value": e.workload_labels},
        # The NVIDIA container runtime mounts every GPU, and MIG aggregate queries need this too.
        {"name": "NVIDIA_VISIBLE_DEVICES", "value": "all"},
        {"name": "NVIDIA_MIG_MONITOR_DEVICES", "value": "all"},
    ]
    if e.web_config_secret:
        env.append({"name": "DCGM_EXPORTER_WEB_CONFIG_FILE", "value": "/etc/gpuscope/web/web-config.yaml"})
    env.extend(attribution_env(spec))
    if _standalone_dcgm(spec):
        # The GPU Operator's nvidia-dcgm DaemonSet serves nv-hostengine on each node's port 5555.
        env.append({"name": "NODE_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.hostIP"}}})
        env.append({"name": "DCGM_REMOTE_HOSTENGINE_INFO", "value": f"$(NODE_IP):{DCGM_HOSTENGINE_PORT}"})
    env.extend(process_env(spec))
    return env


def _standalone_dcgm(spec: FleetSpec) -> bool:
    return spec.exporter.backend == "dcgm" and spec.exporter.dcgm_hostengine == "standalone"


def _capabilities(spec: FleetSpec) -> dict[str, Any]:
    """SYS_ADMIN wherever this process reads GPU profiling counters itself (NVML GPM, DCGM's embedded engine), as
    dcgm-exporter runs; a standalone host engine holds that privilege instead, and the exporter needs none."""
    if _standalone_dcgm(spec):
        return {"drop": ["ALL"]}
    return {"drop": ["ALL"], "add": ["SYS_ADMIN"]}


def _interval_ms(spec: FleetSpec) -> float:
    return prometheus_seconds(spec.scrape_interval) * 1000


def daemonset(spec: FleetSpec, cluster: Cluster) -> dict[str, Any]:
    e = spec.exporter
    mounts: list[dict[str, Any]] = [
        {"name": "pod-resources", "mountPath": "/var/lib/kubelet/pod-resources", "readOnly": True},
        {
            "name": "collectors",
            "mountPath": "/etc/gpuscope/collectors.csv",
            "subPath": "collectors.csv",
            "readOnly": True,
        },
    ]
    volumes: list[dict[str, Any]] = [
        {"name": "pod-resources", "hostPath": {"path": "/var/lib/kubelet/pod-resources", "type": "Directory"}},
        {"name": "collectors", "configMap": {"name": "gpuscope-collectors"}},
    ]
    extra_mounts, extra_volumes = process_mounts(spec)
    mounts.extend(extra_mounts)
    volumes.extend(extra_volumes)
    if e.web_config_secret:
        mounts.append({"name": "web-config", "mountPath": "/etc/gpuscope/web", "readOnly": True})
        volumes.append({"name": "web-config", "secret": {"secretName": e.web_config_secret}})
    scheme = "HTTPS" if e.web_config_secret else "HTTP"
    container = {
        "name": "exporter",
        "image": e.image,
        # The image's entrypoint is dcgm-exporter's name (for the GPU Operator); name the command outright.
        "command": ["gpuscope", "exporter"],
        "env": _env(spec),
        "ports": [{"name": "metrics", "containerPort": 9400, "protocol": "TCP"}],
        "resources": {
            "requests": {"cpu": "50m", "memory": "64Mi"},
            "limits": {"memory": f"{e.memory_limit_mib}Mi"},
        },
        "securityContext": {
            "runAsUser": 0,
            "runAsNonRoot": False,
            "allowPrivilegeEscalation": False,
            "readOnlyRootFilesystem": True,
            "capabilities": _capabilities(spec),
        },
        # /health is 503 while the snapshot is stale: restart only after a long stretch (a wedged driver).
        "livenessProbe": {
            "httpGet": {"path": "/health", "port": "metrics", "scheme": scheme},
            "initialDelaySeconds": 30,
            "periodSeconds": 15,
            "failureThreshold": 8,
        },
        "readinessProbe": {"tcpSocket": {"port": "metrics"}, "periodSeconds": 10},
        "volumeMounts": mounts,
    }
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": _meta(APP, cluster, spec),
        "spec": {
            "selector": {"matchLabels": dict(SELECTOR)},
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}},
            "template": {
                "metadata": {"labels": _labels(spec)},
                "spec": {
                    "serviceAccountName": APP,
                    "automountServiceAccountToken": reads_api_server(spec),  # pod labels/UID, DRA: the API server
                    "priorityClassName": "system-node-critical",
                    "runtimeClassName": "nvidia",
                    **host_pid(spec),
                    "nodeSelector": {"nvidia.com/gpu.present": "true"},
                    "tolerations": [
                        {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
                        # gpuscope remediate's taint: a node taken out for its GPUs keeps its telemetry (the
                        # exporter must be there to see it recover).
                        {"key": TAINT_KEY, "operator": "Exists"},
                    ],
                    "containers": [container],
                    "volumes": volumes,
                },
            },
        },
    }


def service(spec: FleetSpec, cluster: Cluster) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": _meta(APP, cluster, spec),
        "spec": {
            "type": "ClusterIP",
            "internalTrafficPolicy": "Local",
            "selector": dict(SELECTOR),
            "ports": [{"name": "metrics", "port": 9400, "targetPort": "metrics", "protocol": "TCP"}],
        },
    }


def service_monitor(spec: FleetSpec, cluster: Cluster, budget: ClusterBudget) -> dict[str, Any]:
    endpoint: dict[str, Any] = {
        "port": "metrics",
        "path": "/metrics",
        "interval": spec.scrape_interval,
        "scrapeTimeout": spec.scrape_timeout,
        "honorLabels": True,
        "relabelings": [
            {"targetLabel": "job", "replacement": EXPORTER_JOB, "action": "replace"},
            {"sourceLabels": ["__meta_kubernetes_pod_node_name"], "targetLabel": "node", "action": "replace"},
        ],
    }
    if spec.exporter.drop_labels:
        endpoint["metricRelabelings"] = [{"action": "labeldrop", "regex": "|".join(spec.exporter.drop_labels)}]
    if spec.exporter.web_config_secret:
        endpoint["scheme"] = "https"
        endpoint["tlsConfig"] = {"insecureSkipVerify": False, "serverName": f"{APP}.{cluster.namespace}.svc"}
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "ServiceMonitor",
        "metadata": _meta(APP, cluster, spec),
        "spec": {
            "selector": {"matchLabels": dict(SELECTOR)},
            "namespaceSelector": {"matchNames": [cluster.namespace]},
            "sampleLimit": budget.sample_limit_per_exporter,
            "labelLimit": LABEL_LIMIT,
            "endpoints": [endpoint],
        },
    }


def prometheus_rule(spec: FleetSpec, cluster: Cluster, groups: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": _meta("gpuscope-rules", cluster, spec),
        "spec": {"groups": groups},
    }


def collectors_configmap(cluster: Cluster, spec: FleetSpec, csv_text: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": _meta("gpuscope-collectors", cluster, spec),
        "data": {"collectors.csv": csv_text},
    }


def service_account(cluster: Cluster, spec: FleetSpec) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": _meta(APP, cluster, spec),
        "automountServiceAccountToken": reads_api_server(spec),  # pod labels/UID, DRA: the API server
    }


MANIFEST_FILES = (
    "serviceaccount.yaml",
    "configmap-collectors.yaml",
    "daemonset.yaml",
    "service.yaml",
    "servicemonitor.yaml",
    "prometheusrule.yaml",
    "servicemonitors-host.yaml",  # generate/host_scrape.py
)


def kustomization(cluster: Cluster, spec: FleetSpec | None = None) -> dict[str, Any]:
    rbac = ROLE_FILES if spec is not None and spec.exporter.api_server else ()
    return {
        "apiVersion": "kustomize.config.k8s.io/v1beta1",
        "kind": "Kustomization",
        "namespace": cluster.namespace,
        "resources": [*MANIFEST_FILES, *rbac],
    }
