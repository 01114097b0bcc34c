"""One connection to a host engine: versions, inventory, watches, and one collection over every GPU.

Per collection: one ``dcgmEntitiesGetLatestValues`` for the GPUs, one more for the GPU instances when any GPU is
in MIG mode, one ``dcgmHealthCheck`` when health is requested, and profiling watches only when one is due for a
retry. A per-value error stays with its GPU and field (a lost GPU is marked lost, the others read on); a call
that overruns its deadline marks the fields it would have read ``timeout``; only ``EngineGone`` ends the session.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from gpuscope.backends.base import (
    DcgmInfo,
    EntityReading,
    GpuReading,
    HealthCheck,
    InstanceReading,
    LinkReading,
    LinkState,
    NodeReading,
    ProfilingState,
    ReadError,
    ReadRequest,
    SwitchReading,
    Value,
    XidEvent,
)
from gpuscope.backends.dcgm import health
from gpuscope.backends.dcgm import structs as S
from gpuscope.backends.dcgm.connection import Calls, Target
from gpuscope.backends.dcgm.deadline import CallTimedOut
from gpuscope.backends.dcgm.discovery import Gpu, Inventory, Link, discover, discover_fabric
from gpuscope.backends.dcgm.library import DcgmError
from gpuscope.backends.dcgm.values import FieldPlan, chunks, decode, plan_fields, with_views
from gpuscope.backends.dcgm.watches import Timing, Watches, retry_profiling, setup
from gpuscope.fields.ids import FieldId

log = logging.getLogger("gpuscope.backends.dcgm")

# (DCGM entity id) -> (field id) -> value or error, for one entity group
Grid = dict[int, dict[int, Value | ReadError]]


@dataclass(frozen=True, slots=True)
class _Read:
    grid: Grid
    stamps: dict[int, int]  # GPU id -> timestamp (µs) of its XID field value


def version_skew(client: str, engine: str) -> bool:
    """True when the library and the engine differ in major.minor (DCGM supports client >= engine only)."""
    return client.split(".")[:2] != engine.split(".")[:2]


class Session:
    """A connected, discovered host engine. Not thread-safe: the backend serializes calls."""

    def __init__(self, calls: Calls, target: Target, timing: Timing, clock: Callable[[], float] = time.time) -> None:
        self.calls = calls
        self.target = target
        self.timing = timing
        self.clock = clock
        self.info = DcgmInfo(client_version="unknown", hostengine_version="unknown")
        self.inventory = Inventory(gpus=(), system={})
        self._watches: Watches | None = None
        self._xid_stamp: dict[int, int] = {}
        self._started_us = int(clock() * 1e6)
        self._next_discovery = 0.0

    def open(self) -> None:
        """Connect and discover; raises ``EngineGone`` (or ``CallTimedOut``/``DcgmError``) when that fails."""
        calls, lib = self.calls, self.calls.lib
        calls.connect(self.target)
        client = calls.run("dcgmVersionInfo", lib.client_version)
        if self.target.address is None:
            engine = client  # the embedded engine is this very library
        else:
            handle = calls.handle
            engine = calls.run("dcgmHostengineVersionInfo", lambda: lib.hostengine_version(handle))
        self.info = DcgmInfo(client_version=client, hostengine_version=engine)
        if version_skew(client, engine):
            log.warning(
                "DCGM version skew: this exporter's libdcgm is %s, %s is %s; keep libdcgm at or above the host "
                "engine's version (DCGM only guarantees that direction)",
                client,
                self.target.describe,
                engine,
            )
        self.inventory = discover(calls)
        self._next_discovery = time.monotonic() + self.timing.rediscover_s
        log.info(
            "DCGM %s ready through %s: %d GPU%s",
            client,
            self.target.describe,
            len(self.inventory.gpus),
            "" if len(self.inventory.gpus) == 1 else "s",
        )

    def close(self) -> None:
        self.calls.disconnect(self.target)

    # --- one collection -----------------------------------------------------------------------------------

    def _ensure_watches(self, request: ReadRequest, now: float) -> Watches:
        plan = plan_fields(request.field_ids, FieldId.DCGM_FI_DEV_XID_ERRORS)
        if plan.link or plan.switch:
            self._refresh_fabric()
        if (
            self._watches is not None
            and self._watches.plan == plan
            and self._watches.health_requested == request.health
        ):
            return self._watches
        if self._watches is not None:
            self._drop_watches()
        self._watches = setup(self.calls, self.inventory, plan, self.timing, health=request.health, now=now)
        return self._watches

    def _refresh_fabric(self) -> None:
        """The switches and link states, every collection (a link that went down is the signal); new or gone
        links get their watches afresh. A failed listing keeps the known fabric."""
        try:
            switches, links = discover_fabric(self.calls)
        except (CallTimedOut, DcgmError) as exc:
            log.warning("listing NVSwitches and NVLink states failed (keeping the known ones): %s", exc)
            return
        known = self.inventory
        same = switches == known.switches and [lk.entity_id for lk in links] == [lk.entity_id for lk in known.links]
        if not same:
            self._drop_watches()
        self.inventory = replace(known, switches=switches, links=links)

    def _drop_watches(self) -> None:
        watches, calls, lib = self._watches, self.calls, self.calls.lib
        self._watches = None
        if watches is None:
            return
        handle = calls.handle
        for group in watches.groups:
            calls.run("dcgmGroupDestroy", functools.partial(lib.group_destroy, handle, group))
        for fg in watches.field_groups:
            calls.run("dcgmFieldGroupDestroy", functools.partial(lib.field_group_destroy, handle, fg))

    def _rediscover(self, now: float) -> None:
        """List the GPUs and MIG layout again; a changed inventory gets its watches afresh."""
        self._next_discovery = now + self.timing.rediscover_s
        try:
            inventory = discover(self.calls)
        except (CallTimedOut, DcgmError) as exc:
            log.warning("listing DCGM GPUs again failed (keeping the known layout): %s", exc)
            return
        if inventory.gpus == self.inventory.gpus:
            return
        log.info("DCGM GPUs or MIG layout changed: %d GPUs, %d GPU instances", *_count(inventory))
        self._drop_watches()
        self.inventory = inventory

    def read(self, request: ReadRequest) -> NodeReading:
        now = time.monotonic()
        if now >= self._next_discovery:
            self._rediscover(now)
        watches = self._ensure_watches(request, now)
        if watches.prof:
            retry_profiling(self.calls, watches, self.timing, self.inventory, now)
        plan = watches.plan
        gpus = [(S.EntityGroup.GPU, g.gpu_id) for g in self.inventory.gpus]
        instances = [(S.EntityGroup.GPU_I, i.entity_id) for g in self.inventory.gpus for i in g.instances]
        device_ids = tuple(fid for fid in (*plan.device, *plan.prof) if fid not in watches.dropped)
        instance_ids = tuple(fid for fid in (*plan.instance, *plan.prof) if fid not in watches.dropped)
        device = self._read_grid(gpus, device_ids)
        instance = self._read_grid(instances, instance_ids) if instances else _Read(grid={}, stamps={})
        found = self._health() if request.health and watches.health else None
        readings = tuple(
            self._gpu_reading(gpu, request, plan, watches, device, instance, found) for gpu in self.inventory.gpus
        )
        readings, switches = self._fabric(readings, plan, watches)
        return NodeReading(
            gpus=readings, system=MappingProxyType(dict(self.inventory.system)), dcgm=self.info, switches=switches
        )

    def _fabric(
        self, gpus: tuple[GpuReading, ...], plan: FieldPlan, watches: Watches
    ) -> tuple[tuple[GpuReading, ...], tuple[SwitchReading, ...]]:
        """GPU links (onto their GPU's reading) and the switches with their ports, read by their entity ids."""
        inv = self.inventory
        if not (plan.link or plan.switch):
            return gpus, ()
        # No NVLink (or no NVSwitch) here: those fields are reported as the GPUs' unsupported ones.
        missing = (*(plan.link if not inv.links else ()), *(plan.switch if not inv.switches else ()))
        gpus = tuple(_without(g, missing) for g in gpus)
        if not (inv.links or inv.switches):
            return gpus, ()
        link_ids = tuple(fid for fid in plan.link if fid not in watches.dropped)
        switch_ids = tuple(fid for fid in plan.switch if fid not in watches.dropped)
        links = self._read_grid([(S.EntityGroup.LINK, lk.entity_id) for lk in inv.links], link_ids).grid
        own = self._read_grid([(S.EntityGroup.SWITCH, sid) for sid in inv.switches], switch_ids).grid
        wanted = frozenset((*link_ids, *switch_ids))
        dropped = dict.fromkeys(
            (fid for fid in watches.dropped if fid in (*plan.link, *plan.switch)), ReadError.NOT_SUPPORTED
        )

        def reading(link: Link) -> LinkReading:
            entity = _entity(links.get(link.entity_id, {}), wanted, set(), dict(dropped))
            return LinkReading(link.index, entity, LinkState(link.state) if link.state in _STATES else LinkState.DOWN)

        by_parent: dict[tuple[int, int], list[LinkReading]] = {}
        for link in inv.links:
            by_parent.setdefault((link.parent_group, link.parent_id), []).append(reading(link))
        out = tuple(
            replace(g, links=tuple(by_parent.get((S.EntityGroup.GPU, g.identity.index), ()))) if not g.lost else g
            for g in gpus
        )
        switches = tuple(
            SwitchReading(
                sid,
                _entity(own.get(sid, {}), wanted, set(), dict(dropped)),
                tuple(by_parent.get((S.EntityGroup.SWITCH, sid), ())),
            )
            for sid in inv.switches
        )
        return out, switches

    def _read_grid(self, entities: Sequence[tuple[int, int]], fields: tuple[int, ...]) -> _Read:
        if not entities or not fields:
            return _Read(grid={}, stamps={})
        grid: Grid = {entity: {} for _, entity in entities}
        stamps: dict[int, int] = {}
        # dcgmEntitiesGetLatestValues refuses more than DCGM_MAX_FIELD_IDS_PER_FIELD_GROUP (128) field ids in one
        # request (DCGM_ST_BADPARAM, client and host engine alike): a longer list is read in batches, each decoded
        # before the next (the library reuses one buffer per size). A failed batch costs its own fields only.
        for batch in chunks(fields):
            self._read_batch(entities, batch, grid, stamps)
        return _Read(grid=grid, stamps=stamps)

    def _read_batch(
        self, entities: Sequence[tuple[int, int]], fields: tuple[int, ...], grid: Grid, stamps: dict[int, int]
    ) -> None:
        lib, handle = self.calls.lib, self.calls.handle
        try:
            raw = self.calls.run("dcgmEntitiesGetLatestValues", lambda: lib.latest_values(handle, entities, fields))
        except (CallTimedOut, DcgmError) as exc:
            error = ReadError.TIMEOUT if isinstance(exc, CallTimedOut) else ReadError.FAILED
            log.warning("reading DCGM field values failed: %s", exc)
            for _, entity in entities:
                grid[entity].update(dict.fromkeys(fields, error))
            return
        for i, (_, entity) in enumerate(entities):
            row = grid[entity]
            for j, fid in enumerate(fields):
                decoded = decode(raw[i * len(fields) + j])
                row[fid] = decoded.value
                if fid == FieldId.DCGM_FI_DEV_XID_ERRORS:
                    stamps[entity] = decoded.timestamp_us

    def _health(self) -> list[health.Incident] | None:
        watches, lib, handle = self._watches, self.calls.lib, self.calls.handle
        if watches is None:
            return None
        group = watches.gpu_group
        try:
            response = self.calls.run("dcgmHealthCheck", lambda: lib.health_check(handle, group))
        except (CallTimedOut, DcgmError) as exc:
            log.warning("DCGM health check failed: %s", exc)
            return None
        return health.incidents(response, self.inventory.gpu_of_instance())

    def _gpu_reading(
        self,
        gpu: Gpu,
        request: ReadRequest,
        plan: FieldPlan,
        watches: Watches,
        device: _Read,
        instance: _Read,
        found: list[health.Incident] | None,
    ) -> GpuReading:
        row = device.grid.get(gpu.gpu_id, {})
        xids = self._xids(gpu.gpu_id, row.get(FieldId.DCGM_FI_DEV_XID_ERRORS), device.stamps.get(gpu.gpu_id, 0))
        if any(v is ReadError.GPU_LOST for v in row.values()):
            return GpuReading(identity=gpu.identity, device=EntityReading(), lost=True, xid_events=xids)
        wanted = request.field_ids
        # not served here, or dropped because the library or host engine does not know the id (or a view's source)
        dropped = watches.dropped | {view for view, source, _ in plan.views if source in watches.dropped}
        unserved = dict.fromkeys((*plan.unserved, *(fid for fid in dropped if fid in wanted)), ReadError.NOT_SUPPORTED)
        skip = set(plan.prof) if gpu.instances else set()
        device_reading = _entity(with_views(row, plan.views), wanted, skip, unserved)
        instances = tuple(
            InstanceReading(
                identity=inst.identity,
                reading=_entity(with_views(instance.grid.get(inst.entity_id, {}), plan.views), wanted, set(), {}),
            )
            for inst in gpu.instances
        )
        state, detail = self._profiling(gpu, plan, watches, device_reading, instances)
        if state is ProfilingState.UNSUPPORTED:
            # never coming: the exporter lists these as unsupported fields rather than counting read errors
            device_reading = _unsupported(device_reading, plan.prof)
            instances = tuple(
                InstanceReading(identity=i.identity, reading=_unsupported(i.reading, plan.prof)) for i in instances
            )
        checks: tuple[HealthCheck, ...] = () if found is None else health.checks_for(gpu.gpu_id, found)
        return GpuReading(
            identity=gpu.identity,
            device=device_reading,
            instances=instances,
            profiling=state,
            profiling_detail=detail,
            xid_events=xids,
            health=checks,
        )

    def _xids(self, gpu_id: int, value: Value | ReadError | None, stamp: int) -> tuple[XidEvent, ...]:
        """A new XID is a new timestamp on the XID field (DCGM keeps the last one); older ones predate us."""
        previous = self._xid_stamp.get(gpu_id, self._started_us)
        if not isinstance(value, int) or value <= 0 or stamp <= previous:
            return ()
        self._xid_stamp[gpu_id] = stamp
        return (XidEvent(timestamp=stamp / 1e6, code=value),)

    @staticmethod
    def _profiling(
        gpu: Gpu, plan: FieldPlan, watches: Watches, device: EntityReading, instances: tuple[InstanceReading, ...]
    ) -> tuple[ProfilingState, str]:
        prof = watches.prof.get(gpu.gpu_id)
        if not plan.prof or prof is None:
            return ProfilingState.NOT_REQUESTED, ""
        if prof.state is not ProfilingState.WARMING_UP and prof.state is not ProfilingState.AVAILABLE:
            return prof.state, prof.detail
        readings = [i.reading for i in instances] if gpu.instances else [device]
        flowing = any(fid in r.values for r in readings for fid in plan.prof)
        prof.state = ProfilingState.AVAILABLE if flowing else ProfilingState.WARMING_UP
        return prof.state, ""


_STATES = frozenset(int(s) for s in LinkState)


def _without(gpu: GpuReading, fields: tuple[int, ...]) -> GpuReading:
    if gpu.lost or not fields:
        return gpu
    errors = {**gpu.device.errors, **dict.fromkeys(fields, ReadError.NOT_SUPPORTED)}
    return replace(gpu, device=EntityReading(values=gpu.device.values, errors=MappingProxyType(errors)))


def _unsupported(reading: EntityReading, fields: tuple[int, ...]) -> EntityReading:
    errors = {fid: ReadError.NOT_SUPPORTED if fid in fields else e for fid, e in reading.errors.items()}
    return EntityReading(values=reading.values, errors=MappingProxyType(errors))


def _count(inventory: Inventory) -> tuple[int, int]:
    return len(inventory.gpus), sum(len(g.instances) for g in inventory.gpus)


def _entity(
    row: dict[int, Value | ReadError], wanted: frozenset[int], skip: set[int], extra: dict[int, ReadError]
) -> EntityReading:
    values: dict[int, Value] = {}
    errors: dict[int, ReadError] = dict(extra)
    for fid, value in row.items():
        if fid not in wanted or fid in skip:
            continue
        if isinstance(value, ReadError):
            errors[fid] = value
        else:
            values[fid] = value
    return EntityReading(values=MappingProxyType(values), errors=MappingProxyType(errors))
