"""Deadlines for the console's API requests: a dashboard's variable chain, and the panels of one page load.

Each Prometheus request is bounded by ``--query-timeout`` once it has a slot, but a page is many of them: the
variables resolve in a chain (cluster, then node, then GPU, then MIG instance: four queries one after the other on
the L4 dashboard), and the page's panel requests go six at a time (the browser's limit per host). Against a hung
Prometheus that was 4 x the timeout for the variables alone, and one more per six panels. The chain now shares
one deadline, ``--query-timeout`` after the request came, and the panels of a load another (``LoadDeadlines``);
what is cut there is the same "no answer within --query-timeout" error, on the variable or panel it belonged to
(and in the log, once a minute at most), and the queries after it are not sent at all.
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

# What the panels of one load share, in --query-timeout: with the variables' one, 2.5 in all, within the 3 the
# console promises for a dashboard against a Prometheus that never answers (a half left for drawing).
PANELS_SHARE = 1.5


class LoadDeadlines:
    """The deadline each page load's panels share: ``PANELS_SHARE`` x ``--query-timeout`` after the load's first
    panel request came.

    The page asks for every panel at once, but a browser sends six requests to one host at a time: against a hung
    Prometheus each six cost a whole timeout, and a dashboard of 30 panels took five. Every panel request of a load
    names it (``load``: the page's random name and its load counter); what is not answered by the load's deadline
    is answered with the timeout's error, a request that comes after it at once, its queries not sent. With the
    variables' one timeout before them, a dashboard is drawn within 2.5 x ``--query-timeout`` whatever Prometheus
    does. A client can only shorten its own loads; the table is bounded, the oldest load forgotten first.
    """

    def __init__(self, timeout_s: float, keep: int = 1024) -> None:
        self.seconds = PANELS_SHARE * timeout_s
        self.keep = keep
        self._ends: OrderedDict[str, float] = OrderedDict()

    def until(self, load: object) -> float | None:
        if not isinstance(load, str) or not 0 < len(load) <= 64:
            return None  # a request without a load (a script's): each query has its slot wait and timeout only
        now = asyncio.get_running_loop().time()
        end = self._ends.setdefault(load, now + self.seconds)
        self._ends.move_to_end(load)
        while len(self._ends) > self.keep:
            self._ends.popitem(last=False)
        return end


class RequestDeadline:
    def __init__(self, prom: AsyncClient, on_late: Callable[[ApiError], None] | None, until: float | None) -> None:
        """Every call ends by ``until`` (the event loop's clock; None: each has its slot wait and timeout only)."""
        self.prom = prom
        self.end = until
        self._on_late = on_late

    @classmethod
    def from_now(cls, prom: AsyncClient, on_late: Callable[[ApiError], None] | None) -> RequestDeadline:
        """``--query-timeout`` from now (a variable chain's)."""
        return cls(prom, on_late, asyncio.get_running_loop().time() + prom.limits.timeout_s)

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``, or the query timeout's ``ApiError`` when the deadline comes first (a call made after the
        deadline is not sent)."""
        if self.end is None:
            return await call()
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
