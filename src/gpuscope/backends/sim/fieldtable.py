"""The simulator's field table: how each catalog field is read from a simulated GPU, in DCGM's units.

A getter answers one field for a GPU (or one of its MIG instances) from the state ``SimGpu.advance`` left;
``None`` means the real hardware has no such value (no NVLink on an L40S, no memory temperature on GDDR).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from gpuscope.backends.base import Value
from gpuscope.backends.sim.activity import Activity, noise, uniform
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
from gpuscope.fields.rows_dcgm4 import (
    FABRIC_HEALTH_HEALTHY,
    FABRIC_HEALTH_LIMITED_CAPACITY,
    FABRIC_HEALTH_UNHEALTHY,
)

if TYPE_CHECKING:
    from gpuscope.backends.sim.gpu import SimGpu, SimInstance

MIB = 1048576

Getter = Callable[["SimGpu", Activity, "SimInstance | None"], Value | None]


def const(value: Value) -> Getter:
    return lambda _g, _a, _i: value


def _link_total(n: int) -> Getter:
    def get(g: SimGpu, _a: Activity, _i: SimInstance | None) -> Value | None:
        return sum(e[n] for e in g.counters.link_errors) if g.model.nvlinks else None

    return get


def _lane(lane: int) -> Getter:
    def get(g: SimGpu, _a: Activity, _i: SimInstance | None) -> Value | None:
        return int(2 * g.nvlink_kib_per_s() / 1000) if lane < g.model.nvlinks else None

    return get


def _prof_lane(lane: int, tx: bool) -> Getter:
    def get(g: SimGpu, a: Activity, _i: SimInstance | None) -> Value | None:
        if lane >= g.model.nvlinks:
            return None
        return int(a.nvlink * g.model.nvlink_mbps_per_link * 1e6 * (1.0 if tx else 0.97))

    return get


def _violation(n: int) -> Getter:
    return lambda g, _a, _i: int(g.counters.violation_ns[n])


def _ratio(name: str) -> Getter:
    return lambda _g, a, _i: round(getattr(a, name), 6)


def _nvlink_total_prof(tx: bool) -> Getter:
    def get(g: SimGpu, a: Activity, _i: SimInstance | None) -> Value | None:
        if not g.model.nvlinks:
            return None
        return int(g.model.nvlinks * a.nvlink * g.model.nvlink_mbps_per_link * 1e6 * (1.0 if tx else 0.97))

    return get


_HOPPER_ONLY: Callable[[SimGpu], bool] = lambda g: g.model.gpm  # noqa: E731


def _fabric(healthy: Value, degraded: Value) -> Getter:
    """A fabric-state value: only GPUs behind an NVLink fabric have one; a degraded fabric (``fabric-degraded``,
    a link down) switches it."""
    return lambda g, _a, _i: (degraded if g.fabric_limited else healthy) if g.model.fabric else None


# NVML fabric health mask groups (2 bits each: 1 true, 2 false): degraded bandwidth at bit 0, route unhealthy at 4.
_MASK_DEGRADED_BW_TRUE, _MASK_DEGRADED_BW_FALSE, _MASK_ROUTE_UNHEALTHY_TRUE = 1, 2, 1 << 4


def _health_mask(g: SimGpu, _a: Activity, _i: SimInstance | None) -> Value | None:
    if not g.model.fabric:
        return None
    mask = _MASK_DEGRADED_BW_TRUE if g.fabric_limited else _MASK_DEGRADED_BW_FALSE
    return mask | (_MASK_ROUTE_UNHEALTHY_TRUE if g.partition_lost else 0)


def _health_summary(g: SimGpu, _a: Activity, _i: SimInstance | None) -> Value | None:
    if not g.model.fabric:
        return None
    if g.partition_lost:
        return FABRIC_HEALTH_UNHEALTHY
    return FABRIC_HEALTH_LIMITED_CAPACITY if g.fabric_limited else FABRIC_HEALTH_HEALTHY


def _nvlink5(n: int) -> Getter:
    return lambda g, _a, _i: g.counters.nvlink5[n] if g.model.nvlink5 else None


def _ber(healthy: float, burst: float) -> Getter:
    return lambda g, _a, _i: (burst if g.nvlink5_errors else healthy) if g.model.nvlink5 else None


def _cluster_uuid(g: SimGpu, _a: Activity, _i: SimInstance | None) -> Value | None:
    if not g.model.fabric:
        return None
    # One NVLink domain per rack (an NVL72's 18 trays) or per node (HGX): every GPU of it shares the UUID.
    # From the domain alone (not the node's seed): the trays of one rack have seeds of their own.
    n = int(uniform(0, int.from_bytes(hashlib.sha256(g.domain.encode()).digest()[:8], "big"), 71) * (1 << 48))
    return f"5a1e0c2d-{n >> 32 & 0xFFFF:04x}-4{n >> 20 & 0xFFF:03x}-8{n >> 8 & 0xFFF:03x}-{n & 0xFF:02x}f3b9c27d41"


# Fabric health values (see fields/rows_dcgm4.py): manager status 3 = success; summary 1 healthy, 3 limited
# capacity; mask 2 = "degraded bandwidth: false", 1 = "true".
_FABRIC_GETTERS: Mapping[int, Getter] = {
    FieldId.DCGM_FI_DEV_FABRIC_MANAGER_STATUS: _fabric(3, 3),
    FieldId.DCGM_FI_DEV_FABRIC_MANAGER_ERROR_CODE: _fabric(0, 0),
    FieldId.DCGM_FI_DEV_FABRIC_CLUSTER_UUID: _cluster_uuid,
    FieldId.DCGM_FI_DEV_FABRIC_CLIQUE_ID: _fabric(1, 1),
    FieldId.DCGM_FI_DEV_FABRIC_HEALTH_MASK: _health_mask,
    FieldId.DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY: _health_summary,
    **{fid: _nvlink5(n) for n, fid in enumerate(NVLINK5_ERROR_FIELDS)},
    FieldId.DCGM_FI_DEV_NVLINK_COUNT_SYMBOL_BER_FLOAT: _ber(2.5e-15, 4.0e-9),
    FieldId.DCGM_FI_DEV_NVLINK_COUNT_EFFECTIVE_BER_FLOAT: _ber(0.0, 3.0e-12),
    # The driver asks for a GPU reset while a double-bit ECC error has rows waiting to be remapped.
    FieldId.DCGM_FI_DEV_GPU_RECOVERY_ACTION: lambda g, _a, _i: int(g.ecc_dbe),
    # Power-limit bounds: the board's TDP is its maximum and default; the floor is about 30 % of it.
    FieldId.DCGM_FI_DEV_POWER_MGMT_LIMIT_MIN: lambda g, _a, _i: float(round(g.model.tdp_w * 0.3)),
    FieldId.DCGM_FI_DEV_POWER_MGMT_LIMIT_MAX: lambda g, _a, _i: g.model.tdp_w,
    FieldId.DCGM_FI_DEV_POWER_MGMT_LIMIT_DEF: lambda g, _a, _i: g.model.tdp_w,
}

# Field -> how to read it from a GPU (or one of its MIG instances); ``None`` from a getter means "not supported".
DEVICE_GETTERS: Mapping[int, Getter] = MappingProxyType(
    {
        FieldId.DCGM_FI_DEV_BRAND: lambda _g, _a, _i: "NVIDIA",
        FieldId.DCGM_FI_DEV_SERIAL: lambda g, _a, _i: f"{1650000000000 + int(uniform(g.seed, g.key, 61) * 9e9)}",
        FieldId.DCGM_FI_DEV_OEM_INFOROM_VER: lambda _g, _a, _i: "G520.0200.00.05",
        FieldId.DCGM_FI_DEV_ECC_INFOROM_VER: lambda _g, _a, _i: "7.16",
        FieldId.DCGM_FI_DEV_INFOROM_IMAGE_VER: lambda _g, _a, _i: "G520.0200.00.05",
        FieldId.DCGM_FI_DEV_VBIOS_VERSION: lambda _g, _a, _i: "96.00.89.00.01",
        FieldId.DCGM_FI_DEV_SM_CLOCK: lambda g, _a, _i: g.now.sm_clock,
        FieldId.DCGM_FI_DEV_MEM_CLOCK: lambda g, _a, _i: g.now.mem_clock,
        FieldId.DCGM_FI_DEV_VIDEO_CLOCK: lambda g, _a, _i: 1755 if g.now.act.sm_active else 765,
        FieldId.DCGM_FI_DEV_CLOCKS_EVENT_REASONS: lambda g, _a, _i: g.now.events,
        FieldId.DCGM_FI_DEV_MAX_SM_CLOCK: lambda g, _a, _i: g.model.sm_clock_max,
        FieldId.DCGM_FI_DEV_MAX_MEM_CLOCK: lambda g, _a, _i: g.model.mem_clock,
        FieldId.DCGM_FI_DEV_MEMORY_TEMP: lambda g, _a, _i: g.temps()[1] if g.model.hbm else None,
        FieldId.DCGM_FI_DEV_GPU_TEMP: lambda g, _a, _i: g.temps()[0],
        FieldId.DCGM_FI_DEV_POWER_USAGE: lambda g, _a, _i: round(g.now.power_w, 3),
        FieldId.DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION: lambda g, _a, _i: int(g.counters.energy_mj),
        FieldId.DCGM_FI_DEV_POWER_USAGE_INSTANT: lambda g, _a, _i: round(
            g.now.power_w * (1 + 0.05 * noise(g.seed, g.key, 62, g.now.power_w)), 3
        ),
        FieldId.DCGM_FI_DEV_SLOWDOWN_TEMP: lambda g, _a, _i: g.model.slowdown_temp,
        FieldId.DCGM_FI_DEV_SHUTDOWN_TEMP: lambda g, _a, _i: g.model.shutdown_temp,
        FieldId.DCGM_FI_DEV_POWER_MGMT_LIMIT: lambda g, _a, _i: g.model.tdp_w,
        FieldId.DCGM_FI_DEV_ENFORCED_POWER_LIMIT: lambda g, _a, _i: g.model.tdp_w,
        FieldId.DCGM_FI_DEV_PSTATE: lambda _g, _a, _i: 0,
        FieldId.DCGM_FI_DEV_PCIE_REPLAY_COUNTER: lambda g, _a, _i: g.counters.pcie_replay,
        FieldId.DCGM_FI_DEV_GPU_UTIL: lambda _g, a, _i: min(100, round(160 * a.gr_engine)),
        FieldId.DCGM_FI_DEV_MEM_COPY_UTIL: lambda _g, a, _i: round(80 * a.dram),
        FieldId.DCGM_FI_DEV_ENC_UTIL: lambda g, a, _i: round(100 * a.encoder) if g.model.encoders else 0,
        FieldId.DCGM_FI_DEV_DEC_UTIL: lambda _g, a, _i: round(100 * a.decoder),
        FieldId.DCGM_FI_DEV_PCIE_LINK_GEN: lambda g, _a, _i: g.model.pcie_gen,
        FieldId.DCGM_FI_DEV_PCIE_LINK_WIDTH: lambda _g, _a, _i: 16,
        **{fid: _violation(n) for n, fid in enumerate(VIOLATION_FIELDS)},
        FieldId.DCGM_FI_DEV_FB_TOTAL: lambda g, _a, i: g.fb(i)[0] // MIB,
        FieldId.DCGM_FI_DEV_FB_FREE: lambda g, _a, i: g.fb(i)[3] // MIB,
        FieldId.DCGM_FI_DEV_FB_USED: lambda g, _a, i: g.fb(i)[2] // MIB,
        FieldId.DCGM_FI_DEV_FB_RESERVED: lambda g, _a, i: g.fb(i)[1] // MIB,
        FieldId.DCGM_FI_DEV_FB_USED_PERCENT: lambda g, _a, i: round(g.fb(i)[2] / (g.fb(i)[0] - g.fb(i)[1]), 6),
        FieldId.DCGM_FI_DEV_ECC_SBE_VOL_TOTAL: lambda g, _a, _i: g.counters.ecc[0],
        FieldId.DCGM_FI_DEV_ECC_DBE_VOL_TOTAL: lambda g, _a, _i: g.counters.ecc[1],
        FieldId.DCGM_FI_DEV_ECC_SBE_AGG_TOTAL: lambda g, _a, _i: g.counters.ecc[2],
        FieldId.DCGM_FI_DEV_ECC_DBE_AGG_TOTAL: lambda g, _a, _i: g.counters.ecc[3],
        FieldId.DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS: lambda g, _a, _i: g.counters.remap_uncorrectable,
        FieldId.DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS: lambda g, _a, _i: g.counters.remap_correctable,
        FieldId.DCGM_FI_DEV_ROW_REMAP_FAILURE: lambda g, _a, _i: int(g.counters.remap_uncorrectable > 0 and g.ecc_dbe),
        FieldId.DCGM_FI_DEV_ROW_REMAP_PENDING: lambda g, _a, _i: int(g.ecc_dbe),
        FieldId.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL: _link_total(0),
        FieldId.DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL: _link_total(1),
        FieldId.DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL: _link_total(2),
        FieldId.DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL: _link_total(3),
        FieldId.DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL: lambda g, _a, _i: (
            int(2 * g.model.nvlinks * g.nvlink_kib_per_s() / 1000) if g.model.nvlinks else None
        ),
        FieldId.DCGM_FI_DEV_NVLINK_CRC_ERROR_TOTAL: lambda g, a, i: (
            _link_total(1)(g, a, i) if _HOPPER_ONLY(g) else None
        ),
        FieldId.DCGM_FI_DEV_NVLINK_RECOVERY_TOTAL: lambda g, a, i: _link_total(3)(g, a, i) if _HOPPER_ONLY(g) else None,
        FieldId.DCGM_FI_DEV_NVLINK_REPLAY_TOTAL: lambda g, a, i: _link_total(2)(g, a, i) if _HOPPER_ONLY(g) else None,
        **{fid: _lane(lane) for lane, fid in enumerate(NVLINK_LANE_FIELDS)},
        FieldId.DCGM_FI_PROF_GR_ENGINE_ACTIVE: _ratio("gr_engine"),
        FieldId.DCGM_FI_PROF_SM_ACTIVE: _ratio("sm_active"),
        FieldId.DCGM_FI_PROF_SM_OCCUPANCY: _ratio("sm_occupancy"),
        FieldId.DCGM_FI_PROF_PIPE_TENSOR_ACTIVE: _ratio("tensor"),
        FieldId.DCGM_FI_PROF_DRAM_ACTIVE: _ratio("dram"),
        FieldId.DCGM_FI_PROF_PIPE_FP64_ACTIVE: _ratio("fp64"),
        FieldId.DCGM_FI_PROF_PIPE_FP32_ACTIVE: _ratio("fp32"),
        FieldId.DCGM_FI_PROF_PIPE_FP16_ACTIVE: _ratio("fp16"),
        FieldId.DCGM_FI_PROF_PCIE_TX_BYTES: lambda g, a, _i: g.pcie_bytes_per_s(a, tx=True),
        FieldId.DCGM_FI_PROF_PCIE_RX_BYTES: lambda g, a, _i: g.pcie_bytes_per_s(a, tx=False),
        FieldId.DCGM_FI_PROF_NVLINK_TX_BYTES: _nvlink_total_prof(tx=True),
        FieldId.DCGM_FI_PROF_NVLINK_RX_BYTES: _nvlink_total_prof(tx=False),
        FieldId.DCGM_FI_PROF_PIPE_TENSOR_IMMA_ACTIVE: lambda _g, a, _i: round(a.tensor * 0.1, 6),
        FieldId.DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE: lambda _g, a, _i: round(a.tensor * 0.9, 6),
        FieldId.DCGM_FI_PROF_PIPE_TENSOR_DFMA_ACTIVE: lambda _g, _a, _i: 0.0,
        FieldId.DCGM_FI_PROF_PIPE_INT_ACTIVE: lambda _g, a, _i: round(a.fp32 * 0.5, 6),
        **{fid: (lambda _g, a, _i: round(a.decoder, 6)) for fid in NVDEC_FIELDS},
        **{fid: const(0.0) for fid in (*NVJPG_FIELDS, *NVOFA_FIELDS)},
        **{
            fid: _prof_lane(lane, tx=k == 0)
            for lane, pair in enumerate(NVLINK_PROF_LANE_FIELDS)
            for k, fid in enumerate(pair)
        },
        FieldId.DCGM_FI_DEV_FB_CAPACITY_BYTES: lambda g, _a, i: g.fb(i)[0],
        FieldId.DCGM_FI_DEV_FB_FREE_BYTES: lambda g, _a, i: g.fb(i)[3],
        FieldId.DCGM_FI_DEV_FB_USED_BYTES: lambda g, _a, i: g.fb(i)[2],
        FieldId.DCGM_FI_DEV_FB_RESERVED_BYTES: lambda g, _a, i: g.fb(i)[1],
        FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL: lambda g, _a, _i: (
            int(2 * g.model.nvlinks * g.nvlink_kib_per_s() * 1024) if g.model.nvlinks else None
        ),
        **_FABRIC_GETTERS,
    }
)

# Per-link fields: field -> its value for one link.
LINK_GETTERS: Mapping[int, Callable[[SimGpu, int], Value]] = MappingProxyType(
    {
        FieldId.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL: lambda g, link: g.counters.link_errors[link][0],
        FieldId.DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_PER_LINK_TOTAL: lambda g, link: g.counters.link_errors[link][1],
        FieldId.DCGM_FI_DEV_NVLINK_REPLAY_ERROR_PER_LINK_TOTAL: lambda g, link: g.counters.link_errors[link][2],
        FieldId.DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_PER_LINK_TOTAL: lambda g, link: g.counters.link_errors[link][3],
        FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK: lambda g, link: int(2 * g.link_kib_per_s(link) / 1000),
        FieldId.DCGM_FI_DEV_NVLINK_TX_THROUGHPUT_PER_LINK: lambda g, link: int(g.link_kib_per_s(link) / 1000),
        FieldId.DCGM_FI_DEV_NVLINK_RX_THROUGHPUT_PER_LINK: lambda g, link: int(g.link_kib_per_s(link) * 0.97 / 1000),
        FieldId.DCGM_FI_PROF_NVLINK_TX_BYTES_PER_LINK: lambda g, link: int(g.link_kib_per_s(link) * 1024),
        FieldId.DCGM_FI_PROF_NVLINK_RX_BYTES_PER_LINK: lambda g, link: int(g.link_kib_per_s(link) * 1024 * 0.97),
        FieldId.DCGM_FI_DEV_NVLINK_GET_STATE: lambda g, link: int(not g.link_down(link)),
    }
)
