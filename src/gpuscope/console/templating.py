"""A dashboard's variables resolved against Prometheus, in order, each query seeing the ones before it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuscope.console.deadline import RequestDeadline
from gpuscope.console.timerange import TimeRange, interval_values, intervals
from gpuscope.console.variables import (
    LabelValues,
    Selection,
    Variable,
    apply_regex,
    choose,
    interpolate,
    parse_query,
    query_result_lines,
    sort_options,
)
from gpuscope.errors import ApiError, UsageError
from gpuscope.prom import AsyncClient, SlotTimeout


async def variable_options(
    prom: AsyncClient, variable: Variable, query: str, time: TimeRange, deadline: RequestDeadline
) -> list[str]:
    """A query variable's options: the query's values, through its regex, sorted."""
    parsed = parse_query(query)
    if isinstance(parsed, LabelValues):
        label, matches = parsed.label, [parsed.selector] if parsed.selector else []
        found = await deadline.run(lambda: prom.label_values(label, matches, time.from_ms / 1000, time.to_ms / 1000))
        raw = list(found)
    else:
        at, expr = time.to_ms / 1000, parsed.expr
        raw = query_result_lines(await deadline.run(lambda: prom.query(expr, at)), at)
    return sort_options(apply_regex(raw, variable.regex), variable.sort)


async def resolve(
    prom: AsyncClient,
    variables: Sequence[Variable],
    time: TimeRange,
    requested: Mapping[str, Sequence[str]],
    *,
    scrape_ms: int,
    deadline: RequestDeadline,
) -> tuple[dict[str, Selection], list[dict[str, Any]]]:
    """Every variable's selection, and what the page shows for each (options, current value, error); the chain
    shares ``deadline``: a variable after it is not asked, its error says why."""
    builtins = interval_values(intervals(time, data_points=1000, scrape_ms=scrape_ms))
    known = {v.name: v for v in variables}
    selections: dict[str, Selection] = {}
    shown: list[dict[str, Any]] = []
    for variable in variables:
        error: str | None = None
        if variable.type == "query":
            query = interpolate(variable.query, known, selections, builtins)
            try:
                options = await variable_options(prom, variable, query, time, deadline)
            except SlotTimeout:  # not this variable's failure: the whole request is answered 503
                raise
            except (ApiError, UsageError) as exc:
                options, error = [], str(exc)
        else:
            options = list(variable.options)
        selection = choose(variable, options, requested.get(variable.name, ()))
        selections[variable.name] = selection
        shown.append(
            {
                "name": variable.name,
                "label": variable.label,
                "type": variable.type,
                "multi": variable.multi,
                "includeAll": variable.include_all,
                "hide": variable.hide,
                "options": options,
                "current": list(selection.values),
                "all": selection.all,
                "error": error,
            }
        )
    return selections, shown
