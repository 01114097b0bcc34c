"""Dashboards as data: queries, panels, rows, variables and drill-down links, before any Grafana JSON exists.

Generators build these plain records; ``defaults`` applies the shared policy in one pass (ids, positions, uids,
links) and ``sdk`` turns the result into Grafana's JSON through grafana-foundation-sdk. Keeping our own model
means PromQL and layout never touch the SDK, and a bump of the SDK changes one module.

Records with more than a few fields take the obvious leading ones by position (a query's expression and legend, a
panel's title, kind and queries) and everything else by keyword only, so that no call is a row of bare values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from typing import Literal

Kind = Literal["timeseries", "stat", "table", "heatmap", "bargauge", "statushistory"]

# The template variables a drill-down link may set, in the order they appear on a dashboard.
VariableName = Literal["cluster", "node", "gpu", "mig", "namespace", "pod", "job_id"]


@dataclass(frozen=True, slots=True)
class Steps:
    """Threshold colours, lowest first: ``base`` below the first step, then each ``(value, colour)`` from there up.

    ``source`` says where the thresholds come from (the alert and setting), for the panel's description.
    """

    base: str
    steps: tuple[tuple[float, str], ...] = ()
    _: KW_ONLY
    source: str = ""


@dataclass(frozen=True, slots=True)
class Query:
    """One PromQL target; ``instant`` for one value per series (tables are always instant)."""

    expr: str
    legend: str = ""
    _: KW_ONLY
    instant: bool = False
    # Catalog names this query reads, for tests that check each collected field is shown with live data.
    fields: tuple[str, ...] = ()
    # A failure signal: empty on a healthy fleet, so tests run it with the matching fault injected.
    fault: str = ""
    # For a failure signal: an expression that has a value exactly while the pipeline behind the query answers
    # (the GPUs in scope report, the rules evaluate). Where it has one and the signal is empty, the panel shows 0
    # ("none"), so "nothing is wrong" reads differently from "nothing arrives" (``zeros.with_zeros``).
    zero: str = ""
    # A table column's own unit and threshold colours, where a table mixes columns.
    unit: str = ""
    steps: Steps | None = None


@dataclass(frozen=True, slots=True)
class Link:
    """A drill-down to another dashboard, setting its variables from the clicked series or row."""

    title: str
    dashboard: str  # the target's key, e.g. "l3-node"
    params: tuple[tuple[VariableName, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ValueText:
    """A value mapping: ``value`` shown as ``text`` in ``color``."""

    value: str
    text: str
    color: str


@dataclass(frozen=True, slots=True)
class Transform:
    """A Grafana transformation (``merge``, ``organize``, ``groupingToMatrix``, ...)."""

    id: str
    options: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Panel:
    title: str
    kind: Kind
    queries: tuple[Query, ...]
    _: KW_ONLY
    unit: str = "none"
    description: str = ""
    steps: Steps | None = None
    width: int = 12
    height: int = 8
    links: tuple[Link, ...] = ()
    min: float | None = None
    max: float | None = None
    mappings: tuple[ValueText, ...] = ()
    # A table's rows sorted by this column (numbers as numbers: GPU 10 after GPU 9)
    sort_by: str = ""
    transforms: tuple[Transform, ...] = ()


@dataclass(frozen=True, slots=True)
class Row:
    title: str
    panels: tuple[Panel, ...]


@dataclass(frozen=True, slots=True)
class Variable:
    """A query variable over ``label_values``; ``include_all`` adds "All" as the regex ``.*``."""

    name: VariableName
    label: str
    query: str
    _: KW_ONLY
    include_all: bool = False
    multi: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Dashboard:
    key: str  # file stem and uid suffix: "l2-cluster"
    title: str
    description: str
    variables: tuple[Variable, ...]
    rows: tuple[Row, ...]
    # Keys of the dashboards this one drills down to, shown as links in its top bar.
    drills_to: tuple[str, ...] = ()


def present(*queries: Query | None) -> tuple[Query, ...]:
    """The queries that exist: a query is ``None`` where the collectors CSV lacks its fields."""
    return tuple(q for q in queries if q is not None)


def one_query_timeseries(title: str, query: Query, unit: str, description: str, *, bounded: bool = False) -> Panel:
    """A third-width time series of one query; ``bounded``: a ratio drawn on 0..1."""
    return Panel(
        title,
        "timeseries",
        (query,),
        unit=unit,
        min=0 if bounded else None,
        max=1 if bounded else None,
        description=description,
        width=8,
    )
