"""The XID thread: events from the NVML event set reach the next collection of the right GPU, once."""

from __future__ import annotations

import threading
from collections.abc import Callable

from gpuscope.backends.base import XidEvent
from tests.backends.nvml.support import Rig
from tests.support.net import wait_for


def xids_until(r: Rig, counts: dict[int, int]) -> dict[int, list[XidEvent]]:
    """Collect until each GPU has reported its count of XIDs (the thread delivers asynchronously)."""
    seen: dict[int, list[XidEvent]] = {}

    def check() -> bool:
        for gpu in r.collect({150}, dt=1.0).gpus:
            seen.setdefault(gpu.identity.index, []).extend(gpu.xid_events)
        return all(len(seen.get(i, [])) >= n for i, n in counts.items())

    wait_for(check, timeout=10, interval=0.02, what=f"XIDs {counts}")
    return seen


def test_xids_are_delivered_to_their_gpu_once(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect({150})
    assert r.fake.registered_events(2) & r.fake.nvmlEventTypeXidCriticalError
    r.fake.xid(2, 48)
    r.fake.xid(2, 63)
    r.fake.xid(5, 94)
    seen = xids_until(r, {2: 2, 5: 1})
    assert [e.code for e in seen[2]] == [48, 63] and [e.code for e in seen[5]] == [94]
    assert all(e.timestamp == 1_800_000_000.0 for e in seen[2])  # stamped with the backend's clock on arrival
    assert all(seen[i] == [] for i in (0, 1, 3, 4, 6, 7))
    reading = r.collect({150})
    assert all(g.xid_events == () for g in reading.gpus)  # drained


def test_events_before_registration_are_not_invented(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.fake.xid(1, 48)  # NVML records only events after a device is registered
    r.collect({150})
    r.fake.xid(1, 31)
    assert [e.code for e in xids_until(r, {1: 1})[1]] == [31]


def test_thread_stops_and_frees_the_event_set_on_close(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect({150})
    assert any(t.name == "nvml-events" and t.is_alive() for t in threading.enumerate())
    r.backend.close()
    assert r.fake.collection_calls()["nvmlEventSetFree"] == 1
    assert r.fake.collection_calls()["nvmlShutdown"] == 1
    assert not any(t.name == "nvml-events" and t.is_alive() for t in threading.enumerate())


def test_gpu_without_event_support_still_reports(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.fake.devices[4].desc["events"] = "not_supported"
    reading = r.collect({150})
    assert reading.gpus[4].device.values[150] == r.fake.devices[4].desc["temperature"]
    assert r.fake.registered_events(4) == 0 and r.fake.registered_events(3) != 0
