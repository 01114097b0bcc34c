"""Who holds each GPU, in the four forms a store can carry it, and which one a store has (``--attribution``).

- ``info``: gpuscope's info series (``gpuscope_gpu_workload_info``, and ``gpuscope_gpu_job_info`` for Slurm jobs);
- ``labels``: ``namespace``/``pod`` on the DCGM series themselves (gpuscope's ``labels`` mode, dcgm-exporter's
  ``-k``), scraped with ``honorLabels: true``;
- ``old-labels``: dcgm-exporter's ``-o`` (``--use-old-namespace``) names, ``pod_namespace``/``pod_name``;
- ``exported``: ``exported_namespace``/``exported_pod``, what a ServiceMonitor with ``honorLabels: false`` makes
  of the pod labels (its own ``namespace``/``pod`` are then the exporter pod's, which is why ``exported`` and
  ``old-labels`` are looked for before ``labels``);
- ``none``: no attribution; the report still gives the fleet figures.

Detection asks one bounded question per form, in that order: does any series of the form exist over the range
(``group(...)``: at most one sample back per question, never the series). The label naming a GPU is asked the same
way: ``UUID``, or ``uuid`` where a store has only that (dcgm-exporter ``-o``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.rules.accounting import PRESENCE
from gpuscope.rules.promql import Promql

Dialect = Literal["info", "labels", "old-labels", "exported", "none"]
# What each form means, where the report says which one it used.
DESCRIPTION: dict[Dialect, str] = {
    "info": "gpuscope's workload info series (gpuscope_gpu_workload_info, gpuscope_gpu_job_info)",
    "labels": "namespace/pod labels on the DCGM series (dcgm-exporter -k, gpuscope labels mode)",
    "old-labels": "pod_namespace/pod_name labels on the DCGM series (dcgm-exporter -o)",
    "exported": "exported_namespace/exported_pod labels on the DCGM series (ServiceMonitor honorLabels: false)",
    "none": "no workload attribution in the store",
}
# The (namespace, pod) label names of each label form.
LABELS: dict[Dialect, tuple[str, str]] = {
    "labels": ("namespace", "pod"),
    "old-labels": ("pod_namespace", "pod_name"),
    "exported": ("exported_namespace", "exported_pod"),
}
DIALECTS: tuple[Dialect, ...] = ("info", "labels", "old-labels", "exported", "none")
# The order detection tries them in: a store behind honorLabels: false has the exporter pod's own namespace/pod on
# every series, so the renamed forms must win over plain labels.
DETECTION_ORDER: tuple[Dialect, ...] = ("info", "exported", "old-labels", "labels")


UuidLabel = Literal["UUID", "uuid"]
# The GPU UUID label's spellings: dcgm-exporter's own, and ``uuid`` with -o (reference/dcgm-exporter.md, 1.3).
UUID_LABELS: tuple[UuidLabel, ...] = ("UUID", "uuid")


@dataclass(frozen=True, slots=True)
class Attribution:
    dialect: Dialect
    detected: bool  # found in the store (--attribution auto) rather than given
    uuid_label: UuidLabel = "UUID"  # the label naming a GPU in this store

    @property
    def description(self) -> str:
        return DESCRIPTION[self.dialect]

    def summary(self, given: str = "given") -> str:
        """One line; ``given`` says how a form not detected was given (the CLI: by its flag)."""
        how = "detected" if self.detected else given
        keyed = f"; GPUs by their {self.uuid_label} label" if self.uuid_label != "UUID" else ""
        return f"attribution {self.dialect} ({how}): {self.description}{keyed}"


def configure(config: RulesConfig, attribution: Attribution) -> RulesConfig:
    """``config`` with the workload mode and label names of ``attribution``'s form and its GPU label."""
    update: dict[str, str] = {"uuid_label": attribution.uuid_label}
    if attribution.dialect == "info":
        update["workload_labels"] = "info"
    elif attribution.dialect == "none":
        update["workload_labels"] = "off"
    else:
        namespace, pod = LABELS[attribution.dialect]
        update |= {"workload_labels": "labels", "namespace_label": namespace, "pod_label": pod}
    return config.model_copy(update=update)


def uuid_probe(config: RulesConfig, label: UuidLabel, seconds: int) -> str:
    """Whether any GPU series carries ``label`` in the ``seconds`` up to the query's time (one sample or none)."""
    presence = Promql(config).dcgm(PRESENCE, f'{label}!=""')
    return f"group(last_over_time({presence}[{max(1, seconds)}s]))"


def probe(config: RulesConfig, dialect: Dialect, seconds: int) -> str:
    """Whether any series of ``dialect``'s form exists in the ``seconds`` up to the query's time: ``group`` answers
    one sample (or none) whatever the fleet's size."""
    q = Promql(config)
    span = f"{max(1, seconds)}s"
    if dialect == "info":
        info = q.exporter("gpuscope_gpu_workload_info")
        jobs = q.exporter("gpuscope_gpu_job_info")
        return f"group(last_over_time({info}[{span}]))\nor\ngroup(last_over_time({jobs}[{span}]))"
    namespace, pod = LABELS[dialect]
    presence = q.dcgm(PRESENCE, f'{namespace}!="",{pod}!=""')
    return f"group(last_over_time({presence}[{span}]))"
