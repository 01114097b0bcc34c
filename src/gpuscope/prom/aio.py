"""The asyncio transport: the console's panels and the live view of ``gpuscope up`` call it from their event loop.

At most ``max_in_flight`` requests are on the wire at a time, the rest wait their turn (a browser opening a
dashboard asks for dozens of panels at once), for at most ``slot_wait_s`` (default: ``Limits.timeout_s``): then
``SlotTimeout``, so a Prometheus that holds every slot cannot queue callers without end. Each request, once sent,
has ``Limits.timeout_s`` for its whole answer, body included, and reads at most ``Limits.max_body_bytes``; failures
are the same ``ApiError``s as the blocking transport's. ``on_failure`` sees each one (the console logs them, once a
minute at most).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import httpx

from gpuscope.errors import ApiError, EndpointDown
from gpuscope.prom import api
from gpuscope.prom.access import Access, client_options
from gpuscope.prom.api import Call, Endpoint, Limits, late
from gpuscope.prom.records import Matrix, Rule, Target, Vector
from gpuscope.prom.transport import Body, failure, request

T = TypeVar("T")


class SlotTimeout(EndpointDown):
    """Every request slot stayed busy for the whole wait: the endpoint is slow or overloaded; nothing was sent."""


def http_client(access: Access | None = None, max_connections: int = 100) -> httpx.AsyncClient:
    return httpx.AsyncClient(**client_options(access or Access()), limits=httpx.Limits(max_connections=max_connections))


class AsyncClient:
    """One endpoint; ``requests``, ``in_flight`` and ``peak_in_flight`` say how it has been used."""

    def __init__(
        self,
        endpoint: Endpoint,
        http: httpx.AsyncClient | None = None,
        *,
        limits: Limits | None = None,
        max_in_flight: int = 8,
        on_failure: Callable[[ApiError], None] | None = None,
        slot_wait_s: float | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.limits = limits or Limits()
        self.max_in_flight = max_in_flight
        self.slot_wait_s = self.limits.timeout_s if slot_wait_s is None else slot_wait_s
        self._slots = asyncio.Semaphore(max_in_flight)
        self._owned = http is None
        self._http = http
        self._on_failure = on_failure
        self.requests = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self.bytes_read = 0

    @property
    def http(self) -> httpx.AsyncClient:
        if self._http is None:  # made on first use, inside the event loop that will use it
            self._http = http_client(max_connections=self.max_in_flight)
        return self._http

    async def close(self) -> None:
        if self._owned and self._http is not None:
            await self._http.aclose()
            self._http = None

    # --- the API ---------------------------------------------------------------------------------------------------

    async def query(self, expr: str, at: float | None = None) -> Vector:
        return await self.run(api.instant(expr, at))

    async def query_range(self, expr: str, start: float, end: float, step_s: float) -> Matrix:
        return await self.run(api.range_query(expr, start, end, step_s))

    async def label_values(
        self, label: str, matches: Sequence[str] = (), start: float | None = None, end: float | None = None
    ) -> tuple[str, ...]:
        return await self.run(api.label_values(label, matches, start, end))

    async def targets(self, state: str = "active") -> tuple[Target, ...]:
        return await self.run(api.targets(state))

    async def rules(self) -> tuple[Rule, ...]:
        return await self.run(api.rules())

    async def alertmanagers(self) -> tuple[str, ...]:
        return await self.run(api.alertmanagers())

    async def get(self, path: str, params: Sequence[tuple[str, str]] = ()) -> Any:
        """Any other JSON GET (Alertmanager's v2 API, the remediator's decisions): the decoded body."""
        return await self.run(api.raw(path, params))

    # --- the transport ---------------------------------------------------------------------------------------------

    async def run(self, call: Call[T]) -> T:
        """Send ``call`` when a slot is free and parse its answer; every failure is an ``ApiError``."""
        try:
            async with asyncio.timeout(self.slot_wait_s):
                await self._slots.acquire()
        except TimeoutError:
            busy = SlotTimeout(
                self.endpoint.where(),
                f"all {self.max_in_flight} query slots stayed busy for {self.slot_wait_s:g}s: "
                f"the endpoint is slow or overloaded; try again, or raise {self.limits.timeout_flag}",
            )
            if self._on_failure is not None:
                self._on_failure(busy)
            raise busy from None
        try:
            self.requests += 1
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            try:
                async with asyncio.timeout(self.limits.timeout_s):
                    status, reason, content = await self._fetch(call)
                return api.decode(self.endpoint, call, self.limits, status, reason, content)
            except TimeoutError:
                error: ApiError = late(self.endpoint, self.limits)
            except ApiError as exc:
                error = exc
            finally:
                self.in_flight -= 1
        finally:
            self._slots.release()
        if self._on_failure is not None:
            self._on_failure(error)
        raise error

    async def _fetch(self, call: Call[Any]) -> tuple[int, str, bytes]:
        try:
            async with self.http.stream(**request(self.endpoint, call, self.limits.timeout_s)) as response:
                body = Body(self.endpoint, call, self.limits, response)
                async for chunk in response.aiter_bytes():
                    body.add(chunk)
        except httpx.HTTPError as exc:
            raise failure(self.endpoint, call, self.limits, exc) from None
        self.bytes_read += body.size
        return response.status_code, response.reason_phrase, body.content()
