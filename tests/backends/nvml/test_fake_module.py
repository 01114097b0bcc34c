"""The fake NVML as a ``pynvml`` module (``tests/fakenvml/module.py``): what a program importing it gets and counts."""

from __future__ import annotations

import pynvml as real
import pytest

from tests.fakenvml import FakeNvml
from tests.fakenvml.module import BURST_GAP_S, CallLog, as_module
from tests.support.clock import FakeClock


def test_module_answers_from_the_fake_and_counts_every_call() -> None:
    fake, clock = FakeNvml("hgx-h100"), FakeClock(0.0)
    log = CallLog(monotonic=clock)
    nvml = as_module(fake, log)
    assert nvml.NVML_TEMPERATURE_GPU == real.NVML_TEMPERATURE_GPU and nvml.NVMLError is real.NVMLError
    assert not hasattr(nvml, "_nvmlGetFunctionPointer")  # no C symbols: callers fall back to the Python functions
    nvml.nvmlInitWithFlags(0)  # nvidia-ml-py's nvmlInit is nvmlInitWithFlags(0)
    assert nvml.nvmlDeviceGetCount() == len(fake.devices) == 8
    handle = nvml.nvmlDeviceGetHandleByIndex(3)
    assert nvml.nvmlDeviceGetUUID(handle) == fake.devices[3].uuid
    with pytest.raises(real.NVMLError_FunctionNotFound):
        nvml.nvmlDeviceGetPcieThroughput(handle, 0)  # not modelled: as a driver without the symbol
    assert nvml.nvmlExceptionClass(real.NVML_ERROR_NOT_SUPPORTED) is real.NVMLError_NotSupported  # a helper
    summary = log.summary()
    assert summary["calls"] == {
        "nvmlDeviceGetCount": 1,
        "nvmlDeviceGetHandleByIndex": 1,
        "nvmlDeviceGetPcieThroughput": 1,
        "nvmlDeviceGetUUID": 1,
        "nvmlInitWithFlags": 1,
    }
    assert summary["unmodelled"] == {"nvmlDeviceGetPcieThroughput": 1}


def test_a_collection_is_a_burst_of_calls() -> None:
    clock = FakeClock(0.0)
    log = CallLog(monotonic=clock)
    for burst in (5, 3, 4):
        for _ in range(burst):
            log.record("nvmlDeviceGetPowerUsage", modelled=True)
            clock.t += BURST_GAP_S / 10
        log.record("nvmlEventSetWait_v2", modelled=True)  # the event thread's wait is no collection call
        clock.t += 1.0
    log.record("nvmlDeviceGetPowerUsage", modelled=True)  # the next burst has begun: not yet counted
    assert log.summary()["bursts"] == [5, 3, 4]
