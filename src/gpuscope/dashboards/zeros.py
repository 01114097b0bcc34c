"""Zero where zero is the truth: a failure signal answers 0 ("none") while nothing is wrong, not "No data".

A failure signal (``Query.fault``: XIDs, lost GPUs, firing alerts, targets down) is empty on a healthy fleet,
and so is it when nothing arrives at all: an exporter gone, the rules not evaluating. A person cannot tell the
two apart, so each such query names a gate (``Query.zero``): an expression with a value exactly while the
pipeline behind it answers (the GPUs in scope report, the rules run). The query becomes

    max without () (signal) or on () (0 * gate unless on () other signals of the panel)

which is the signal where there is one, 0 where there is none and the gate answers, and still empty ("No
data") where the gate is empty too: a broken pipeline never reads as a healthy zero. Only the panel's first
gated query carries the fallback, and only while the panel's other signals are empty too, so a table that
merges several signals gets one "none" row on a healthy fleet and no stray zero row beside a real one.
The 0 is shown as "none" in green (a value mapping; a table's on its own columns, see ``sdk``).
"""

from __future__ import annotations

from dataclasses import replace

from gpuscope.dashboards.model import Dashboard, Panel, Row, ValueText
from gpuscope.dashboards.styles import NONE

WHEN_EMPTY = "No data means nothing arrives: the GPUs in scope do not report, or the rules do not run."


def fallback(expr: str, gate: str, others: tuple[str, ...] = ()) -> str:
    """``expr``, or 0 where it is empty and ``gate`` (and none of ``others``) has a value.

    Each signal is wrapped in ``max without ()``, which is no change in Prometheus (but for the metric name) and
    matters in VictoriaMetrics: MetricsQL keeps the series a comparison filtered out, with no value, and its ``or``
    fills their gaps from the right-hand side, so ``x > 0 or on () (0 * gate)`` answered every filtered GPU as 0.
    An aggregation drops them first.
    """
    unless = "".join(f"\n  unless on () max without () ({o})" for o in others)
    return f"max without () ({expr})\nor on () (\n  0 * {gate}{unless}\n)"


def with_zero(panel: Panel) -> Panel:
    gated = [i for i, q in enumerate(panel.queries) if q.zero]
    if not gated:
        return panel
    first = gated[0]
    others = tuple(q.expr for i, q in enumerate(panel.queries) if i != first and q.fault)
    queries = list(panel.queries)
    queries[first] = replace(queries[first], expr=fallback(queries[first].expr, queries[first].zero, others))
    mappings: tuple[ValueText, ...] = panel.mappings
    if panel.kind != "table" and not any(m.value == NONE.value for m in mappings):
        mappings = (*mappings, NONE)  # a table maps its signal columns only (sdk), not its label columns
    description = " ".join(p for p in (panel.description, WHEN_EMPTY) if p)
    return replace(panel, queries=tuple(queries), mappings=mappings, description=description)


def with_zeros(dashboard: Dashboard) -> Dashboard:
    rows = tuple(Row(r.title, tuple(with_zero(p) for p in r.panels)) for r in dashboard.rows)
    return replace(dashboard, rows=rows)
