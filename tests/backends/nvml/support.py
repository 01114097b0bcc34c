"""An NVML backend on a fake NVML node, driven by the fake clock as its monotonic clock."""

from __future__ import annotations

from typing import Any

from gpuscope.backends.base import NodeReading, ReadRequest
from gpuscope.backends.nvml import NvmlBackend
from tests.fakenvml import FakeNvml
from tests.support.clock import FakeClock

# The backend's monotonic clock: GPM sample spacing, re-probes and init backoff follow it, not the wall.
TICKER_START = 1000.0


class Rig:
    """A backend on a fake NVML node, with helpers to collect and count the NVML calls of one collection."""

    def __init__(self, node: str, **kw: Any) -> None:
        self.fake = FakeNvml(node)
        self.ticker = FakeClock(TICKER_START)
        self.backend = NvmlBackend(self.fake, monotonic=self.ticker, clock=lambda: 1_800_000_000.0, **kw)

    def collect(self, ids: frozenset[int] | set[int], dt: float = 15.0, **request: bool) -> NodeReading:
        """One collection ``dt`` seconds (monotonic and NVML timestamps) after the previous one."""
        self.ticker.t += dt
        self.fake.now_us += int(dt * 1e6)
        return self.backend.collect(ReadRequest(frozenset(ids), **request))

    def calls_of(
        self, ids: frozenset[int] | set[int], dt: float = 15.0, **request: bool
    ) -> tuple[NodeReading, dict[str, int]]:
        before = self.fake.collection_calls()
        reading = self.collect(ids, dt, **request)
        return reading, dict(self.fake.collection_calls() - before)
