"""Scraping the exporters beside the GPU exporter: node-exporter, kube-state-metrics and the kubelet's cAdvisor.

Each gets a scrape job in the cluster's Prometheus pair (and, for Kubernetes clusters, a ServiceMonitor for
Prometheus Operator), and every node-exporter and cAdvisor series gets the GPU series' host label, so dashboards
and rules join a node's host signals to its GPUs by that one label:

- node-exporter: ``targets/node-exporter.json`` lists one target group per node, labelled with the node's host
  label value (``hostnames`` in the node group, else the host part of its target); on Kubernetes the
  ServiceMonitor copies the pod's node name into it.
- cAdvisor: the kubelet of every node, listed in ``targets/cadvisor.json`` with the host label like node-exporter
  (file_sd as for the GPU exporters: Debian's Prometheus is built without Kubernetes discovery). Over HTTPS the
  plain config needs ``kubelet_token_file`` and leaves the job out without one; the ServiceMonitor (Prometheus
  Operator) uses the service account's token and copies the kubelet endpoint's node name into the host label.
- kube-state-metrics: one Service address per cluster (``endpoints.kube_state_metrics``); its series describe
  other objects, so their own ``namespace``/``pod``/``node`` labels are kept (``honor_labels``) and the rules
  copy ``node`` into the host label at query time.
"""

from __future__ import annotations

from typing import Any

from gpuscope.durations import prometheus_seconds
from gpuscope.spec.fleet import Cluster, FleetSpec, NodeGroup

NODE_EXPORTER_JOB = "node-exporter"
KSM_JOB = "kube-state-metrics"
CADVISOR_JOB = "cadvisor"
KUBELET_PORT = 10250
SA_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"


def _node_names(cluster: Cluster, group: NodeGroup) -> list[str]:
    if group.hostnames:
        return list(group.hostnames)
    if group.hosts:
        return [h.rsplit(":", 1)[0] for h in group.hosts]
    return [f"{cluster.name}-{group.name}-{i:04d}" for i in range(group.nodes)]


def node_exporter_groups(spec: FleetSpec, cluster: Cluster) -> list[dict[str, Any]]:
    """file_sd target groups: one per node, carrying the GPU series' host label."""
    label = spec.exporter.host_label
    port = cluster.endpoints.node_exporter_port
    out = []
    for group in cluster.node_groups:
        names = _node_names(cluster, group)
        addresses = list(group.node_exporters) or [f"{n}:{port}" for n in names]
        out += [{"targets": [a], "labels": {label: n}} for a, n in zip(addresses, names, strict=True)]
    return out


def cadvisor_groups(spec: FleetSpec, cluster: Cluster) -> list[dict[str, Any]]:
    """file_sd target groups of the kubelets."""
    label = spec.exporter.host_label
    hs = spec.host_signals
    out = []
    for group in cluster.node_groups:
        names = _node_names(cluster, group)
        hosts = [h.rsplit(":", 1)[0] for h in group.hosts] if group.hosts else names
        port = hs.cadvisor_port or KUBELET_PORT
        out += [{"targets": [f"{h}:{port}"], "labels": {label: n}} for h, n in zip(hosts, names, strict=True)]
    return out


def _kubernetes(spec: FleetSpec, cluster: Cluster) -> bool:
    return cluster.kind == "kubernetes"


def host_targets_files(spec: FleetSpec, cluster: Cluster) -> dict[str, list[dict[str, Any]]]:
    hs = spec.host_signals
    files: dict[str, list[dict[str, Any]]] = {}
    if hs.node_exporter:
        files["targets/node-exporter.json"] = node_exporter_groups(spec, cluster)
    if hs.cadvisor and _kubernetes(spec, cluster):
        files["targets/cadvisor.json"] = cadvisor_groups(spec, cluster)
    return files


def host_scrape_jobs(spec: FleetSpec, cluster: Cluster) -> list[dict[str, Any]]:
    """The scrape jobs of the companion exporters this cluster runs."""
    hs = spec.host_signals
    jobs: list[dict[str, Any]] = []
    if hs.node_exporter:
        job: dict[str, Any] = {
            "job_name": NODE_EXPORTER_JOB,
            "file_sd_configs": [{"files": ["targets/node-exporter.json"]}],
        }
        if hs.node_exporter_collectors:
            job["params"] = {"collect[]": list(hs.node_exporter_collectors)}
        jobs.append(job)
    if _kubernetes(spec, cluster):
        jobs += _kubernetes_jobs(spec, cluster)
    if hs.scrape_interval:
        timeout = min(hs.scrape_interval, spec.scrape_timeout, key=prometheus_seconds)
        jobs = [{**j, "scrape_interval": hs.scrape_interval, "scrape_timeout": timeout} for j in jobs]
    return jobs


def _kubernetes_jobs(spec: FleetSpec, cluster: Cluster) -> list[dict[str, Any]]:
    hs = spec.host_signals
    jobs: list[dict[str, Any]] = []
    if hs.kube_state_metrics:
        jobs.append(
            {
                "job_name": KSM_JOB,
                "honor_labels": True,
                "metrics_path": hs.kube_state_metrics_path,
                "static_configs": [{"targets": [cluster.endpoints.kube_state_metrics]}],
            }
        )
    if hs.cadvisor and (hs.cadvisor_scheme == "http" or hs.kubelet_token_file):
        jobs.append(_cadvisor_job(spec))
    return jobs


def _cadvisor_job(spec: FleetSpec) -> dict[str, Any]:
    hs = spec.host_signals
    job: dict[str, Any] = {
        "job_name": CADVISOR_JOB,
        # the kubelet's cAdvisor series carry namespace/pod/container of the containers they describe
        "honor_labels": True,
        "metrics_path": hs.cadvisor_path,
        "scheme": hs.cadvisor_scheme,
        "file_sd_configs": [{"files": ["targets/cadvisor.json"]}],
    }
    if hs.kubelet_token_file:
        job["authorization"] = {"credentials_file": hs.kubelet_token_file}
    if hs.kubelet_ca_file:
        job["tls_config"] = {"ca_file": hs.kubelet_ca_file}
    return job


def host_series(spec: FleetSpec, cluster: Cluster) -> tuple[int, int, int]:
    """Head series of (kube-state-metrics, cAdvisor, their scrape targets) in this cluster's Prometheus."""
    if not _kubernetes(spec, cluster):
        return 0, 0, 0
    hs, b = spec.host_signals, spec.host_signals.budget
    ksm = (b.kube_state_metrics_series_per_node + b.pods_per_node * b.kube_state_metrics_series_per_pod) * cluster.nodes
    cadvisor = b.cadvisor_series_per_pod * b.pods_per_node * cluster.nodes
    targets = (1 if hs.kube_state_metrics else 0) + (cluster.nodes if hs.cadvisor else 0)
    return (ksm if hs.kube_state_metrics else 0), (cadvisor if hs.cadvisor else 0), targets


# --- Prometheus Operator -------------------------------------------------------------------------------------


def _monitor(name: str, namespace: str, selector: dict[str, str], endpoint: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "ServiceMonitor",
        "metadata": {"name": name, "namespace": namespace, "labels": {"app.kubernetes.io/part-of": "gpuscope"}},
        "spec": {
            "selector": {"matchLabels": selector},
            "namespaceSelector": {"any": True},
            "endpoints": [endpoint],
        },
    }


def host_service_monitors(spec: FleetSpec, cluster: Cluster) -> dict[str, Any]:
    """One ``List`` of ServiceMonitors for the companion exporters (their charts' default Service labels)."""
    hs = spec.host_signals
    label = spec.exporter.host_label
    interval = {"interval": spec.scrape_interval, "scrapeTimeout": spec.scrape_timeout}
    to_host = {"sourceLabels": ["__meta_kubernetes_pod_node_name"], "targetLabel": label, "action": "replace"}
    job = {"targetLabel": "job", "action": "replace"}
    items = []
    if hs.node_exporter:
        endpoint: dict[str, Any] = {
            "port": "http-metrics",
            **interval,
            "relabelings": [{**job, "replacement": NODE_EXPORTER_JOB}, to_host],
        }
        if hs.node_exporter_collectors:
            endpoint["params"] = {"collect[]": list(hs.node_exporter_collectors)}
        items.append(
            _monitor(
                "gpuscope-node-exporter",
                cluster.namespace,
                {"app.kubernetes.io/name": "prometheus-node-exporter"},
                endpoint,
            )
        )
    if hs.kube_state_metrics:
        items.append(
            _monitor(
                "gpuscope-kube-state-metrics",
                cluster.namespace,
                {"app.kubernetes.io/name": "kube-state-metrics"},
                {
                    "port": "http",
                    **interval,
                    "path": hs.kube_state_metrics_path,
                    "honorLabels": True,
                    "relabelings": [{**job, "replacement": KSM_JOB}],
                },
            )
        )
    if hs.cadvisor:
        node = {"sourceLabels": ["__meta_kubernetes_endpoint_address_target_name"], "targetLabel": label}
        items.append(
            _monitor(
                "gpuscope-cadvisor",
                cluster.namespace,
                {"app.kubernetes.io/name": "kubelet"},
                {
                    "port": "https-metrics",
                    **interval,
                    "path": hs.cadvisor_path,
                    "scheme": "https",
                    "bearerTokenFile": f"{SA_DIR}/token",
                    "tlsConfig": {"caFile": f"{SA_DIR}/ca.crt"},
                    "honorLabels": True,
                    "relabelings": [{**job, "replacement": CADVISOR_JOB}, {**node, "action": "replace"}],
                },
            )
        )
    return {"apiVersion": "v1", "kind": "List", "items": items}
