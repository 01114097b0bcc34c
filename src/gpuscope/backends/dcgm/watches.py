"""Groups, field groups and watches on the host engine for one request, and per-GPU profiling state.

Layout: one group of every GPU and one of every GPU instance, each watching its non-profiling fields (in field
groups of at most 128 ids); then, per GPU, a group of the GPU (or of its GPU instances under MIG) watching the
profiling fields. The profiling watch is per GPU because the profiling module refuses a GPU on its own: held by
another client (``IN_USE``, e.g. Nsight or a second DCGM), paused (``dcgmProfPause``), or never supported. Such
a GPU's PROF fields read as unavailable and its other fields continue; the refused watch is retried every
``prof_retry_s``. Everything here lives on the host engine, so a restarted engine needs it all again (the
backend builds a new session).

Asking before watching: DCGM refuses a whole field group for one id it has no metadata for (``DCGM_ST_BADPARAM``,
DcgmFieldGroupManager::AddFieldGroup), so one field newer than the host engine would cost every metric. Each id is
first looked up in the library's table (``DcgmFieldGetById``); an id the library does not know is dropped with one
line. If the host engine (older than the library) still refuses a group, the group is split in halves until the
refused ids are found; those are dropped with one line and the rest is watched. A dropped id reads as not
supported (``gpuscope_exporter_field_unsupported``), never as a failed collection.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gpuscope.backends.base import FieldWatch, ProfilingState, WatchPlan
from gpuscope.backends.dcgm import structs as S
from gpuscope.backends.dcgm.connection import Calls
from gpuscope.backends.dcgm.deadline import CallTimedOut
from gpuscope.backends.dcgm.discovery import Gpu, Inventory
from gpuscope.backends.dcgm.library import DcgmError
from gpuscope.backends.dcgm.values import FieldPlan, chunks

log = logging.getLogger("gpuscope.backends.dcgm")

_PROF_REFUSALS: dict[int, tuple[ProfilingState, str]] = {
    S.Return.IN_USE: (ProfilingState.LOCKED, "another client holds the profiling counters (DCGM_ST_IN_USE)"),
    S.Return.PAUSED: (ProfilingState.LOCKED, "profiling is paused (dcgmProfPause / dcgmi profile --pause)"),
    S.Return.PROFILING_NOT_SUPPORTED: (ProfilingState.UNSUPPORTED, "DCGM profiling is not supported on this GPU"),
    S.Return.GPU_NOT_SUPPORTED: (ProfilingState.UNSUPPORTED, "DCGM does not support this GPU"),
    S.Return.MODULE_NOT_LOADED: (ProfilingState.UNSUPPORTED, "the DCGM profiling module is not loaded"),
    S.Return.NO_PERMISSION: (ProfilingState.NO_PERMISSION, "profiling needs CAP_SYS_ADMIN"),
    S.Return.REQUIRES_ROOT: (ProfilingState.NO_PERMISSION, "profiling needs root / CAP_SYS_ADMIN"),
}


Policy = tuple[int, float, int]  # one dcgmWatchFields call's (updateFreq us, maxKeepAge s, maxKeepSamples)


@dataclass(frozen=True, slots=True)
class Timing:
    """How DCGM samples (``update_us``, ``max_keep_age_s``, ``max_keep_samples``; ``overrides``: the fields that
    are sampled otherwise, dcgm-exporter's watch groups), how often a refused profiling watch is retried, and how
    often the GPUs and MIG layout are listed again (GPU instances come and go at run time)."""

    update_us: int = 15_000_000
    max_keep_age_s: float = 60.0
    prof_retry_s: float = 30.0
    rediscover_s: float = 60.0
    max_keep_samples: int = 0
    overrides: Mapping[int, Policy] = field(default_factory=dict)

    @classmethod
    def from_plan(cls, plan: WatchPlan) -> Timing:
        def policy(w: FieldWatch) -> Policy:
            return max(1000, round(w.interval_s * 1e6)), w.max_keep_age_s, w.max_keep_samples

        update_us, age, samples = policy(plan.default)
        overrides = {fid: policy(w) for fid, w in plan.overrides.items()}
        return cls(update_us=update_us, max_keep_age_s=age, max_keep_samples=samples, overrides=overrides)

    @property
    def default(self) -> Policy:
        return self.update_us, self.max_keep_age_s, self.max_keep_samples

    def split(self, ids: tuple[int, ...]) -> list[tuple[Policy, tuple[int, ...]]]:
        """``ids`` by the policy that watches them, the default's first (one field group set per policy)."""
        parts: dict[Policy, list[int]] = {self.default: []}
        for fid in ids:
            parts.setdefault(self.overrides.get(fid, self.default), []).append(fid)
        return [(p, tuple(part)) for p, part in parts.items() if part]


@dataclass(slots=True)
class ProfWatch:
    group: int = 0
    state: ProfilingState = ProfilingState.NOT_REQUESTED
    detail: str = ""
    retry_at: float = 0.0


@dataclass(slots=True)
class Watches:
    """What was set up on the host engine for ``plan``."""

    plan: FieldPlan
    groups: list[int] = field(default_factory=list)
    field_groups: list[int] = field(default_factory=list)
    gpu_group: int = 0
    health_requested: bool = False
    health: bool = False  # the health watch is set (a host engine may refuse it; the rest works without)
    prof_field_groups: list[tuple[Policy, int]] = field(default_factory=list)
    prof: dict[int, ProfWatch] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)  # ids the library or the host engine does not know


def _group(calls: Calls, watches: Watches, name: str, entities: Sequence[tuple[int, int]]) -> int:
    lib, handle = calls.lib, calls.handle
    group = calls.run("dcgmGroupCreate", lambda: lib.group_create(handle, name, entities))
    watches.groups.append(group)
    return group


def _watched_groups(
    calls: Calls, watches: Watches, timing: Timing, name: str, ids: tuple[int, ...]
) -> list[tuple[Policy, int]]:
    """Field groups of ``ids``, one set per watch policy (a watch group's fields are sampled at its interval)."""
    out: list[tuple[Policy, int]] = []
    for n, (policy, part) in enumerate(timing.split(ids)):
        out.extend((policy, fg) for fg in _field_groups(calls, watches, name if n == 0 else f"{name}-w{n}", part))
    return out


def _field_groups(calls: Calls, watches: Watches, name: str, ids: tuple[int, ...]) -> list[int]:
    lib = calls.lib
    unknown = sorted(int(fid) for fid in ids if fid not in watches.dropped and lib.field_meta(fid) is None)
    if unknown:
        log.warning("the DCGM library does not know field ids %s: left out (reported unsupported)", unknown)
        watches.dropped.update(unknown)
    made: list[int] = []
    refused: list[int] = []
    for n, chunk in enumerate(chunks(tuple(fid for fid in ids if fid not in watches.dropped))):
        _create(calls, watches, f"{name}-{n}", chunk, made, refused)
    if refused:
        log.warning(
            "the DCGM host engine refuses field ids %s (older than the library?): left out", sorted(map(int, refused))
        )
        watches.dropped.update(refused)
    return made


def _create(
    calls: Calls, watches: Watches, name: str, ids: tuple[int, ...], made: list[int], refused: list[int]
) -> None:
    """A field group of ``ids``; on ``BADPARAM`` the halves, until the ids the host engine refuses are found."""
    if not ids:
        return
    lib, handle = calls.lib, calls.handle
    try:
        fg = calls.run("dcgmFieldGroupCreate", functools.partial(lib.field_group_create, handle, name, ids))
    except DcgmError as exc:
        if exc.code != S.Return.BADPARAM:
            raise
        if len(ids) == 1:
            refused.append(ids[0])
            return
        half = len(ids) // 2
        _create(calls, watches, f"{name}a", ids[:half], made, refused)
        _create(calls, watches, f"{name}b", ids[half:], made, refused)
        return
    watches.field_groups.append(fg)
    made.append(fg)


def _watch(calls: Calls, group: int, field_groups: list[tuple[Policy, int]]) -> None:
    lib, handle = calls.lib, calls.handle
    for (update_us, age_s, samples), fg in field_groups:
        calls.run("dcgmWatchFields", functools.partial(lib.watch, handle, group, fg, update_us, age_s, samples))


def setup(calls: Calls, inventory: Inventory, plan: FieldPlan, timing: Timing, *, health: bool, now: float) -> Watches:
    """Create and watch everything ``plan`` needs; ``EngineGone``/``DcgmError``/``CallTimedOut`` on failure."""
    watches = Watches(plan=plan, health_requested=health)
    gpus = [(S.EntityGroup.GPU, g.gpu_id) for g in inventory.gpus]
    instances = [(S.EntityGroup.GPU_I, i.entity_id) for g in inventory.gpus for i in g.instances]
    if gpus:
        watches.gpu_group = _group(calls, watches, "gpuscope-gpus", gpus)
        _watch(calls, watches.gpu_group, _watched_groups(calls, watches, timing, "gpuscope-device", plan.device))
    if instances and plan.instance:
        group = _group(calls, watches, "gpuscope-instances", instances)
        _watch(calls, group, _watched_groups(calls, watches, timing, "gpuscope-instance", plan.instance))
    switches = [(S.EntityGroup.SWITCH, sid) for sid in inventory.switches]
    links = [(S.EntityGroup.LINK, link.entity_id) for link in inventory.links]
    if switches and plan.switch:
        group = _group(calls, watches, "gpuscope-switches", switches)
        _watch(calls, group, _watched_groups(calls, watches, timing, "gpuscope-switch", plan.switch))
    if links and plan.link:
        # A DCGM group holds at most DCGM_GROUP_MAX_ENTITIES_V2 entities: an HGX node's 144 GPU links and 144
        # switch ports need several groups.
        for n in range(0, len(links), S.GROUP_MAX_ENTITIES_V2):
            group = _group(calls, watches, f"gpuscope-links-{n}", links[n : n + S.GROUP_MAX_ENTITIES_V2])
            _watch(calls, group, _watched_groups(calls, watches, timing, f"gpuscope-link-{n}", plan.link))
    if health and watches.gpu_group:
        lib, handle, group = calls.lib, calls.handle, watches.gpu_group
        try:
            calls.run("dcgmHealthSet", lambda: lib.health_set(handle, group, int(S.HealthSystem.ALL)))
            watches.health = True
        except (DcgmError, CallTimedOut) as exc:
            log.warning("DCGM health watches unavailable (DCGM_EXP_GPU_HEALTH_STATUS left out): %s", exc)
    if plan.prof and inventory.gpus:
        watches.prof_field_groups = _watched_groups(calls, watches, timing, "gpuscope-prof", plan.prof)
        module = _profiling_module(calls)
        for gpu in inventory.gpus:
            watches.prof[gpu.gpu_id] = ProfWatch(
                group=_group(calls, watches, f"gpuscope-prof-{gpu.gpu_id}", _prof_entities(gpu))
            )
            if module is not None:
                watches.prof[gpu.gpu_id].state, watches.prof[gpu.gpu_id].detail = module
        retry_profiling(calls, watches, timing, inventory, now)
    return watches


def _prof_entities(gpu: Gpu) -> list[tuple[int, int]]:
    if gpu.instances:
        return [(S.EntityGroup.GPU_I, i.entity_id) for i in gpu.instances]
    return [(S.EntityGroup.GPU, gpu.gpu_id)]


def _profiling_module(calls: Calls) -> tuple[ProfilingState, str] | None:
    """A profiling module that failed to load means no GPU gets PROF fields; ``None`` when it is usable."""
    lib, handle = calls.lib, calls.handle
    try:
        status = calls.run("dcgmModuleGetStatuses", lambda: lib.module_status(handle, int(S.ModuleId.PROFILING)))
    except DcgmError:
        return None  # an engine that cannot say: let the watches tell
    if status in (S.ModuleStatus.DENYLISTED, S.ModuleStatus.FAILED):
        return ProfilingState.UNSUPPORTED, f"the DCGM profiling module is {S.ModuleStatus(status).name.lower()}"
    return None


def retry_profiling(calls: Calls, watches: Watches, timing: Timing, inventory: Inventory, now: float) -> None:
    """(Re)try the profiling watch of every GPU that has none and may still get one."""
    for gpu in inventory.gpus:
        prof = watches.prof.get(gpu.gpu_id)
        if prof is None or prof.state in (ProfilingState.AVAILABLE, ProfilingState.WARMING_UP):
            continue
        if prof.state is ProfilingState.UNSUPPORTED or now < prof.retry_at:
            continue
        try:
            _watch(calls, prof.group, watches.prof_field_groups)
        except CallTimedOut:
            prof.retry_at = now + timing.prof_retry_s
            continue
        except DcgmError as exc:
            state, detail = _PROF_REFUSALS.get(exc.code, (ProfilingState.LOCKED, S.return_name(exc.code)))
            if (state, detail) != (prof.state, prof.detail):
                log.warning("GPU %d: no profiling metrics: %s", gpu.gpu_id, detail)
            prof.state, prof.detail, prof.retry_at = state, detail, now + timing.prof_retry_s
            continue
        if prof.state is not ProfilingState.NOT_REQUESTED:
            log.info("GPU %d: profiling metrics are available again", gpu.gpu_id)
        prof.state, prof.detail = ProfilingState.WARMING_UP, ""
