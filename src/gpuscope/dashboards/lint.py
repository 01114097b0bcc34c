"""A strict structural check of Grafana dashboard JSON, for checking dashboards without a Grafana server.

The installed grafana-foundation-sdk ships no JSON schema, so this encodes what Grafana and provisioning rely
on: a uid (at most 40 characters) and ``id: null``; unique panel ids; grid positions inside 24 columns that do
not overlap; every ``$var`` / ``${var}`` / ``[[var]]`` defined (or one of Grafana's own) and, in a variable's
query, defined before it; every data source reference resolving to the ``datasource`` variable; every target
with an ``expr`` and a unique ``refId``; every link to ``/d/<uid>`` pointing at a known dashboard; thresholds
in ascending order; a description on every panel; heatmap colour steps inside the schema's 2-128.
``problems`` returns one line per violation; empty means clean.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Set
from typing import Any

GRID = 24
MAX_UID = 40
HEATMAP_STEPS = (2, 128)  # Grafana's schema for a heatmap's options.color.steps
DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}
PANEL_TYPES = frozenset(
    {"row", "timeseries", "stat", "table", "heatmap", "bargauge", "gauge", "status-history", "state-timeline", "text"}
)
BUILTINS = frozenset(
    {
        "__rate_interval",
        "__interval",
        "__interval_ms",
        "__range",
        "__range_s",
        "__range_ms",
        "__from",
        "__to",
        "__url_time_range",
        "__all_variables",
        "__timezone",
        "__data",
        "__field",
        "__series",
        "__value",
        "__dashboard",
        "__org",
        "__user",
    }
)
_VAR = re.compile(r"\$\{([A-Za-z_]\w*)[^}]*\}|\$([A-Za-z_]\w*)|\[\[([A-Za-z_]\w*)(?::\w+)?\]\]")
_LINK = re.compile(r"^/d/([^/?]+)")


def variables_in(text: str) -> list[str]:
    """Names of the template variables ``text`` uses (``$1`` in a regex replacement is not one)."""
    return [next(g for g in m.groups() if g) for m in _VAR.finditer(text)]


def problems(model: Mapping[str, Any], known_uids: Set[str]) -> list[str]:
    """Everything wrong with one dashboard model; ``known_uids`` are the dashboards links may point at."""
    out: list[str] = []
    uid = model.get("uid")
    if not isinstance(uid, str) or not uid or len(uid) > MAX_UID:
        out.append(f"uid {uid!r}: must be a non-empty string of at most {MAX_UID} characters")
    if model.get("id", "missing") is not None:
        out.append("id must be null: provisioned dashboards are matched by uid")
    if not model.get("title"):
        out.append("title is empty")
    names = _variable_problems(model, out)
    _link_problems(
        (str(link.get("url", "")) for link in model.get("links", [])), "dashboard link", known_uids, names, out
    )
    _panel_problems(model.get("panels", []), names, known_uids, out)
    return out


def _variable_problems(model: Mapping[str, Any], out: list[str]) -> set[str]:
    defined: set[str] = set()
    variables = model.get("templating", {}).get("list", [])
    if not any(v.get("name") == "datasource" and v.get("type") == "datasource" for v in variables):
        out.append("no 'datasource' variable of type datasource")
    for var in variables:
        name = var.get("name", "")
        if name in defined:
            out.append(f"variable {name!r} is defined twice")
        if var.get("type") == "query":
            if var.get("datasource") != DATASOURCE:
                out.append(f"variable {name!r}: datasource must be {DATASOURCE}")
            query = var.get("query")
            text = query.get("query", "") if isinstance(query, dict) else str(query or "")
            for used in variables_in(text):
                if used not in defined and used not in BUILTINS:
                    out.append(f"variable {name!r} uses ${used} before it is defined")
        defined.add(name)
    return defined


def _panels(panels: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for panel in panels:
        yield panel
        yield from _panels(panel.get("panels", []))


def _panel_problems(panels: list[Mapping[str, Any]], names: set[str], known_uids: Set[str], out: list[str]) -> None:
    seen_ids: set[int] = set()
    cells: dict[tuple[int, int], tuple[int, Any]] = {}
    for index, panel in enumerate(_panels(panels)):
        pid = panel.get("id")
        where = f"panel {pid} {panel.get('title', '')!r}"
        if not isinstance(pid, int) or pid <= 0 or pid in seen_ids:
            out.append(f"{where}: id must be a unique positive integer")
        else:
            seen_ids.add(pid)
        if panel.get("type") not in PANEL_TYPES:
            out.append(f"{where}: unknown panel type {panel.get('type')!r}")
        _grid_problems(panel, index, where, cells, out)
        if panel.get("type") == "row":
            if panel.get("panels") and not panel.get("collapsed"):
                out.append(f"{where}: an expanded row must not hold panels (Grafana drops them)")
            continue
        if panel.get("datasource") != DATASOURCE:
            out.append(f"{where}: datasource must be {DATASOURCE}")
        if not str(panel.get("description", "")).strip():
            out.append(f"{where}: no description (hovering the panel must say what it shows)")
        if panel.get("type") == "heatmap":
            steps = panel.get("options", {}).get("color", {}).get("steps")
            if not isinstance(steps, int) or not HEATMAP_STEPS[0] <= steps <= HEATMAP_STEPS[1]:
                out.append(
                    f"{where}: heatmap color steps {steps!r} outside Grafana's {HEATMAP_STEPS[0]}-{HEATMAP_STEPS[1]}"
                )
        _target_problems(panel, where, names, out)
        defaults = panel.get("fieldConfig", {}).get("defaults", {})
        links = (str(link.get("url", "")) for link in defaults.get("links", []))
        _link_problems(links, f"{where} data link", known_uids, names, out)
        _threshold_problems(defaults.get("thresholds"), where, out)


def _grid_problems(
    panel: Mapping[str, Any], index: int, where: str, cells: dict[tuple[int, int], tuple[int, Any]], out: list[str]
) -> None:
    pos = panel.get("gridPos", {})
    try:
        x, y, w, h = (int(pos[k]) for k in ("x", "y", "w", "h"))
    except (KeyError, TypeError, ValueError):
        out.append(f"{where}: gridPos needs integer x, y, w, h")
        return
    if x < 0 or y < 0 or w < 1 or h < 1 or x + w > GRID:
        out.append(f"{where}: gridPos {pos} is outside the {GRID}-column grid")
        return
    for cx in range(x, x + w):
        for cy in range(y, y + h):
            other, other_id = cells.setdefault((cx, cy), (index, panel.get("id")))
            if other != index:
                out.append(f"{where}: overlaps panel {other_id} at ({cx}, {cy})")
                return


def _target_problems(panel: Mapping[str, Any], where: str, names: set[str], out: list[str]) -> None:
    targets = panel.get("targets", [])
    if not targets:
        out.append(f"{where}: no targets")
    ref_ids: set[str] = set()
    for target in targets:
        ref = target.get("refId")
        if not ref or ref in ref_ids:
            out.append(f"{where}: every target needs a unique refId (got {ref!r})")
        ref_ids.add(str(ref))
        expr = target.get("expr")
        if not isinstance(expr, str) or not expr.strip():
            out.append(f"{where} target {ref}: expr is empty")
            continue
        if target.get("datasource", DATASOURCE) != DATASOURCE:
            out.append(f"{where} target {ref}: datasource must be {DATASOURCE}")
        for text in (expr, str(target.get("legendFormat", ""))):
            _undefined(text, f"{where} target {ref}", names, out)


def _undefined(text: str, where: str, names: set[str], out: list[str]) -> None:
    for used in variables_in(text):
        if used not in names and used not in BUILTINS:
            out.append(f"{where}: ${used} is not a defined variable")


def _link_problems(urls: Iterator[str], where: str, known_uids: Set[str], names: set[str], out: list[str]) -> None:
    for url in urls:
        match = _LINK.match(url)
        if match is None:
            out.append(f"{where}: {url!r} is not a /d/<uid> link")
        elif match.group(1) not in known_uids:
            out.append(f"{where}: {url!r} points at no known dashboard")
        _undefined(url, where, names, out)


def _threshold_problems(thresholds: Any, where: str, out: list[str]) -> None:
    if not thresholds:
        return
    steps = thresholds.get("steps", [])
    if not steps or steps[0].get("value") is not None:
        out.append(f"{where}: the first threshold step must be the base (value null)")
        return
    values = [s.get("value") for s in steps[1:]]
    if any(not isinstance(v, int | float) for v in values) or values != sorted(values):
        out.append(f"{where}: threshold steps must be numbers in ascending order, got {values}")
