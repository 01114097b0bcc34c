"""Which label names and jobs this deployment uses, read from its own series, and the rules config that follows.

dcgm-exporter deployments differ from gpuscope's defaults in exactly the ways ``RulesConfig`` makes configurable:
the exporter's job name, ``Hostname`` or ``hostname`` (dcgm-exporter >= 4.8.3), ``UUID`` or ``uuid`` (``-o``),
classic or 4.9 metric names. Doctor reads them from the GPU temperature series and builds its queries (the same
builders the alerts use) from what it found, so one audit works on either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from gpuscope.errors import AuditError
from gpuscope.escaping import promql_string
from gpuscope.fields.catalog import RENAMED_IN_4_9
from gpuscope.prom.records import Vector
from gpuscope.ruleconfig.config import EXPORTER_JOB, RulesConfig
from gpuscope.rules.promql import regex_of

TEMP = "DCGM_FI_DEV_GPU_TEMP"
TEMP_4_9 = RENAMED_IN_4_9[TEMP]
HOST_LABELS = ("Hostname", "hostname")
# Workload attribution labels: dcgm-exporter's names, its -o names, and what honorLabels: false turns them into.
WORKLOAD_LABELS = (
    "pod",
    "namespace",
    "container",
    "pod_name",
    "pod_namespace",
    "container_name",
    "exported_pod",
    "exported_namespace",
    "exported_container",
    "hpc_job",
)


@dataclass(frozen=True, slots=True)
class PromInstance:
    """A Prometheus server whose self-metrics the audited Prometheus scrapes (itself, its HA peer)."""

    instance: str
    job: str
    started: float


@dataclass(frozen=True, slots=True)
class Detected:
    exporter_jobs: tuple[str, ...]
    dialect: Literal["classic", "4.9", "4.10"]  # detect() tells classic from 4.9 (a 4.10 stack reads as 4.9)
    gpu_labels: tuple[str, ...]
    host_label: Literal["Hostname", "hostname"]
    uuid_label: Literal["UUID", "uuid"]
    prometheus_instances: tuple[PromInstance, ...]
    external_labels: Mapping[str, str]
    cluster_label: str = "cluster"

    @property
    def host_labels(self) -> tuple[str, ...]:
        return tuple(h for h in HOST_LABELS if h in self.gpu_labels)

    @property
    def prometheus_jobs(self) -> tuple[str, ...]:
        return tuple(sorted({p.job for p in self.prometheus_instances}))

    @property
    def cluster(self) -> str | None:
        return self.external_labels.get(self.cluster_label)

    @property
    def workload_labels(self) -> tuple[str, ...]:
        return tuple(name for name in WORKLOAD_LABELS if name in self.gpu_labels)

    def to_json(self) -> dict[str, Any]:
        return {
            "exporter_jobs": list(self.exporter_jobs),
            "dialect": self.dialect,
            "host_label": self.host_label,
            "host_labels_present": list(self.host_labels),
            "uuid_label": self.uuid_label,
            "gpu_series_labels": list(self.gpu_labels),
            "prometheus_jobs": list(self.prometheus_jobs),
            "external_labels": dict(sorted(self.external_labels.items())),
            "cluster": self.cluster,
        }


def detection_queries(window: str) -> dict[str, str]:
    """Phase-one PromQL: nothing here may depend on label names not yet known."""
    return {
        "detect.temp.classic": f"group by (job) (last_over_time({TEMP}[{window}]))",
        "detect.temp.4.9": f"group by (job) (last_over_time({TEMP_4_9}[{window}]))",
        "detect.exporter_up": f'group by (job) (up{{job="{EXPORTER_JOB}"}})',
        "detect.prometheus": (
            "max by (instance, job) (process_start_time_seconds) "
            "and on (instance, job) group by (instance, job) (prometheus_build_info)"
        ),
    }


def _jobs(vector: Vector) -> tuple[str, ...]:
    return tuple(sorted({s.labels.get("job", "") for s in vector}))


def selector(jobs: Iterable[str]) -> str:
    """``job="x"`` for one job, ``job=~"x|y"`` for several."""
    names = sorted(set(jobs))
    if len(names) == 1:
        return f"job={promql_string(names[0])}"
    return f'job=~"{regex_of(tuple(names))}"'


def detect(
    results: Mapping[str, Vector],
    gpu_labels: Iterable[str],
    external_labels: Mapping[str, str],
    *,
    url: str,
    window: str,
    preferred_host_label: str | None = None,
) -> Detected:
    """Read the deployment's conventions from phase-one results; no GPU data at all is an ``AuditError``."""
    classic, renamed = _jobs(results["detect.temp.classic"]), _jobs(results["detect.temp.4.9"])
    dialect: Literal["classic", "4.9"] = "4.9" if renamed and not classic else "classic"
    jobs = classic or renamed or _jobs(results["detect.exporter_up"])
    if not jobs:
        raise AuditError(
            f"{{prometheus}} {url} has no GPU metrics: no {TEMP} (or {TEMP_4_9}) series in the last {window} and no "
            f'job="{EXPORTER_JOB}" targets; point {{prometheus}} at the Prometheus that scrapes the GPU exporters'
        ).naming("prometheus")
    labels = tuple(sorted(set(gpu_labels)))
    present = [h for h in HOST_LABELS if h in labels]
    host: Literal["Hostname", "hostname"] = "hostname" if present == ["hostname"] else "Hostname"
    if len(present) == 2 and preferred_host_label == "hostname":
        host = "hostname"
    instances = tuple(
        sorted(
            (
                PromInstance(s.labels.get("instance", ""), s.labels.get("job", ""), s.value)
                for s in results["detect.prometheus"]
            ),
            key=lambda p: (p.job, p.instance),
        )
    )
    return Detected(
        exporter_jobs=jobs,
        dialect=dialect,
        gpu_labels=labels,
        host_label=host,
        uuid_label="uuid" if "uuid" in labels and "UUID" not in labels else "UUID",
        prometheus_instances=instances,
        external_labels=dict(external_labels),
    )


def rules_config(detected: Detected, base: RulesConfig) -> RulesConfig:
    """``base`` (from the fleet spec, or the defaults) with every label name and selector as detected."""
    prometheus = selector(detected.prometheus_jobs) if detected.prometheus_jobs else base.prometheus_selector
    update: dict[str, str] = {
        "exporter_selector": selector(detected.exporter_jobs),
        "prometheus_selector": prometheus,
        "host_label": detected.host_label,
        "uuid_label": detected.uuid_label,
        "dialect": detected.dialect,
    }
    # Behind a ServiceMonitor with honorLabels: false the workload's pod labels are exported_*, and namespace/pod
    # are the exporter pod's own: every holder is read from the exported names.
    if {"exported_namespace", "exported_pod"} <= set(detected.gpu_labels):
        update.update(namespace_label="exported_namespace", pod_label="exported_pod")
    return base.model_copy(update=update)
