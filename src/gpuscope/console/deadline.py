"""One deadline for a whole API request of the console: a panel's targets and a dashboard's variable chain.

Each Prometheus request is bounded by ``--query-timeout`` once it has a slot, but a request of the page is
several of them: the variables resolve in a chain (cluster, then node, then GPU, then MIG instance: four queries
one after the other on the L4 dashboard), and a panel's targets wait for slots before their own timeout starts.
Against a hung Prometheus that was 4 x the timeout for the variables alone. Every query a request makes, slot
wait included, now ends by the request's one deadline, ``--query-timeout`` after it arrived; what is cut there
is the same "no answer within --query-timeout" error, on the variable or panel it belonged to (and in the log,
once a minute at most), and the queries after it in a chain are not sent at all. A dashboard's panels share
one more deadline, their load's (``LoadDeadlines``), so that the page, variables and panels together answer
within twice ``--query-timeout`` whatever Prometheus does.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TypeVar

from gpuscope.errors import ApiError
from gpuscope.prom import AsyncClient
from gpuscope.prom.api import late

T = TypeVar("T")


class LoadDeadlines:
    """The deadline each page load's panels share: ``--query-timeout`` after the load's first panel request came.

    The page asks for every panel at once, but a browser sends six requests to one host at a time: against a hung
    Prometheus each six cost a whole timeout, and the L4 dashboard's 30 panels took five. Every panel request of a
    load names it (``load``: the page's random name and its load counter); a request that comes after its load's
    deadline is answered at once with the timeout's error, its queries not sent. A client can only shorten its
    own loads; the table is bounded, the oldest load forgotten first.
    """

    def __init__(self, timeout_s: float, keep: int = 1024) -> None:
        self.timeout_s = timeout_s
        self.keep = keep
        self._ends: OrderedDict[str, float] = OrderedDict()

    def until(self, load: object) -> float | None:
        if not isinstance(load, str) or not 0 < len(load) <= 64:
            return None  # a request without a load (a script's) has its own deadline only
        now = asyncio.get_running_loop().time()
        end = self._ends.setdefault(load, now + self.timeout_s)
        self._ends.move_to_end(load)
        while len(self._ends) > self.keep:
            self._ends.popitem(last=False)
        return end


class RequestDeadline:
    def __init__(
        self, prom: AsyncClient, on_late: Callable[[ApiError], None] | None = None, until: float | None = None
    ) -> None:
        """``--query-timeout`` from now, or ``until`` (the event loop's clock) if that comes first."""
        self.prom = prom
        end = asyncio.get_running_loop().time() + prom.limits.timeout_s
        self.end = end if until is None else min(end, until)
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
