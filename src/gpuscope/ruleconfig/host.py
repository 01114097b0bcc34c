"""What the host-signal rules are generated from: which companion exporters are scraped, their selectors, and
the thresholds of the host, Kubernetes-capacity and pod-resource alerts.

An exporter that is not scraped gets no rules (and its dashboard panels say why they are empty), so a cluster
without kube-state-metrics carries no alert that could never fire.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from gpuscope.escaping import re2_pattern


def host_regex(value: str, what: str) -> str:
    """A regex the host rules put between quotes in a label matcher: one Prometheus (RE2) accepts, or
    ``ValueError``; Prometheus would refuse the whole rule file otherwise."""
    if '"' in value or "\\" in value or "\n" in value:
        raise ValueError(f"{what} {value!r}: write a regex without quotes, backslashes or newlines")
    return re2_pattern(value, what)


_DURATION = r"^[0-9]+[smh]$"


def _matchers(value: str) -> str:
    if "{" in value or "}" in value or ("=" not in value and "~" not in value):
        raise ValueError('write label matchers without braces, e.g. job="node-exporter"')
    return value


class HostThresholds(BaseModel):
    """When host, capacity and pod-resource alerts fire."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    cpu_busy_ratio: float = Field(0.95, gt=0, lt=1, description="host CPU busy (not idle) share that is saturated")
    iowait_ratio: float = Field(0.2, gt=0, lt=1, description="share of CPU time waiting for I/O")
    memory_available_ratio: float = Field(0.05, gt=0, lt=1, description="MemAvailable/MemTotal below this is pressure")
    memory_stall_ratio: float = Field(0.1, gt=0, lt=1, description="share of time every task stalled on memory (PSI)")
    filesystem_free_ratio: float = Field(0.05, gt=0, lt=1, description="free share of a training filesystem")
    ib_errors_per_10m: int = Field(10, ge=0, description="InfiniBand receive errors tolerated per 10 minutes")
    network_errors_per_10m: int = Field(100, ge=0, description="network receive+transmit errors per 10 minutes")
    gpu_requests_ratio: float = Field(0.95, gt=0, le=10, description="cluster GPUs requested / allocatable")
    pod_cpu_throttled_ratio: float = Field(0.25, gt=0, lt=1, description="share of CFS periods a GPU pod is throttled")
    pod_memory_limit_ratio: float = Field(0.9, gt=0, lt=1, description="GPU pod working set / memory limit")
    for_: str = Field("15m", pattern=_DURATION, description="how long CPU, iowait and pod-resource conditions hold")


class HostSignals(BaseModel):
    """Companion exporters scraped beside the GPU exporter and how their series are selected."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    node_exporter: bool = True
    # Off in the local stack: its node-exporter reports the machine running the demo, not a GPU node.
    node_exporter_alerts: bool = True
    kube_state_metrics: bool = True
    cadvisor: bool = True
    node_exporter_selector: str = 'job="node-exporter"'
    kube_state_metrics_selector: str = 'job="kube-state-metrics"'
    cadvisor_selector: str = 'job="cadvisor"'
    # The GPU exporter's own container, as kube-state-metrics names it (gpuscope's DaemonSet, the GPU Operator's).
    exporter_container_selector: str = 'container=~"exporter|nvidia-dcgm-exporter|dcgm-exporter"'
    # Mount points training reads data from and writes checkpoints to (a regex, anchored by Prometheus).
    filesystem_mountpoints: str = "/|/raid|/scratch|/data|/mnt/.*|/var/lib/kubelet"
    # Interfaces whose errors are noise or counted elsewhere (loopback, container veths, CNI bridges).
    network_devices_ignored: str = "lo|veth.*|cali.*|cni.*|flannel.*|docker.*|br-.*|virbr.*"
    thresholds: HostThresholds = HostThresholds()

    @field_validator(
        "node_exporter_selector", "kube_state_metrics_selector", "cadvisor_selector", "exporter_container_selector"
    )
    @classmethod
    def _selector(cls, value: str) -> str:
        return _matchers(value)

    @field_validator("filesystem_mountpoints", "network_devices_ignored")
    @classmethod
    def _regex(cls, value: str, info: ValidationInfo) -> str:
        return host_regex(value, str(info.field_name))
