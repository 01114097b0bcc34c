"""PROF metrics from GPM: two samples per entity, warming up first, unsupported and forbidden told apart."""

from __future__ import annotations

from collections.abc import Callable

from gpuscope.backends.base import ProfilingState, ReadError
from tests.backends.nvml.support import Rig

PROF = {1001, 1002, 1004, 1005, 1009, 1010, 1024}  # 1024 = NVDEC7: the H100 has seven decoders
MIB = 1048576


def test_first_collection_warms_up_then_values_flow(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    first = r.collect(PROF).gpus[0]
    assert first.profiling is ProfilingState.WARMING_UP
    assert not any(fid in first.device.values or fid in first.device.errors for fid in PROF)
    metrics = r.fake.devices[0].desc["gpm"]["metrics"]
    for _ in range(3):  # the fake answers only for two consecutive samples of the same GPU
        gpu = r.collect(PROF).gpus[0]
        assert gpu.profiling is ProfilingState.AVAILABLE and gpu.profiling_detail == ""
        assert gpu.device.values[1002] == metrics[2] / 100
        assert gpu.device.values[1004] == metrics[5] / 100
        assert gpu.device.values[1009] == int(metrics[20] * MIB)
        assert gpu.device.values[1010] == int(metrics[21] * MIB)
        assert isinstance(gpu.device.values[1009], int) and isinstance(gpu.device.values[1002], float)
    calls = r.fake.collection_calls()
    assert calls["nvmlGpmSampleAlloc"] == 16 and calls["nvmlGpmSampleGet"] == 4 * 8
    assert calls["nvmlGpmMetricsGet"] == 3 * 8


def test_values_follow_the_samples(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect(PROF)
    r.fake.devices[0].desc["gpm"]["metrics"][2] = 12.5
    assert r.collect(PROF).gpus[0].device.values[1002] == 0.125


def test_a_metric_the_gpu_lacks_is_remembered(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect(PROF)
    gpu = r.collect(PROF).gpus[0]
    assert gpu.device.errors[1024] is ReadError.NOT_SUPPORTED and 1024 not in gpu.device.values
    nvdec7 = 37
    assert nvdec7 in r.fake.last_metrics
    gpu = r.collect(PROF).gpus[0]
    assert nvdec7 not in r.fake.last_metrics  # not asked again
    assert gpu.device.errors[1024] is ReadError.NOT_SUPPORTED and gpu.profiling is ProfilingState.AVAILABLE


def test_collections_closer_than_100ms_reuse_the_last_result(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect(PROF)
    values = r.collect(PROF).gpus[0].device.values
    reading, calls = r.calls_of(PROF, dt=0.05)
    assert "nvmlGpmSampleGet" not in calls and "nvmlGpmMetricsGet" not in calls
    assert reading.gpus[0].device.values[1002] == values[1002]


def test_no_gpm_means_unsupported_with_a_reason(rig: Callable[..., Rig]) -> None:
    r = rig("a100")
    for _ in range(3):
        gpu = r.collect(PROF).gpus[0]
        assert gpu.profiling is ProfilingState.UNSUPPORTED and "has no GPM" in gpu.profiling_detail
        assert gpu.device.errors[1002] is ReadError.NOT_SUPPORTED
    calls = r.fake.collection_calls()
    assert calls["nvmlGpmQueryDeviceSupport"] == 2 and calls["nvmlGpmSampleGet"] == 0


def test_driver_without_gpm(rig: Callable[..., Rig]) -> None:
    gpu = rig("workstation").collect(PROF).gpus[0]
    assert gpu.profiling is ProfilingState.UNSUPPORTED and "driver has no GPM" in gpu.profiling_detail


def test_gpm_without_permission(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.fake.devices[1].desc["gpm"]["permission"] = False
    for _ in range(3):
        gpus = r.collect(PROF).gpus
    assert gpus[1].profiling is ProfilingState.NO_PERMISSION and "privileged" in gpus[1].profiling_detail
    assert gpus[1].device.errors[1002] is ReadError.NO_PERMISSION
    assert gpus[0].profiling is ProfilingState.AVAILABLE
    assert r.fake.collection_calls()["nvmlGpmSampleGet"] == 3 * 7 + 1  # GPU 1 asked once, then remembered


def test_not_requested_when_no_prof_field_is_asked_for(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    gpu = r.collect({150}).gpus[0]
    assert gpu.profiling is ProfilingState.NOT_REQUESTED
    assert r.fake.collection_calls()["nvmlGpmQueryDeviceSupport"] == 0


def test_mig_gpu_instances_have_their_own_gpm(rig: Callable[..., Rig]) -> None:
    r = rig("h100-mig")
    first = r.collect(PROF).gpus[0]
    assert first.profiling is ProfilingState.WARMING_UP
    gpu = r.collect(PROF).gpus[0]
    assert gpu.profiling is ProfilingState.AVAILABLE
    devices = r.fake.devices[0].desc["mig"]["devices"]
    by_gi = {i.identity.gpu_instance_id: i.reading for i in gpu.instances}
    assert by_gi[1].values[1002] == devices[0]["gpm"][2] / 100
    assert by_gi[2].values[1009] == int(devices[1]["gpm"][20] * MIB)  # GPU instance 2: its first compute instance
    assert by_gi[9].values[1001] == 0.0
    assert by_gi[1].errors[1024] is ReadError.NOT_SUPPORTED
    assert not any(fid in gpu.device.values for fid in PROF)  # PROF under MIG is per GPU instance only
