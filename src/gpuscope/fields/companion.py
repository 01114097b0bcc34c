"""Series of the exporters that run beside the GPU exporter: node-exporter, kube-state-metrics and cAdvisor.

Every name a rule, panel, doctor check or the simulator uses is listed here once, with the exporter and the
version whose source or documentation it was checked against and the labels that exporter gives it (before
Prometheus adds ``job``/``instance`` and the host label of the scrape config). ``docs/host-signals.md`` lists the
same table for people; a test keeps the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Exporter = Literal["node-exporter", "kube-state-metrics", "cadvisor"]

# Versions the names and label sets were checked against. node-exporter: the Debian package the local stack
# runs (`apt-cache policy prometheus-node-exporter`). kube-state-metrics: its docs/metrics tables. cAdvisor: as
# the kubelet serves it on /metrics/cadvisor (cAdvisor embedded in the kubelet).
VERSIONS: dict[Exporter, str] = {
    "node-exporter": "1.5.0",
    "kube-state-metrics": "2.13.0",
    "cadvisor": "0.49 (kubelet 1.30 /metrics/cadvisor)",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanionSeries:
    name: str
    exporter: Exporter
    labels: tuple[str, ...]
    kind: Literal["gauge", "counter"]
    help: str
    collector: str = ""  # node-exporter collector that emits it


def _n(name: str, labels: tuple[str, ...], kind: Literal["gauge", "counter"], help_: str, coll: str) -> CompanionSeries:
    return CompanionSeries(name=name, exporter="node-exporter", labels=labels, kind=kind, help=help_, collector=coll)


def _k(name: str, labels: tuple[str, ...], kind: Literal["gauge", "counter"], help_: str) -> CompanionSeries:
    return CompanionSeries(name=name, exporter="kube-state-metrics", labels=labels, kind=kind, help=help_)


_CADVISOR_LABELS = ("container", "id", "image", "name", "namespace", "pod")


def _c(name: str, kind: Literal["gauge", "counter"], help_: str, extra: tuple[str, ...] = ()) -> CompanionSeries:
    return CompanionSeries(name=name, exporter="cadvisor", labels=(*_CADVISOR_LABELS, *extra), kind=kind, help=help_)


_IB = ("device", "port")
_FS = ("device", "fstype", "mountpoint")
_POD = ("namespace", "pod", "uid")

SERIES: tuple[CompanionSeries, ...] = (
    _n("node_cpu_seconds_total", ("cpu", "mode"), "counter", "Seconds the CPUs spent in each mode.", "cpu"),
    _n("node_memory_MemAvailable_bytes", (), "gauge", "Memory information field MemAvailable_bytes.", "meminfo"),
    _n("node_memory_MemTotal_bytes", (), "gauge", "Memory information field MemTotal_bytes.", "meminfo"),
    _n(
        "node_pressure_memory_stalled_seconds_total",
        (),
        "counter",
        "Total time in seconds no process could make progress due to memory congestion",
        "pressure",
    ),
    _n("node_vmstat_oom_kill", (), "counter", "/proc/vmstat information field oom_kill.", "vmstat"),
    _n(
        "node_filesystem_avail_bytes",
        _FS,
        "gauge",
        "Filesystem space available to non-root users in bytes.",
        "filesystem",
    ),
    _n("node_filesystem_size_bytes", _FS, "gauge", "Filesystem size in bytes.", "filesystem"),
    _n("node_filesystem_readonly", _FS, "gauge", "Filesystem read-only status.", "filesystem"),
    _n("node_network_receive_errs_total", ("device",), "counter", "Network device statistic receive_errs.", "netdev"),
    _n("node_network_transmit_errs_total", ("device",), "counter", "Network device statistic transmit_errs.", "netdev"),
    _n("node_network_receive_bytes_total", ("device",), "counter", "Network device statistic receive_bytes.", "netdev"),
    _n(
        "node_network_transmit_bytes_total",
        ("device",),
        "counter",
        "Network device statistic transmit_bytes.",
        "netdev",
    ),
    _n(
        "node_scrape_collector_success",
        ("collector",),
        "gauge",
        "node_exporter: Whether a collector succeeded.",
        "(every collector)",
    ),
    _n(
        "node_uname_info",
        ("domainname", "machine", "nodename", "release", "sysname", "version"),
        "gauge",
        "Labeled system information as provided by the uname system call.",
        "uname",
    ),
    _n("node_infiniband_state_id", _IB, "gauge", "State of the InfiniBand port (4: active).", "infiniband"),
    _n(
        "node_infiniband_physical_state_id",
        _IB,
        "gauge",
        "Physical state of the InfiniBand port (5: link up).",
        "infiniband",
    ),
    _n(
        "node_infiniband_link_downed_total",
        _IB,
        "counter",
        "Number of times the link failed to recover from an error state and went down",
        "infiniband",
    ),
    _n(
        "node_infiniband_port_errors_received_total",
        _IB,
        "counter",
        "Number of packets containing an error that were received on this port",
        "infiniband",
    ),
    _n(
        "node_infiniband_port_data_received_bytes_total",
        _IB,
        "counter",
        "Number of data octets received on all links",
        "infiniband",
    ),
    _n(
        "node_infiniband_port_data_transmitted_bytes_total",
        _IB,
        "counter",
        "Number of data octets transmitted on all links",
        "infiniband",
    ),
    _k(
        "kube_node_status_allocatable",
        ("node", "resource", "unit"),
        "gauge",
        "The allocatable for different resources of a node that are available for scheduling.",
    ),
    _k(
        "kube_node_info",
        (
            "node",
            "kernel_version",
            "os_image",
            "container_runtime_version",
            "kubelet_version",
            "kubeproxy_version",
            "pod_cidr",
            "provider_id",
            "system_uuid",
            "internal_ip",
        ),
        "gauge",
        "Information about a cluster node.",
    ),
    _k(
        "kube_pod_container_resource_requests",
        ("namespace", "pod", "uid", "container", "node", "resource", "unit"),
        "gauge",
        "The number of requested request resource by a container.",
    ),
    _k(
        "kube_pod_container_status_restarts_total",
        ("namespace", "pod", "uid", "container"),
        "counter",
        "The number of container restarts per container.",
    ),
    _k(
        "kube_pod_info",
        (*_POD, "host_ip", "pod_ip", "node", "created_by_kind", "created_by_name", "priority_class", "host_network"),
        "gauge",
        "Information about pod.",
    ),
    _c("container_cpu_usage_seconds_total", "counter", "Cumulative cpu time consumed in seconds.", ("cpu",)),
    _c("container_cpu_cfs_periods_total", "counter", "Number of elapsed enforcement period intervals."),
    _c("container_cpu_cfs_throttled_periods_total", "counter", "Number of throttled period intervals."),
    _c("container_memory_working_set_bytes", "gauge", "Current working set in bytes."),
    _c("container_spec_memory_limit_bytes", "gauge", "Memory limit for the container."),
)

BY_NAME: dict[str, CompanionSeries] = {s.name: s for s in SERIES}

# Kubernetes extended-resource names as kube-state-metrics writes them in its `resource` label: every character
# outside [a-zA-Z0-9_] becomes "_" (nvidia.com/gpu -> nvidia_com_gpu, nvidia.com/mig-1g.10gb ->
# nvidia_com_mig_1g_10gb).
GPU_RESOURCE = "nvidia_com_gpu"
GPU_RESOURCE_REGEX = "nvidia_com_gpu|nvidia_com_mig_.+"


def resource_label(resource: str) -> str:
    """A Kubernetes resource name in kube-state-metrics' ``resource`` label form."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in resource)


def markdown_table() -> str:
    """The series table of ``docs/host-signals.md``."""
    rows = ["| series | exporter (version) | labels | type |", "|---|---|---|---|"]
    for s in SERIES:
        where = f"{s.exporter} {VERSIONS[s.exporter]}" + (f", `{s.collector}` collector" if s.collector else "")
        rows.append(f"| `{s.name}` | {where} | {', '.join(s.labels) or '(none)'} | {s.kind} |")
    return "\n".join(rows) + "\n"
