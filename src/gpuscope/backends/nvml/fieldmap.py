"""Where NVML keeps each catalog field, and how to turn NVML's value into DCGM's unit.

This is DCGM's own mapping (``DcgmCacheManager``, ``DcgmGpmManager``) written as data. Four kinds of source:

- ``Batched``: one entry of the per-GPU ``nvmlDeviceGetFieldValues`` call (counters, ECC, remapping, energy...).
- ``NvlinkRate``: a rate computed from the cumulative NVLink data counters (field ids 138/139, KiB) of one link or
  of all links, between two collections, exactly as DCGM computes ``DCGM_FI_DEV_NVLINK_BANDWIDTH_*``.
- ``Call``: an individual NVML call, for what has no field id (temperature, clocks, memory, utilization...). One
  call may serve several fields (memory info serves nine); calls with the same ``key`` are made once.
- ``Gpm``: one GPM metric (Hopper+), computed by ``nvmlGpmMetricsGet`` between two samples.

Conversions are pure functions of NVML's raw value; a ``ReadError`` return means "no value this time".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from gpuscope.backends.base import ReadError, Value
from gpuscope.backends.nvml import constants as C
from gpuscope.fields.catalog import DERIVED
from gpuscope.fields.ids import (
    NVDEC_FIELDS,
    NVJPG_FIELDS,
    NVLINK5_ERROR_FIELDS,
    NVLINK_LANE_FIELDS,
    NVLINK_PROF_LANE_FIELDS,
    NVOFA_FIELDS,
    VIOLATION_FIELDS,
    FieldId,
)
from gpuscope.fields.rows_fabric import FABRIC_FIELDS

MIB = 1048576
MAX_PLAUSIBLE_TEMP_C = 200  # DCGM drops temperatures above this (sensor glitches)

Pick = Callable[[Any], Value | ReadError]
CallKey = tuple[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class MemoryInfo:
    """Framebuffer figures in bytes; ``reserved`` is ``None`` when only the v1 call exists (drivers < R510)."""

    total: int
    reserved: int | None
    free: int
    used: int


@dataclass(frozen=True, slots=True)
class FabricInfo:
    """``nvmlDeviceGetGpuFabricInfoV`` (v3): the GPU's NVLink fabric as the fabric manager set it up."""

    state: int
    status: int  # an nvmlReturn_t: how the fabric manager's set-up of this GPU ended
    clique_id: int
    cluster_uuid: str
    health_mask: int
    health_summary: int


@dataclass(frozen=True, slots=True)
class Batched:
    """A field read from one ``nvmlDeviceGetFieldValues`` entry."""

    field_id: int
    convert: Callable[[int | float], Value | ReadError]
    scope: int = 0
    as_uint: bool = False  # read ``uiVal`` whatever valueType says (DCGM's workaround for memory temperature)


@dataclass(frozen=True, slots=True)
class NvlinkRate:
    """A rate from the NVLink data TX + RX counters (KiB) of ``scope`` (a link, or all links)."""

    scope: int
    bytes_per_s: bool  # False: DCGM's "MB/s" (KiB/s / 1000); True: bytes/s (the 4.9 base-unit field)


@dataclass(frozen=True, slots=True)
class Call:
    """A field served by an individual NVML call; ``pick`` extracts this field from the call's result."""

    key: CallKey
    pick: Pick


@dataclass(frozen=True, slots=True)
class Gpm:
    """A GPM metric; ``percent`` metrics become DCGM ratios (/100), the others MiB/s -> bytes/s (x 1048576)."""

    metric: int
    percent: bool


Source = Batched | NvlinkRate | Call | Gpm


# --- conversions (pure) -----------------------------------------------------------------------------------


def as_int(raw: int | float) -> Value:
    return int(raw)


def milliwatts_to_watts(raw: int | float) -> Value:
    return raw / 1000.0


def milliwatts_to_whole_watts(raw: int | float) -> Value:
    # DCGM divides the limits as unsigned integers before storing a double: 700000 mW -> 700.0, 299999 -> 299.0.
    return float(int(raw) // 1000)


def temperature(raw: int | float) -> Value | ReadError:
    return int(raw) if 0 <= raw <= MAX_PLAUSIBLE_TEMP_C else ReadError.NO_DATA


def gpm_value(source: Gpm, raw: float) -> Value:
    """DCGM's conversion of a GPM result: ratios stay doubles, byte rates are truncated to integers."""
    return raw / 100.0 if source.percent else int(raw * MIB)


def nvlink_rate_kib_s(prev: tuple[int, int] | None, total_kib: int, timestamp_us: int) -> float:
    """KiB/s since the previous sample, DCGM style: the first sample, a zero sum or a reset counter give 0."""
    if prev is None or total_kib == 0:
        return 0.0
    prev_total, prev_ts = prev
    seconds = (timestamp_us - prev_ts) / 1e6
    delta = total_kib - prev_total
    if seconds <= 0 or delta < 0:
        return 0.0
    return delta / seconds


def rate_value(source: NvlinkRate, kib_s: float) -> Value:
    return int(kib_s * 1024) if source.bytes_per_s else int(kib_s / 1000.0)


# --- picks for individual calls (pure functions of the call's result) --------------------------------------


def _same(raw: Any) -> Value:
    return str(raw)  # strings: serial, inforom and VBIOS versions


def _int(raw: Any) -> Value:
    return int(raw)


def _brand(raw: Any) -> Value:
    return C.BRAND_NAMES.get(int(raw), "Unknown")


def _pstate(raw: Any) -> Value | ReadError:
    return ReadError.NO_DATA if int(raw) == C.PSTATE_UNKNOWN else int(raw)


def _first(raw: Any) -> Value:
    return int(raw[0])  # encoder/decoder utilization: [percent, sampling period in us]


def _vgpu_license(raw: Any) -> Value | ReadError:
    if not raw.isGridLicenseSupported:
        return 0
    for i in range(raw.licensableFeaturesCount):
        feature = raw.gridLicensableFeatures[i]
        if feature.featureCode == C.GRID_LICENSE_FEATURE_CODE_VGPU:
            return 1 if feature.featureState > 0 else 0
    return ReadError.NO_DATA


def _fb(name: str, in_mib: bool) -> Pick:
    def pick(mem: MemoryInfo) -> Value | ReadError:
        value: int | None = getattr(mem, name)
        if value is None:
            return ReadError.NOT_SUPPORTED  # reserved memory is unknown to drivers older than R510
        return value // MIB if in_mib else value

    return pick


def _fb_used_ratio(mem: MemoryInfo) -> Value | ReadError:
    usable = mem.total - (mem.reserved or 0)
    return mem.used / usable if mem.total and usable > 0 else ReadError.NO_DATA


def _fabric(pick: Callable[[FabricInfo], Value | ReadError]) -> Call:
    def checked(info: FabricInfo) -> Value | ReadError:
        if info.state == C.GPU_FABRIC_STATE_NOT_SUPPORTED:
            return ReadError.NOT_SUPPORTED
        return pick(info)

    return _call("fabric", pick=checked)


def fabric_manager_status(info: FabricInfo) -> Value:
    """DCGM's ``dcgmFabricManagerStatus_t``: NVML's state up to "in progress", then success or failure."""
    if info.state == C.GPU_FABRIC_STATE_COMPLETED:
        return 3 if info.status == C.SUCCESS else 4
    return info.state  # 1 not started, 2 in progress: the same numbers in both enums


def _whole_w(raw: int) -> Value:
    return milliwatts_to_whole_watts(raw)


def _call(name: str, *args: int, pick: Pick = _int) -> Call:
    return Call((name, args), pick)


def _fv(field_id: int, convert: Callable[[int | float], Value | ReadError] = as_int) -> Batched:
    return Batched(field_id, convert)


def _ratio(metric: int) -> Gpm:
    return Gpm(metric, percent=True)


def _rate(metric: int) -> Gpm:
    return Gpm(metric, percent=False)


def _lane_rate(lane: int, tx: bool) -> Gpm:
    return _rate(C.gpm_nvlink_metric(lane, tx) or 0)  # lanes 0-17 always have a metric


# Static facts are read once per GPU (they change only with a new driver, board or GPU reset).
STATIC_CALLS = frozenset({"brand", "serial", "inforom", "inforom_image", "vbios", "max_clock", "temp_threshold"})

_DEVICE: dict[int, Source] = {
    FieldId.DCGM_FI_DEV_BRAND: _call("brand", pick=_brand),
    FieldId.DCGM_FI_DEV_SERIAL: _call("serial", pick=_same),
    FieldId.DCGM_FI_DEV_OEM_INFOROM_VER: _call("inforom", C.INFOROM_OEM, pick=_same),
    FieldId.DCGM_FI_DEV_ECC_INFOROM_VER: _call("inforom", C.INFOROM_ECC, pick=_same),
    FieldId.DCGM_FI_DEV_POWER_INFOROM_VER: _call("inforom", C.INFOROM_POWER, pick=_same),
    FieldId.DCGM_FI_DEV_INFOROM_IMAGE_VER: _call("inforom_image", pick=_same),
    FieldId.DCGM_FI_DEV_VBIOS_VERSION: _call("vbios", pick=_same),
    FieldId.DCGM_FI_DEV_SM_CLOCK: _call("clock", C.CLOCK_SM),
    FieldId.DCGM_FI_DEV_MEM_CLOCK: _call("clock", C.CLOCK_MEM),
    FieldId.DCGM_FI_DEV_VIDEO_CLOCK: _call("clock", C.CLOCK_VIDEO),
    FieldId.DCGM_FI_DEV_CLOCKS_EVENT_REASONS: _call("clock_event_reasons"),
    FieldId.DCGM_FI_DEV_MAX_SM_CLOCK: _call("max_clock", C.CLOCK_SM),
    FieldId.DCGM_FI_DEV_MAX_MEM_CLOCK: _call("max_clock", C.CLOCK_MEM),
    FieldId.DCGM_FI_DEV_MEMORY_TEMP: Batched(C.FI_MEMORY_TEMP, temperature, as_uint=True),
    FieldId.DCGM_FI_DEV_GPU_TEMP: _call("temperature", pick=temperature),
    FieldId.DCGM_FI_DEV_POWER_USAGE: _call("power_usage", pick=milliwatts_to_watts),
    FieldId.DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION: _fv(C.FI_TOTAL_ENERGY_CONSUMPTION),
    FieldId.DCGM_FI_DEV_POWER_USAGE_INSTANT: _fv(C.FI_POWER_INSTANT, milliwatts_to_watts),
    FieldId.DCGM_FI_DEV_SLOWDOWN_TEMP: _call("temp_threshold", C.TEMPERATURE_THRESHOLD_SLOWDOWN),
    FieldId.DCGM_FI_DEV_SHUTDOWN_TEMP: _call("temp_threshold", C.TEMPERATURE_THRESHOLD_SHUTDOWN),
    FieldId.DCGM_FI_DEV_POWER_MGMT_LIMIT: _call("power_limit", pick=milliwatts_to_whole_watts),
    FieldId.DCGM_FI_DEV_ENFORCED_POWER_LIMIT: _call("enforced_power_limit", pick=milliwatts_to_whole_watts),
    FieldId.DCGM_FI_DEV_POWER_MGMT_LIMIT_MIN: _call("power_limit_constraints", pick=lambda r: _whole_w(r[0])),
    FieldId.DCGM_FI_DEV_POWER_MGMT_LIMIT_MAX: _call("power_limit_constraints", pick=lambda r: _whole_w(r[1])),
    FieldId.DCGM_FI_DEV_POWER_MGMT_LIMIT_DEF: _call("default_power_limit", pick=milliwatts_to_whole_watts),
    FieldId.DCGM_FI_DEV_GPU_RECOVERY_ACTION: _fv(C.FI_GET_GPU_RECOVERY_ACTION),
    FieldId.DCGM_FI_DEV_FABRIC_MANAGER_STATUS: _fabric(fabric_manager_status),
    FieldId.DCGM_FI_DEV_FABRIC_MANAGER_ERROR_CODE: _fabric(
        lambda f: f.status if f.state == C.GPU_FABRIC_STATE_COMPLETED else ReadError.NO_DATA
    ),
    FieldId.DCGM_FI_DEV_FABRIC_CLUSTER_UUID: _fabric(lambda f: f.cluster_uuid),
    FieldId.DCGM_FI_DEV_FABRIC_CLIQUE_ID: _fabric(lambda f: f.clique_id),
    FieldId.DCGM_FI_DEV_FABRIC_HEALTH_MASK: _fabric(lambda f: f.health_mask),
    FieldId.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY: _fabric(lambda f: f.health_summary),
    FieldId.DCGM_FI_DEV_PSTATE: _call("pstate", pick=_pstate),
    FieldId.DCGM_FI_DEV_FAN_SPEED: _call("fan_speed"),
    FieldId.DCGM_FI_DEV_PCIE_REPLAY_COUNTER: _fv(C.FI_PCIE_REPLAY_COUNTER),
    FieldId.DCGM_FI_DEV_GPU_UTIL: _call("utilization", pick=lambda u: int(u.gpu)),
    FieldId.DCGM_FI_DEV_MEM_COPY_UTIL: _call("utilization", pick=lambda u: int(u.memory)),
    FieldId.DCGM_FI_DEV_ENC_UTIL: _call("encoder_utilization", pick=_first),
    FieldId.DCGM_FI_DEV_DEC_UTIL: _call("decoder_utilization", pick=_first),
    FieldId.DCGM_FI_DEV_PCIE_LINK_GEN: _call("pcie_link_gen"),
    FieldId.DCGM_FI_DEV_PCIE_LINK_WIDTH: _call("pcie_link_width"),
    **{fid: _fv(C.FI_PERF_POLICY_POWER + n) for n, fid in enumerate(VIOLATION_FIELDS)},
    FieldId.DCGM_FI_DEV_FB_TOTAL: _call("memory", pick=_fb("total", in_mib=True)),
    FieldId.DCGM_FI_DEV_FB_FREE: _call("memory", pick=_fb("free", in_mib=True)),
    FieldId.DCGM_FI_DEV_FB_USED: _call("memory", pick=_fb("used", in_mib=True)),
    FieldId.DCGM_FI_DEV_FB_RESERVED: _call("memory", pick=_fb("reserved", in_mib=True)),
    FieldId.DCGM_FI_DEV_FB_USED_PERCENT: _call("memory", pick=_fb_used_ratio),
    FieldId.DCGM_FI_DEV_ECC_SBE_VOL_TOTAL: _fv(C.FI_ECC_SBE_VOL_TOTAL),
    FieldId.DCGM_FI_DEV_ECC_DBE_VOL_TOTAL: _fv(C.FI_ECC_DBE_VOL_TOTAL),
    FieldId.DCGM_FI_DEV_ECC_SBE_AGG_TOTAL: _fv(C.FI_ECC_SBE_AGG_TOTAL),
    FieldId.DCGM_FI_DEV_ECC_DBE_AGG_TOTAL: _fv(C.FI_ECC_DBE_AGG_TOTAL),
    # DCGM counts the retired-page list; NVML's field 29 is that count without fetching the addresses.
    FieldId.DCGM_FI_DEV_RETIRED_SBE: _fv(C.FI_RETIRED_SBE),
    FieldId.DCGM_FI_DEV_RETIRED_DBE: _fv(C.FI_RETIRED_DBE),
    FieldId.DCGM_FI_DEV_RETIRED_PENDING: _fv(C.FI_RETIRED_PENDING),
    FieldId.DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS: _fv(C.FI_REMAPPED_UNC),
    FieldId.DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS: _fv(C.FI_REMAPPED_COR),
    FieldId.DCGM_FI_DEV_ROW_REMAP_FAILURE: _fv(C.FI_REMAPPED_FAILURE),
    FieldId.DCGM_FI_DEV_ROW_REMAP_PENDING: _fv(C.FI_REMAPPED_PENDING),
    FieldId.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL: _fv(C.FI_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL),
    FieldId.DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL: _fv(C.FI_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL),
    FieldId.DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL: _fv(C.FI_NVLINK_REPLAY_ERROR_COUNT_TOTAL),
    FieldId.DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL: _fv(C.FI_NVLINK_RECOVERY_ERROR_COUNT_TOTAL),
    FieldId.DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL: NvlinkRate(C.SCOPE_ALL_LINKS, bytes_per_s=False),
    FieldId.DCGM_FI_DEV_NVLINK_CRC_ERROR_TOTAL: _fv(C.FI_NVLINK_ERROR_DL_CRC),
    FieldId.DCGM_FI_DEV_NVLINK_RECOVERY_TOTAL: _fv(C.FI_NVLINK_ERROR_DL_RECOVERY),
    FieldId.DCGM_FI_DEV_NVLINK_REPLAY_TOTAL: _fv(C.FI_NVLINK_ERROR_DL_REPLAY),
    FieldId.DCGM_FI_DEV_VGPU_LICENSE_STATUS: _call("vgpu_license", pick=_vgpu_license),
    FieldId.DCGM_FI_PROF_GR_ENGINE_ACTIVE: _ratio(C.GPM_GRAPHICS_UTIL),
    FieldId.DCGM_FI_PROF_SM_ACTIVE: _ratio(C.GPM_SM_UTIL),
    FieldId.DCGM_FI_PROF_SM_OCCUPANCY: _ratio(C.GPM_SM_OCCUPANCY),
    FieldId.DCGM_FI_PROF_PIPE_TENSOR_ACTIVE: _ratio(C.GPM_ANY_TENSOR_UTIL),
    FieldId.DCGM_FI_PROF_DRAM_ACTIVE: _ratio(C.GPM_DRAM_BW_UTIL),
    FieldId.DCGM_FI_PROF_PIPE_FP64_ACTIVE: _ratio(C.GPM_FP64_UTIL),
    FieldId.DCGM_FI_PROF_PIPE_FP32_ACTIVE: _ratio(C.GPM_FP32_UTIL),
    FieldId.DCGM_FI_PROF_PIPE_FP16_ACTIVE: _ratio(C.GPM_FP16_UTIL),
    FieldId.DCGM_FI_PROF_PCIE_TX_BYTES: _rate(C.GPM_PCIE_TX_PER_SEC),
    FieldId.DCGM_FI_PROF_PCIE_RX_BYTES: _rate(C.GPM_PCIE_RX_PER_SEC),
    FieldId.DCGM_FI_PROF_NVLINK_TX_BYTES: _rate(C.GPM_NVLINK_TOTAL_TX_PER_SEC),
    FieldId.DCGM_FI_PROF_NVLINK_RX_BYTES: _rate(C.GPM_NVLINK_TOTAL_RX_PER_SEC),
    FieldId.DCGM_FI_PROF_PIPE_TENSOR_IMMA_ACTIVE: _ratio(C.GPM_IMMA_TENSOR_UTIL),
    FieldId.DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE: _ratio(C.GPM_HMMA_TENSOR_UTIL),
    FieldId.DCGM_FI_PROF_PIPE_TENSOR_DFMA_ACTIVE: _ratio(C.GPM_DFMA_TENSOR_UTIL),
    FieldId.DCGM_FI_PROF_PIPE_INT_ACTIVE: _ratio(C.GPM_INTEGER_UTIL),
    **{fid: _ratio(C.GPM_NVDEC_0_UTIL + n) for n, fid in enumerate(NVDEC_FIELDS)},
    **{fid: _ratio(C.GPM_NVJPG_0_UTIL + n) for n, fid in enumerate(NVJPG_FIELDS)},
    **{fid: _ratio(C.GPM_NVOFA_0_UTIL + n) for n, fid in enumerate(NVOFA_FIELDS)},
    **{fid: NvlinkRate(lane, bytes_per_s=False) for lane, fid in enumerate(NVLINK_LANE_FIELDS)},
    **{
        fid: _lane_rate(lane, tx=k == 0)
        for lane, pair in enumerate(NVLINK_PROF_LANE_FIELDS)
        for k, fid in enumerate(pair)
    },
    FieldId.DCGM_FI_DEV_FB_CAPACITY_BYTES: _call("memory", pick=_fb("total", in_mib=False)),
    FieldId.DCGM_FI_DEV_FB_FREE_BYTES: _call("memory", pick=_fb("free", in_mib=False)),
    FieldId.DCGM_FI_DEV_FB_USED_BYTES: _call("memory", pick=_fb("used", in_mib=False)),
    FieldId.DCGM_FI_DEV_FB_RESERVED_BYTES: _call("memory", pick=_fb("reserved", in_mib=False)),
    FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL: NvlinkRate(C.SCOPE_ALL_LINKS, bytes_per_s=True),
}

DEVICE_SOURCES: Mapping[int, Source] = MappingProxyType(_DEVICE)

# Per-link fields (Entity.NVLINK): error counters, throughput, GPM rates.
_LINK_ERRORS: dict[int, tuple[tuple[int, ...], int]] = {
    FieldId.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL: (C.FI_NVLINK_CRC_FLIT_LANES, C.NVLINK_ERROR_DL_CRC_FLIT),
    FieldId.DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_PER_LINK_TOTAL: (C.FI_NVLINK_CRC_DATA_LANES, C.NVLINK_ERROR_DL_CRC_DATA),
    FieldId.DCGM_FI_DEV_NVLINK_REPLAY_ERROR_PER_LINK_TOTAL: (C.FI_NVLINK_REPLAY_LANES, C.NVLINK_ERROR_DL_REPLAY),
    FieldId.DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_PER_LINK_TOTAL: (C.FI_NVLINK_RECOVERY_LANES, C.NVLINK_ERROR_DL_RECOVERY),
}
_LINK_GPM_TX: dict[int, bool] = {  # field -> whether it is the transmit direction
    FieldId.DCGM_FI_PROF_NVLINK_TX_BYTES_PER_LINK: True,
    FieldId.DCGM_FI_PROF_NVLINK_RX_BYTES_PER_LINK: False,
}
LINK_FIELDS = frozenset(
    {
        *_LINK_ERRORS,
        FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK,
        *_LINK_GPM_TX,
        FieldId.DCGM_FI_DEV_NVLINK_GET_STATE,
    }
)


def link_source(field_id: int, link: int) -> Source | None:
    """The source of a per-link field for one link; ``None`` when NVML has none for that link."""
    if field_id in _LINK_ERRORS:
        lane_ids, counter = _LINK_ERRORS[field_id]
        # Field ids exist for lanes 0-11 (so they join the batched call); later links need their own call.
        return _fv(lane_ids[link]) if link < len(lane_ids) else _call("nvlink_error_counter", link, counter)
    if field_id == FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK:
        return NvlinkRate(link, bytes_per_s=False)
    if field_id == FieldId.DCGM_FI_DEV_NVLINK_GET_STATE:  # what DCGM reads for its field 1508
        return Batched(C.FI_NVLINK_GET_STATE, as_int, scope=link)
    if field_id in _LINK_GPM_TX:
        metric = C.gpm_nvlink_metric(link, tx=_LINK_GPM_TX[field_id])
        return None if metric is None else _rate(metric)
    return None


_PROF_LANE: dict[int, int] = {fid: lane for lane, pair in enumerate(NVLINK_PROF_LANE_FIELDS) for fid in pair}


def lane_of(field_id: int) -> int | None:
    """The lane of a DCGM per-lane throughput field (``DCGM_FI_DEV_NVLINK_BANDWIDTH_L<n>``, or its PROF twin)."""
    if field_id in NVLINK_LANE_FIELDS:
        return NVLINK_LANE_FIELDS.index(field_id)
    return _PROF_LANE.get(field_id)


def served_fields() -> frozenset[int]:
    """Every catalog field id this backend serves (the collector computes XID, derived and exporter fields)."""
    return frozenset(DEVICE_SOURCES) | LINK_FIELDS


# Fields a backend is never asked for: the collector derives them (kept here to document the boundary).
NOT_BACKEND_FIELDS = frozenset({FieldId.DCGM_FI_DEV_XID_ERRORS, *DERIVED})

# DCGM 4.x fields this backend does not read yet (answered "not supported"), and the NVML call that serves each:
# the NVLink5 counters and BERs, nvmlDeviceGetFieldValues NVML_FI_DEV_NVLINK_COUNT_* (206-215, 219-222) summed
# over links; C2C, NVML_FI_DEV_C2C_LINK_COUNT/GET_STATUS/GET_MAX_BW (170-172) and NVML_FI_DEV_C2C_LINK_ERROR_INTR/
# ERROR_REPLAY (231, 232). The DCGM backend and the simulator serve them.
NOT_READ_YET = frozenset(
    {
        FieldId.DCGM_FI_DEV_C2C_LINK_COUNT,
        FieldId.DCGM_FI_DEV_C2C_LINK_STATUS,
        FieldId.DCGM_FI_DEV_C2C_MAX_BANDWIDTH,
        FieldId.DCGM_FI_DEV_C2C_LINK_ERROR_INTR,
        FieldId.DCGM_FI_DEV_C2C_LINK_ERROR_REPLAY,
        *NVLINK5_ERROR_FIELDS,
        FieldId.DCGM_FI_DEV_NVLINK_COUNT_SYMBOL_BER_FLOAT,
        FieldId.DCGM_FI_DEV_NVLINK_COUNT_EFFECTIVE_BER_FLOAT,
    }
)

# Fields NVML has no call for: an NVSwitch and its ports are DCGM entities (NSCQ/NVSDM behind the host engine;
# NVML has no NVSwitch device API). And the per-direction per-link throughput (DCGM 1530/1531), which NVML's
# per-link TX/RX data counters (138/139, scopeId = link) could serve: not read yet.
NO_NVML_SOURCE = frozenset(
    {f.field_id for f in FABRIC_FIELDS if f.field_id not in LINK_FIELDS and f.field_id not in DEVICE_SOURCES}
)
