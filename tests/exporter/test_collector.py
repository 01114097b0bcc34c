from __future__ import annotations

from gpuscope.backends.base import BackendUnavailable, NodeReading, ReadRequest
from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.collector import Collector, build_request
from gpuscope.fields.collectors import load_collectors, parse_collectors
from gpuscope.hardware.models import model_by_key
from tests.support.clock import FakeClock


class FlakyHardware:
    """A backend whose hardware can disappear: the driver unloads, or a call blows up."""

    name = "flaky"

    def __init__(self, inner: SimNode) -> None:
        self.inner = inner
        self.failure: Exception | None = None

    def collect(self, request: ReadRequest) -> NodeReading:
        if self.failure is not None:
            raise self.failure
        return self.inner.collect(request)

    def close(self) -> None:
        pass


def make_collector() -> tuple[Collector, FlakyHardware, FakeClock]:
    clock = FakeClock()
    hardware = FlakyHardware(SimNode(SimNodeConfig("n", model_by_key("h100"), 2), clock=clock))
    return Collector(hardware, load_collectors(None), clock=clock), hardware, clock


def test_request_asks_only_for_what_the_csv_needs() -> None:
    csv = (
        "DCGM_FI_DEV_SM_CLOCK_HERTZ, gauge, h\nDCGM_FI_DEV_XID_ERRORS, gauge, x\n"
        "DCGM_EXP_CLOCK_EVENTS_COUNT, gauge, c\n"
        "DCGM_EXP_GPU_HEALTH_STATUS, gauge, h\nDCGM_FI_DRIVER_VERSION, label, d\n"
    )
    request = build_request(parse_collectors(csv, "t.csv"))
    assert request.field_ids == {100, 112}  # Hz from MHz; clock events from the reasons bitmask
    assert request.health and not request.p2p


def test_unavailable_backend_keeps_the_last_reading_and_says_why() -> None:
    collector, hardware, clock = make_collector()
    good = collector.collect()
    assert good.backend_up and good.reading is not None
    hardware.failure = BackendUnavailable("NVML: driver not loaded")
    clock.t += 15
    bad = collector.collect()
    assert not bad.backend_up and bad.backend_error == "NVML: driver not loaded"
    assert bad.reading is good.reading and bad.reading_at == good.reading_at  # nothing lost, and it ages
    assert (bad.collections, bad.failures) == (2, 1)
    hardware.failure = None
    clock.t += 15
    assert collector.collect().backend_up


def test_a_crashing_backend_does_not_crash_the_collector() -> None:
    collector, hardware, _ = make_collector()
    collector.collect()
    hardware.failure = RuntimeError("segfault-ish")
    snapshot = collector.collect()
    assert not snapshot.backend_up and "RuntimeError: segfault-ish" in snapshot.backend_error
    assert snapshot.reading is not None


def test_reset_forgets_history() -> None:
    collector, _, clock = make_collector()
    collector.collect()
    clock.t += 5
    collector.reset()
    assert collector.snapshot.reading is None and collector.snapshot.collections == 0
    assert collector.snapshot.started_at == clock.t
