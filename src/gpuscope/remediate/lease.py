"""One acting remediator per Kubernetes cluster: a ``coordination.k8s.io/v1`` Lease, as controllers elect a leader.

The Deployment runs one replica, but a rollout or a node partition can leave two running for a while; only the
holder of the Lease acts, the other answers Alertmanager 503 so that the notification is retried (and reaches the
holder). The holder renews every few seconds; a Lease not renewed for ``duration_s`` may be taken. Every write
carries the ``resourceVersion`` read, so of two candidates racing for it one gets 409 Conflict and stays a follower.
"""

from __future__ import annotations

import logging
import time
import urllib.parse
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from gpuscope.remediate.kubernetes import ApiError, KubeApi

log = logging.getLogger(__name__)


def _micro(now: float) -> str:
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse(stamp: object) -> float | None:
    if not isinstance(stamp, str):
        return None
    try:
        return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()
    except ValueError:
        return None


class LeaseKeeper:
    def __init__(
        self,
        api: KubeApi,
        namespace: str,
        name: str,
        identity: str,
        duration_s: int = 15,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.api = api
        self.path = (
            f"/apis/coordination.k8s.io/v1/namespaces/{urllib.parse.quote(namespace)}/leases/{urllib.parse.quote(name)}"
        )
        self.collection = self.path.rsplit("/", 1)[0]
        self.namespace, self.name, self.identity = namespace, name, identity
        self.duration_s = duration_s
        self.clock = clock
        self.leader = False
        self.holder = ""
        self._next = 0.0

    def check(self) -> bool:
        """Acquire or renew when due; True while this process holds the Lease."""
        now = self.clock()
        if now < self._next:
            return self.leader
        was, first = self.leader, self._next == 0.0
        try:
            self.leader = self._try(now)
        except ApiError as exc:
            log.warning("leader Lease %s/%s: %s", self.namespace, self.name, exc)
            self.leader = False
        if self.leader != was:
            log.info("leader Lease %s/%s %s", self.namespace, self.name, "held: acting" if self.leader else "lost")
        elif first and not self.leader:
            log.info("leader Lease %s/%s held by %s: standing by", self.namespace, self.name, self.holder or "?")
        self._next = now + max(1.0, self.duration_s / 3)
        return self.leader

    def _spec(self, now: float, transitions: int, acquired: str | None) -> dict[str, Any]:
        return {
            "holderIdentity": self.identity,
            "leaseDurationSeconds": self.duration_s,
            "acquireTime": acquired or _micro(now),
            "renewTime": _micro(now),
            "leaseTransitions": transitions,
        }

    def _try(self, now: float) -> bool:
        try:
            lease = self.api.request("GET", self.path)
        except ApiError as exc:
            if exc.status != 404:
                raise
            body = {
                "apiVersion": "coordination.k8s.io/v1",
                "kind": "Lease",
                "metadata": {"name": self.name, "namespace": self.namespace},
                "spec": self._spec(now, 0, None),
            }
            return self._write("POST", self.collection, body)
        found = lease.get("spec")
        spec: dict[str, Any] = found if isinstance(found, dict) else {}
        holder = spec.get("holderIdentity")
        self.holder = str(holder)[:253]
        renewed = _parse(spec.get("renewTime"))
        duration = spec.get("leaseDurationSeconds")
        expired = renewed is None or now > renewed + (duration if isinstance(duration, int) else self.duration_s)
        if holder != self.identity and not expired:
            return False
        count = spec.get("leaseTransitions")
        transitions = count if isinstance(count, int) else 0
        if holder != self.identity:
            transitions += 1
        acquired = spec.get("acquireTime") if holder == self.identity else None
        lease["spec"] = self._spec(now, transitions, acquired if isinstance(acquired, str) else None)
        return self._write("PUT", self.path, lease)

    def _write(self, method: str, path: str, body: dict[str, Any]) -> bool:
        try:
            self.api.request(method, path, body)
        except ApiError as exc:
            if exc.status == 409:  # another candidate wrote first
                return False
            raise
        return True
