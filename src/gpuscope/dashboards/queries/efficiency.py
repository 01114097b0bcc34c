"""Efficiency: the chargeback rollups live (GPUs held, activity-weighted active GPUs, power per namespace and
team), the figures ``gpuscope report`` sums over a range. Each cluster counts once across its HA replicas."""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q
from gpuscope.rules.efficiency_chargeback import ACTIVE_5M, GPUS_5M, HELD_5M, POWER_5M, TEAM_LABEL


def _by(q: Q, record: str, by: str) -> str:
    expr = f"sum by ({by}) (max by ({q.cluster}, {by}, modelName) ({q.rec(record, q.in_cluster)}))"
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
    cap = f"sum(max by ({q.cluster}, modelName) ({q.rec(GPUS_5M, q.in_cluster)}))"
    total = f"sum(max by ({q.cluster}, modelName) ({q.rec(HELD_5M, q.in_cluster)}))"
    return Query(cap, "GPUs"), Query(total, "held")


def team(q: Q) -> str:
    return TEAM_LABEL
