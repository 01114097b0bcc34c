"""A simulated GPU node: the ``sim`` backend. N GPUs of one model, optional MIG, runtime fault injection."""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from gpuscope.backends.base import (
    BackendUnavailable,
    DcgmInfo,
    EntityReading,
    GpuIdentity,
    GpuReading,
    InstanceIdentity,
    NodeReading,
    ProfilingState,
    ReadRequest,
    SwitchReading,
    XidEvent,
)
from gpuscope.backends.sim import fabric, teams
from gpuscope.backends.sim.activity import workload_for
from gpuscope.backends.sim.faults import FaultKind, FaultRequest
from gpuscope.backends.sim.gpu import SimGpu
from gpuscope.backends.sim.processes import SimProcess, population, readings, sync
from gpuscope.errors import UsageError
from gpuscope.fields.catalog import BY_ID, Entity
from gpuscope.fields.ids import FieldId
from gpuscope.fields.xid import GPU_FELL_OFF_BUS
from gpuscope.hardware.models import GpuModel, MigProfile

log = logging.getLogger(__name__)

DRIVER_VERSION = "570.133.20"
NVML_VERSION = "12.570.133.20"
# The simulated DCGM hop: the exporter's libdcgm, and the newer host engine the version-skew fault puts behind it.
SIM_DCGM_VERSION = "4.6.0"
SIM_DCGM_SKEWED_VERSION = "4.8.1"
SIM_HOSTENGINE = "the simulated host engine at localhost:5555"
_HGX_BUSES = (0x18, 0x2A, 0x3A, 0x5D, 0x9A, 0xAB, 0xBA, 0xDB)
_GI_BASE = {7: 0, 4: 1, 3: 1, 2: 3, 1: 7}  # first GPU-instance id NVML hands out per slice count
_NVLINK_XID = 74  # "NVLINK Error" (dcgm-exporter's xid_errors.go); the GPU logs it when a link fails
_XID_ON_FAULT = {
    FaultKind.ECC_DBE: 48,
    FaultKind.NVLINK_CRC: _NVLINK_XID,
    FaultKind.FELL_OFF_BUS: GPU_FELL_OFF_BUS,
}
WORKLOAD_MIXES = ("mixed", "idle", "training", "inference", "bursty", teams.TEAMS_MIX)
PROFILING_MODES = ("all", "gpm", "none")


@dataclass(frozen=True, slots=True)
class SimNodeConfig:
    """One simulated node."""

    hostname: str
    model: GpuModel
    gpus: int = 8
    mig_layout: tuple[MigProfile, ...] = ()
    workload: str = "mixed"
    seed: int = 0
    profiling: str = "all"  # all: every model (as DCGM); gpm: Hopper+ only (as NVML); none
    process_dir: str = ""  # where the simulated /proc and pod log directory are kept ("": not written)
    rack: str = ""  # the NVLink domain its GPUs share with other nodes (an NVL72 rack's trays); "": its own


def _digest(*parts: object) -> bytes:
    return hashlib.sha256("/".join(map(str, parts)).encode()).digest()


def _uuid(prefix: str, *parts: object) -> str:
    h = _digest(*parts).hex()
    return f"{prefix}-{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def _bus_id(index: int) -> str:
    bus = _HGX_BUSES[index] if index < len(_HGX_BUSES) else 0x100 + index
    return f"00000000:{bus:02X}:00.0"


def _gi_ids(layout: tuple[MigProfile, ...]) -> list[int]:
    # NVML numbers placements per size class; reproduce that so GPU_I_ID values look familiar. The ids are
    # unique on a GPU (the device handle's own guarantee, and what every per-instance join relies on), so a
    # class whose first id is taken (3g after 4g) takes the next free one.
    used: set[int] = set()
    ids = []
    for profile in layout:
        gi = _GI_BASE.get(profile.slices, 1)
        while gi in used:
            gi += 1
        used.add(gi)
        ids.append(gi)
    return ids


class SimNode:
    """The simulated backend for one node. Thread-safe: faults arrive from the HTTP loop, reads from a worker."""

    name = "sim"

    def __init__(
        self,
        config: SimNodeConfig,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] | None = None,
    ) -> None:
        if config.profiling not in PROFILING_MODES:
            raise UsageError(f"profiling mode {config.profiling!r}: choose one of {', '.join(PROFILING_MODES)}")
        if config.workload not in WORKLOAD_MIXES:
            raise UsageError(f"workload {config.workload!r}: choose one of {', '.join(WORKLOAD_MIXES)}")
        self.config = config
        self._clock = clock
        self._sleep = sleep  # None: a wait that clearing the fault ends at once
        self._lock = threading.Lock()
        self._slow_seconds = 0.0
        self._slow_over = threading.Event()
        self._hostengine_down = False
        self._hostengine_restarted = False
        self._version_skew = False
        self._pending: dict[int, list[XidEvent]] = {}
        self.zombies: set[int] = set()  # GPUs with a process whose pod is gone
        self.started = clock()  # the teams mix's growing team arrives a while after this
        self.grown = False
        self.gpus = [self._make_gpu(i) for i in range(config.gpus)]
        for gpu in self.gpus:
            gpu.domain = config.rack or config.hostname
        self.switches = fabric.build_switches(config.model, config.gpus)
        self._fabric_t: float | None = None

    def _make_gpu(self, index: int) -> SimGpu:
        c = self.config
        key = int.from_bytes(_digest(c.seed, c.hostname, index)[:8], "big")
        layout = c.mig_layout
        instances = [
            InstanceIdentity(gi, p.name, _uuid("MIG", c.seed, c.hostname, index, gi))
            for gi, p in zip(_gi_ids(layout), layout, strict=True)
        ]
        profiling = c.profiling == "all" or (c.profiling == "gpm" and c.model.gpm)
        if c.workload == teams.TEAMS_MIX:
            kind = teams.gpu_kind(index, grown=False)
            instance_kinds = [teams.instance_kind(n, len(layout)) for n in range(len(layout))]
        else:
            kind = workload_for(c.workload, c.seed, key)
            instance_kinds = [workload_for(c.workload, c.seed, key * 16 + n + 1) for n in range(len(layout))]
        return SimGpu(
            c.model,
            index,
            _uuid("GPU", c.seed, c.hostname, index),
            _bus_id(index),
            kind,
            c.seed,
            key,
            mig=instances,
            mig_profiles=layout,
            instance_workloads=instance_kinds,
            profiling_supported=profiling,
        )

    def _grow(self, now: float) -> None:
        """The teams mix: the growing team takes its GPU once the node has run for its delay (lock held)."""
        if self.config.workload != teams.TEAMS_MIX or self.grown:
            return
        if now - self.started >= teams.growth_delay(self.config.hostname):
            self.grown = True
            for gpu in self.gpus:
                if not gpu.instances:
                    gpu.workload = teams.gpu_kind(gpu.index, grown=True)

    def population(self, now: float | None = None) -> list[SimProcess]:
        """The node's simulated processes and the pods they belong to at ``now`` (default: the clock's now):
        what the simulated kubelet and kube-state-metrics list, so they agree with the process metrics."""
        with self._lock:
            now = self._clock() if now is None else now
            self._grow(now)
            return self._population(now)

    def _population(self, now: float) -> list[SimProcess]:
        c = self.config
        instances = [[i.identity.gpu_instance_id for i in gpu.instances] for gpu in self.gpus]
        return population(
            c.hostname,
            c.gpus,
            instances,
            c.model.memory_mib << 20,
            now,
            sorted(self.zombies),
            mix=c.workload,
            grown=self.grown,
        )

    # --- Backend protocol ----------------------------------------------------------------------------------

    def collect(self, request: ReadRequest) -> NodeReading:
        with self._lock:
            slow, over = self._slow_seconds, self._slow_over
        if slow:
            if self._sleep is not None:
                self._sleep(slow)
            else:
                over.wait(slow)
        with self._lock:
            self._check_hostengine()
            now = self._clock()
            self._grow(now)
            gpus = tuple(self._read_gpu(gpu, request, now) for gpu in self.gpus)
            switches = self._read_switches(request, now)
            if request.processes:
                gpus = self._with_processes(gpus, now)
            engine = SIM_DCGM_SKEWED_VERSION if self._version_skew else SIM_DCGM_VERSION
        info = DcgmInfo(client_version=SIM_DCGM_VERSION, hostengine_version=engine)
        return NodeReading(
            gpus,
            MappingProxyType(
                {FieldId.DCGM_FI_DRIVER_VERSION: DRIVER_VERSION, FieldId.DCGM_FI_NVML_VERSION: NVML_VERSION}
            ),
            dcgm=info,
            switches=switches,
        )

    def _read_switches(self, request: ReadRequest, now: float) -> tuple[SwitchReading, ...]:
        """The NVSwitches and their ports (lock held), when the request has a switch or NVLink-entity field."""
        if not self.switches or not any(
            fid in BY_ID and BY_ID[fid].entity is not Entity.GPU for fid in request.field_ids
        ):
            return ()
        dt = 0.0 if self._fabric_t is None else min(max(now - self._fabric_t, 0.0), 3600.0)
        self._fabric_t = now
        down = {(g.index, link) for g in self.gpus for link in g.down_links}  # a failed switch's ports: its own
        bus_ids = [g.pci_bus_id for g in self.gpus]
        temp = 35 + round(sum(g.temps()[0] for g in self.gpus) / max(len(self.gpus), 1) / 4)
        out = []
        for switch in self.switches:
            up = [fabric.port_up(switch, port, down) and not self.gpus[port.gpu].lost for port in switch.ports]
            rates = [self.gpus[port.gpu].link_kib_per_s(port.link) for port in switch.ports]
            fabric.advance(switch, dt, rates, up)
            out.append(fabric.read_switch(switch, request.field_ids, up, bus_ids, temp))
        return tuple(out)

    def _with_processes(self, gpus: tuple[GpuReading, ...], now: float) -> tuple[GpuReading, ...]:
        c = self.config
        procs = self._population(now)
        if c.process_dir:
            try:
                sync(Path(c.process_dir), procs)
            except OSError as exc:  # the directory is the simulator's own: say so, keep the GPUs reporting
                log.warning("cannot write the simulated /proc under %s: %s", c.process_dir, exc)
        return tuple(
            g if g.lost else replace(g, processes=readings(procs, g.identity.index, self.gpus[i].sm_activity))
            for i, g in enumerate(gpus)
        )

    def _check_hostengine(self) -> None:
        """The simulated DCGM hop: a dead or just-restarted host engine fails the collection, as DCGM does."""
        if self._hostengine_down:
            raise BackendUnavailable(
                f"lost {SIM_HOSTENGINE}: dcgmEntitiesGetLatestValues failed: DCGM_ST_CONNECTION_NOT_VALID"
            )
        if self._hostengine_restarted:
            self._hostengine_restarted = False
            raise BackendUnavailable(f"{SIM_HOSTENGINE} restarted: DCGM_ST_CONNECTION_NOT_VALID; reconnecting")

    def close(self) -> None:
        """Nothing to release."""

    def _read_gpu(self, gpu: SimGpu, request: ReadRequest, now: float) -> GpuReading:
        identity = GpuIdentity(gpu.index, gpu.uuid, gpu.pci_bus_id, gpu.model.name)
        events = tuple(self._pending.pop(gpu.index, ()))
        if gpu.lost:
            return GpuReading(identity, EntityReading(), lost=True, xid_events=events)
        gpu.advance(now)
        device_ids = [fid for fid in request.field_ids if fid in BY_ID and BY_ID[fid].entity is Entity.GPU]
        wants_prof = any(BY_ID[fid].prof for fid in request.field_ids if fid in BY_ID)
        return GpuReading(
            identity,
            gpu.read_device(device_ids),
            instances=gpu.read_instances(device_ids),
            links=gpu.read_links(request.field_ids),
            profiling=self._profiling_state(gpu) if wants_prof else ProfilingState.NOT_REQUESTED,
            profiling_detail=self._profiling_detail(gpu),
            xid_events=events,
            health=gpu.health() if request.health else (),
            p2p=self._p2p(gpu) if request.p2p else MappingProxyType({}),
        )

    @staticmethod
    def _profiling_state(gpu: SimGpu) -> ProfilingState:
        if not gpu.profiling_supported:
            return ProfilingState.UNSUPPORTED
        return ProfilingState.LOCKED if gpu.profiling_locked else ProfilingState.AVAILABLE

    @staticmethod
    def _profiling_detail(gpu: SimGpu) -> str:
        if not gpu.profiling_supported:
            return f"{gpu.model.name} has no profiling counters in this simulation"
        return "another profiler holds the GPU's profiling counters" if gpu.profiling_locked else ""

    def _p2p(self, gpu: SimGpu) -> MappingProxyType[int, int]:
        ok, not_supported, unknown = 0, 5, 6
        status = {}
        for peer in self.gpus:
            if peer.index != gpu.index:
                status[peer.index] = unknown if peer.lost else ok if gpu.model.nvlinks else not_supported
        return MappingProxyType(status)

    # --- fault injection -----------------------------------------------------------------------------------

    def apply(self, request: FaultRequest) -> None:
        """Switch a fault on or off (one-shot faults fire once)."""
        with self._lock:
            if request.fault is FaultKind.SLOW:
                self._slow_seconds = request.seconds if request.enabled else 0.0
                if not request.enabled:
                    self._end_slow()
                return
            if request.fault is FaultKind.HOSTENGINE_DOWN:
                self._hostengine_down = request.enabled
                return
            if request.fault is FaultKind.HOSTENGINE_RESTART:
                self._hostengine_restarted = request.enabled
                return
            if request.fault is FaultKind.VERSION_SKEW:
                self._version_skew = request.enabled
                return
            if request.fault is FaultKind.NVSWITCH_FATAL:
                self._switch_fatal(request)
                return
            if request.fault is FaultKind.RESTART:
                if request.enabled:
                    for gpu in self.gpus:
                        gpu.restart()
                    self._pending.clear()
                return
            for gpu in self._targets(request.gpu):
                self._apply_gpu(gpu, request)

    def _apply_gpu(self, gpu: SimGpu, request: FaultRequest) -> None:
        on = request.enabled
        kind = request.fault
        if kind is FaultKind.XID:
            if on:
                self._event(gpu, request.xid)
            return
        if kind is FaultKind.NVLINK_DOWN:
            self._link_down(gpu, request)
            return
        if kind is FaultKind.ZOMBIE:
            (self.zombies.add if on else self.zombies.discard)(gpu.index)
            return
        if kind is FaultKind.NVLINK_CRC and not gpu.model.nvlinks:
            raise UsageError(f"GPU {gpu.index} ({gpu.model.key}) has no NVLink to inject CRC errors into")
        if kind in (FaultKind.FABRIC_DEGRADED, FaultKind.PARTITION_DEGRADED) and not gpu.model.fabric:
            raise UsageError(
                f"GPU {gpu.index} ({gpu.model.key}) has no NVLink fabric state; use an h100, h200, b200, gb200 or gb300"
            )
        if kind is FaultKind.NVLINK5_ERRORS and not gpu.model.nvlink5:
            raise UsageError(f"GPU {gpu.index} ({gpu.model.key}) has no NVLink5 counters; use a b200, gb200 or gb300")
        attr = {
            FaultKind.FELL_OFF_BUS: "lost",
            FaultKind.PROFILING_LOCK: "profiling_locked",
            FaultKind.THERMAL: "thermal",
            FaultKind.ECC_DBE: "ecc_dbe",
            FaultKind.NVLINK_CRC: "nvlink_crc",
            FaultKind.FABRIC_DEGRADED: "fabric_degraded",
            FaultKind.NVLINK5_ERRORS: "nvlink5_errors",
            FaultKind.PARTITION_DEGRADED: "partition_lost",
        }[kind]
        was_on = getattr(gpu, attr)
        setattr(gpu, attr, on)
        if on and not was_on and kind in _XID_ON_FAULT:
            self._event(gpu, _XID_ON_FAULT[kind])

    def _link_down(self, gpu: SimGpu, request: FaultRequest) -> None:
        """One NVLink down (and the switch port facing it): XID 74, the NVLink error, when it goes."""
        link = request.link if request.link is not None else 0
        if not 0 <= link < gpu.model.nvlinks:
            have = f"links 0-{gpu.model.nvlinks - 1}" if gpu.model.nvlinks else "no NVLink"
            raise UsageError(f"GPU {gpu.index} ({gpu.model.key}) has no NVLink {link} ({have})")
        if request.enabled and link not in gpu.down_links:
            gpu.down_links.add(link)
            self._event(gpu, _NVLINK_XID)
        elif not request.enabled:
            gpu.down_links.discard(link)

    def _switch_fatal(self, request: FaultRequest) -> None:
        """A fatal SXid on one switch: its ports go down, and with them the GPU links facing it (each such GPU
        logs XID 74 once); the switch asks for a reset (``DCGM_FI_DEV_NVSWITCH_RESET_REQUIRED``)."""
        sid = request.switch if request.switch is not None else 0
        if not self.switches:
            raise UsageError(
                f"{self.config.hostname} ({self.config.model.key}) has no NVSwitch of its own"
                + (
                    "; an NVL72 tray's switches sit in the rack's switch trays: use partition-degraded"
                    if self.config.model.rack_trays
                    else ""
                )
            )
        if not 0 <= sid < len(self.switches):
            raise UsageError(f"NVSwitch {sid} does not exist on {self.config.hostname} (0-{len(self.switches) - 1})")
        switch = self.switches[sid]
        if request.enabled and not switch.failed:
            switch.fatal_sxid = request.sxid
            for port in switch.ports:
                self.gpus[port.gpu].cut_links.add(port.link)
            for index in sorted({port.gpu for port in switch.ports}):
                self._event(self.gpus[index], _NVLINK_XID)
        elif not request.enabled and switch.failed:
            switch.fatal_sxid = 0
            for port in switch.ports:
                self.gpus[port.gpu].cut_links.discard(port.link)

    def _event(self, gpu: SimGpu, code: int) -> None:
        self._pending.setdefault(gpu.index, []).append(XidEvent(self._clock(), code))

    def _targets(self, gpu: int | None) -> list[SimGpu]:
        if gpu is None:
            return list(self.gpus)
        if not 0 <= gpu < len(self.gpus):
            raise UsageError(f"GPU {gpu} does not exist on {self.config.hostname} (GPUs 0-{len(self.gpus) - 1})")
        return [self.gpus[gpu]]

    def clear(self) -> None:
        """Switch every fault off."""
        with self._lock:
            self._slow_seconds = 0.0
            self._end_slow()
            self._hostengine_down = self._hostengine_restarted = self._version_skew = False
            self.zombies.clear()
            for gpu in self.gpus:
                gpu.thermal = gpu.ecc_dbe = gpu.nvlink_crc = gpu.profiling_locked = gpu.lost = False
                gpu.fabric_degraded = gpu.nvlink5_errors = gpu.partition_lost = False
                gpu.down_links.clear()
                gpu.cut_links.clear()
            for switch in self.switches:
                switch.fatal_sxid = switch.non_fatal_sxid = 0

    def _end_slow(self) -> None:
        """Wake a read sleeping in a ``slow`` fault (it may have an hour to go); later reads wait afresh."""
        self._slow_over.set()
        self._slow_over = threading.Event()

    def active_faults(self) -> list[dict[str, object]]:
        """The faults now switched on, for ``GET /sim/faults``."""
        with self._lock:
            active: list[dict[str, object]] = []
            if self._slow_seconds:
                active.append({"fault": FaultKind.SLOW.value, "gpu": None, "seconds": self._slow_seconds})
            for kind, on in (
                (FaultKind.HOSTENGINE_DOWN, self._hostengine_down),
                (FaultKind.VERSION_SKEW, self._version_skew),
            ):
                if on:
                    active.append({"fault": kind.value, "gpu": None})
            for gpu in self.gpus:
                for kind, on in (
                    (FaultKind.FELL_OFF_BUS, gpu.lost),
                    (FaultKind.PROFILING_LOCK, gpu.profiling_locked),
                    (FaultKind.THERMAL, gpu.thermal),
                    (FaultKind.ECC_DBE, gpu.ecc_dbe),
                    (FaultKind.NVLINK_CRC, gpu.nvlink_crc),
                    (FaultKind.FABRIC_DEGRADED, gpu.fabric_degraded),
                    (FaultKind.NVLINK5_ERRORS, gpu.nvlink5_errors),
                    (FaultKind.PARTITION_DEGRADED, gpu.partition_lost),
                    (FaultKind.ZOMBIE, gpu.index in self.zombies),
                ):
                    if on:
                        active.append({"fault": kind.value, "gpu": gpu.index})
                for link in sorted(gpu.down_links):
                    active.append({"fault": FaultKind.NVLINK_DOWN.value, "gpu": gpu.index, "link": link})
            for switch in self.switches:
                if switch.failed:
                    active.append(
                        {"fault": FaultKind.NVSWITCH_FATAL.value, "switch": switch.switch_id, "code": switch.fatal_sxid}
                    )
            return active
