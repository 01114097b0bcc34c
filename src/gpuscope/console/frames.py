"""Prometheus results -> what a panel draws: named series on one time grid, or a table after its transformations.

Series are named by the target's ``legendFormat`` (``{{label}}`` replaced by the series' labels); without one, by
the series' selector, as Grafana names them. A table is built as Grafana builds one from instant queries in
table format: a column per label, the value in ``Value`` (``Value #<refId>`` when the panel has several
queries); then the panel's ``merge``, ``organize`` and ``groupingToMatrix`` transformations run in order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gpuscope.prom import Matrix, Vector

_LEGEND = re.compile(r"\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}")
HIDDEN_LABELS = ("__name__",)


@dataclass(frozen=True, slots=True)
class Series:
    ref_id: str
    name: str
    labels: dict[str, str]
    values: list[float | None]


@dataclass(slots=True)
class Table:
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"columns": self.columns, "rows": self.rows}


def _number(text: Any) -> float | None:
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) or math.isinf(value) else value


def series_name(labels: Mapping[str, str], legend: str | None) -> str:
    if legend and legend != "__auto":
        return _LEGEND.sub(lambda m: labels.get(m.group(1), ""), legend)
    rest = {k: v for k, v in labels.items() if k != "__name__"}
    inner = ", ".join(f'{k}="{v}"' for k, v in sorted(rest.items()))
    name = labels.get("__name__", "")
    if not inner:
        return name or "value"
    return f"{name}{{{inner}}}"


def time_grid(start_s: float, end_s: float, step_s: float) -> list[float]:
    """The timestamps (seconds) a range query with this start, end and step answers at."""
    count = math.floor((end_s - start_s) / step_s + 1e-9) + 1
    return [round(start_s + i * step_s, 3) for i in range(max(0, count))]


def range_series(ref_id: str, result: Matrix, legend: str | None, grid: Sequence[float]) -> list[Series]:
    """A range query's matrix on the panel's grid (missing points are None, as gaps)."""
    index = {round(t, 3): i for i, t in enumerate(grid)}
    out = []
    for item in result:
        labels = dict(item.labels)
        values: list[float | None] = [None] * len(grid)
        for ts, raw in item.points:
            slot = index.get(round(ts, 3))
            if slot is not None:
                values[slot] = _number(raw)
        out.append(Series(ref_id=ref_id, name=series_name(labels, legend), labels=labels, values=values))
    return out


def instant_series(ref_id: str, result: Vector, legend: str | None) -> list[Series]:
    out = []
    for item in result:
        labels = dict(item.labels)
        out.append(Series(ref_id=ref_id, name=series_name(labels, legend), labels=labels, values=[_number(item.value)]))
    return out


def build_table(frames: Sequence[tuple[str, Vector]], *, at_s: float, many: bool) -> list[Table]:
    """One table per query (``Time``, the labels, ``Value`` or ``Value #<refId>``), as Grafana's table format; the
    queries are instant ones evaluated at ``at_s``, the time every row carries."""
    tables = []
    for ref_id, result in frames:
        value_col = f"Value #{ref_id}" if many else "Value"
        # a label empty on every row is no column (VictoriaMetrics may answer GPU_I_ID="" for a whole GPU)
        labels = sorted({k for item in result for k, v in item.labels.items() if v})
        table = Table(columns=["Time", *labels, value_col])
        # rows in reading order: by every label but the UUID first, so one node's GPUs come by index, not by UUID
        order = sorted(labels, key=lambda k: "uuid" in k.lower())
        for item in sorted(result, key=lambda i: [_natural(i.labels.get(k, "")) for k in order]):
            table.rows.append([round(at_s * 1000), *(item.labels.get(k, "") for k in labels), _number(item.value)])
        tables.append(table)
    return tables


def merge(tables: Sequence[Table]) -> Table:
    """Grafana's merge: rows that agree on every shared non-value column become one row."""
    columns: list[str] = []
    for table in tables:
        columns += [c for c in table.columns if c not in columns]
    value_cols = {c for c in columns if c == "Value" or c.startswith("Value #")}
    keys = [c for c in columns if c not in value_cols and c != "Time"]
    merged: dict[tuple[str, ...], dict[str, Any]] = {}
    for table in tables:
        for row in table.rows:
            record = dict(zip(table.columns, row, strict=True))
            key = tuple(str(record.get(k, "")) for k in keys)
            into = merged.setdefault(key, {})
            for name, value in record.items():
                if value is not None or name not in into:
                    into[name] = value
    return Table(columns=columns, rows=[[rec.get(c) for c in columns] for rec in merged.values()])


def organize(table: Table, options: Mapping[str, Any]) -> Table:
    exclude = {k for k, v in (options.get("excludeByName") or {}).items() if v}
    rename: Mapping[str, str] = options.get("renameByName") or {}
    order: Mapping[str, int] = options.get("indexByName") or {}
    keep = [c for c in table.columns if c not in exclude]
    if order:
        keep.sort(key=lambda c: order.get(c, len(order) + table.columns.index(c)))
    idx = [table.columns.index(c) for c in keep]
    return Table(columns=[rename.get(c) or c for c in keep], rows=[[row[i] for i in idx] for row in table.rows])


def grouping_to_matrix(table: Table, options: Mapping[str, Any]) -> Table:
    row_field = str(options.get("rowField", ""))
    col_field = str(options.get("columnField", ""))
    value_field = str(options.get("valueField", "Value"))
    if value_field not in table.columns:
        value_field = next((c for c in table.columns if c.startswith("Value")), value_field)
    if not {row_field, col_field, value_field} <= set(table.columns):
        return table
    ri, ci, vi = (table.columns.index(c) for c in (row_field, col_field, value_field))
    row_keys = sorted({str(r[ri]) for r in table.rows}, key=_natural)
    col_keys = sorted({str(r[ci]) for r in table.rows}, key=_natural)
    cells = {(str(r[ri]), str(r[ci])): r[vi] for r in table.rows}
    return Table(
        columns=[f"{row_field}\\{col_field}", *col_keys],
        rows=[[rk, *(cells.get((rk, ck)) for ck in col_keys)] for rk in row_keys],
    )


def _natural(text: str) -> list[tuple[int, int | str]]:
    return [(0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", text) if p]


def sort_rows(table: Table, sort_by: Sequence[Mapping[str, Any]]) -> Table:
    """A table panel's ``sortBy`` (its first column that the table has), numbers in text as numbers: GPU 10 comes
    after GPU 9, as Grafana sorts a column converted to numbers."""
    for spec in sort_by:
        name = str(spec.get("displayName", ""))
        if name in table.columns:
            i = table.columns.index(name)
            rows = sorted(
                table.rows, key=lambda r: _natural("" if r[i] is None else str(r[i])), reverse=bool(spec.get("desc"))
            )
            return Table(columns=table.columns, rows=rows)
    return table


def transform(tables: Sequence[Table], transformations: Sequence[Mapping[str, Any]]) -> Table:
    """Run a table panel's transformations; without a merge, the panel shows its first query's table."""
    current = list(tables)
    for step in transformations:
        kind, options = step.get("id"), step.get("options") or {}
        if kind == "merge":
            current = [merge(current)]
        elif kind == "organize":
            current = [organize(t, options) for t in current]
        elif kind == "groupingToMatrix":
            current = [grouping_to_matrix(t, options) for t in current]
    if not current:
        return Table(columns=[])
    return current[0]
