"""The dashboards the console shows: the bundle's own ``grafana/dashboards/*.json``, the files Grafana loads.

A directory that is not a bundle, or holds no dashboards, is not fatal: the console keeps running and its pages
say what is missing and how to make it (``problem``). A dashboard file that does not parse is left out with a
line naming the file. The data source's scrape interval (``timeInterval``) comes from the bundle's provisioning,
since Grafana uses it for ``$__rate_interval`` and as the lower limit of ``$__interval``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpuscope.console.timerange import DEFAULT_SCRAPE_MS, parse_duration_ms
from gpuscope.errors import UsageError
from gpuscope.inputs import load, read_text

log = logging.getLogger(__name__)

DASHBOARD_DIR = Path("grafana/dashboards")
DATASOURCE_FILE = Path("grafana/provisioning/datasources/prometheus.yaml")


@dataclass(frozen=True, slots=True)
class Dashboards:
    by_uid: dict[str, dict[str, Any]]
    files: dict[str, str]  # uid -> file name
    scrape_ms: int
    problems: list[str] = field(default_factory=list)

    @property
    def problem(self) -> str | None:
        return "; ".join(self.problems) or None

    def index(self) -> list[dict[str, Any]]:
        return [
            {
                "uid": uid,
                "title": d.get("title", uid),
                "file": self.files[uid],
                "tags": d.get("tags", []),
                "description": d.get("description", ""),
            }
            for uid, d in sorted(self.by_uid.items(), key=lambda item: self.files[item[0]])
        ]


def load_dashboards(bundle: Path) -> Dashboards:
    folder = bundle / DASHBOARD_DIR
    problems: list[str] = []
    by_uid: dict[str, dict[str, Any]] = {}
    files: dict[str, str] = {}
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not paths:
        problems.append(
            f"no dashboards in {folder}: point --bundle at a directory made by `gpuscope generate` (it holds "
            f"{DASHBOARD_DIR}/*.json)"
        )
    for path in paths:
        try:
            model = json.loads(read_text(str(path), "dashboard"))
            if not isinstance(model, dict) or not isinstance(model.get("panels"), list):
                raise ValueError("not a Grafana dashboard model (no panels list)")
            uid = str(model.get("uid") or path.stem)
        except (UsageError, ValueError, RecursionError) as exc:  # bounded reads; RecursionError: JSON nested deep
            problems.append(f"{path}: {exc}")
            continue
        by_uid[uid] = model
        files[uid] = path.name
    for line in problems:
        log.warning("console: %s", line)
    return Dashboards(by_uid=by_uid, files=files, scrape_ms=_scrape_ms(bundle / DATASOURCE_FILE), problems=problems)


def _scrape_ms(path: Path) -> int:
    """The default data source's ``timeInterval``, or Grafana's default of 15s."""
    try:
        doc = load(read_text(str(path), "data source file"), str(path))
        sources = doc.get("datasources", []) if isinstance(doc, dict) else []
        default = next((s for s in sources if s.get("isDefault")), sources[0] if sources else {})
        text = (default.get("jsonData") or {}).get("timeInterval")
        return parse_duration_ms(str(text)) if text else DEFAULT_SCRAPE_MS
    except (AttributeError, UsageError):  # UsageError: unreadable, too big or hostile YAML (SpecError)
        return DEFAULT_SCRAPE_MS
