"""One deadline for a whole API request of the console: a panel's targets and a dashboard's variable chain.

Each Prometheus request is bounded by ``--query-timeout`` once it has a slot, but a request of the page is
several of them: the variables resolve in a chain (cluster, then node, then GPU, then MIG instance: four queries
one after the other on the L4 dashboard), and a panel's targets wait for slots before their own timeout starts.
Against a hung Prometheus that was 4 x the timeout for the variables alone. Every query a request makes, slot
wait included, now ends by the request's one deadline, ``--query-timeout`` after it arrived; what is cut there
is the same "no answer within --query-timeout" error, on the variable or panel it belonged to (and in the log,
once a minute at most), and the queries after it in a chain are not sent at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from gpuscope.errors import ApiError
from gpuscope.prom import AsyncClient
from gpuscope.prom.api import late

T = TypeVar("T")


class RequestDeadline:
    def __init__(self, prom: AsyncClient, on_late: Callable[[ApiError], None] | None = None) -> None:
        self.prom = prom
        self.end = asyncio.get_running_loop().time() + prom.limits.timeout_s
        self._on_late = on_late

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``, or the query timeout's ``ApiError`` when the request's deadline comes first (a call made
        after the deadline is not sent)."""
        try:
            if asyncio.get_running_loop().time() >= self.end:
                raise TimeoutError
            async with asyncio.timeout_at(self.end):
                return await call()
        except TimeoutError:
            error = late(self.prom.endpoint, self.prom.limits)
            if self._on_late is not None:
                self._on_late(error)
            raise error from None
