from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from gpuscope.backends.base import NodeReading, ReadRequest
from gpuscope.backends.nvml import NvmlBackend, Timing
from tests.fakenvml import FakeNvml


class Ticker:
    """A settable monotonic clock: GPM sample spacing, re-probes and init backoff follow it, not the wall."""

    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


class Rig:
    """A backend on a fake NVML node, with helpers to collect and count the NVML calls of one collection."""

    def __init__(self, node: str, **kw: object) -> None:
        self.fake = FakeNvml(node)
        self.ticker = Ticker()
        self.backend = NvmlBackend(self.fake, monotonic=self.ticker, clock=lambda: 1_800_000_000.0, **kw)  # type: ignore[arg-type]

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


@pytest.fixture
def rig() -> Iterator[Callable[..., Rig]]:
    made: list[Rig] = []

    def make(node: str = "hgx-h100", **kw: object) -> Rig:
        kw.setdefault("event_timeout_ms", 50)
        r = Rig(node, timing=kw.pop("timing", Timing(reprobe_s=60.0, mig_check_s=3600.0)), **kw)
        made.append(r)
        return r

    yield make
    for r in made:
        r.backend.close()
