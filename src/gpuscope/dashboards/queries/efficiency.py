"""Efficiency: the chargeback rollups live (GPUs held, activity-weighted active GPUs, power per namespace and
team), the figures ``gpuscope report`` sums over a range, read through the same ``rollup_sum``: each cluster counts
once across its HA replicas, and GPUs are counted in the accounting unit (a MIG instance is its share of a GPU,
holders of a shared GPU split it; ``rules/accounting.py``)."""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q
from gpuscope.rules.efficiency_chargeback import ACTIVE_5M, GPUS_5M, HELD_5M, POWER_5M, TEAM_LABEL, rollup_sum


def _by(q: Q, record: str, by: str) -> str:
    expr = rollup_sum(q.p, q.rec(record, q.in_cluster), by)
    if by == TEAM_LABEL:
        # The team is a pod label the exporter's allowlist may not carry: GPUs without one still show, named so.
        return f'label_replace({expr}, "{by}", "(no {by} label)", "{by}", "")'
    return expr


def held(q: Q, by: str) -> Query:
    return Query(_by(q, HELD_5M, by), f"{{{{{by}}}}}")


def active(q: Q, by: str) -> Query:
    return Query(_by(q, ACTIVE_5M, by), f"{{{{{by}}}}}")


def efficiency(q: Q, by: str) -> Query:
    return Query(f"{_by(q, ACTIVE_5M, by)}\n/\n{_by(q, HELD_5M, by)}", f"{{{{{by}}}}}")


def idle(q: Q, by: str) -> Query:
    return Query(f"{_by(q, HELD_5M, by)}\n-\n{_by(q, ACTIVE_5M, by)}", f"{{{{{by}}}}}")


def power(q: Q, by: str) -> Query:
    return Query(_by(q, POWER_5M, by), f"{{{{{by}}}}}")


def held_vs_capacity(q: Q) -> tuple[Query, Query]:
    cap = rollup_sum(q.p, q.rec(GPUS_5M, q.in_cluster), "")
    total = rollup_sum(q.p, q.rec(HELD_5M, q.in_cluster), "")
    return Query(cap, "GPUs"), Query(total, "held")


def team(q: Q) -> str:
    return TEAM_LABEL
