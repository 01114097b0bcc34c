"""Efficiency: the chargeback rollups live (GPUs held, activity-weighted active GPUs, power per namespace and
team), the figures ``gpuscope report`` sums over a range, read through the same ``rollup_sum``: each cluster counts
once across its HA replicas, and GPUs are counted in the accounting unit (a MIG instance is its share of a GPU,
holders of a shared GPU split it; ``rules/accounting.py``).

Until a 5 m rollup exists (its group's first evaluation falls anywhere in the first five minutes of a new
Prometheus, and a holder that appeared since the last one is not in it yet) each panel shows the same quantity
from the once-a-minute per-holder records the rollups are the means of (``workload:gpu_held:ratio``,
``workload:gpu_active:ratio``, ``workload:gpu_power_watts:held1m``); where the long-term store keeps only the
rollups, those records are not there and the panels read the rollups alone.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q
from gpuscope.fields.labels import JOB_LABEL
from gpuscope.rules.accounting import TEAM_LABEL, unit_match
from gpuscope.rules.efficiency_chargeback import ACTIVE_5M, GPUS_5M, HELD_5M, POWER_5M, rollup_sum
from gpuscope.rules.recording import HELD, HELD_ACTIVE, HELD_POWER

# rollup -> the per-minute per-holder record of the same quantity
_LIVE = {HELD_5M: HELD, ACTIVE_5M: HELD_ACTIVE, POWER_5M: HELD_POWER}


def _series(q: Q, record: str, by: str) -> str:
    """A record in the selected clusters; series without the grouping label are named so (the team is a pod label
    the exporter's allowlist may not carry; a Slurm job is in no namespace or team), so they still show. The name
    is set on each series before any aggregation: VictoriaMetrics (the local stack's store) answers a
    ``label_replace`` around ``sum by (team) (max by (...) ...)`` with another label's value in place of the team."""
    selector = q.rec(record, q.in_cluster)
    if not by:
        return selector
    # a Slurm job (it has a job id, and no namespace or team) is named so; other holders without the label next
    jobs = f'label_replace({selector}, "{by}", "{SLURM_JOBS}", "{JOB_LABEL}", ".+")' if by != JOB_LABEL else selector
    return f'label_replace({jobs}, "{by}", "{unlabelled(by)}", "{by}", "")'


SLURM_JOBS = "Slurm jobs"


def unlabelled(by: str) -> str:
    """What the panels call the holders without the grouping label (the report's "(none)" row)."""
    return f"(no {by} label)"


def _live(q: Q, record: str, by: str) -> str:
    """A per-holder record summed by ``by``, each HA copy once."""
    c = q.c
    keys = f"{unit_match(q.p)}, {c.namespace_label}, {c.pod_label}, {JOB_LABEL}, modelName"
    if by and by not in keys.split(", "):
        keys += f", {by}"
    return f"sum by ({by}) (max by ({keys}) ({_series(q, _LIVE[record], by)}))"


def _by(q: Q, record: str, by: str) -> str:
    return f"{rollup_sum(q.p, _series(q, record, by), by)}\nor\n{_live(q, record, by)}"


def held(q: Q, by: str) -> Query:
    return Query(_by(q, HELD_5M, by), f"{{{{{by}}}}}")


def active(q: Q, by: str) -> Query:
    return Query(_by(q, ACTIVE_5M, by), f"{{{{{by}}}}}")


def efficiency(q: Q, by: str) -> Query:
    return Query(f"({_by(q, ACTIVE_5M, by)})\n/\n({_by(q, HELD_5M, by)})", f"{{{{{by}}}}}")


def idle(q: Q, by: str) -> Query:
    return Query(f"({_by(q, HELD_5M, by)})\n-\n({_by(q, ACTIVE_5M, by)})", f"{{{{{by}}}}}")


def power(q: Q, by: str) -> Query:
    return Query(_by(q, POWER_5M, by), f"{{{{{by}}}}}")


def held_vs_capacity(q: Q) -> tuple[Query, Query]:
    gpus = f"max by ({q.cluster}, modelName) ({q.rec('cluster:gpus:count_by_model', q.in_cluster)})"
    cap = f"{rollup_sum(q.p, q.rec(GPUS_5M, q.in_cluster), '')}\nor\nsum({gpus})"
    total = f"({rollup_sum(q.p, q.rec(HELD_5M, q.in_cluster), '')}\nor\n{_live(q, HELD_5M, '')})"
    return Query(cap, "GPUs"), Query(total, "held")


def team(q: Q) -> str:
    return TEAM_LABEL
