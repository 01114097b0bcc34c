"""The one page the remediator sends itself: a cluster's budget is exhausted, so alerts are not being acted on.

It goes through Alertmanager like every other alert (Alertmanager stays the only router): ``POST /api/v2/alerts``
to every Alertmanager given, as Prometheus sends to each of an HA pair, which deduplicates it. The alert,
``GPURemediationBudgetExhausted{cluster, severity="page", owner="infra"}``, is posted once when the budget runs
out (with ``endsAt`` a while ahead, renewed while it lasts) and resolved (``endsAt`` now) when a node is back.

Each post goes through gpuscope's one client of these APIs (``gpuscope.prom``): a total deadline, body included (a
dripping Alertmanager cannot hold the remediator's worker past ``timeout_s``), a capped answer, no redirect followed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from gpuscope.errors import ApiError
from gpuscope.prom import Client, Endpoint, Limits, http_client
from gpuscope.prom.api import post_json

log = logging.getLogger(__name__)

ALERT = "GPURemediationBudgetExhausted"
RUNBOOK = "docs/remediation.md#the-budget"
MAX_ANSWER_BYTES = 1024 * 1024  # Alertmanager answers a post with its status and an empty body


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
        # The remediator has no flag for this deadline: the message names it as what it is.
        limits = Limits(timeout_s=timeout_s, timeout_flag="its deadline of", max_body_bytes=MAX_ANSWER_BYTES)
        http = http_client()
        self._clients = tuple(
            Client(Endpoint(url, flag="--alertmanager", kind="Alertmanager"), http, limits=limits) for url in self.urls
        )

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
        for client in self._clients:
            try:
                client.run(post_json("/api/v2/alerts", [alert]))
            except ApiError as exc:
                problems.append(str(exc))
                continue
            accepted += 1
        if not self.urls:
            raise PagerError(NO_PAGER)
        if not accepted:
            raise PagerError("no Alertmanager took the page: " + "; ".join(problems)[:300])
        return f"{ALERT} sent to {accepted}/{len(self.urls)} Alertmanagers"

    def fire(self, cluster: str, summary: str, description: str, ends_at: float) -> str:
        return self._post(cluster, summary, description, ends_at)

    def resolve(self, cluster: str) -> str:
        done = self._post(cluster, "The remediation budget has room again.", "", self.clock())
        self.starts.pop(cluster, None)
        return done


# An audit record's detail (data, not a CLI message): the remediator was given no Alertmanager URL.
NO_PAGER = "no Alertmanager to page through (none given)"


class PagerError(Exception):
    pass
