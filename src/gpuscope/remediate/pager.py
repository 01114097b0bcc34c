"""The one page the remediator sends itself: a cluster's budget is exhausted, so alerts are not being acted on.

It goes through Alertmanager like every other alert (Alertmanager stays the only router): ``POST /api/v2/alerts``
to every Alertmanager given, as Prometheus sends to each of an HA pair, which deduplicates it. The alert,
``GPURemediationBudgetExhausted{cluster, severity="page", owner="infra"}``, is posted once when the budget runs
out (with ``endsAt`` a while ahead, renewed while it lasts) and resolved (``endsAt`` now) when a node is back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import httpx

log = logging.getLogger(__name__)

ALERT = "GPURemediationBudgetExhausted"
RUNBOOK = "docs/remediation.md#the-budget"


def _stamp(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class AlertmanagerPager:
    def __init__(
        self,
        urls: Sequence[str],
        *,
        clock: Callable[[], float] = time.time,
        timeout_s: float = 5.0,
        starts: dict[str, float] | None = None,
    ) -> None:
        self.urls = tuple(u.rstrip("/") for u in urls)
        self.clock = clock
        self.timeout_s = timeout_s
        self.starts = starts if starts is not None else {}

    def _post(self, cluster: str, summary: str, description: str, ends_at: float) -> str:
        now = self.clock()
        starts_at = self.starts.setdefault(cluster, now)
        alert = {
            "labels": {"alertname": ALERT, "cluster": cluster, "severity": "page", "owner": "infra"},
            "annotations": {"summary": summary, "description": description, "runbook_url": RUNBOOK},
            "startsAt": _stamp(starts_at),
            "endsAt": _stamp(ends_at),
        }
        accepted, problems = 0, []
        for url in self.urls:
            try:
                response = httpx.post(f"{url}/api/v2/alerts", json=[alert], timeout=self.timeout_s)
            except httpx.HTTPError as exc:
                problems.append(f"{url}: {exc}")
                continue
            if response.status_code == 200:
                accepted += 1
            else:
                problems.append(f"{url}: HTTP {response.status_code}")
        if not self.urls:
            raise PagerError("no Alertmanager to page through (--alertmanager)")
        if not accepted:
            raise PagerError("no Alertmanager took the page: " + "; ".join(problems)[:300])
        return f"{ALERT} sent to {accepted}/{len(self.urls)} Alertmanagers"

    def fire(self, cluster: str, summary: str, description: str, ends_at: float) -> str:
        return self._post(cluster, summary, description, ends_at)

    def resolve(self, cluster: str) -> str:
        done = self._post(cluster, "The remediation budget has room again.", "", self.clock())
        self.starts.pop(cluster, None)
        return done


class PagerError(Exception):
    pass
