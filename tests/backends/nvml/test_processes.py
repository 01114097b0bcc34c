"""Per-process readings (``--process-metrics``) against the fake NVML: calls per collection, old drivers, MIG,
accounting, processes that exit between two calls, a GPU lost while its processes are read."""

from __future__ import annotations

from collections.abc import Callable

from gpuscope.backends.base import GpuProcess, GpuReading
from tests.backends.nvml.support import Rig
from tests.fakenvml.processes import FakeProcess

TEMP = {150}  # one cheap field, so the calls counted are the process ones plus one temperature read
GIB = 1 << 30


def procs(reading_gpu: GpuReading) -> dict[int, GpuProcess]:
    return {p.pid: p for p in reading_gpu.processes}


def test_processes_with_memory_and_utilization_in_four_calls_per_gpu(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.fake.devices[0].processes = [
        FakeProcess(pid=4101, memory=3 * GIB, sm=40, mem=20, enc=5, dec=1),
        FakeProcess(pid=4102, memory=GIB, sm=10, kinds=("compute", "graphics")),
    ]
    r.collect(TEMP, processes=True)
    reading, calls = r.calls_of(TEMP, processes=True)
    assert calls == {
        "nvmlDeviceGetTemperatureV": 8,
        "nvmlDeviceGetComputeRunningProcesses_v3": 8,
        "nvmlDeviceGetGraphicsRunningProcesses_v3": 8,
        # only GPU 0 has processes: idle GPUs cost the two list calls only
        "nvmlDeviceGetProcessesUtilizationInfo": 1,
        "nvmlDeviceGetAccountingMode": 1,
    }
    got = procs(reading.gpus[0])
    assert got[4101] == GpuProcess(
        pid=4101, kinds=("compute",), memory_bytes=3 * GIB, sm_percent=40.0, memory_percent=20.0,
        encoder_percent=5.0, decoder_percent=1.0,
    )  # fmt: skip
    assert got[4102].kinds == ("compute", "graphics") and got[4102].memory_bytes == GIB
    assert reading.gpus[1].processes == ()
    _, quiet = r.calls_of(TEMP)
    assert quiet == {"nvmlDeviceGetTemperatureV": 8}  # off unless asked for


def test_no_new_sample_means_no_utilization_not_an_error(rig: Callable[..., Rig]) -> None:
    r = rig("workstation")
    r.fake.devices[0].processes = [FakeProcess(pid=77, sm=90)]
    first = r.collect(TEMP, processes=True)
    assert procs(first.gpus[0])[77].sm_percent == 90.0
    again = r.collect(TEMP, dt=0.0, processes=True)  # NVML's clock has not moved: NOT_FOUND, "nothing new"
    assert procs(again.gpus[0])[77].sm_percent is None
    assert again.gpus[0].process_errors == ()


def test_old_driver_uses_v2_lists_and_the_sample_array(rig: Callable[..., Rig]) -> None:
    r = rig("workstation")
    r.fake.missing |= {
        "nvmlDeviceGetComputeRunningProcesses_v3",
        "nvmlDeviceGetGraphicsRunningProcesses_v3",
        "nvmlDeviceGetProcessesUtilizationInfo",
    }
    r.fake.devices[0].processes = [FakeProcess(pid=9, memory=2 * GIB, sm=33)]
    r.collect(TEMP, processes=True)
    reading, calls = r.calls_of(TEMP, processes=True)
    assert procs(reading.gpus[0])[9].sm_percent == 33.0 and procs(reading.gpus[0])[9].memory_bytes == 2 * GIB
    assert "nvmlDeviceGetComputeRunningProcesses_v3" not in calls  # the driver lacks it: not asked again
    assert calls["nvmlDeviceGetComputeRunningProcesses_v2"] == 1
    assert calls["nvmlDeviceGetProcessUtilization"] == 1 and "nvmlDeviceGetProcessesUtilizationInfo" not in calls


def test_driver_without_any_utilization_call_keeps_memory(rig: Callable[..., Rig]) -> None:
    r = rig("workstation")
    r.fake.missing |= {"nvmlDeviceGetProcessesUtilizationInfo", "nvmlDeviceGetProcessUtilization"}
    r.fake.devices[0].processes = [FakeProcess(pid=9, memory=GIB, sm=50)]
    r.collect(TEMP, processes=True)
    reading, calls = r.calls_of(TEMP, processes=True)
    p = procs(reading.gpus[0])[9]
    assert p.memory_bytes == GIB and p.sm_percent is None  # that reading degrades, the others stay
    assert "nvmlDeviceGetProcessUtilization" not in calls  # remembered as missing


def test_process_exiting_between_calls_has_memory_but_no_sample(rig: Callable[..., Rig]) -> None:
    r = rig("workstation")
    r.fake.devices[0].desc["accounting"] = True
    r.fake.devices[0].processes = [FakeProcess(pid=5, sm=10), FakeProcess(pid=6, sm=70, exit_after_list=True)]
    reading = r.collect(TEMP, processes=True)
    got = procs(reading.gpus[0])
    assert got[5].sm_percent == 10.0
    assert got[6].sm_percent is None and got[6].memory_bytes == GIB  # listed, then gone: no sample, no stats
    assert reading.gpus[0].process_errors == ()
    later = r.collect(TEMP, processes=True)
    assert set(procs(later.gpus[0])) == {5}


def test_accounting_fills_in_for_a_process_without_a_sample(rig: Callable[..., Rig]) -> None:
    r = rig("workstation")
    r.fake.devices[0].desc["accounting"] = True
    r.fake.missing |= {"nvmlDeviceGetProcessesUtilizationInfo", "nvmlDeviceGetProcessUtilization"}
    r.fake.devices[0].processes = [FakeProcess(pid=5, sm=61, mem=12, memory=None)]
    reading = r.collect(TEMP, processes=True)
    p = procs(reading.gpus[0])[5]
    assert (p.sm_percent, p.memory_percent) == (61.0, 12.0)
    assert p.memory_bytes is None  # unknown memory stays unknown (the peak is no current figure)


def test_mig_processes_carry_their_gpu_instance(rig: Callable[..., Rig]) -> None:
    r = rig("h100-mig")
    dev = r.fake.devices[0]
    assert dev.mig, "the h100-mig node has MIG devices on GPU 0"
    dev.processes = [FakeProcess(pid=300, gi=1, memory=5 * GIB), FakeProcess(pid=301, gi=2, memory=GIB)]
    r.collect(TEMP, processes=True)
    reading, calls = r.calls_of(TEMP, processes=True)
    got = procs(reading.gpus[0])
    assert (got[300].gpu_instance_id, got[301].gpu_instance_id) == (1, 2)
    assert got[300].sm_percent is None  # NVML has no per-process utilization with MIG on
    assert "nvmlDeviceGetProcessesUtilizationInfo" not in calls  # asked once, NOT_SUPPORTED remembered


def test_transient_failure_is_reported_and_the_gpu_lost_is_lost(rig: Callable[..., Rig]) -> None:
    r = rig("workstation")
    r.fake.devices[0].processes = [FakeProcess(pid=5)]
    r.fake.missing.add("nvmlDeviceGetGraphicsRunningProcesses_v3")
    r.fake.missing.add("nvmlDeviceGetGraphicsRunningProcesses_v2")
    reading = r.collect(TEMP, processes=True)
    assert set(procs(reading.gpus[0])) == {5}  # no graphics list on this driver: compute still read
    r.fake.lose(0)
    lost = r.collect(TEMP, processes=True)
    assert lost.gpus[0].lost and lost.gpus[0].processes == ()
