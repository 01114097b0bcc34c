"""Blackwell in the simulator: B200 and GB200 with 18 NVLink5 links, a fabric state, NVLink5 error counters and
the faults that move them (a degraded fabric, an NVLink5 error burst)."""

from __future__ import annotations

import pytest

from gpuscope.backends.base import ReadError
from gpuscope.backends.sim import FaultKind, FaultRequest
from gpuscope.errors import UsageError
from gpuscope.fields.ids import NVLINK5_ERROR_FIELDS, FieldId
from gpuscope.hardware.models import model_by_key
from tests.backends.sim.support import ALL, collect_twice, node, numbers
from tests.support.clock import FakeClock

F = FieldId


@pytest.mark.parametrize("model", ["b200", "gb200"])
def test_blackwell_models_have_18_nvlink5_links_and_a_healthy_fabric(model: str) -> None:
    assert model_by_key(model).nvlinks == 18
    clock = FakeClock()
    reading = collect_twice(node(model, gpus=4, clock=clock), clock)
    assert len(reading.gpus[0].links) == 18
    for gpu in reading.gpus:
        v = numbers(gpu.device.values)
        assert v[F.DCGM_FI_DEV_FABRIC_MANAGER_STATUS] == 3
        assert v[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] == 1
        assert v[F.DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS] == 0
        assert 0 < v[F.DCGM_FI_DEV_NVLINK_COUNT_SYMBOL_BER_FLOAT] < 1e-12
        assert v[F.DCGM_FI_DEV_GPU_RECOVERY_ACTION] == 0
    # One NVLink domain per node: every GPU names the same cluster.
    assert len({g.device.values[F.DCGM_FI_DEV_FABRIC_CLUSTER_UUID] for g in reading.gpus}) == 1


def test_hopper_has_fabric_state_but_no_nvlink5_counters() -> None:
    # NVML documents fabric info for "Hopper + NVSwitch systems" (an HGX H100 registers with the fabric manager);
    # the NVLink5 counters are Blackwell's, and an A100 has neither.
    clock = FakeClock()
    gpu = collect_twice(node("h100", clock=clock), clock).gpus[0]
    assert gpu.device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] == 1
    for fid in NVLINK5_ERROR_FIELDS:
        assert fid not in gpu.device.values
        assert gpu.device.errors[fid] is ReadError.NOT_SUPPORTED
    ampere = collect_twice(node("a100", clock=clock), clock).gpus[0]
    assert ampere.device.errors[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] is ReadError.NOT_SUPPORTED


def test_degraded_fabric_shows_in_the_health_summary_of_that_gpu_only() -> None:
    clock = FakeClock()
    n = node("gb200", gpus=4, clock=clock)
    n.apply(FaultRequest(FaultKind.FABRIC_DEGRADED, gpu=2))
    reading = collect_twice(n, clock)
    summaries = [g.device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] for g in reading.gpus]
    assert summaries == [1, 1, 3, 1]
    assert reading.gpus[2].device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_MASK] == 1
    assert {"fault": "fabric-degraded", "gpu": 2} in [{k: f[k] for k in ("fault", "gpu")} for f in n.active_faults()]
    n.apply(FaultRequest(FaultKind.FABRIC_DEGRADED, gpu=2, enabled=False))
    clock.t += 15
    assert n.collect(ALL).gpus[2].device.values[F.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY] == 1


def test_nvlink5_error_burst_grows_the_error_counters_and_the_ber() -> None:
    clock = FakeClock()
    n = node("b200", gpus=2, clock=clock)
    before = numbers(collect_twice(n, clock).gpus[0].device.values)
    n.apply(FaultRequest(FaultKind.NVLINK5_ERRORS, gpu=0))
    clock.t += 30
    during = n.collect(ALL)
    hit, spared = numbers(during.gpus[0].device.values), during.gpus[1].device.values
    for fid in (F.DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS, F.DCGM_FI_DEV_NVLINK_COUNT_RX_SYMBOL_ERRORS):
        assert hit[fid] > before[fid]
        assert spared[fid] == 0
    assert hit[F.DCGM_FI_DEV_NVLINK_COUNT_SYMBOL_BER_FLOAT] > 1e-10
    assert all(hit[fid] >= before[fid] for fid in NVLINK5_ERROR_FIELDS)  # counters never go back


@pytest.mark.parametrize(("kind", "model"), [(FaultKind.FABRIC_DEGRADED, "a100"), (FaultKind.NVLINK5_ERRORS, "h100")])
def test_fabric_faults_are_refused_on_gpus_without_them(kind: FaultKind, model: str) -> None:
    with pytest.raises(UsageError, match=r"use an h100, h200, b200, gb200 or gb300|use a b200, gb200 or gb300"):
        node(model).apply(FaultRequest(kind, gpu=0))
