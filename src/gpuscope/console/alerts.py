"""The alerts page's data: Alertmanager's active alerts grouped by owner, then severity, with their runbooks."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

SEVERITY_ORDER = {"page": 0, "critical": 0, "ticket": 1, "warning": 1, "info": 2}
WHERE_LABELS = ("cluster", "Hostname", "gpu", "UUID", "instance", "namespace", "pod", "job_id")
# A link the page may render: http(s), or a path on the console itself (the bundle's default runbooks/<alert>.md).
# Anything else (javascript:, data:, vbscript:, a scheme hidden behind white space) is shown as text; the page
# checks again with the browser's own URL parser.
_LINKABLE = re.compile(r"^(?:https?://[^\s\x00-\x1f\\]+|[A-Za-z0-9._~/-][^\s\x00-\x1f\\:]*)$", re.IGNORECASE)


def linkable(url: str) -> bool:
    """Whether ``url`` may be an ``href`` of the page: an http(s) URL or a relative path without a scheme."""
    return bool(_LINKABLE.match(url)) and not url.startswith("//")


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def group_alerts(alerts: Sequence[Any]) -> list[dict[str, Any]]:
    """``[{owner, severity, alerts: [...]}, ...]``: pages first, then by owner; alerts by name and place."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for alert in alerts:
        # Alertmanager answers objects with labels; anything else is not an alert and is skipped.
        if not isinstance(alert, Mapping) or not isinstance(alert.get("labels"), Mapping):
            continue
        labels = {str(k): v for k, v in alert["labels"].items() if isinstance(v, str)}
        annotations = _mapping(alert.get("annotations"))
        status = _mapping(alert.get("status"))
        runbook = _text(annotations.get("runbook_url"))
        key = (labels.get("owner", "unowned"), labels.get("severity", "none"))
        inhibited = status.get("inhibitedBy")
        groups.setdefault(key, []).append(
            {
                "alertname": labels.get("alertname", ""),
                "where": {k: labels[k] for k in WHERE_LABELS if labels.get(k)},
                "labels": labels,
                "summary": _text(annotations.get("summary")) or _text(annotations.get("description")),
                "runbook_url": runbook if linkable(runbook) else "",
                "runbook_text": "" if linkable(runbook) else runbook,
                "startsAt": _text(alert.get("startsAt")),
                "state": _text(status.get("state")) or "active",
                "inhibitedBy": [str(x) for x in inhibited] if isinstance(inhibited, list) else [],
            }
        )
    ordered = sorted(groups.items(), key=lambda kv: (SEVERITY_ORDER.get(kv[0][1], 3), kv[0][1], kv[0][0]))
    return [
        {
            "owner": owner,
            "severity": severity,
            "alerts": sorted(items, key=lambda a: (a["alertname"], sorted(a["where"].items()))),
        }
        for (owner, severity), items in ordered
    ]
