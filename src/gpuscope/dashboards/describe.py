"""Every panel's description, from the same facts as its query: what it measures, the unit, the thresholds' source.

A person opening a dashboard during an incident hovers a panel to learn what it shows and how to read it. The
author's sentence (``Panel.description``), where there is one, says how to read it; the rest is derived, so it
cannot drift from the query: the catalog's help text of each field the queries read (or the recorded series
they use), the unit in words, and where the colours come from (``Steps.source``: the alert and the setting).
"""

from __future__ import annotations

import re
from dataclasses import replace

from gpuscope.dashboards.model import Dashboard, Panel, Row, Steps
from gpuscope.dashboards.units import GPU_EQUIVALENTS
from gpuscope.fields.catalog import BY_NAME

_UNIT_WORDS = {
    "percentunit": "percent (a 0-1 ratio)",
    "bytes": "bytes",
    "Bps": "bytes per second",
    "hertz": "hertz",
    "celsius": "degrees Celsius",
    "watt": "watts",
    "joule": "joules",
    "s": "seconds",
    "bool_yes_no": "yes/no",
    "hex0x": "a bitmask, in hex",
    "short": "a count",
    "none": "a plain number (a count or a state)",
    GPU_EQUIVALENTS: "GPU-equivalents",
}
# Series a query reads: a name followed by a selector or a range, or a recording rule's level:metric:op name.
_SERIES = re.compile(r"\b([a-zA-Z_][a-zA-Z0-9_]*(?::[a-zA-Z0-9_]+)+|[a-zA-Z_][a-zA-Z0-9_]*(?=\{))")
_MAX_NAMED = 8


def unit_words(unit: str) -> str:
    return _UNIT_WORDS.get(unit, unit)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?", ")")) else text + "."


def _measures(panel: Panel) -> str:
    fields = list(dict.fromkeys(f for query in panel.queries for f in query.fields))
    if fields:
        named = "; ".join(f"{f} ({BY_NAME[f].help.rstrip('.')})" if f in BY_NAME else f for f in fields[:_MAX_NAMED])
        more = f" and {len(fields) - _MAX_NAMED} more" if len(fields) > _MAX_NAMED else ""
        return f"Measures {named}{more}."
    series = list(dict.fromkeys(m for query in panel.queries for m in _SERIES.findall(query.expr)))
    series = [s for s in series if s not in ("by", "on", "without", "ignoring")]
    if not series:
        return ""
    more = f" and {len(series) - _MAX_NAMED} more" if len(series) > _MAX_NAMED else ""
    return f"From {', '.join(series[:_MAX_NAMED])}{more}."


def _colours(panel: Panel) -> str:
    sources: list[Steps] = [s for s in (panel.steps, *(q.steps for q in panel.queries)) if s is not None]
    named = list(dict.fromkeys(s.source for s in sources if s.source))
    return f"Colours: {'; '.join(named)}." if named else ""


def describe(panel: Panel) -> str:
    units = list(dict.fromkeys(q.unit for q in panel.queries if q.unit)) or [panel.unit]
    parts = [
        _sentence(panel.description),
        _measures(panel),
        f"Unit: {', '.join(unit_words(u) for u in units)}.",
        _colours(panel),
    ]
    return " ".join(p for p in parts if p)


def with_descriptions(dashboard: Dashboard) -> Dashboard:
    """The dashboard with every panel described."""
    rows = tuple(Row(r.title, tuple(replace(p, description=describe(p)) for p in r.panels)) for r in dashboard.rows)
    return replace(dashboard, rows=rows)
