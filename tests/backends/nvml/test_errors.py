"""The error policy: unsupported remembered, transient retried, lost GPUs dropped and re-probed, NVML down."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import pytest

from gpuscope.backends.base import BackendUnavailable, ReadError, XidEvent
from gpuscope.backends.nvml import Timing
from tests.backends.nvml.support import Rig
from tests.support.net import wait_for

DEFAULT_ISH = {150, 155, 156, 252, 1002}


def test_not_supported_is_remembered_and_logged_once(rig: Callable[..., Rig], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "gpuscope.backends.nvml")
    r = rig("workstation")
    ids = {53, 191, 310, 140}  # serial (call), fan (works), ECC and memory temp (batched entries)
    for _ in range(3):
        gpu = r.collect(ids).gpus[0]
        assert gpu.device.errors == {
            53: ReadError.NOT_SUPPORTED,
            310: ReadError.NOT_SUPPORTED,
            140: ReadError.NOT_SUPPORTED,
        }
        assert gpu.device.values == {191: 30}
    calls = r.fake.collection_calls()
    assert calls["nvmlDeviceGetSerial"] == 1 and calls["nvmlDeviceGetFanSpeed"] == 3
    assert calls["nvmlDeviceGetFieldValues"] == 1 + 1  # the link-count probe, then one: both entries remembered
    lines = [rec.getMessage() for rec in caplog.records if "not supported" in rec.getMessage()]
    assert len(lines) == 3
    assert any("DCGM_FI_DEV_SERIAL" in line for line in lines)
    assert any("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL" in line for line in lines)


def test_no_permission_is_remembered_with_a_hint(rig: Callable[..., Rig], caplog: pytest.LogCaptureFixture) -> None:
    r = rig("hgx-h100")
    r.fake.devices[0].desc["fields"][83] = "no_permission"
    r.fake.devices[0].desc["utilization"] = "no_permission"
    for _ in range(2):
        gpu = r.collect({156, 203, 150}).gpus[0]
    assert gpu.device.errors == {156: ReadError.NO_PERMISSION, 203: ReadError.NO_PERMISSION}
    assert r.fake.collection_calls()["nvmlDeviceGetUtilizationRates"] == 1 + 7 * 2
    warnings = [rec.getMessage() for rec in caplog.records if rec.levelno == logging.WARNING]
    assert len(warnings) == 2 and all("privileged" in w for w in warnings)


def test_transient_errors_are_retried(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.fake.devices[0].desc["fields"][83] = {"error": 999}
    r.fake.devices[0].desc["power_usage_mw"] = {"error": 21}
    gpu = r.collect({155, 156}).gpus[0]
    assert gpu.device.errors == {155: ReadError.NO_DATA, 156: ReadError.FAILED}
    r.fake.devices[0].desc["fields"][83] = {"ull": 5}
    r.fake.devices[0].desc["power_usage_mw"] = 250000
    gpu = r.collect({155, 156}).gpus[0]
    assert gpu.device.values == {155: 250.0, 156: 5} and gpu.device.errors == {}


def test_gpu_lost_mid_run_others_keep_reporting_then_it_comes_back(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100", timing=Timing(reprobe_s=60.0, mig_check_s=3600.0))
    r.collect(DEFAULT_ISH)
    r.fake.lose(3)  # XID 79, then GPU_IS_LOST from every call on GPU 3
    reading = r.collect(DEFAULT_ISH)
    lost = reading.gpus[3]
    xids = list(lost.xid_events)
    assert lost.lost and lost.device.values == {} and lost.identity.uuid == r.fake.devices[3].uuid
    for gpu in reading.gpus[:3] + reading.gpus[4:]:
        assert not gpu.lost and gpu.device.values[150] == r.fake.devices[gpu.identity.index].desc["temperature"]
    # No more calls on the lost GPU: the fake counts per function, so compare a collection's FieldValues calls.
    reading, calls = r.calls_of(DEFAULT_ISH, dt=15.0)
    xids.extend(reading.gpus[3].xid_events)
    assert calls["nvmlDeviceGetFieldValues"] == 7 and "nvmlDeviceGetHandleByUUID" not in calls

    # A lost GPU still reports its XIDs (the event thread delivers XID 79 asynchronously).
    def xids_so_far() -> list[XidEvent]:
        xids.extend(r.collect(DEFAULT_ISH, dt=0.001).gpus[3].xid_events)
        return xids

    wait_for(xids_so_far, what="XID 79")
    assert [e.code for e in xids] == [79]
    # The slow re-probe (every 60 s) asks by UUID; still lost: still dropped.
    _, calls = r.calls_of(DEFAULT_ISH, dt=31.0)
    assert calls["nvmlDeviceGetHandleByUUID"] == 1
    r.fake.restore(3)
    reading = r.collect(DEFAULT_ISH, dt=15.0)
    assert reading.gpus[3].lost  # found again only at the next re-probe
    reading = r.collect(DEFAULT_ISH, dt=60.0)
    back = reading.gpus[3]
    assert not back.lost and back.device.values[150] == r.fake.devices[3].desc["temperature"]


def test_gpu_lost_at_start_is_reported_lost(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.fake.devices[6].lost = True
    reading = r.collect({150})
    assert [g.identity.index for g in reading.gpus] == [0, 1, 2, 3, 4, 5, 7]  # index 6 could not even be opened
    r.fake.devices[6].lost = False
    reading = r.collect({150}, dt=61.0)
    assert len(reading.gpus) == 8 and not reading.gpus[6].lost


def test_driver_missing_raises_unavailable_and_init_is_retried_with_backoff(
    rig: Callable[..., Rig], caplog: pytest.LogCaptureFixture
) -> None:
    r = rig("hgx-h100")
    r.fake.init_error = 12  # NVML_ERROR_LIBRARY_NOT_FOUND
    with pytest.raises(BackendUnavailable, match=r"libnvidia-ml\.so\.1 not found"):
        r.collect({150}, dt=0.0)
    for dt, attempts in ((1.0, 1), (4.5, 2), (5.0, 2), (5.5, 3), (20.0, 4)):  # retry after 5 s, then 10 s, ...
        with pytest.raises(BackendUnavailable, match=r"libnvidia-ml\.so\.1 not found"):
            r.collect({150}, dt=dt)
        assert r.fake.collection_calls()["nvmlInit"] == attempts, dt
    warnings = [rec for rec in caplog.records if rec.levelno == logging.WARNING]
    assert len(warnings) == 1 and "NVML unavailable: libnvidia-ml.so.1 not found" in warnings[0].getMessage()
    r.fake.init_error = None
    reading = r.collect({150}, dt=40.0)
    assert len(reading.gpus) == 8


def test_driver_unloaded_mid_run(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect({150})
    r.fake.initialized = False  # every call now answers NVML_ERROR_UNINITIALIZED
    with pytest.raises(BackendUnavailable, match="NVML stopped working"):
        r.collect({150})
    assert r.fake.collection_calls()["nvmlShutdown"] == 1
    reading = r.collect({150}, dt=6.0)  # after the backoff: a fresh nvmlInit
    assert len(reading.gpus) == 8 and r.fake.collection_calls()["nvmlInit"] == 2


def test_no_gpu_is_unavailable(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.fake.devices.clear()
    with pytest.raises(BackendUnavailable, match="no GPU"):
        r.collect({150})


def test_close_does_not_hang_on_a_wedged_call(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect({150})
    gate = r.fake.block("nvmlDeviceGetTemperatureV")
    worker = threading.Thread(target=r.collect, args=({150},), daemon=True)
    worker.start()
    wait_for(lambda: r.fake.calls["nvmlDeviceGetTemperatureV"] == 9, what="the collection to hang")
    closer = threading.Thread(target=r.backend.close, daemon=True)
    closer.start()
    closer.join(30)
    assert not closer.is_alive()  # close gave up waiting for the wedged collection
    assert r.fake.collection_calls()["nvmlShutdown"] == 0
    gate.set()
    worker.join(30)
