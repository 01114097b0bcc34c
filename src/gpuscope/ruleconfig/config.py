"""The one object every rule, alert (and later dashboard) is generated from: selectors, label names, thresholds.

Defaults suit a gpuscope fleet scraped as ``job="dcgm-exporter"``; every value a dcgm-exporter deployment may
differ in (host label casing, pod label names after ``honorLabels: false``, the UUID label with ``-o``) is a
setting here, never a literal in a rule.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from gpuscope.durations import prometheus_seconds
from gpuscope.escaping import template_free
from gpuscope.fields.xid import CRITICAL_XIDS
from gpuscope.ruleconfig.host import HostSignals

DEFAULT_MODELS = (
    "NVIDIA H100 80GB HBM3",
    "NVIDIA H100 PCIe",
    "NVIDIA H200",
    "NVIDIA A100-SXM4-80GB",
    "NVIDIA A100-SXM4-40GB",
    "NVIDIA A100 80GB PCIe",
    "NVIDIA L40S",
)


_DURATION = r"^[0-9]+[smhd]$"


class Thresholds(BaseModel):
    """When hardware and workload alerts fire."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)  # true is not a number

    idle_activity_ratio: float = Field(0.05, gt=0, lt=1, description="allocated GPU counts as idle below this")
    idle_for: str = Field("50m", pattern=_DURATION, description="how long an allocated GPU stays idle before alerting")
    thermal_temperature_celsius: int = Field(85, ge=40, le=120, description="temperature that means throttling")
    thermal_violation_ratio: float = Field(0.2, gt=0, le=1, description="share of time thermally throttled")
    nvlink_errors_per_5m: int = Field(0, ge=0, description="NVLink error increase tolerated per 5 minutes")
    snapshot_stale_intervals: int = Field(3, ge=2, description="snapshot age, in collection intervals, that is stale")
    churn_ratio_per_hour: float = Field(0.5, gt=0, description="series created per hour / head series")
    job_stale_after: str = Field("10m", pattern=_DURATION, description="a pushed job is stale after this long")
    unattributed_memory_mib: int = Field(256, ge=0, description="GPU memory held by no live pod tolerated per GPU")
    unattributed_for: str = Field("10m", pattern=_DURATION, description="how long before that memory alerts")


# The longest scrape interval the rules fit themselves to (``rules/timescale.py`` ``fit_scrape_interval``). Longer,
# the windows thresholds are counted over (``increase(...[5m]) > nvlink_errors_per_5m``) would have to widen
# past what their threshold means, and an instant query's 5 m look-back would drop every GPU of a target after two
# missed scrapes: every instant reading of the rules (temperatures, the XID gauge, the workload series) relies on it.
MAX_SCRAPE_INTERVAL_S = 60
_SPAN = r"^(?:[0-9]+(?:ms|s|m|h|d))+$"


def scrape_interval_problem(interval: str) -> str | None:
    """Why the rules cannot run at scrape interval ``interval``, or None."""
    if prometheus_seconds(interval) > MAX_SCRAPE_INTERVAL_S:
        return (
            f"{interval} is longer than the rules support; use 1m or less (the rules widen their windows to fit "
            "any interval up to 1m)"
        )
    return None


# The scrape job of the GPU exporters in every generated Prometheus config, dcgm-exporter's own job name: what the
# rules select by default and what the doctor looks for first.
EXPORTER_JOB = "dcgm-exporter"


class RulesConfig(BaseModel):
    """Selectors, label names, thresholds and budgets for the generated rules."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    exporter_selector: str = f'job="{EXPORTER_JOB}"'
    prometheus_selector: str = 'job="prometheus"'
    # Pushgateway is scraped with honor_labels: true, so `job` is the pushed job's name; select by the job_id
    # label of the grouping key instead.
    job_metrics_selector: str = 'job_id!=""'
    host_label: Literal["Hostname", "hostname"] = "Hostname"
    uuid_label: Literal["UUID", "uuid"] = "UUID"
    cluster_label: str = "cluster"
    dialect: Literal["classic", "4.9", "4.10"] = "classic"
    workload_labels: Literal["info", "labels", "off"] = "info"
    namespace_label: str = "namespace"
    pod_label: str = "pod"
    critical_xids: tuple[int, ...] = CRITICAL_XIDS
    budgeted_models: tuple[str, ...] = DEFAULT_MODELS
    head_series_budget: int = Field(2_000_000, gt=0)
    head_series_warn_ratio: float = Field(0.8, gt=0, lt=1)
    runbook_base_url: str = "docs/runbooks"
    thresholds: Thresholds = Thresholds()
    host: HostSignals = (
        HostSignals()
    )  # node-exporter, kube-state-metrics, cAdvisor (rules/alerts_host.py, alerts_kube.py)
    speedup: int = Field(1, ge=1, le=60, description="divide every rule duration by this (demos/tests; 1 = real time)")
    # How often the exporters are scraped, in rule time: the spec's scrape_interval times the speedup (gpuscope up
    # --fast scrapes every second at speedup 15: 15 s, what the rules are written for). Windows shorter than two
    # scrapes (four for rate-family functions) widen to that (``rules/timescale.py`` ``fit_scrape_interval``).
    scrape_interval: str = Field(
        "15s", pattern=_SPAN, description="the exporters' scrape interval, times the speedup (rule time)"
    )
    # Kubernetes attribution (rules/workload_attribution.py): pod labels to roll up by (from the exporter's
    # allowlist, e.g. team), and whether GPUs are shared (virtual GPUs) or allocated through DRA.
    pod_group_labels: tuple[str, ...] = ()
    virtual_gpus: bool = False
    dra: bool = False

    @field_validator("scrape_interval")
    @classmethod
    def _scrape_interval(cls, value: str, info: ValidationInfo) -> str:
        # Compressed time (demos, tests) is the caller's to size; real time is held to what the rules support.
        real = info.data.get("speedup") == 1
        problem = scrape_interval_problem(value) if real else None
        if prometheus_seconds(value) <= 0:
            problem = "give a scrape interval above 0"
        if problem:
            raise ValueError(problem)
        return value

    @field_validator("critical_xids")
    @classmethod
    def _xids(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if not value or any(not 0 < x < 1000 for x in value):
            raise ValueError("list at least one XID, each between 1 and 999")
        if set(value) == {79}:
            raise ValueError("list at least one XID besides 79 (XID 79 always pages as GPUFellOffBus)")
        return tuple(sorted(set(value)))

    @field_validator("pod_group_labels")
    @classmethod
    def _group_labels(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for name in value:
            if not re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_]*", name) or name.startswith("__"):
                raise ValueError(
                    f"{name!r} is not a label name: write the pod label as the exporter names it, e.g. team"
                )
        return tuple(dict.fromkeys(value))

    @field_validator("runbook_base_url")
    @classmethod
    def _runbooks(cls, value: str) -> str:
        return template_free(value, "runbook_base_url")  # it goes into every alert's annotations, a template

    @field_validator("budgeted_models")
    @classmethod
    def _models(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not value:
            raise ValueError("list the GPU models (modelName values) the fleet's budget is sized for")
        return tuple(sorted(set(value)))

    @field_validator("exporter_selector", "prometheus_selector", "job_metrics_selector")
    @classmethod
    def _selector(cls, value: str) -> str:
        if "{" in value or "}" in value or ("=" not in value and "~" not in value):
            raise ValueError('write label matchers without braces, e.g. job="dcgm-exporter"')
        return value
