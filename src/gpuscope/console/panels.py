"""One panel's data: its targets interpolated, run against Prometheus, shaped for its type.

Range targets run as one range query each, over the range aligned to the step (so refreshes land on the same
points, as Grafana aligns them); ``instant`` targets run at the range's end. Table panels get their table;
the others get their series on the shared time grid. A target that fails leaves its error in ``errors`` and the
others still draw: the page shows the error on the panel.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpuscope.console.deadline import RequestDeadline
from gpuscope.console.frames import (
    Series,
    build_table,
    instant_series,
    range_series,
    sort_rows,
    time_grid,
    transform,
)
from gpuscope.console.timerange import TimeRange, interval_values, intervals, parse_duration_ms
from gpuscope.console.variables import Selection, Variable, interpolate
from gpuscope.errors import ApiError, UsageError
from gpuscope.prom import AsyncClient, Matrix, Sample, SlotTimeout, Vector


@dataclass(frozen=True, slots=True)
class PanelRequest:
    panel_id: int
    time: TimeRange
    selections: dict[str, Selection]
    width: int


def iter_panels(panels: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every panel, those inside collapsed rows included."""
    for panel in panels:
        yield panel
        yield from iter_panels(panel.get("panels") or [])


def find_panel(dashboard: Mapping[str, Any], panel_id: int) -> Mapping[str, Any]:
    for panel in iter_panels(dashboard.get("panels", [])):
        if panel.get("id") == panel_id:
            return panel
    raise UsageError(f"dashboard {dashboard.get('uid')!r} has no panel {panel_id}")


def dashboard_variables(dashboard: Mapping[str, Any]) -> list[Variable]:
    return [Variable.from_json(raw) for raw in (dashboard.get("templating") or {}).get("list", [])]


def _series_json(series: Sequence[Series]) -> list[dict[str, Any]]:
    return [{"refId": s.ref_id, "name": s.name, "labels": s.labels, "values": s.values} for s in series]


def _vector(result: Vector | Matrix) -> Vector:
    return tuple(s for s in result if isinstance(s, Sample))


async def panel_data(
    prom: AsyncClient, dashboard: Mapping[str, Any], req: PanelRequest, *, scrape_ms: int, deadline: RequestDeadline
) -> dict[str, Any]:
    panel = find_panel(dashboard, req.panel_id)
    kind = str(panel.get("type", ""))
    targets = [t for t in panel.get("targets") or [] if not t.get("hide") and t.get("expr")]
    points = int(panel.get("maxDataPoints") or req.width or 1000)
    min_interval = panel.get("interval")
    iv = intervals(
        req.time,
        data_points=points,
        scrape_ms=scrape_ms,
        min_interval_ms=parse_duration_ms(str(min_interval)) if min_interval else None,
    )
    builtins = interval_values(iv)
    variables = {v.name: v for v in dashboard_variables(dashboard)}
    exprs = [interpolate(str(t["expr"]), variables, req.selections, builtins) for t in targets]
    step = iv.step_s
    start = math.floor(req.time.from_ms / 1000 / step) * step
    end = math.floor(req.time.to_ms / 1000 / step) * step
    grid = time_grid(start, end, step)
    errors: list[str] = []
    table_kind = kind == "table"

    at = req.time.to_ms / 1000

    async def run(target: Mapping[str, Any], expr: str) -> Vector | Matrix:
        instant = bool(target.get("instant")) or table_kind
        try:
            if instant:
                return await deadline.run(lambda: prom.query(expr, at))
            return await deadline.run(lambda: prom.query_range(expr, start, end, step))
        except SlotTimeout:  # not this query's failure: the whole request is answered 503
            raise
        except ApiError as exc:
            errors.append(f"{target.get('refId', '?')}: {exc}")
            return ()

    started = time.perf_counter()
    results = await asyncio.gather(*(run(t, e) for t, e in zip(targets, exprs, strict=True)))
    out: dict[str, Any] = {
        "type": kind,
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),  # its queries, waiting for a slot included
        "queries": exprs,
        "interval": builtins["__interval"],
        "step_s": step,
        "errors": sorted(errors),
    }
    if table_kind:
        frames = [(str(t.get("refId", "A")), _vector(r)) for t, r in zip(targets, results, strict=True)]
        table = transform(build_table(frames, at_s=at, many=len(frames) > 1), panel.get("transformations") or [])
        table = sort_rows(table, (panel.get("options") or {}).get("sortBy") or [])
        out["table"] = table.to_json()
        return out
    series: list[Series] = []
    for target, result in zip(targets, results, strict=True):
        ref, legend = str(target.get("refId", "A")), target.get("legendFormat")
        if target.get("instant"):
            series += instant_series(ref, _vector(result), legend)
        else:
            series += range_series(ref, tuple(s for s in result if not isinstance(s, Sample)), legend, grid)
    out["times"] = [round(t * 1000) for t in grid]
    out["series"] = _series_json(series)
    return out
