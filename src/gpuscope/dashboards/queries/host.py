"""Host signals: the PromQL of the L3 host row (node-exporter), L2's GPUs requested vs allocatable
(kube-state-metrics) and L5's pod CPU and memory (cAdvisor); ``dashboards/host.py`` lays them out.

Queries join by the host label the scrape configs give these series (``generate/host_scrape.py``).
"""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q
from gpuscope.fields.companion import GPU_RESOURCE_REGEX


def _ne(q: Q, metric: str, *matchers: str) -> str:
    inner = ",".join(m for m in (q.c.host.node_exporter_selector, q.on_node, *matchers) if m)
    return f"{metric}{{{inner}}}"


def _ksm(q: Q, metric: str, *matchers: str) -> str:
    inner = ",".join(m for m in (q.c.host.kube_state_metrics_selector, q.in_cluster, *matchers) if m)
    return f"{metric}{{{inner}}}"


def _cadvisor(q: Q, metric: str) -> str:
    c = q.c
    inner = ",".join((c.host.cadvisor_selector, q.in_cluster, _POD_SCOPE))
    return f"{metric}{{{inner}}}"


def cpu_busy(q: Q) -> Query:
    """The L3 host row's first query: share of CPU time not idle, per host (the e2e test reads it)."""
    idle = _ne(q, "node_cpu_seconds_total", 'mode="idle"')
    return Query(f"1 - avg by ({q.host}) (rate({idle}[$__rate_interval]))", f"{{{{{q.host}}}}} busy")


def iowait(q: Q) -> Query:
    iowait = _ne(q, "node_cpu_seconds_total", 'mode="iowait"')
    return Query(f"avg by ({q.host}) (rate({iowait}[$__rate_interval]))", f"{{{{{q.host}}}}} iowait")


def memory(q: Q) -> Query:
    avail = f"max by ({q.host}) ({_ne(q, 'node_memory_MemAvailable_bytes')})"
    total = f"max by ({q.host}) ({_ne(q, 'node_memory_MemTotal_bytes')})"
    return Query(f"{avail} / {total}", f"{{{{{q.host}}}}} available")


def filesystems(q: Q) -> Query:
    hs = q.c.host
    sel = f'mountpoint=~"{hs.filesystem_mountpoints}",fstype!~"tmpfs|ramfs|squashfs|overlay"'
    keys = f"{q.host}, mountpoint"
    free = f"max by ({keys}) ({_ne(q, 'node_filesystem_avail_bytes', sel)})"
    size = f"max by ({keys}) ({_ne(q, 'node_filesystem_size_bytes', sel)})"
    return Query(f"{free} / {size}", "{{mountpoint}} free")


def network(q: Q) -> tuple[Query, ...]:
    sel = f'device!~"{q.c.host.network_devices_ignored}"'
    keys = f"{q.host}, device"
    rx = f"sum by ({keys}) (rate({_ne(q, 'node_network_receive_bytes_total', sel)}[$__rate_interval]))"
    tx = f"sum by ({keys}) (rate({_ne(q, 'node_network_transmit_bytes_total', sel)}[$__rate_interval]))"
    errs = f"sum by ({keys}) (increase({_ne(q, 'node_network_receive_errs_total', sel)}[$__rate_interval]))"
    return Query(rx, "{{device}} rx"), Query(tx, "{{device}} tx"), Query(errs, "{{device}} rx errors")


def infiniband(q: Q) -> tuple[Query, ...]:
    keys = f"{q.host}, device, port"
    state = f"max by ({keys}) ({_ne(q, 'node_infiniband_state_id')})"
    rx = f"sum by ({keys}) (rate({_ne(q, 'node_infiniband_port_data_received_bytes_total')}[$__rate_interval]))"
    errs = f"sum by ({keys}) (increase({_ne(q, 'node_infiniband_port_errors_received_total')}[$__rate_interval]))"
    return (
        Query(state, "{{device}}/{{port}} state", instant=True),
        Query(rx, "{{device}}/{{port}} rx", instant=True, unit="Bps"),
        Query(errs, "{{device}}/{{port}} errors", instant=True),
    )


def ib_collector(q: Q) -> Query:
    """Whether node-exporter's infiniband collector reports the host (0: no HCA, or it failed)."""
    return Query(
        f"max by ({q.host}) ({_ne(q, 'node_scrape_collector_success', _IB)})", f"{{{{{q.host}}}}}", instant=True
    )


def _gpu_resources(q: Q, metric: str, *matchers: str) -> str:
    res = f'resource=~"{GPU_RESOURCE_REGEX}"'
    return f"sum by (resource) ({_ksm(q, metric, res, *matchers)})"


def gpus_requested_vs_allocatable(q: Q) -> tuple[Query, ...]:
    """kube-state-metrics per GPU resource (MIG profiles included); pending: requests of pods not on a node yet."""
    return (
        Query(_gpu_resources(q, "kube_node_status_allocatable"), "{{resource}} allocatable"),
        Query(_gpu_resources(q, "kube_pod_container_resource_requests"), "{{resource}} requested"),
        Query(_gpu_resources(q, "kube_pod_container_resource_requests", _PENDING), "{{resource}} pending"),
    )


def requested_ratio(q: Q) -> Query:
    req = _gpu_resources(q, "kube_pod_container_resource_requests")
    alloc = _gpu_resources(q, "kube_node_status_allocatable")
    return Query(f"{req} / on (resource) {alloc}", "{{resource}}", instant=True)


_POD_KEYS = "namespace, pod, container"
_POD_LEGEND = "{{namespace}}/{{pod}} {{container}}"


def _pod_rate(q: Q, metric: str) -> str:
    return f"sum by ({_POD_KEYS}) (rate({_cadvisor(q, metric)}[$__rate_interval]))"


def pod_cpu(q: Q) -> Query:
    return Query(_pod_rate(q, "container_cpu_usage_seconds_total"), _POD_LEGEND)


def pod_cpu_throttled(q: Q) -> Query:
    throttled = _pod_rate(q, "container_cpu_cfs_throttled_periods_total")
    return Query(f"{throttled} / {_pod_rate(q, 'container_cpu_cfs_periods_total')}", _POD_LEGEND)


def pod_memory(q: Q) -> tuple[Query, ...]:
    ws = f"max by ({_POD_KEYS}) ({_cadvisor(q, 'container_memory_working_set_bytes')})"
    limit = f"max by ({_POD_KEYS}) ({_cadvisor(q, 'container_spec_memory_limit_bytes')} > 0)"
    return Query(ws, f"{_POD_LEGEND} working set"), Query(limit, f"{_POD_LEGEND} limit")


_IB = 'collector="infiniband"'
_PENDING = 'node=""'
_POD_SCOPE = 'namespace=~"$namespace",pod=~"$pod",container!="",container!="POD"'
