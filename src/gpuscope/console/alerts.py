"""The alerts page's data: Alertmanager's active alerts grouped by owner, then severity, with their runbooks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SEVERITY_ORDER = {"page": 0, "critical": 0, "ticket": 1, "warning": 1, "info": 2}
WHERE_LABELS = ("cluster", "Hostname", "gpu", "UUID", "instance", "namespace", "pod", "job_id")


def group_alerts(alerts: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``[{owner, severity, alerts: [...]}, ...]``: pages first, then by owner; alerts by name and place."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for alert in alerts:
        labels: Mapping[str, str] = alert.get("labels") or {}
        annotations: Mapping[str, str] = alert.get("annotations") or {}
        status = alert.get("status") or {}
        key = (labels.get("owner", "unowned"), labels.get("severity", "none"))
        groups.setdefault(key, []).append(
            {
                "alertname": labels.get("alertname", ""),
                "where": {k: labels[k] for k in WHERE_LABELS if labels.get(k)},
                "labels": dict(labels),
                "summary": annotations.get("summary") or annotations.get("description", ""),
                "runbook_url": annotations.get("runbook_url", ""),
                "startsAt": alert.get("startsAt", ""),
                "state": status.get("state", "active"),
                "inhibitedBy": list(status.get("inhibitedBy") or []),
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
