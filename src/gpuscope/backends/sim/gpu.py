"""One simulated GPU: state that evolves with time and load, read back as DCGM field values.

``advance(now)`` integrates the physics since the last call (temperature lag, energy, violation time, error
counters under faults); the ``read_*`` methods then answer field ids from that state, in DCGM's units, with
``NOT_SUPPORTED`` where the real hardware has no such sensor (no memory temperature on GDDR boards, no NVLink on
an L40S, no page retirement on Ampere and newer).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from gpuscope.backends.base import (
    HEALTH_FAIL,
    HEALTH_PASS,
    HEALTH_WARN,
    HEALTH_WATCHES,
    EntityReading,
    HealthCheck,
    InstanceIdentity,
    InstanceReading,
    LinkReading,
    ReadError,
    Value,
)
from gpuscope.backends.sim.workload import IDLE, Activity, WorkloadKind, activity, noise, uniform
from gpuscope.fields.catalog import BY_ID, Entity, MigScope
from gpuscope.fields.clock_events import ClockEventReason
from gpuscope.fields.ids import (
    NVDEC_FIELDS,
    NVJPG_FIELDS,
    NVLINK_LANE_FIELDS,
    NVLINK_PROF_LANE_FIELDS,
    NVOFA_FIELDS,
    VIOLATION_FIELDS,
    FieldId,
)
from gpuscope.hardware.models import GpuModel, MigProfile

MIB = 1048576
_PCIE_BYTES_PER_S = {3: 15.75e9, 4: 31.5e9, 5: 63.0e9}
_N_LINK_COUNTERS = 4  # CRC flit, CRC data, replay, recovery


@dataclass(slots=True)
class _Counters:
    """Everything that only grows. A simulated exporter restart puts these back to their boot values."""

    energy_mj: float
    pcie_replay: int
    violation_ns: list[float]  # power, thermal, sync boost, board limit, low util, reliability
    ecc: list[int]  # SBE volatile, DBE volatile, SBE aggregate, DBE aggregate
    remap_correctable: int
    remap_uncorrectable: int
    link_errors: list[list[int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Instant:
    """Derived readings at the last ``advance``."""

    act: Activity
    power_w: float
    sm_clock: int
    mem_clock: int
    events: int
    fb_used_bytes: int


@dataclass(slots=True)
class _Instance:
    identity: InstanceIdentity
    profile: MigProfile
    workload: WorkloadKind
    key: int
    act: Activity = IDLE


def boot_counters(model: GpuModel, seed: int, key: int) -> _Counters:
    """Counter values as found when the exporter starts on a GPU that has been running for a while."""
    return _Counters(
        energy_mj=uniform(seed, key, 41) * 1.5e12,
        pcie_replay=int(uniform(seed, key, 42) * 4),
        violation_ns=[uniform(seed, key, 43) * 5e11, 0.0, 0.0, 0.0, uniform(seed, key, 44) * 1e13, 0.0],
        ecc=[int(uniform(seed, key, 45) * 3), 0, int(uniform(seed, key, 46) * 12), 0],
        remap_correctable=int(uniform(seed, key, 47) * 2),
        remap_uncorrectable=0,
        link_errors=[[0] * _N_LINK_COUNTERS for _ in range(model.nvlinks)],
    )


class SimGpu:
    """A GPU's state machine. Not thread-safe: the owning node serializes access."""

    def __init__(
        self,
        model: GpuModel,
        index: int,
        uuid: str,
        pci_bus_id: str,
        workload: WorkloadKind,
        seed: int,
        key: int,
        *,
        mig: Iterable[InstanceIdentity] = (),
        mig_profiles: Iterable[MigProfile] = (),
        instance_workloads: Iterable[WorkloadKind] = (),
        profiling_supported: bool = True,
    ) -> None:
        self.model = model
        self.index = index
        self.uuid = uuid
        self.pci_bus_id = pci_bus_id
        self.workload = workload
        self.seed = seed
        self.key = key
        self.profiling_supported = profiling_supported
        self.instances = [
            _Instance(ident, prof, wl, key * 16 + n + 1)
            for n, (ident, prof, wl) in enumerate(zip(mig, mig_profiles, instance_workloads, strict=True))
        ]
        self.thermal = self.ecc_dbe = self.nvlink_crc = self.profiling_locked = self.lost = False
        self.counters = boot_counters(model, seed, key)
        self._temp = 30.0 + 4 * uniform(seed, key, 48)
        self._temp_initialized = False
        self._last_t: float | None = None
        self._now = _Instant(
            IDLE, model.idle_w, model.sm_clock_idle, model.mem_clock, int(ClockEventReason.GPU_IDLE), 0
        )

    # --- physics -------------------------------------------------------------------------------------------

    def restart(self) -> None:
        """Counters back to boot values, as a restarted exporter would see them."""
        self.counters = boot_counters(self.model, self.seed, self.key)

    def advance(self, now: float) -> None:
        dt = 0.0 if self._last_t is None else min(max(now - self._last_t, 0.0), 3600.0)
        self._last_t = now
        act = self._activity(now)
        m = self.model
        power = m.idle_w + (m.tdp_w - m.idle_w) * (
            0.15 * act.gr_engine + 0.55 * act.sm_active + 0.2 * act.tensor + 0.1 * act.dram
        )
        power *= 1.0 + 0.02 * noise(self.seed, self.key, 51, now, 2.0)
        target = 29.0 + 46.0 * power / m.tdp_w
        events = int(ClockEventReason.GPU_IDLE) if act.sm_active < 0.02 else 0
        clock_scale = 0.94 + 0.05 * noise(self.seed, self.key, 52, now)
        if self.thermal:
            target = m.slowdown_temp + 4.0
            events = (events & ~ClockEventReason.GPU_IDLE) | ClockEventReason.SW_THERMAL | ClockEventReason.HW_THERMAL
            clock_scale = 0.55
            self.counters.violation_ns[1] += dt * 1e9
        if power > 0.96 * m.tdp_w:
            power = 0.96 * m.tdp_w
            events |= ClockEventReason.POWER_CAP
            self.counters.violation_ns[0] += dt * 1e9
        if not self._temp_initialized:
            self._temp, self._temp_initialized = target, True  # a GPU found running is already warm
        # A cooling failure heats a loaded GPU within seconds; ordinary load changes settle over half a minute.
        tau = 8.0 if self.thermal else 30.0
        self._temp += (target - self._temp) * (1.0 - math.exp(-dt / tau)) if dt else 0.0
        sm_clock = (
            m.sm_clock_idle if events & ClockEventReason.GPU_IDLE else int(m.sm_clock_max * min(clock_scale, 1.0))
        )
        self.counters.energy_mj += power * dt * 1000.0
        if self.ecc_dbe and dt:
            self._add_dbe(max(1, round(dt / 15.0)))
        if self.nvlink_crc and dt:
            self._add_link_errors(dt)
        avail = (m.memory_mib - m.reserved_mib) * MIB
        self._now = _Instant(act, power, sm_clock, m.mem_clock, events, int(act.fb_used * avail))

    def _activity(self, now: float) -> Activity:
        if not self.instances:
            return activity(self.workload, self.seed, self.key, now)
        # A MIG GPU's device-level load is its instances' load, weighted by compute slices.
        for inst in self.instances:
            inst.act = activity(inst.workload, self.seed, inst.key, now)
        weights = [inst.profile.slices / 7.0 for inst in self.instances]
        return Activity(
            *(
                sum(getattr(i.act, name) * w for i, w in zip(self.instances, weights, strict=True))
                for name in Activity.__slots__
            )
        )

    def _add_dbe(self, n: int) -> None:
        self.counters.ecc[1] += n
        self.counters.ecc[3] += n
        self.counters.remap_uncorrectable += n

    def _add_link_errors(self, dt: float) -> None:
        for link, errors in enumerate(self.counters.link_errors[:4]):
            errors[0] += round(dt * (5 - link))
            errors[1] += round(dt * 0.5)
            errors[2] += round(dt * 2)
            errors[3] += 1 if uniform(self.seed, self.key, 53, int(self._last_t or 0), link) < 0.2 else 0

    # --- reads ---------------------------------------------------------------------------------------------

    @property
    def events(self) -> int:
        return self._now.events

    def read_device(self, field_ids: Iterable[int]) -> EntityReading:
        return _read(self, self._now.act, None, field_ids, DEVICE_GETTERS)

    def read_instances(self, field_ids: Iterable[int]) -> tuple[InstanceReading, ...]:
        ids = [fid for fid in field_ids if BY_ID[fid].mig is MigScope.INSTANCE]
        return tuple(
            InstanceReading(inst.identity, _read(self, inst.act, inst, ids, DEVICE_GETTERS)) for inst in self.instances
        )

    def read_links(self, field_ids: Iterable[int]) -> tuple[LinkReading, ...]:
        ids = [fid for fid in field_ids if BY_ID[fid].entity is Entity.NVLINK]
        if not ids:
            return ()
        return tuple(LinkReading(link, _read_link(self, link, ids)) for link in range(self.model.nvlinks))

    def health(self) -> tuple[HealthCheck, ...]:
        bad = {
            "MEM": (HEALTH_FAIL, "DCGM_FR_VOLATILE_DBE_DETECTED") if self.ecc_dbe else None,
            "THERMAL": (HEALTH_WARN, "DCGM_FR_CLOCK_THROTTLE_THERMAL") if self.thermal else None,
            "NVLINK": (HEALTH_WARN, "DCGM_FR_NVLINK_ERROR_THRESHOLD") if self.nvlink_crc else None,
        }
        checks = [HealthCheck(w, *(bad.get(w) or (HEALTH_PASS, "DCGM_FR_OK"))) for w in HEALTH_WATCHES[:-1]]
        worst = max(checks, key=lambda c: c.status)
        checks.append(HealthCheck("ALL", worst.status, worst.error_code))
        return tuple(checks)

    # --- values used by the field table --------------------------------------------------------------------

    def fb(self, inst: _Instance | None) -> tuple[int, int, int, int]:
        """Framebuffer (total, reserved, used, free) in bytes, for the GPU or one MIG instance."""
        if inst is None:
            total, reserved, used = (
                self.model.memory_mib * MIB,
                self.model.reserved_mib * MIB,
                self._now.fb_used_bytes,
            )
        else:
            total, reserved = inst.profile.memory_mib * MIB, 0
            used = int(inst.act.fb_used * total)
        return total, reserved, used, total - reserved - used

    def nvlink_kib_per_s(self) -> float:
        """NVLink traffic per link per direction in KiB/s (what NVML's throughput counters measure)."""
        return self._now.act.nvlink * self.model.nvlink_mbps_per_link * 1000.0

    def pcie_bytes_per_s(self, act: Activity, tx: bool) -> int:
        return int((act.pcie_tx if tx else act.pcie_rx) * _PCIE_BYTES_PER_S[self.model.pcie_gen])

    def temps(self) -> tuple[int, int]:
        return round(self._temp), round(self._temp + 6.0)

    @property
    def now(self) -> _Instant:
        return self._now


_Getter = Callable[[SimGpu, Activity, "_Instance | None"], Value | None]


def _read(
    gpu: SimGpu, act: Activity, inst: _Instance | None, field_ids: Iterable[int], table: Mapping[int, _Getter]
) -> EntityReading:
    values: dict[int, Value] = {}
    errors: dict[int, ReadError] = {}
    mig_parent = inst is None and bool(gpu.instances)
    for fid in field_ids:
        getter = table.get(fid)
        if mig_parent and BY_ID[fid].mig is MigScope.UNAVAILABLE:
            errors[fid] = ReadError.NOT_SUPPORTED  # NVML cannot read utilization of a MIG-enabled GPU
            continue
        if BY_ID[fid].prof and (not gpu.profiling_supported or gpu.profiling_locked):
            errors[fid] = ReadError.PROFILING_UNAVAILABLE if gpu.profiling_supported else ReadError.NOT_SUPPORTED
            continue
        value = getter(gpu, act, inst) if getter else None
        if value is None:
            errors[fid] = ReadError.NOT_SUPPORTED
        else:
            values[fid] = value
    return EntityReading(MappingProxyType(values), MappingProxyType(errors))


def _read_link(gpu: SimGpu, link: int, field_ids: Iterable[int]) -> EntityReading:
    table = {fid: _const(get(gpu, link)) for fid, get in LINK_GETTERS.items()}
    return _read(gpu, gpu.now.act, None, field_ids, table)


def _const(value: Value) -> _Getter:
    return lambda _g, _a, _i: value


def _link_total(n: int) -> _Getter:
    def get(g: SimGpu, _a: Activity, _i: _Instance | None) -> Value | None:
        return sum(e[n] for e in g.counters.link_errors) if g.model.nvlinks else None

    return get


def _lane(lane: int) -> _Getter:
    def get(g: SimGpu, _a: Activity, _i: _Instance | None) -> Value | None:
        return int(2 * g.nvlink_kib_per_s() / 1000) if lane < g.model.nvlinks else None

    return get


def _prof_lane(lane: int, tx: bool) -> _Getter:
    def get(g: SimGpu, a: Activity, _i: _Instance | None) -> Value | None:
        if lane >= g.model.nvlinks:
            return None
        return int(a.nvlink * g.model.nvlink_mbps_per_link * 1e6 * (1.0 if tx else 0.97))

    return get


def _violation(n: int) -> _Getter:
    return lambda g, _a, _i: int(g.counters.violation_ns[n])


def _ratio(name: str) -> _Getter:
    return lambda _g, a, _i: round(getattr(a, name), 6)


def _nvlink_total_prof(tx: bool) -> _Getter:
    def get(g: SimGpu, a: Activity, _i: _Instance | None) -> Value | None:
        if not g.model.nvlinks:
            return None
        return int(g.model.nvlinks * a.nvlink * g.model.nvlink_mbps_per_link * 1e6 * (1.0 if tx else 0.97))

    return get


_HOPPER_ONLY: Callable[[SimGpu], bool] = lambda g: g.model.gpm  # noqa: E731

# Field -> how to read it from a GPU (or one of its MIG instances); ``None`` from a getter means "not supported".
DEVICE_GETTERS: Mapping[int, _Getter] = MappingProxyType(
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
        **{fid: _const(0.0) for fid in (*NVJPG_FIELDS, *NVOFA_FIELDS)},
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
    }
)

# Per-link fields: field -> its value for one link.
LINK_GETTERS: Mapping[int, Callable[[SimGpu, int], Value]] = MappingProxyType(
    {
        FieldId.DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL: lambda g, link: g.counters.link_errors[link][0],
        FieldId.DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_PER_LINK_TOTAL: lambda g, link: g.counters.link_errors[link][1],
        FieldId.DCGM_FI_DEV_NVLINK_REPLAY_ERROR_PER_LINK_TOTAL: lambda g, link: g.counters.link_errors[link][2],
        FieldId.DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_PER_LINK_TOTAL: lambda g, link: g.counters.link_errors[link][3],
        FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK: lambda g, _link: int(2 * g.nvlink_kib_per_s() / 1000),
        FieldId.DCGM_FI_PROF_NVLINK_TX_BYTES_PER_LINK: lambda g, _link: int(g.nvlink_kib_per_s() * 1024),
        FieldId.DCGM_FI_PROF_NVLINK_RX_BYTES_PER_LINK: lambda g, _link: int(g.nvlink_kib_per_s() * 1024 * 0.97),
    }
)
