"""Template variables: their queries, their current values, and their interpolation into PromQL.

Grafana's rules, for a Prometheus data source:

* ``label_values(label)`` and ``label_values(selector, label)`` list a label's values (over the time range);
  ``query_result(expr)`` lists an instant query's results as ``metric{labels} value timestamp`` lines. A
  variable's ``regex`` then keeps matching options, and its first capture group becomes the option.
* Variables resolve in dashboard order, so a later variable's query can use an earlier one (cluster -> node ->
  GPU).
* The current value is the one asked for (the URL's ``var-<name>``) when it is an option; otherwise ``All``
  when the variable has it, else the first option. ``$__all`` asks for ``All``.
* In a query, a variable that is neither multi-value nor has ``All`` is inserted as is; the others are
  regex-escaped, and several values become ``(a|b)``. ``All`` is the ``allValue`` (``.*``) when set, else every
  option. Values land inside PromQL's double-quoted strings, so backslashes and quotes are escaped for it too.
* ``$name``, ``${name}``, ``${name:format}`` and ``[[name]]`` are all references.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from gpuscope.errors import UsageError
from gpuscope.prom import Vector

ALL = "$__all"
_LABEL_VALUES = re.compile(
    r"^\s*label_values\(\s*(?:(?P<selector>.*)\s*,\s*)?(?P<label>[a-zA-Z_][a-zA-Z0-9_]*)\s*\)\s*$"
)
_QUERY_RESULT = re.compile(r"^\s*query_result\((?P<expr>.*)\)\s*$", re.DOTALL)
_REFERENCE = re.compile(r"\$(\w+)|\$\{(\w+)(?::(\w+))?\}|\[\[(\w+)(?::(\w+))?\]\]")
_REGEX_SPECIAL = re.compile(r"[$^*{}\[\]'+?.()|\\]")


@dataclass(frozen=True, slots=True)
class Variable:
    """One entry of a dashboard's ``templating.list``."""

    name: str
    type: str
    query: str
    label: str = ""
    multi: bool = False
    include_all: bool = False
    all_value: str | None = None
    regex: str = ""
    sort: int = 0
    hide: int = 0
    options: tuple[str, ...] = ()  # custom / constant / datasource variables

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Variable:
        query = raw.get("query", "")
        if isinstance(query, Mapping):
            query = query.get("query", "")
        kind = str(raw.get("type", "query"))
        options: tuple[str, ...] = ()
        if kind == "custom":
            options = tuple(part.strip() for part in str(query).split(",") if part.strip())
        elif kind in ("constant", "datasource", "textbox"):
            options = (str(query),)
        return cls(
            name=str(raw["name"]),
            type=kind,
            query=str(query),
            label=str(raw.get("label") or raw["name"]),
            multi=bool(raw.get("multi", False)),
            include_all=bool(raw.get("includeAll", False)),
            all_value=raw.get("allValue") or None,
            regex=str(raw.get("regex") or ""),
            sort=int(raw.get("sort") or 0),
            hide=int(raw.get("hide") or 0),
            options=options,
        )


@dataclass(frozen=True, slots=True)
class Selection:
    """A variable's current value: the chosen options, or ``All`` (which stands for every option)."""

    values: tuple[str, ...]
    all: bool = False
    options: tuple[str, ...] = field(default=())

    def expanded(self) -> tuple[str, ...]:
        return self.options if self.all else self.values


@dataclass(frozen=True, slots=True)
class LabelValues:
    label: str
    selector: str | None


@dataclass(frozen=True, slots=True)
class QueryResult:
    expr: str


def parse_query(text: str) -> LabelValues | QueryResult:
    """A query variable's query, as one of the two kinds the console runs."""
    if match := _LABEL_VALUES.match(text):
        selector = (match.group("selector") or "").strip() or None
        return LabelValues(label=match.group("label"), selector=selector)
    if match := _QUERY_RESULT.match(text):
        return QueryResult(expr=match.group("expr").strip())
    raise UsageError(f"variable query {text!r}: the console runs label_values(...) and query_result(...) queries")


def query_result_lines(result: Vector, at_s: float) -> list[str]:
    """An instant vector (evaluated at ``at_s``) as Grafana lists it for ``query_result``:
    ``name{a="1"} value timestamp_ms``, the value written as Prometheus writes it."""
    lines = []
    for sample in result:
        metric = dict(sample.labels)
        name = metric.pop("__name__", "")
        labels = ",".join(f'{k}="{v}"' for k, v in sorted(metric.items()))
        lines.append(f"{name}{{{labels}}} {prometheus_number(sample.value)} {round(at_s * 1000)}")
    return lines


def prometheus_number(value: float) -> str:
    """A float as Prometheus's JSON writes it (Go's shortest 'f' format): 3, 0.5, 0.0000001, NaN, +Inf."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value.is_integer():
        return str(int(value))
    return format(Decimal(repr(value)), "f")


def apply_regex(values: Sequence[str], pattern: str) -> list[str]:
    """Keep matching values; the first capture group (or the group named ``value``) becomes the option."""
    if not pattern:
        return list(values)
    body = pattern[1:-1] if len(pattern) > 1 and pattern.startswith("/") and pattern.endswith("/") else pattern
    try:
        compiled = re.compile(body)
    except re.error as exc:
        raise UsageError(f"variable regex {pattern!r}: {exc}") from None
    out = []
    for value in values:
        match = compiled.search(value)
        if match is None:
            continue
        if "value" in compiled.groupindex:
            out.append(match.group("value"))
        elif compiled.groups:
            out.append(match.group(1))
        else:
            out.append(value)
    return out


def _natural_key(text: str) -> list[tuple[int, int | str]]:
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part]


def _number(text: str) -> float:
    match = re.search(r"-?\d+(?:\.\d+)?", text)
    return float(match.group()) if match else float("-inf")


def sort_options(values: Sequence[str], sort: int) -> list[str]:
    """Grafana's sort codes: 0 as queried, 1/2 alphabetical, 3/4 numerical, 5/6 case-insensitive, 7/8 natural."""
    unique = list(dict.fromkeys(values))
    if sort in (1, 2):
        return sorted(unique, reverse=sort == 2)
    if sort in (3, 4):
        return sorted(unique, key=_number, reverse=sort == 4)
    if sort in (5, 6):
        return sorted(unique, key=str.lower, reverse=sort == 6)
    if sort in (7, 8):
        return sorted(unique, key=_natural_key, reverse=sort == 8)
    return unique


def choose(variable: Variable, options: Sequence[str], requested: Sequence[str]) -> Selection:
    """The current value from what the URL asked for, as Grafana falls back when it is not an option."""
    opts = tuple(options)
    if variable.include_all and (not requested or ALL in requested):
        return Selection(values=(ALL,), all=True, options=opts)
    wanted = tuple(v for v in requested if v in opts)
    if wanted:
        return Selection(values=wanted if variable.multi else wanted[:1], options=opts)
    if variable.include_all:
        return Selection(values=(ALL,), all=True, options=opts)
    return Selection(values=opts[:1], options=opts)


def promql_string_escape(value: str) -> str:
    """Escape for the inside of a PromQL double-quoted string."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def regex_escape(value: str) -> str:
    """Escape a value for a PromQL regex matcher (RE2 inside a double-quoted string)."""
    return promql_string_escape(_REGEX_SPECIAL.sub(lambda m: "\\" + m.group(), value))


def format_for_query(variable: Variable, selection: Selection) -> str:
    if not variable.multi and not variable.include_all:
        return promql_string_escape(selection.values[0] if selection.values else "")
    if selection.all and variable.all_value is not None:
        return variable.all_value
    values = [regex_escape(v) for v in selection.expanded()]
    if len(values) == 1:
        return values[0]
    return "(" + "|".join(values) + ")"


def _format(variable: Variable, selection: Selection, fmt: str | None) -> str:
    if fmt is None or (fmt == "regex" and not (variable.multi or variable.include_all)):
        return format_for_query(variable, selection)
    values = list(selection.expanded())
    if fmt == "queryparam":
        picked = [ALL] if selection.all else values
        return "&".join(f"var-{quote(variable.name)}={quote(v, safe='')}" for v in picked)
    if fmt == "regex":
        escaped = [regex_escape(v) for v in values]
        return escaped[0] if len(escaped) == 1 else "(" + "|".join(escaped) + ")"
    if fmt == "pipe":
        return "|".join(values)
    if fmt == "csv":
        return ",".join(values)
    if fmt == "raw":
        return ",".join(values) if len(values) != 1 else values[0]
    if fmt == "text":
        return "All" if selection.all else " + ".join(values)
    raise UsageError(f"variable format {fmt!r} in ${{{variable.name}:{fmt}}}: not one the console knows")


def interpolate(
    text: str,
    variables: Mapping[str, Variable],
    selections: Mapping[str, Selection],
    builtins: Mapping[str, str] | None = None,
) -> str:
    """Replace every variable reference in ``text``; unknown names are left as they are, as Grafana does."""
    extra = builtins or {}

    def replace(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2) or match.group(4)
        fmt = match.group(3) or match.group(5)
        if name in extra:
            return extra[name]
        if name in variables and name in selections:
            return _format(variables[name], selections[name], fmt)
        return match.group(0)

    return _REFERENCE.sub(replace, text)
