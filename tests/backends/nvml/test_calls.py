"""How many NVML calls one collection makes: one batched field-values call per GPU, individual calls only for
what has no field id, nothing for fields nobody asked for, nothing again for what is unsupported or static."""

from __future__ import annotations

from collections.abc import Callable

from gpuscope.backends.nvml.fieldmap import served_fields
from gpuscope.exporter.collector import build_request
from gpuscope.fields.collectors import load_collectors
from tests.backends.nvml.support import Rig

DEFAULT = build_request(load_collectors(None)).field_ids  # dcgm-exporter's default-counters.csv

# Per GPU and collection for the default list on a GPU without MIG, once warmed up:
STEADY_DEFAULT = {
    # memory temp, energy, PCIe replays, remapped rows x3, NVLink data TX+RX (all links): one batched call
    "nvmlDeviceGetFieldValues": 1,
    "nvmlDeviceGetClockInfo": 2,  # SM and memory clocks
    "nvmlDeviceGetTemperatureV": 1,
    "nvmlDeviceGetPowerUsage": 1,
    "nvmlDeviceGetUtilizationRates": 1,  # GPU_UTIL and MEM_COPY_UTIL from one call
    "nvmlDeviceGetEncoderUtilization": 1,
    "nvmlDeviceGetDecoderUtilization": 1,
    "nvmlDeviceGetMemoryInfo": 1,  # FB free, used and reserved from one call
    "nvmlGpmSampleGet": 1,  # PROF: one sample...
    "nvmlGpmMetricsGet": 1,  # ...and one computation for all four PROF fields
}


def per_gpu(calls: dict[str, int], gpus: int) -> dict[str, float]:
    return {name: n / gpus for name, n in calls.items()}


def test_default_list_on_8_h100_costs_11_calls_per_gpu(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    _, first = r.calls_of(DEFAULT)
    assert first["nvmlDeviceGetGridLicensableFeatures"] == 8  # asked once: NOT_SUPPORTED on bare metal
    assert first["nvmlGpmSampleAlloc"] == 16 and "nvmlGpmMetricsGet" not in first  # first sample only
    for _ in range(3):
        _, calls = r.calls_of(DEFAULT)
        assert per_gpu(calls, 8) == STEADY_DEFAULT
    assert sum(STEADY_DEFAULT.values()) == 11
    assert r.fake.collection_calls()["nvmlGpmSampleAlloc"] == 16  # two buffers per GPU, reused forever
    assert r.fake.collection_calls()["nvmlInit"] == 1  # one long-lived nvmlInit


def test_only_requested_fields_are_read(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect({150})
    _, calls = r.calls_of({150})
    assert calls == {"nvmlDeviceGetTemperatureV": 8}  # no batched call when no batched field is asked for
    _, calls = r.calls_of({310, 313, 156})
    assert calls == {"nvmlDeviceGetFieldValues": 8}


def test_static_fields_are_read_once(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect({150})  # start-up calls out of the way
    static = {51, 53, 56, 80, 81, 82, 85, 113, 114, 158, 159}
    _, first = r.calls_of(static)
    assert per_gpu(first, 8) == {
        "nvmlDeviceGetBrand": 1,
        "nvmlDeviceGetSerial": 1,
        "nvmlDeviceGetInforomVersion": 3,  # OEM, ECC, power (NOT_SUPPORTED: remembered)
        "nvmlDeviceGetInforomImageVersion": 1,
        "nvmlDeviceGetVbiosVersion": 1,
        "nvmlDeviceGetMaxClockInfo": 2,
        "nvmlDeviceGetTemperatureThreshold": 2,
    }
    reading, calls = r.calls_of(static)
    assert calls == {}
    assert reading.gpus[0].device.values[85] == r.fake.devices[0].desc["vbios"]


def test_every_field_still_one_batched_call_per_gpu(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    r.collect(served_fields())
    reading, calls = r.calls_of(served_fields())
    assert calls["nvmlDeviceGetFieldValues"] == 8
    # Per-link error counters have field ids for links 0-11 only: links 12-17 x 4 counters need their own call.
    assert calls["nvmlDeviceGetNvLinkErrorCounter"] == 8 * 6 * 4
    assert calls["nvmlGpmMetricsGet"] == 8  # device, per-lane and per-link PROF metrics in one computation
    # static facts and remembered NOT_SUPPORTED answers are not asked again
    for name in ("nvmlDeviceGetBrand", "nvmlDeviceGetVbiosVersion", "nvmlDeviceGetFanSpeed"):
        assert name not in calls
    assert len(reading.gpus[0].links) == 18


def test_mig_gpu_reads_per_instance_and_skips_what_mig_cannot_serve(rig: Callable[..., Rig]) -> None:
    r = rig("h100-mig")
    r.collect(DEFAULT)
    _, calls = r.calls_of(DEFAULT)
    # GPU 0 is in MIG mode with 3 GPU instances, GPU 1 is not.
    assert calls["nvmlDeviceGetFieldValues"] == 2
    assert calls["nvmlDeviceGetMemoryInfo"] == 3 + 1  # per GPU instance on GPU 0, the whole GPU on GPU 1
    assert calls["nvmlGpmMigSampleGet"] == 3 and calls["nvmlGpmSampleGet"] == 1
    assert calls["nvmlGpmMetricsGet"] == 3 + 1
    # NVML has no utilization, encoder or decoder figures for a MIG-enabled GPU: not even asked.
    assert calls["nvmlDeviceGetUtilizationRates"] == 1
    assert calls["nvmlDeviceGetEncoderUtilization"] == 1
