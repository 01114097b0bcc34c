"""``host_signals:`` in the fleet spec: which exporters beside the GPU exporter the cluster Prometheus scrapes.

node-exporter (every node, both kinds of cluster), kube-state-metrics and the kubelet's cAdvisor endpoint
(Kubernetes clusters). What is scraped decides the scrape jobs, the rules (``rules/alerts_host.py``,
``rules/alerts_kube.py``) and the dashboard panels; an exporter switched off gets none of them, and its panels say
so.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from gpuscope.ruleconfig.host import HostSignals, HostThresholds, host_regex

_PATH_RE = re.compile(r"^/[A-Za-z0-9._~/-]*$")
_DURATION_RE = re.compile(r"^[0-9]+(ms|s|m|h)$")
_COLLECTOR_RE = re.compile(r"^[a-z][a-z0-9_]*$")


def _match(pattern: re.Pattern[str], what: str) -> AfterValidator:
    def check(value: str) -> str:
        if not pattern.match(value):
            raise ValueError(f"{value!r} is not {what}")
        return value

    return AfterValidator(check)


UrlPath = Annotated[str, _match(_PATH_RE, "a URL path like /metrics")]
Interval = Annotated[str, _match(_DURATION_RE, "a duration like 15s or 1m")]
Collector = Annotated[str, _match(_COLLECTOR_RE, "a node-exporter collector name like cpu or infiniband")]


class HostBudget(BaseModel):
    """Series of kube-state-metrics and cAdvisor per node, for the cardinality budget (node-exporter's per node
    is ``budget.node_exporter_series_per_node``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    pods_per_node: int = Field(15, ge=0, le=10_000, description="pods on a GPU node, daemon sets included")
    # kube-state-metrics: ~40 series per node object (allocatable and capacity per resource, conditions, info),
    # ~25 per pod (info, phase, ready, scheduled, and per container info, state, restarts, requests, limits).
    kube_state_metrics_series_per_node: int = Field(40, ge=0, le=10**6)
    kube_state_metrics_series_per_pod: int = Field(25, ge=0, le=10**6)
    # cAdvisor via the kubelet: ~40 container_* series per container plus the pod cgroup's, network per interface.
    cadvisor_series_per_pod: int = Field(60, ge=0, le=10**6)


class HostSignalsSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    node_exporter: bool = Field(True, description="scrape node-exporter on every node (targets/node-exporter.json)")
    node_exporter_alerts: bool = Field(True, description="alert on node-exporter's host signals (the local stack: no)")
    kube_state_metrics: bool = Field(
        True, description="scrape kube-state-metrics (Kubernetes clusters) at endpoints.kube_state_metrics"
    )
    cadvisor: bool = Field(True, description="scrape the kubelet's /metrics/cadvisor on every node (Kubernetes)")
    kube_state_metrics_path: UrlPath = "/metrics"
    cadvisor_path: UrlPath = "/metrics/cadvisor"
    cadvisor_scheme: Literal["https", "http"] = Field("https", description="https: the kubelet's own port")
    # The plain Prometheus configs scrape the kubelets only with a token file to authenticate with (in a pod: the
    # service account's); without one, cAdvisor is scraped by servicemonitors-host.yaml (Prometheus Operator).
    kubelet_token_file: str | None = Field(None, description="e.g. /var/run/secrets/kubernetes.io/serviceaccount/token")
    kubelet_ca_file: str | None = Field(None, description="CA of the kubelets' serving certificates")
    cadvisor_port: int | None = Field(None, ge=1, le=65535, strict=True, description="default: the kubelet's 10250")
    scrape_interval: Interval | None = Field(None, description="of these jobs; default: the fleet's scrape_interval")
    node_exporter_collectors: tuple[Collector, ...] = Field(
        (), description="ask node-exporter for these collectors only (collect[]); default: all it runs"
    )
    filesystem_mountpoints: str = HostSignals().filesystem_mountpoints
    thresholds: HostThresholds = HostThresholds()
    budget: HostBudget = HostBudget()

    @field_validator("filesystem_mountpoints")
    @classmethod
    def _mountpoints(cls, value: str) -> str:
        return host_regex(value, "filesystem_mountpoints")

    def rules(self, *, kubernetes: bool) -> HostSignals:
        """The rules' view: kube-state-metrics and cAdvisor exist only where some cluster is Kubernetes."""
        return HostSignals(
            node_exporter=self.node_exporter,
            node_exporter_alerts=self.node_exporter_alerts,
            kube_state_metrics=self.kube_state_metrics and kubernetes,
            cadvisor=self.cadvisor and kubernetes,
            filesystem_mountpoints=self.filesystem_mountpoints,
            thresholds=self.thresholds,
        )
