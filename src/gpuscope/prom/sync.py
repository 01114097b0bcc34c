"""The blocking transport: the doctor's threads and the report call it.

Every request is bounded by its deadline, body included: it runs on a daemon thread that the caller stops
waiting for when the time is up, so a server dripping one byte a second ends the call in time instead of
hanging it (httpx's own timeouts are per read, and a drip resets them). Every body is read up to a size cap.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any, TypeVar

import httpx

from gpuscope.prom import api
from gpuscope.prom.access import Access, client_options
from gpuscope.prom.api import Call, Deadline, Endpoint, Limits, late
from gpuscope.prom.records import Matrix, Rule, RuntimeInfo, Target, TsdbStatus, Vector
from gpuscope.prom.transport import Body, failure, request

T = TypeVar("T")


def http_client(access: Access | None = None) -> httpx.Client:
    """One connection pool for every endpoint of a run; credentials and TLS from ``access``."""
    return httpx.Client(**client_options(access or Access()))


class Client:
    """One endpoint over a shared ``httpx.Client``; ``requests`` and ``bytes_read`` count what it fetched."""

    def __init__(
        self,
        endpoint: Endpoint,
        http: httpx.Client | None = None,
        *,
        limits: Limits | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.limits = limits or Limits()
        self.deadline = deadline
        self._owned = http is None
        self.http = http if http is not None else http_client()
        self._lock = threading.Lock()
        self.requests = 0
        self.bytes_read = 0

    def close(self) -> None:
        if self._owned:
            self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def where(self) -> str:
        return self.endpoint.where()

    # --- the API ---------------------------------------------------------------------------------------------------

    def query(self, expr: str, at: float | None = None) -> Vector:
        return self.run(api.instant(expr, at))

    def query_range(self, expr: str, start: float, end: float, step_s: float) -> Matrix:
        return self.run(api.range_query(expr, start, end, step_s))

    def series(
        self, matches: Sequence[str], start: float | None = None, end: float | None = None
    ) -> tuple[dict[str, str], ...]:
        return self.run(api.series(matches, start, end))

    def labels(
        self, matches: Sequence[str] = (), start: float | None = None, end: float | None = None
    ) -> tuple[str, ...]:
        return self.run(api.labels(matches, start, end))

    def label_values(
        self, label: str, matches: Sequence[str] = (), start: float | None = None, end: float | None = None
    ) -> tuple[str, ...]:
        return self.run(api.label_values(label, matches, start, end))

    def targets(self, state: str = "active") -> tuple[Target, ...]:
        return self.run(api.targets(state))

    def rules(self) -> tuple[Rule, ...]:
        return self.run(api.rules())

    def alertmanagers(self) -> tuple[str, ...]:
        return self.run(api.alertmanagers())

    def config(self) -> str:
        return self.run(api.config())

    def buildinfo(self) -> str:
        return self.run(api.buildinfo())

    def runtime_info(self) -> RuntimeInfo:
        return self.run(api.runtime_info())

    def tsdb_status(self) -> TsdbStatus:
        return self.run(api.tsdb_status())

    def flags(self) -> dict[str, str]:
        return self.run(api.flags())

    def get(self, path: str, params: Sequence[tuple[str, str]] = ()) -> Any:
        """Any other JSON GET (Alertmanager's v2 API): the decoded body."""
        return self.run(api.raw(path, params))

    # --- the transport ---------------------------------------------------------------------------------------------

    def _left(self) -> float:
        left = self.limits.timeout_s
        return left if self.deadline is None else min(left, self.deadline.remaining())

    def run(self, call: Call[T]) -> T:
        """Send ``call`` and parse its answer; every failure is an ``ApiError``."""
        left = self._left()
        if left <= 0:
            raise late(self.endpoint, self.limits)
        outcome: list[tuple[int, str, bytes] | BaseException] = []
        worker = threading.Thread(
            target=self._fetch_into, args=(outcome, call, left), name=f"prom {self.endpoint.flag}", daemon=True
        )
        worker.start()
        worker.join(left)
        if not outcome:  # still reading when the time was up: left behind, it ends with its read timeout
            raise late(self.endpoint, self.limits)
        result = outcome[0]
        if isinstance(result, BaseException):
            raise result
        return api.decode(self.endpoint, call, self.limits, *result)

    def _fetch_into(self, outcome: list[Any], call: Call[Any], left: float) -> None:
        try:
            outcome.append(self._fetch(call, left))
        except BaseException as exc:  # handed to the waiting caller, which raises it on its own thread
            outcome.append(exc)

    def _fetch(self, call: Call[Any], left: float) -> tuple[int, str, bytes]:
        with self._lock:
            self.requests += 1
        until = time.monotonic() + left
        try:
            with self.http.stream(**request(self.endpoint, call, left)) as response:
                body = Body(self.endpoint, call, self.limits, response)
                for chunk in response.iter_bytes():
                    body.add(chunk)
                    if time.monotonic() > until:  # the caller has stopped waiting: stop reading too
                        raise late(self.endpoint, self.limits)
        except httpx.HTTPError as exc:
            raise failure(self.endpoint, call, self.limits, exc) from None
        with self._lock:
            self.bytes_read += body.size
        return response.status_code, response.reason_phrase, body.content()
