"""An exporter runtime on a simulated node with the fake clock, as the ``make`` fixture (conftest.py) builds it."""

from __future__ import annotations

from collections.abc import Callable

from gpuscope.backends.base import NodeReading
from gpuscope.backends.sim import SimNode
from gpuscope.exporter.runtime import NodeRuntime
from tests.support.clock import FakeClock

RuntimeFactory = Callable[..., tuple[NodeRuntime, SimNode, FakeClock]]


def scrape(runtime: NodeRuntime, clock: FakeClock) -> str:
    """The /metrics body at the clock's time, uncompressed."""
    return runtime.body(clock.t, gzip=False).decode()


def reading(runtime: NodeRuntime) -> NodeReading:
    """The runtime's last successful reading (there is one once a collection has succeeded)."""
    snapshot = runtime.collector.snapshot
    assert snapshot.reading is not None, f"no successful collection: {snapshot.backend_error}"
    return snapshot.reading


def collected(runtime: NodeRuntime) -> NodeReading:
    """Collect once, and the reading that collection took."""
    runtime.collector.collect()
    return reading(runtime)
