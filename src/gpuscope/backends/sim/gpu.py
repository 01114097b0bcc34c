"""One simulated GPU: state that evolves with time and load, read back as DCGM field values.

``advance(now)`` integrates the physics since the last call (temperature lag, energy, violation time, error
counters under faults); the ``read_*`` methods then answer field ids from that state through the simulator's
field table (``fieldtable.py``), in DCGM's units, with ``NOT_SUPPORTED`` where the real hardware has no such
sensor (no memory temperature on GDDR boards, no NVLink on an L40S, no page retirement on Ampere and newer).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
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
    LinkState,
    ReadError,
    Value,
)
from gpuscope.backends.sim.activity import IDLE, Activity, WorkloadKind, activity, noise, uniform
from gpuscope.backends.sim.fieldtable import DEVICE_GETTERS, LINK_GETTERS, MIB, Getter, const
from gpuscope.fields.catalog import BY_ID, Entity, MigScope
from gpuscope.fields.clock_events import ClockEventReason
from gpuscope.fields.health_codes import DBE_DETECTED, NVLINK_ERROR_THRESHOLD, THERMAL, error_code_label
from gpuscope.fields.ids import NVLINK5_ERROR_FIELDS
from gpuscope.hardware.models import GpuModel, MigProfile

_PCIE_BYTES_PER_S = {3: 15.75e9, 4: 31.5e9, 5: 63.0e9, 6: 121.0e9}
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
    nvlink5: list[int] = field(default_factory=list)  # NVLink5 error counters, in NVLINK5_ERROR_FIELDS order


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
class SimInstance:
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
        # A few successful link recoveries (index 7, 9) are normal on a long-running NVLink5 fabric.
        nvlink5=[int(uniform(seed, key, 49) * 3) if n in (7, 9) else 0 for n in range(len(NVLINK5_ERROR_FIELDS))]
        if model.nvlink5
        else [],
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
        self.model: GpuModel = model
        self.index = index
        self.uuid = uuid
        self.pci_bus_id = pci_bus_id
        self.workload = workload
        self.seed: int = seed
        self.key: int = key
        self.profiling_supported = profiling_supported
        self.instances = [
            SimInstance(ident, prof, wl, key * 16 + n + 1)
            for n, (ident, prof, wl) in enumerate(zip(mig, mig_profiles, instance_workloads, strict=True))
        ]
        # Fault flags, set by the node's fault injection.
        self.thermal: bool = False
        self.ecc_dbe: bool = False
        self.nvlink_crc: bool = False
        self.fabric_degraded: bool = False
        self.nvlink5_errors: bool = False
        self.partition_lost: bool = False  # the fabric manager could not route this GPU's partition
        self.down_links: set[int] = set()  # NVLinks taken down by nvlink-down
        self.cut_links: set[int] = set()  # NVLinks facing a failed NVSwitch (nvswitch-fatal), set by the node
        self.domain: str = ""  # the NVLink domain (rack) the GPU belongs to; set by the node
        self.profiling_locked: bool = False
        self.lost: bool = False
        self.counters: _Counters = boot_counters(model, seed, key)
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
        if self.nvlink5_errors and dt:
            self._add_nvlink5_errors(dt)
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

    def _add_nvlink5_errors(self, dt: float) -> None:
        # A burst: packets received with errors and symbol errors climb fast, FEC leaves a few effective errors,
        # and the links go through recovery now and then (most recoveries succeed).
        c = self.counters.nvlink5
        c[2] += round(dt * 40)  # RX errors
        c[5] += round(dt * 2)  # local link integrity
        c[10] += round(dt * 900)  # RX symbol errors
        c[11] += round(dt * 3)  # effective errors
        recoveries = 1 if uniform(self.seed, self.key, 54, int(self._last_t or 0)) < 0.5 else 0
        c[9] += recoveries  # recovery events
        c[7] += recoveries  # of which successful

    # --- reads ---------------------------------------------------------------------------------------------

    @property
    def events(self) -> int:
        return self._now.events

    @property
    def sm_activity(self) -> float:
        """SM activity (0-1) at the last ``advance``: what the simulated processes share."""
        return float(self._now.act.sm_active)

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
        return tuple(
            LinkReading(link, _read_link(self, link, ids), LinkState.DOWN if self.link_down(link) else LinkState.UP)
            for link in range(self.model.nvlinks)
        )

    @property
    def fabric_limited(self) -> bool:
        """The fabric runs with less bandwidth than it should: a link is down or a degradation was injected."""
        return self.fabric_degraded or bool(self.down_links or self.cut_links)

    def link_down(self, link: int) -> bool:
        return link in self.down_links or link in self.cut_links

    def health(self) -> tuple[HealthCheck, ...]:
        bad = {
            "MEM": (HEALTH_FAIL, error_code_label(DBE_DETECTED)) if self.ecc_dbe else None,
            "THERMAL": (HEALTH_WARN, error_code_label(THERMAL)) if self.thermal else None,
            "NVLINK": (HEALTH_WARN, error_code_label(NVLINK_ERROR_THRESHOLD)) if self.nvlink_crc else None,
        }
        # The ALL row is DCGM's watch-all system, not a roll-up of the others: a simulated GPU has no incident of
        # that system, so it stays PASS (a sum over health_watch counts each incident once, as with dcgm-exporter).
        ok = error_code_label(0)
        checks = [HealthCheck(w, *(bad.get(w) or (HEALTH_PASS, ok))) for w in HEALTH_WATCHES[:-1]]
        checks.append(HealthCheck("ALL", HEALTH_PASS, ok))
        return tuple(checks)

    # --- values used by the field table --------------------------------------------------------------------

    def fb(self, inst: SimInstance | None) -> tuple[int, int, int, int]:
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

    def link_kib_per_s(self, link: int) -> float:
        """One link's traffic per direction in KiB/s: none on a link that is down."""
        return 0.0 if self.link_down(link) else self.nvlink_kib_per_s()

    def pcie_bytes_per_s(self, act: Activity, tx: bool) -> int:
        return int((act.pcie_tx if tx else act.pcie_rx) * _PCIE_BYTES_PER_S[self.model.pcie_gen])

    def temps(self) -> tuple[int, int]:
        return round(self._temp), round(self._temp + 6.0)

    @property
    def now(self) -> _Instant:
        return self._now


def _read(
    gpu: SimGpu, act: Activity, inst: SimInstance | None, field_ids: Iterable[int], table: Mapping[int, Getter]
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
    table: dict[int, Getter] = {fid: const(get(gpu, link)) for fid, get in LINK_GETTERS.items()}
    return _read(gpu, gpu.now.act, None, field_ids, table)
