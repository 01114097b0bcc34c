"""Efficiency: who uses the GPUs they hold, live, from the chargeback rollups (``gpuscope report`` gives the
same figures over a range, with costs and a capacity forecast). Linked from L1 Fleet and L5 Workload."""

from __future__ import annotations

from gpuscope.dashboards import variables
from gpuscope.dashboards.model import Dashboard, Panel, Row
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import efficiency as e
from gpuscope.rules.accounting import UNIT_NOTE

KEY = "efficiency"


def _row(q: Q, by: str, title: str) -> Row:
    return Row(
        title,
        (
            Panel("GPUs held", "timeseries", (e.held(q, by),), unit="short", width=8, description=UNIT_NOTE),
            Panel(
                "Active GPUs (activity-weighted)",
                "timeseries",
                (e.active(q, by),),
                unit="short",
                width=8,
                description="Held GPUs weighted by SM active where profiling counters exist, else NVML utilization.",
            ),
            Panel("Efficiency", "timeseries", (e.efficiency(q, by),), unit="percentunit", min=0, max=1, width=8),
            Panel("Idle held GPUs", "timeseries", (e.idle(q, by),), unit="short", width=12),
            Panel("Power of held GPUs (energy counter)", "timeseries", (e.power(q, by),), unit="watt", width=12),
        ),
    )


def efficiency_dashboard(q: Q) -> Dashboard:
    ns = q.c.namespace_label
    return Dashboard(
        key=KEY,
        title="GPU Efficiency",
        description="GPUs held vs used per namespace and team, from the chargeback rollups; "
        f"`gpuscope report` prices it over a range. {UNIT_NOTE}",
        variables=(variables.cluster(q),),
        rows=(
            Row("Fleet", (Panel("GPUs and GPUs held", "timeseries", e.held_vs_capacity(q), unit="short", width=24),)),
            _row(q, ns, "By namespace"),
            _row(q, e.team(q), "By team"),
        ),
    )
