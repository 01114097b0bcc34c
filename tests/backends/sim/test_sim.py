from __future__ import annotations

import pytest

from gpuscope.backends.base import ProfilingState, ReadError
from gpuscope.backends.sim import FaultKind, FaultRequest, SimNode, SimNodeConfig
from gpuscope.backends.sim.activity import WorkloadKind, activity
from gpuscope.backends.sim.faults import parse_fault_request
from gpuscope.errors import UsageError
from gpuscope.fields.catalog import BY_ID
from gpuscope.fields.ids import FieldId
from gpuscope.hardware.models import model_by_key, parse_mig_layout
from tests.backends.sim.support import ALL, collect_twice, node, numbers
from tests.support.clock import FakeClock


def test_same_seed_same_values() -> None:
    a, b = FakeClock(), FakeClock()
    ra = collect_twice(node(clock=a, workload="training"), a)
    rb = collect_twice(node(clock=b, workload="training"), b)
    assert ra == rb


def test_values_are_in_dcgm_units_and_plausible() -> None:
    clock = FakeClock()
    gpu = collect_twice(node(clock=clock, workload="training"), clock).gpus[0]
    v = numbers(gpu.device.values)
    assert 1500 <= v[100] <= 1980  # SM clock MHz under load
    assert v[101] == 2619  # HBM3 memory clock MHz
    assert 40 <= v[150] <= 87  # GPU temperature C
    assert 300.0 <= v[155] <= 700.0  # power W
    assert 0.5 <= v[1002] <= 1.0  # SM active ratio
    assert v[252] + v[251] + v[253] in (81558, 81559)  # MiB by integer division, as DCGM
    assert v[FieldId.DCGM_FI_DEV_FB_USED_BYTES] // 1048576 == v[252]  # bytes field agrees with the MiB field
    assert gpu.device.errors[526] is ReadError.NOT_SUPPORTED  # vGPU license on bare metal


def test_counters_only_grow() -> None:
    clock = FakeClock()
    n = node(clock=clock, workload="training")
    first = numbers(n.collect(ALL).gpus[0].device.values)
    clock.t += 60
    later = numbers(n.collect(ALL).gpus[0].device.values)
    for fid in (156, 202, 240, 310, 312):
        assert later[fid] >= first[fid], BY_ID[fid].name
    assert later[156] > first[156]  # energy


def test_hardware_without_a_sensor_reports_not_supported() -> None:
    clock = FakeClock()
    gpu = collect_twice(node("l40s", clock=clock), clock).gpus[0]
    errors = gpu.device.errors
    assert errors[140] is ReadError.NOT_SUPPORTED  # GDDR: no memory temperature
    assert errors[449] is ReadError.NOT_SUPPORTED  # no NVLink
    assert errors[391] is ReadError.NOT_SUPPORTED  # no page retirement on Ada
    assert gpu.links == ()


def test_profiling_modes() -> None:
    clock = FakeClock()
    gpm_only = collect_twice(node("a100", clock=clock, profiling="gpm"), clock).gpus[0]
    assert gpm_only.profiling is ProfilingState.UNSUPPORTED
    assert gpm_only.device.errors[1002] is ReadError.NOT_SUPPORTED
    hopper = collect_twice(node("h100", clock=clock, profiling="gpm"), clock).gpus[0]
    assert hopper.profiling is ProfilingState.AVAILABLE and 1002 in hopper.device.values


def test_mig_instances_have_their_own_memory_and_activity() -> None:
    clock = FakeClock()
    model = model_by_key("h100")
    n = node(clock=clock, gpus=1, mig_layout=parse_mig_layout(model, "3g.40gb,2g.20gb,1g.10gb:2"))
    gpu = collect_twice(n, clock).gpus[0]
    assert [(i.identity.profile, i.identity.gpu_instance_id) for i in gpu.instances] == [
        ("3g.40gb", 1),
        ("2g.20gb", 3),
        ("1g.10gb", 7),
        ("1g.10gb", 8),
    ]
    assert [i.reading.values[250] for i in gpu.instances] == [40192, 19968, 9856, 9856]
    assert all(i.identity.uuid.startswith("MIG-") for i in gpu.instances)
    assert gpu.device.errors[203] is ReadError.NOT_SUPPORTED  # no utilization with MIG on
    assert 150 in gpu.device.values


@pytest.mark.parametrize(
    ("layout", "message"),
    [("1g.10gb:8", "uses 8 compute slices"), ("5g.50gb", "does not exist"), ("", "is empty"), ("1g.10gb:x", "count")],
)
def test_bad_mig_layouts(layout: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_mig_layout(model_by_key("h100"), layout)


def test_fault_fell_off_bus_loses_only_that_gpu_and_reports_xid_79() -> None:
    clock = FakeClock()
    n = node(clock=clock)
    n.collect(ALL)
    n.apply(FaultRequest(FaultKind.FELL_OFF_BUS, gpu=1))
    reading = n.collect(ALL)
    assert not reading.gpus[0].lost and reading.gpus[1].lost
    assert [e.code for e in reading.gpus[1].xid_events] == [79]
    assert reading.gpus[1].device.values == {}
    n.apply(FaultRequest(FaultKind.FELL_OFF_BUS, gpu=1, enabled=False))
    assert not n.collect(ALL).gpus[1].lost


def test_fault_profiling_lock_stops_only_prof_fields() -> None:
    clock = FakeClock()
    n = node(clock=clock)
    n.apply(FaultRequest(FaultKind.PROFILING_LOCK, gpu=0))
    gpu = collect_twice(n, clock).gpus[0]
    assert gpu.profiling is ProfilingState.LOCKED
    assert gpu.device.errors[1002] is ReadError.PROFILING_UNAVAILABLE
    assert 150 in gpu.device.values


def test_fault_thermal_raises_temperature_and_violation_and_lowers_clocks() -> None:
    clock = FakeClock()
    n = node(clock=clock, workload="training")
    before = numbers(collect_twice(n, clock).gpus[0].device.values)
    n.apply(FaultRequest(FaultKind.THERMAL, gpu=0))
    for _ in range(10):
        clock.t += 15
        last = n.collect(ALL).gpus[0].device.values
    after = numbers(last)
    assert after[150] > before[150] + 10
    assert after[100] < before[100]
    assert after[241] > before[241]
    reasons = last[112]
    assert isinstance(reasons, int) and reasons & 0x60 == 0x60  # sw and hw thermal slowdown bits


def test_fault_ecc_dbe_grows_counters_and_fails_row_remap() -> None:
    clock = FakeClock()
    n = node(clock=clock)
    n.apply(FaultRequest(FaultKind.ECC_DBE, gpu=0))
    first = n.collect(ALL)
    assert [e.code for e in first.gpus[0].xid_events] == [48]  # double-bit ECC XID, once
    clock.t += 15
    reading = n.collect(ALL)
    v = numbers(reading.gpus[0].device.values)
    assert v[311] > 0 and v[313] > 0 and v[393] > 0 and v[395] == 1
    assert reading.gpus[1].device.values[311] == 0
    health = {c.watch: c for c in reading.gpus[0].health}
    assert (health["MEM"].status, health["MEM"].error_code) == (20, "DCGM_FR_VOLATILE_DBE_DETECTED")
    assert health["PCIE"].status == 0
    assert (health["ALL"].status, health["ALL"].error_code) == (0, "DCGM_FR_OK")  # the watch-all system's own row


def test_fault_nvlink_crc_grows_link_and_total_counters() -> None:
    clock = FakeClock()
    n = node(clock=clock)
    n.apply(FaultRequest(FaultKind.NVLINK_CRC, gpu=1))
    gpu = collect_twice(n, clock, 30).gpus[1]
    values = numbers(gpu.device.values)
    assert values[409] > 0 and values[429] > 0
    assert numbers(gpu.links[0].reading.values)[1525] > 0
    # Named as dcgm-exporter (and the DCGM backend) name code 13, which dcgm-exporter's table lacks.
    health = {c.watch: c for c in gpu.health}
    assert (health["NVLINK"].status, health["NVLINK"].error_code) == (10, "DCGM_FR_UNKNOWN(13)")
    with pytest.raises(UsageError, match="no NVLink"):
        node("l40s").apply(FaultRequest(FaultKind.NVLINK_CRC, gpu=0))


def test_fault_restart_puts_counters_back_to_boot_values() -> None:
    clock = FakeClock()
    n = node(clock=clock, workload="training")
    boot = numbers(n.collect(ALL).gpus[0].device.values)[156]
    clock.t += 600
    grown = numbers(n.collect(ALL).gpus[0].device.values)[156]
    n.apply(FaultRequest(FaultKind.RESTART))
    clock.t += 15
    restarted = numbers(n.collect(ALL).gpus[0].device.values)[156]
    assert grown > boot and restarted < grown


def test_fault_slow_delays_reads() -> None:
    slept: list[float] = []
    n = SimNode(SimNodeConfig("n", model_by_key("h100"), 1), clock=FakeClock(), sleep=slept.append)
    n.apply(FaultRequest(FaultKind.SLOW, seconds=7))
    n.collect(ALL)
    n.apply(FaultRequest(FaultKind.SLOW, enabled=False))
    n.collect(ALL)
    assert slept == [7.0]


def test_fault_xid_delivers_one_event() -> None:
    clock = FakeClock()
    n = node(clock=clock)
    n.apply(FaultRequest(FaultKind.XID, gpu=0, code=31))
    assert [e.code for e in n.collect(ALL).gpus[0].xid_events] == [31]
    assert n.collect(ALL).gpus[0].xid_events == ()


def test_active_faults_and_clear() -> None:
    n = node()
    n.apply(FaultRequest(FaultKind.THERMAL, gpu=1))
    n.apply(FaultRequest(FaultKind.SLOW, seconds=3))
    assert n.active_faults() == [{"fault": "slow", "gpu": None, "seconds": 3.0}, {"fault": "thermal", "gpu": 1}]
    n.clear()
    assert n.active_faults() == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"fault": "melt"}, "unknown fault"),
        ({"gpu": 0}, "'fault' is required"),
        ({"fault": "xid", "gpu": -1}, "'gpu' must be"),
        ({"fault": "xid", "code": 0}, "'code' must be"),
        ({"fault": "slow", "seconds": "x"}, "'seconds' must be"),
        ({"fault": "slow", "gpu": 1}, "whole node"),
        ({"fault": "xid", "colour": 1}, "unknown key"),
        ({"fault": "xid", "enabled": "yes"}, "'enabled' must be"),
    ],
)
def test_fault_request_validation(body: dict[str, object], message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_fault_request(body)


def test_unknown_gpu_index_is_refused() -> None:
    with pytest.raises(UsageError, match="GPU 5 does not exist on node-a"):
        node().apply(FaultRequest(FaultKind.THERMAL, gpu=5))


def test_workloads_differ_in_the_way_a_user_expects() -> None:
    t = 1_800_000_000.0
    assert activity(WorkloadKind.IDLE, 1, 1, t).sm_active == 0.0
    training = [activity(WorkloadKind.TRAINING, 1, 1, t + s).sm_active for s in range(0, 600, 15)]
    assert max(training) > 0.75 and min(training) < 0.1  # steady compute with a checkpoint stall
    bursty = [activity(WorkloadKind.BURSTY, 1, 1, t + s).sm_active for s in range(0, 3600, 120)]
    assert 0.0 in bursty and max(bursty) > 0.5
