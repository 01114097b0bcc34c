"""An exporter runtime on a simulated node with the fake clock, as the ``make`` fixture (conftest.py) builds it."""

from __future__ import annotations

from collections.abc import Callable

from gpuscope.backends.sim import SimNode
from gpuscope.exporter.runtime import NodeRuntime
from tests.support.clock import FakeClock

RuntimeFactory = Callable[..., tuple[NodeRuntime, SimNode, FakeClock]]


def scrape(runtime: NodeRuntime, clock: FakeClock) -> str:
    """The /metrics body at the clock's time, uncompressed."""
    return runtime.body(clock.t, gzip=False).decode()
