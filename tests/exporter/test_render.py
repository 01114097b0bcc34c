from __future__ import annotations

import gzip
import re

from gpuscope.backends.sim import FaultKind, FaultRequest
from gpuscope.exposition import escape
from gpuscope.fields.catalog import Dialect
from gpuscope.fields.collectors import load_collectors
from gpuscope.simulator.control import apply_fault
from tests.support.exporter import RuntimeFactory, scrape
from tests.support.metrics_text import families, label_order

GPU_LABELS = ["gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname", "DCGM_FI_DRIVER_VERSION"]
MIG_LABELS = [
    "gpu",
    "UUID",
    "pci_bus_id",
    "device",
    "modelName",
    "GPU_I_PROFILE",
    "GPU_I_ID",
    "Hostname",
    "DCGM_FI_DRIVER_VERSION",
]


def test_names_types_and_label_order_match_dcgm_exporter(make: RuntimeFactory) -> None:
    runtime, _, clock = make()
    runtime.collect()
    text = scrape(runtime, clock)
    fams = families(text)
    expected = {m.name: m.type.value for m in load_collectors(None).metrics}
    expected.pop("DCGM_FI_DEV_VGPU_LICENSE_STATUS")  # not supported on bare metal: absent, see below
    for name, typ in expected.items():
        assert fams[name][0] == typ, name
        assert len(fams[name][1]) == 2, name
    for name in expected:
        extra = ["err_code", "err_msg"] if name == "DCGM_FI_DEV_XID_ERRORS" else []
        assert label_order(text, name) == [GPU_LABELS + extra] * 2, name
    # Family order is the CSV's, not random.
    dcgm_order = [n for n in fams if n.startswith("DCGM_")]
    assert dcgm_order == [n for n in expected if n in dcgm_order]


def test_unsupported_field_is_absent_not_zero_and_explained(make: RuntimeFactory) -> None:
    runtime, _, clock = make(model="l40s", gpus=1)
    runtime.collect()
    text = scrape(runtime, clock)
    fams = families(text)
    assert "DCGM_FI_DEV_VGPU_LICENSE_STATUS" not in fams
    assert "DCGM_FI_DEV_MEMORY_TEMP" not in fams  # GDDR: no sensor
    assert "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL" not in fams
    unsupported = {s.labels["field"] for s in fams["gpuscope_exporter_field_unsupported"][1]}
    assert {"DCGM_FI_DEV_VGPU_LICENSE_STATUS", "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL"} <= (
        unsupported
    )
    assert "DCGM_FI_DEV_GPU_TEMP" in fams


def test_odd_label_values_are_escaped(make: RuntimeFactory) -> None:
    odd = 'rack "7"\\b\nnode'
    runtime, _, clock = make(hostname=odd, gpus=1)
    runtime.collect()
    text = scrape(runtime, clock)
    assert 'Hostname="rack \\"7\\"\\\\b\\nnode"' in text
    (sample,) = families(text)["DCGM_FI_DEV_GPU_TEMP"][1]
    assert sample.labels["Hostname"] == odd
    assert escape("plain") == "plain"


def test_mig_series_carry_instance_labels_and_follow_dcgm_mig_rules(make: RuntimeFactory) -> None:
    runtime, _, clock = make(gpus=1, mig="1g.10gb:7", workload="inference")
    runtime.collect()
    text = scrape(runtime, clock)
    fams = families(text)
    fb = fams["DCGM_FI_DEV_FB_USED"][1]
    assert sorted(int(s.labels["GPU_I_ID"]) for s in fb) == [7, 8, 9, 10, 11, 12, 13]
    assert {s.labels["GPU_I_PROFILE"] for s in fb} == {"1g.10gb"}
    assert all(s.value < 9856 for s in fb)  # per-instance memory, not the whole GPU's
    assert label_order(text, "DCGM_FI_DEV_FB_USED")[0] == MIG_LABELS
    temps = fams["DCGM_FI_DEV_GPU_TEMP"][1]
    assert len(temps) == 7 and len({s.value for s in temps}) == 1  # parent value repeated per instance
    assert "DCGM_FI_DEV_GPU_UTIL" not in fams  # not readable with MIG on
    prof = fams["DCGM_FI_PROF_GR_ENGINE_ACTIVE"][1]
    assert len(prof) == 7 and len({s.value for s in prof}) > 1  # per-instance activity


def test_xid_gauge_labels_and_exporter_windows(make: RuntimeFactory) -> None:
    csv = (
        "DCGM_FI_DEV_XID_ERRORS, gauge, Value of the last XID error encountered.\n"
        "DCGM_EXP_XID_ERRORS_COUNT, gauge, count\n"
        "DCGM_EXP_XID_ERRORS_TOTAL, counter, total\n"
        "DCGM_FI_DRIVER_VERSION, label, Driver Version\n"
    )
    runtime, sim, clock = make(csv=csv, gpus=2, xid_window_ms=60000)
    runtime.collect()
    fams = families(scrape(runtime, clock))
    assert fams["DCGM_EXP_XID_ERRORS_COUNT"][1][0].labels["window_size_in_ms"] == "60000"
    assert all("xid" not in s.labels and s.value == 0 for s in fams["DCGM_EXP_XID_ERRORS_COUNT"][1])
    for _ in range(2):
        sim.apply(FaultRequest(FaultKind.XID, gpu=1, code=31))
        clock.t += 15
        runtime.collect()
    text = scrape(runtime, clock)
    fams = families(text)
    last = {s.labels["gpu"]: s for s in fams["DCGM_FI_DEV_XID_ERRORS"][1]}
    assert (last["1"].value, last["1"].labels["err_code"], last["1"].labels["err_msg"]) == (
        31,
        "31",
        "GPU memory page fault",
    )
    assert (last["0"].value, last["0"].labels["err_msg"]) == (0, "No Error")
    assert label_order(text, "DCGM_FI_DEV_XID_ERRORS")[0] == [*GPU_LABELS, "err_code", "err_msg"]
    counts = {(s.labels["gpu"], s.labels.get("xid")): s.value for s in fams["DCGM_EXP_XID_ERRORS_COUNT"][1]}
    assert counts == {("0", None): 0, ("1", "31"): 2}
    clock.t += 61
    runtime.collect()
    counts = {
        (s.labels["gpu"], s.labels.get("xid")): s.value
        for s in families(scrape(runtime, clock))["DCGM_EXP_XID_ERRORS_COUNT"][1]
    }
    assert counts == {("0", None): 0, ("1", None): 0}  # out of the window
    totals = families(scrape(runtime, clock))["DCGM_EXP_XID_ERRORS_TOTAL"][1]
    assert [(s.labels["xid"], s.value) for s in totals] == [("31", 2)]  # repeats are never invisible


def test_clock_events_health_and_p2p(make: RuntimeFactory) -> None:
    csv = (
        "DCGM_EXP_CLOCK_EVENTS_COUNT, gauge, c\nDCGM_EXP_CLOCK_EVENTS_TOTAL, counter, t\n"
        "DCGM_EXP_GPU_HEALTH_STATUS, gauge, h\nDCGM_EXP_P2P_STATUS, gauge, p\n"
    )
    runtime, sim, clock = make(csv=csv, gpus=2, workload="training")
    sim.apply(FaultRequest(FaultKind.THERMAL, gpu=0))
    for _ in range(3):
        clock.t += 15
        runtime.collect()
    fams = families(scrape(runtime, clock))
    events = {(s.labels["gpu"], s.labels.get("clock_event")): s.value for s in fams["DCGM_EXP_CLOCK_EVENTS_COUNT"][1]}
    assert events[("0", "sw_thermal")] == 3 and events[("0", "hw_thermal")] == 3
    assert ("1", "sw_thermal") not in events
    health = {(s.labels["gpu"], s.labels["health_watch"]): s for s in fams["DCGM_EXP_GPU_HEALTH_STATUS"][1]}
    assert health[("0", "THERMAL")].value == 10 and health[("0", "THERMAL")].labels["health_error_code"] != "DCGM_FR_OK"
    assert health[("1", "THERMAL")].value == 0
    # ALL carries only the watch-all system's incidents, so a sum over health_watch counts the thermal one once.
    assert health[("0", "ALL")].value == 0
    assert sum(s.value for (gpu, _), s in health.items() if gpu == "0") == 10
    assert len(health) == 22
    p2p = fams["DCGM_EXP_P2P_STATUS"][1]
    assert [(s.labels["gpu"], s.labels["peer_gpu"], s.labels["link_status"]) for s in p2p] == [
        ("0", "1", "OK"),
        ("1", "0", "OK"),
    ]


def test_window_count_labels_in_dcgm_exporters_order(make: RuntimeFactory) -> None:
    """dcgm-exporter keeps clock_event/xid and window_size_in_ms in one label map, written byte-sorted after the
    label fields (internal/pkg/collector/expcollector.go, clock_events_collector.go, xid_collector.go;
    rendermetrics/render_metrics.go): ``clock_event`` before ``window_size_in_ms``, ``window_size_in_ms`` before
    ``xid``."""
    csv = (
        "DCGM_EXP_CLOCK_EVENTS_COUNT, gauge, c\nDCGM_EXP_XID_ERRORS_COUNT, gauge, x\n"
        "DCGM_FI_DRIVER_VERSION, label, Driver Version\n"
    )
    runtime, sim, clock = make(csv=csv, gpus=1, workload="training")
    sim.apply(FaultRequest(FaultKind.THERMAL, gpu=0))
    sim.apply(FaultRequest(FaultKind.XID, gpu=0, code=48))
    for _ in range(2):
        clock.t += 15
        runtime.collect()
    text = scrape(runtime, clock)
    head = ["gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname", "DCGM_FI_DRIVER_VERSION"]
    events = label_order(text, "DCGM_EXP_CLOCK_EVENTS_COUNT")
    assert events and all(order == [*head, "clock_event", "window_size_in_ms"] for order in events), events
    xids = label_order(text, "DCGM_EXP_XID_ERRORS_COUNT")
    assert xids and all(order == [*head, "window_size_in_ms", "xid"] for order in xids), xids


def test_4_9_dialect_uses_base_units(make: RuntimeFactory) -> None:
    classic, _, clock = make(gpus=1)
    new, _, clock2 = make(gpus=1, dialect=Dialect.DCGM_4_9)
    classic.collect()
    new.collect()
    a = families(scrape(classic, clock))
    b = families(scrape(new, clock2))
    assert b["DCGM_FI_DEV_SM_CLOCK_HERTZ"][1][0].value == a["DCGM_FI_DEV_SM_CLOCK"][1][0].value * 1e6
    assert b["DCGM_FI_DEV_GPU_UTIL_RATIO"][1][0].value == a["DCGM_FI_DEV_GPU_UTIL"][1][0].value / 100
    used_bytes = b["DCGM_FI_DEV_FB_USED_BYTES"][1][0].value
    assert used_bytes // 1048576 == a["DCGM_FI_DEV_FB_USED"][1][0].value and used_bytes % 1048576 != 0
    assert "DCGM_FI_SYSTEM_DRIVER_VERSION" in b["DCGM_FI_DEV_GPU_TEMP_CELSIUS"][1][0].labels
    assert b["DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL"][0] == "gauge"
    assert 'dialect="4.9"' in scrape(new, clock2)


def test_naming_options(make: RuntimeFactory) -> None:
    runtime, _, clock = make(gpus=1, use_old_namespace=True, host_label="hostname", replace_blanks_in_model_name=True)
    runtime.collect()
    (sample,) = families(scrape(runtime, clock))["DCGM_FI_DEV_GPU_TEMP"][1]
    assert "uuid" in sample.labels and "UUID" not in sample.labels
    assert sample.labels["hostname"] == "node-a" and "Hostname" not in sample.labels
    assert sample.labels["modelName"] == "NVIDIA-H100-80GB-HBM3"
    runtime, _, clock = make(gpus=1, no_hostname=True)
    runtime.collect()
    (sample,) = families(scrape(runtime, clock))["DCGM_FI_DEV_GPU_TEMP"][1]
    assert "Hostname" not in sample.labels and "hostname" not in sample.labels


def test_lost_gpu_disappears_and_is_reported(make: RuntimeFactory) -> None:
    runtime, sim, clock = make(gpus=3)
    runtime.collect()
    sim.apply(FaultRequest(FaultKind.FELL_OFF_BUS, gpu=1))
    clock.t += 15
    runtime.collect()
    fams = families(scrape(runtime, clock))
    assert sorted(s.labels["gpu"] for s in fams["DCGM_FI_DEV_GPU_TEMP"][1]) == ["0", "2"]
    lost = {s.labels["gpu"]: s.value for s in fams["gpuscope_exporter_gpu_lost"][1]}
    assert lost == {"0": 0, "1": 1, "2": 0}
    errors = fams["gpuscope_exporter_field_read_errors"][1]
    assert any(s.labels["reason"] == "gpu_lost" and s.labels["gpu"] == "1" for s in errors)
    # The XID 79 that took it down stays visible, and nothing is read from the dead GPU.
    last = {s.labels["gpu"]: (s.labels["err_code"], s.value) for s in fams["DCGM_FI_DEV_XID_ERRORS"][1]}
    assert last["1"] == ("79", 79.0)
    assert not [s for s in fams["DCGM_FI_DEV_POWER_USAGE"][1] if s.labels["gpu"] == "1"]


def test_profiling_lock_stops_prof_series_only(make: RuntimeFactory) -> None:
    runtime, sim, clock = make(gpus=2)
    sim.apply(FaultRequest(FaultKind.PROFILING_LOCK, gpu=0))
    runtime.collect()
    fams = families(scrape(runtime, clock))
    assert [s.labels["gpu"] for s in fams["DCGM_FI_PROF_GR_ENGINE_ACTIVE"][1]] == ["1"]
    assert sorted(s.labels["gpu"] for s in fams["DCGM_FI_DEV_GPU_TEMP"][1]) == ["0", "1"]
    available = {
        s.labels["gpu"]: (s.value, s.labels["reason"]) for s in fams["gpuscope_exporter_gpu_profiling_available"][1]
    }
    assert available == {"0": (0, "locked"), "1": (1, "available")}
    supported = {s.labels["gpu"]: s.value for s in fams["gpuscope_exporter_gpu_profiling_supported"][1]}
    assert supported == {"0": 1, "1": 1}


def test_restart_resets_counters_and_start_time(make: RuntimeFactory) -> None:
    runtime, _, clock = make(gpus=1, workload="training")
    runtime.collect()
    clock.t += 600
    runtime.collect()
    before = families(scrape(runtime, clock))
    clock.t += 1
    apply_fault(runtime, FaultRequest(FaultKind.RESTART))
    empty = families(scrape(runtime, clock))
    assert "DCGM_FI_DEV_GPU_TEMP" not in empty  # a restarted exporter has no data until it collects
    runtime.collect()
    after = families(scrape(runtime, clock))
    energy = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"
    assert after[energy][1][0].value < before[energy][1][0].value
    start = "gpuscope_exporter_start_time_seconds"
    assert after[start][1][0].value > before[start][1][0].value
    assert after["gpuscope_exporter_collections"][1][0].value == 1


def test_render_is_deterministic_and_gzip_is_the_same_body(make: RuntimeFactory) -> None:
    runtime, _, clock = make(gpus=2)
    # process_* are live readings of this process (CPU time, RSS): they may change between two calls.
    runtime.own_process_metrics = False
    runtime.collect()
    plain = runtime.body(clock.t, gzip=False)
    assert plain == runtime.body(clock.t, gzip=False)
    assert gzip.decompress(runtime.body(clock.t, gzip=True)) == plain
    twin, _, _ = make(gpus=2)
    twin.collect()
    # Same seed and clock: identical DCGM series (only the measured collection duration may differ).
    strip = re.compile(rb"^gpuscope_exporter_collection_duration_seconds .*$", re.MULTILINE)
    assert strip.sub(b"", twin.published.static) == strip.sub(b"", runtime.published.static)


def test_health_states(make: RuntimeFactory) -> None:
    runtime, sim, clock = make(gpus=1, interval_s=10)
    status, body = runtime.health(clock.t)
    assert status == 503 and "no collection has completed yet" in body
    runtime.collect()
    assert runtime.health(clock.t)[0] == 200
    clock.t += 29
    assert runtime.health(clock.t)[0] == 200
    clock.t += 2
    status, body = runtime.health(clock.t)
    assert status == 503 and "31.0s old (limit 30s)" in body
    sim.apply(FaultRequest(FaultKind.FELL_OFF_BUS, gpu=0))
    runtime.collect()
    status, body = runtime.health(clock.t)
    assert status == 200 and '"gpus_lost": 1' in body  # a lost GPU is not an exporter failure


def test_per_link_nvlink_fields_come_from_each_link(make: RuntimeFactory) -> None:
    csv = (
        "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL, counter, c\n"
        "DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK, gauge, t\n"
    )
    runtime, sim, clock = make(csv=csv, gpus=2, workload="training")
    sim.apply(FaultRequest(FaultKind.NVLINK_CRC, gpu=1))
    for _ in range(3):
        clock.t += 15
        runtime.collect()
    fams = families(scrape(runtime, clock))
    throughput = fams["DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK"][1]
    assert len(throughput) == 2 * 18  # an H100 has 18 links, one series each
    assert {s.labels["nvlink"] for s in throughput} == {str(i) for i in range(18)}
    crc = {
        (s.labels["gpu"], s.labels["nvlink"]): s.value
        for s in fams["DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL"][1]
    }
    assert all(v == 0 for (gpu, _), v in crc.items() if gpu == "0")
    assert any(v > 0 for (gpu, _), v in crc.items() if gpu == "1")  # the fault's errors land on links of GPU 1
