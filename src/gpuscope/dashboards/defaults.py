"""The one pass of shared policy over every dashboard (kubernetes-mixin's ``defaults.libsonnet``).

Generators say what to show; this pass decides, the same way for all of them: panels without a query (their
fields are not collected) and rows left empty are dropped; uids are derived from the fleet and dashboard
names; panel ids count up in reading order; grid positions flow left to right in 24 columns; drill-down links
become URLs that carry the current variables, data source and time range.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace

from gpuscope.dashboards.describe import with_descriptions
from gpuscope.dashboards.model import Dashboard, Link, Panel, Row
from gpuscope.dashboards.zeros import with_zeros

GRID_WIDTH = 24
MAX_UID = 40  # Grafana's limit
TAGS = ("gpuscope", "gpu")


@dataclass(frozen=True, slots=True, kw_only=True)
class Placed:
    """A row header (``panel`` is None) or a panel, with its id, grid position and resolved links."""

    id: int
    x: int
    y: int
    w: int
    h: int
    panel: Panel | None = None
    title: str = ""
    links: tuple[tuple[str, str], ...] = ()  # (title, url)


@dataclass(frozen=True, slots=True, kw_only=True)
class Final:
    dashboard: Dashboard
    uid: str
    title: str
    tags: tuple[str, ...]
    items: tuple[Placed, ...]
    top_links: tuple[tuple[str, str], ...]  # (title, uid)


def uid_for(fleet: str, key: str) -> str:
    """``<fleet>-<key>``, or, past Grafana's 40 characters, a shortened fleet name plus a hash of the whole."""
    uid = f"{fleet}-{key}"
    if len(uid) <= MAX_UID:
        return uid
    digest = hashlib.sha256(fleet.encode()).hexdigest()[:6]
    keep = MAX_UID - len(key) - len(digest) - 2
    return f"{fleet[:keep].rstrip('-')}-{digest}-{key}"


def prune(dashboard: Dashboard) -> Dashboard:
    """Drop panels with no query and rows with no panel."""
    rows = []
    for row in dashboard.rows:
        panels = tuple(p for p in row.panels if p.queries)
        if panels:
            rows.append(Row(row.title, panels))
    return replace(dashboard, rows=tuple(rows))


def link_url(source: Dashboard, target: Dashboard, uid: str, link: Link) -> str:
    """``/d/<uid>`` with the link's variables, then every other variable both dashboards share as it is now."""
    explicit = dict(link.params)
    params = [f"var-{name}={value}" for name, value in link.params]
    shared = [v.name for v in target.variables if v.name not in explicit and v.name in _names(source)]
    params += [f"${{{name}:queryparam}}" for name in shared]
    params += ["${datasource:queryparam}", "${__url_time_range}"]
    return f"/d/{uid}?{'&'.join(params)}"


def _names(dashboard: Dashboard) -> set[str]:
    return {v.name for v in dashboard.variables}


def _place(dashboard: Dashboard, resolve: Mapping[str, tuple[str, Dashboard]]) -> tuple[Placed, ...]:
    items: list[Placed] = []
    y = 0
    next_id = 1
    for row in dashboard.rows:
        items.append(Placed(id=next_id, x=0, y=y, w=GRID_WIDTH, h=1, title=row.title))
        next_id += 1
        y += 1
        x = line_height = 0
        for p in row.panels:
            w = min(p.width, GRID_WIDTH)
            if x + w > GRID_WIDTH:
                x, y, line_height = 0, y + line_height, 0
            links = tuple(
                (link.title, link_url(dashboard, resolve[link.dashboard][1], resolve[link.dashboard][0], link))
                for link in p.links
            )
            items.append(Placed(id=next_id, x=x, y=y, w=w, h=p.height, panel=p, title=p.title, links=links))
            next_id += 1
            x += w
            line_height = max(line_height, p.height)
        y += line_height
    return tuple(items)


def finalize(fleet: str, dashboards: tuple[Dashboard, ...]) -> tuple[Final, ...]:
    """Apply the shared policy to a set of dashboards that link to each other."""
    pruned = tuple(with_descriptions(with_zeros(prune(d))) for d in dashboards)
    resolve = {d.key: (uid_for(fleet, d.key), d) for d in pruned}
    unknown = {link.dashboard for d in pruned for r in d.rows for p in r.panels for link in p.links} | {
        k for d in pruned for k in d.drills_to
    }
    missing = sorted(unknown - set(resolve))
    if missing:
        raise ValueError(f"links to unknown dashboards: {', '.join(missing)}")
    return tuple(
        Final(
            dashboard=d,
            uid=resolve[d.key][0],
            title=f"{d.title} ({fleet})",
            tags=(*TAGS, fleet),
            items=_place(d, resolve),
            top_links=tuple((resolve[k][1].title, resolve[k][0]) for k in d.drills_to),
        )
        for d in pruned
    )
