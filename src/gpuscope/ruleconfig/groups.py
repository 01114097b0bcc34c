"""The records of a pod-label group (``team:gpu_activity:avg5m``) and which labels cannot be a group's.

A group label cannot be one the attribution rules join and group on (PromQL refuses a label in both ``on`` and
``group_left``), nor one whose records another rule already writes (``namespace:gpu_activity:avg5m`` exists: two
rules writing one series with different labels). ``RECORDED_BY_OTHERS`` lists the latter per workload-labels mode;
``tests/rules/test_workload_attribution.py`` holds it equal to what the rules record, so the spec can check a label
where it is written without building every rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from gpuscope.ruleconfig.config import RulesConfig

GROUP_RECORDS = ("gpu_activity:avg5m", "gpus_allocated:count")  # what each pod-label group records
_ALWAYS = frozenset({"cluster", "fleet", "job", "node", "workload"})
# The labels L for which another rule records ``L:<one of GROUP_RECORDS>``, by ``RulesConfig.workload_labels``
# (``off`` drops the namespace and DRA-claim rollups).
RECORDED_BY_OTHERS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "info": _ALWAYS | {"namespace", "dra_claim"},
        "labels": _ALWAYS | {"namespace", "dra_claim"},
        "off": _ALWAYS,
    }
)


def join_labels(config: RulesConfig) -> tuple[str, ...]:
    """The labels a group's records join the holders' records on, and group by: a pod group label may not be one
    of them (PromQL refuses a label in both ``on`` and ``group_left``; ``by (cluster, cluster)`` is a duplicate)."""
    return (config.cluster_label, config.uuid_label, "GPU_I_ID", config.namespace_label, config.pod_label)


def group_record(label: str, what: str) -> str:
    """The recorded series of one pod-label group, e.g. ``team:gpu_activity:avg5m``."""
    return f"{label}:{what}"


def group_label_problem(label: str, config: RulesConfig) -> str | None:
    """Why ``label`` cannot be one of ``pod_group_labels`` under ``config``, or None."""
    if label in join_labels(config):
        return (
            f"{label!r} is a label the attribution rules already join and group on "
            f"({', '.join(join_labels(config))}): name a pod label of your own, e.g. team"
        )
    if label in RECORDED_BY_OTHERS[config.workload_labels]:
        clash = group_record(label, GROUP_RECORDS[0])
        return f"{label!r} would record {clash}, which another rule already records: name another pod label"
    return None
