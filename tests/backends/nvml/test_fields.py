"""Every catalog field NVML serves: value and unit checked against the device description.

Expected values are computed here, by hand, from the description in NVML's units (mW, bytes, KiB counters, GPM
percent and MiB/s), with DCGM's conversions written out: W = mW / 1000, power limits in whole watts, MiB = bytes
// 1048576, NVLink MB/s = KiB/s / 1000, PROF ratios = percent / 100, PROF bytes/s = MiB/s x 1048576.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpuscope.backends.base import GpuReading, ProfilingState, ReadError, Value
from gpuscope.backends.nvml.fieldmap import NO_NVML_SOURCE, NOT_BACKEND_FIELDS, NOT_READ_YET, served_fields
from gpuscope.exporter.collector import build_request
from gpuscope.fields.catalog import BY_ID, ValueKind
from gpuscope.fields.collectors import load_collectors
from gpuscope.fields.ids import NVLINK_LANE_FIELDS, FieldId
from tests.backends.nvml.support import Rig
from tests.fakenvml import description

MIB = 1048576
NS, NP = ReadError.NOT_SUPPORTED, ReadError.NO_PERMISSION
ALL = served_fields()
DT = 15.0
TX_KIB_S = [30_000 * (link + 1) for link in range(18)]  # per-link traffic added between the two collections
RX_KIB_S = [45_000 for _ in range(18)]


def _fi(d: dict[str, Any], fid: int) -> Any:
    spec = d["fields"][fid]
    return ReadError(spec) if isinstance(spec, str) else next(iter(spec.values()))


def _gpm(d: dict[str, Any], metric: int, ratio: bool) -> Value | ReadError:
    value = d["gpm"].get("metrics", {}).get(metric)
    if value is None:
        return NS
    return value / 100 if ratio else int(value * MIB)


def _fabric(d: dict[str, Any]) -> dict[int, Value | ReadError]:
    f = d["fabric"]
    if isinstance(f, str):  # no NVLink fabric behind this board
        return dict.fromkeys(range(170, 176), NS)
    # state 3 (completed) with status 0 (success) is DCGM's fabric manager status 3, "success".
    return {170: 3, 171: f["status"], 172: f["cluster_uuid"], 173: f["clique_id"], 174: f["health_mask"],
            175: f["health_summary"]}  # fmt: skip


def expected_h100(d: dict[str, Any]) -> dict[int, Value | ReadError]:
    mem, nv = d["memory"], d["nvlink"]
    free = mem["total"] - mem["reserved"] - mem["used"]
    links = nv["links"]
    kib_s = sum(TX_KIB_S[:links]) + sum(RX_KIB_S[:links])
    out: dict[int, Value | ReadError] = {
        51: "NVIDIA",
        53: d["serial"],
        56: d["inforom"]["oem"],
        80: d["inforom"]["ecc"],
        81: NS,
        82: d["inforom_image"],
        85: d["vbios"],
        100: d["clocks"]["sm"],
        101: d["clocks"]["mem"],
        102: d["clocks"]["video"],
        112: d["clock_event_reasons"],
        113: d["max_clocks"]["sm"],
        114: d["max_clocks"]["mem"],
        140: _fi(d, 82),
        150: d["temperature"],
        155: d["power_usage_mw"] / 1000.0,
        156: _fi(d, 83),
        157: _fi(d, 186) / 1000.0,
        158: d["thresholds"]["slowdown"],
        159: d["thresholds"]["shutdown"],
        160: float(d["power_limit_mw"] // 1000),
        164: float(d["enforced_power_limit_mw"] // 1000),
        161: float(d["power_limit_constraints_mw"][0] // 1000),
        162: float(d["power_limit_constraints_mw"][1] // 1000),
        163: float(d["default_power_limit_mw"] // 1000),
        1523: _fi(d, 230),
        **_fabric(d),
        190: d["pstate"],
        191: NS,
        202: _fi(d, 94),
        203: d["utilization"]["gpu"],
        204: d["utilization"]["memory"],
        206: d["encoder"][0],
        207: d["decoder"][0],
        237: d["pcie"]["gen"],
        238: d["pcie"]["width"],
        **{240 + n: _fi(d, 74 + n) for n in range(6)},
        250: mem["total"] // MIB,
        251: free // MIB,
        252: mem["used"] // MIB,
        253: mem["reserved"] // MIB,
        254: mem["used"] / (mem["total"] - mem["reserved"]),
        310: _fi(d, 3),
        311: _fi(d, 4),
        312: _fi(d, 5),
        313: _fi(d, 6),
        390: NS,
        391: NS,
        392: NS,
        393: _fi(d, 143),
        394: _fi(d, 142),
        395: _fi(d, 145),
        396: _fi(d, 144),
        409: sum(nv["crc_flit"]),
        419: sum(nv["crc_data"]),
        429: sum(nv["replay"]),
        439: sum(nv["recovery"]),
        449: int(kib_s / 1000),
        497: _fi(d, 163),
        498: _fi(d, 162),
        499: _fi(d, 161),
        526: NS,
        FieldId.DCGM_FI_DEV_FB_CAPACITY_BYTES: mem["total"],
        FieldId.DCGM_FI_DEV_FB_FREE_BYTES: free,
        FieldId.DCGM_FI_DEV_FB_USED_BYTES: mem["used"],
        FieldId.DCGM_FI_DEV_FB_RESERVED_BYTES: mem["reserved"],
        FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL: int(kib_s * 1024),
    }
    for lane, lane_fid in enumerate(NVLINK_LANE_FIELDS):
        out[lane_fid] = int((TX_KIB_S[lane] + RX_KIB_S[lane]) / 1000) if lane < links else NS
    ratios = {1001: 1, 1002: 2, 1003: 3, 1004: 5, 1005: 10, 1006: 11, 1007: 12, 1008: 13, 1013: 9, 1014: 7}
    ratios |= {1015: 6, 1016: 4} | {1017 + n: 30 + n for n in range(8)} | {1025 + n: 40 + n for n in range(8)}
    ratios |= {1033: 50, 1034: 51}
    for fid, metric in ratios.items():
        out[fid] = _gpm(d, metric, ratio=True)
    for fid, metric in {1009: 20, 1010: 21, 1011: 61, 1012: 60}.items():
        out[fid] = _gpm(d, metric, ratio=False)
    tx, rx = d["gpm"].get("nvlink_tx_mib_s", []), d["gpm"].get("nvlink_rx_mib_s", [])
    for lane in range(18):
        out[1040 + 2 * lane] = int(tx[lane] * MIB) if lane < min(links, len(tx)) else NS
        out[1041 + 2 * lane] = int(rx[lane] * MIB) if lane < min(links, len(rx)) else NS
    return out


def expected_link(d: dict[str, Any], link: int) -> dict[int, Value | ReadError]:
    nv, gpm = d["nvlink"], d["gpm"]
    return {
        1525: nv["crc_flit"][link],
        1526: nv["crc_data"][link],
        1527: nv["replay"][link],
        1528: nv["recovery"][link],
        1529: int((TX_KIB_S[link] + RX_KIB_S[link]) / 1000),
        1532: int(gpm["nvlink_tx_mib_s"][link] * MIB),
        1533: int(gpm["nvlink_rx_mib_s"][link] * MIB),
        1508: 1,  # every link of the fake is active
    }


def collect_with_traffic(r: Rig, index: int = 0) -> GpuReading:
    """Two collections DT apart, with NVLink traffic in between (rates need two samples, GPM too)."""
    r.collect(ALL)
    nv = r.fake.devices[index].desc["nvlink"]
    for link in range(nv["links"]):
        nv["tx_kib"][link] += int(TX_KIB_S[link] * DT)
        nv["rx_kib"][link] += int(RX_KIB_S[link] * DT)
    return r.collect(ALL, dt=DT).gpus[index]


def assert_matches(got_values: Any, got_errors: Any, expected: dict[int, Value | ReadError]) -> None:
    wrong = {}
    for fid, want in expected.items():
        got = got_errors.get(fid) if isinstance(want, ReadError) else got_values.get(fid)
        if got != want or type(got) is not type(want):
            wrong[BY_ID[fid].name] = (want, got, got_errors.get(fid))
    assert wrong == {}


def assert_kinds(values: Any) -> None:
    """Each value has the kind DCGM stores for its field: doubles for W and ratios, ints, strings for labels."""
    kinds = {ValueKind.DOUBLE: float, ValueKind.INT: int, ValueKind.STRING: str}
    wrong = {BY_ID[f].name: v for f, v in values.items() if type(v) is not kinds[BY_ID[f].value]}
    assert wrong == {}


def test_every_catalog_field_a_backend_is_asked_for_is_served() -> None:
    # The collector derives XID, the 4.9 base-unit twins and exporter fields; system fields come from the node.
    # Base-unit views (ids below -100) this backend reads natively are asked for like DCGM fields.
    asked = {fid for fid in BY_ID if fid > 2 or fid < -100} - NOT_BACKEND_FIELDS - NOT_READ_YET - NO_NVML_SOURCE
    assert asked == ALL
    assert not (NOT_READ_YET | NO_NVML_SOURCE) & ALL


def test_every_served_field_is_tested_here() -> None:
    tested = set(expected_h100(description.device("h100-sxm"))) | set(expected_link(description.device("h100-sxm"), 0))
    assert tested == ALL
    assert all(BY_ID[fid].field_id == fid for fid in ALL)


def test_the_default_list_is_all_served() -> None:
    assert build_request(load_collectors(None)).field_ids <= ALL


def test_h100_every_field_in_dcgm_units(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    gpu = collect_with_traffic(r)
    d = r.fake.devices[0].desc
    assert_matches(gpu.device.values, gpu.device.errors, expected_h100(description.device("h100-sxm")))
    assert_kinds(gpu.device.values)
    assert gpu.profiling is ProfilingState.AVAILABLE
    assert [link.link for link in gpu.links] == list(range(18))
    for link in gpu.links:
        assert_matches(
            link.reading.values, link.reading.errors, expected_link(description.device("h100-sxm"), link.link)
        )
        assert_kinds(link.reading.values)
    assert d["name"] == gpu.identity.model_name and gpu.identity.pci_bus_id == "00000000:18:00.0"


def test_nvlink_rates_start_at_zero_and_ignore_counter_resets(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    first = r.collect({449, FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL, 440}).gpus[0].device.values
    assert (first[449], first[FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL], first[440]) == (
        0,
        0,
        0,
    )  # DCGM publishes 0 for the first sample
    nv = r.fake.devices[0].desc["nvlink"]
    nv["tx_kib"][0] -= 500_000  # a counter went backwards (driver reload): no negative rate
    assert r.collect({449, 440}).gpus[0].device.values[440] == 0
    nv["tx_kib"][0] += 2_000_000  # 2,000,000 KiB over 10 s on link 0 only
    values = r.collect({449, FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL, 440}, dt=10.0).gpus[0].device.values
    assert values[440] == 200 and values[449] == 200  # KiB/s / 1000, as DCGM ("MB/s")
    assert values[FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL] == 200_000 * 1024  # bytes/s for the 4.9 name


def test_a100_has_no_prof_metrics_and_twelve_links(rig: Callable[..., Rig]) -> None:
    r = rig("a100")
    gpu = collect_with_traffic(r)
    d = description.device("a100-sxm")
    expected = expected_h100(d)
    for fid in expected:
        if BY_ID[fid].prof:
            expected[fid] = NS  # no GPM: PROF series absent, and the reason recorded
    assert_matches(gpu.device.values, gpu.device.errors, expected)
    assert gpu.profiling is ProfilingState.UNSUPPORTED
    assert "no GPM" in gpu.profiling_detail and "A100" in gpu.profiling_detail
    assert len(gpu.links) == 12
    assert gpu.links[11].reading.values[1525] == d["nvlink"]["crc_flit"][11]
    assert gpu.links[3].reading.errors[1532] is NS


def test_consumer_card_on_an_old_driver(rig: Callable[..., Rig]) -> None:
    """Memory info v1 (no reserved), the deprecated temperature and throttle calls, many NOT_SUPPORTED."""
    r = rig("workstation")
    gpu = collect_with_traffic(r)
    d = description.device("rtx-4090")
    v, e = gpu.device.values, gpu.device.errors
    mem = d["memory"]
    assert v[150] == d["temperature"] and v[112] == d["clock_event_reasons"]
    assert v[252] == (mem["used"] + mem["reserved"]) // MIB  # v1 "used" includes reserved memory
    assert v[250] == mem["total"] // MIB and v[FieldId.DCGM_FI_DEV_FB_CAPACITY_BYTES] == mem["total"]
    assert e[253] is NS and e[FieldId.DCGM_FI_DEV_FB_RESERVED_BYTES] is NS
    assert v[254] == (mem["used"] + mem["reserved"]) / mem["total"]
    assert v[51] == "GeForce" and v[191] == d["fan_speed"] and v[190] == 8
    for fid in (
        53,
        56,
        80,
        81,
        82,
        140,
        310,
        311,
        390,
        393,
        394,
        395,
        409,
        449,
        497,
        526,
        FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL,
        440,
        1001,
        1009,
    ):
        assert e.get(fid) is NS, BY_ID[fid].name
    assert gpu.links == () and gpu.profiling is ProfilingState.UNSUPPORTED
    calls = r.fake.collection_calls()
    # The fallback is remembered: one failed attempt at the new symbol, then straight to the old one.
    assert calls["nvmlDeviceGetTemperatureV"] == 1 and calls["nvmlDeviceGetTemperature"] == 2
    assert calls["nvmlDeviceGetCurrentClocksEventReasons"] == 1
    assert calls["nvmlDeviceGetCurrentClocksThrottleReasons"] == 2
    assert calls["nvmlDeviceGetMemoryInfo"] == 3  # v2 (missing), v1, then v1 only


def test_memory_temperature_read_as_uint_and_implausible_temperatures_dropped(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    # NVML r545 typed memory temperature as double while filling uiVal (nvbug 4300930); DCGM reads uiVal.
    r.fake.devices[0].desc["fields"][82] = {"u_as_d": 68}
    r.fake.devices[1].desc["temperature"] = 4000  # a glitching sensor
    gpus = r.collect({140, 150}).gpus
    assert gpus[0].device.values[140] == 68
    assert 150 not in gpus[1].device.values and gpus[1].device.errors[150] is ReadError.NO_DATA


def test_system_versions_and_p2p_status(rig: Callable[..., Rig]) -> None:
    r = rig("hgx-h100")
    reading = r.collect({150}, p2p=True)
    assert reading.system == {1: r.fake.driver_version, 2: r.fake.nvml_version}
    assert reading.gpus[0].p2p == dict.fromkeys(range(1, 8), 0)  # NVML_P2P_STATUS_OK over NVLink
    r.fake.lose(5)
    reading = r.collect({150}, p2p=True)
    assert reading.gpus[0].p2p[5] == 6 and reading.gpus[0].p2p[4] == 0  # a lost peer: Unknown
    assert rig("workstation").collect({150}, p2p=True).gpus[0].p2p == {}
    assert r.collect({150}).gpus[0].p2p == {}  # only when asked for: no P2P calls otherwise
