"""One physical GPU: its handle, what was learned about it, and one collection's reads.

Per collection and GPU: one ``nvmlDeviceGetFieldValues`` for every requested field NVML serves by id, one call
per distinct individual source that is not already known to be unsupported (or static and already read), one
GPM sample + metrics computation per entity, and nothing else. Loss of the GPU surfaces as ``GpuLost``.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gpuscope.backends.base import (
    EntityReading,
    GpuIdentity,
    GpuReading,
    InstanceReading,
    LinkReading,
    LinkState,
    ProfilingState,
    ReadError,
)
from gpuscope.backends.nvml import constants as C
from gpuscope.backends.nvml.batch import Entry, Raw, read_batch
from gpuscope.backends.nvml.errors import Memo, classify, error_code
from gpuscope.backends.nvml.evaluate import RawResults, readings
from gpuscope.backends.nvml.fieldmap import STATIC_CALLS, CallKey, nvlink_rate_kib_s
from gpuscope.backends.nvml.gpm import GpmResult, GpmSampler, gpm_support
from gpuscope.backends.nvml.mig import MigInstance, enumerate_instances, mig_enabled, same_layout
from gpuscope.backends.nvml.plan import DEVICE, Plan, plan_gpu, plan_instance, wants_profiling
from gpuscope.backends.nvml.processes import ProcessReader
from gpuscope.backends.nvml.readers import READERS, Fallbacks
from gpuscope.fields.ids import FieldId

log = logging.getLogger("gpuscope.backends.nvml")

_LAYOUT_CHANGED = frozenset({C.ERROR_NOT_FOUND, C.ERROR_INVALID_ARGUMENT})


@dataclass(slots=True)
class Context:
    """What every GPU of one NVML session shares."""

    nvml: Any
    fallbacks: Fallbacks = field(default_factory=Fallbacks)
    monotonic: Callable[[], float] = time.monotonic
    clock: Callable[[], float] = time.time


def gpu_label(identity: GpuIdentity) -> str:
    return f"GPU {identity.index} ({identity.uuid})"


class GpuReader:
    """Reads one GPU. Not thread-safe: the backend serializes collections."""

    def __init__(self, ctx: Context, identity: GpuIdentity, handle: Any) -> None:
        self.ctx = ctx
        self.identity = identity
        self.handle = handle
        self.label = gpu_label(identity)
        self.memo = Memo(self.label)
        self.links = 0
        self.mig = False
        self.mig_capable = True
        self.instances: tuple[MigInstance, ...] = ()
        self.layout_dirty = False
        self._static: dict[CallKey, Any] = {}
        self._rates: dict[int, tuple[int, int]] = {}
        self._support: tuple[bool, ProfilingState, str] | None = None
        self._gpm: GpmSampler | None = None
        self._instance_gpm: dict[int, GpmSampler] = {}
        self._plans: dict[tuple[frozenset[int], bool], tuple[Plan, Plan]] = {}
        self._processes = ProcessReader(ctx.nvml, handle, self.label, ctx.fallbacks)

    # --- discovery -----------------------------------------------------------------------------------------

    def discover(self) -> None:
        """Learn the NVLink count and the MIG layout (at start, after a reset, on a MIG change)."""
        self.links = self._link_count()
        self.refresh_mig()

    def _link_count(self) -> int:
        nvml = self.ctx.nvml
        try:
            got = read_batch(nvml, self.handle, [(C.FI_NVLINK_LINK_COUNT, 0)])
        except nvml.NVMLError as exc:
            classify(error_code(exc))
            return 0
        raw = got.get((C.FI_NVLINK_LINK_COUNT, 0))
        return int(raw.value) if isinstance(raw, Raw) else 0

    def refresh_mig(self) -> None:
        """Re-read MIG mode and GPU instances; a changed layout starts instance state afresh."""
        if not self.mig_capable:
            return
        nvml = self.ctx.nvml
        try:
            enabled = mig_enabled(nvml, self.handle)
            if enabled is None:
                self.mig_capable = False  # no MIG on this GPU or driver: never ask again
                enabled = False
            instances = enumerate_instances(nvml, self.handle) if enabled else ()
        except nvml.NVMLError as exc:
            classify(error_code(exc))  # lost GPU / dead NVML raise; otherwise keep the layout we know
            log.debug("%s: listing MIG devices failed: %s", self.label, exc)
            self.layout_dirty = True
            return
        self.layout_dirty = False
        if enabled != self.mig:
            log.info("%s: MIG mode is %s", self.label, "on" if enabled else "off")
            self._forget()  # what is supported depends on the mode
        if not same_layout(instances, self.instances):
            if instances:
                layout = ", ".join(f"{i.identity.profile} (GPU_I_ID {i.identity.gpu_instance_id})" for i in instances)
                log.info("%s: MIG GPU instances: %s", self.label, layout)
            for sampler in self._instance_gpm.values():
                sampler.free()
            self._instance_gpm.clear()
            self.memo.forget("gi")  # GPU instance ids are reused by new layouts: learn them afresh
        self.mig, self.instances = enabled, instances

    def _forget(self) -> None:
        self.memo = Memo(self.label)
        self._plans.clear()
        self._processes = ProcessReader(self.ctx.nvml, self.handle, self.label, self.ctx.fallbacks)
        if self._gpm is not None:
            self._gpm.free()
            self._gpm = None

    def close(self) -> None:
        """Free GPM buffers."""
        if self._gpm is not None:
            self._gpm.free()
        for sampler in self._instance_gpm.values():
            sampler.free()
        self._gpm, self._instance_gpm = None, {}

    # --- one collection -----------------------------------------------------------------------------------

    def read(self, field_ids: frozenset[int], processes: bool = False) -> GpuReading:
        """Read the requested fields (and processes). Raises ``GpuLost`` if the GPU is gone, ``NvmlGone`` if NVML is."""
        device_plan, instance_plan = self._plan(field_ids)
        entries = self._read_entries(device_plan)
        raw = RawResults(
            entries,
            self._read_calls(device_plan, self.handle, ()),
            self._update_rates(device_plan, entries),
            self._read_gpu_gpm(device_plan),
        )
        by_link = readings(device_plan, raw)
        links = tuple(
            LinkReading(link, reading, _link_state(reading)) for link, reading in by_link.items() if link != DEVICE
        )
        per_instance = [self._read_instance(inst, instance_plan) for inst in self.instances]
        instances = tuple(reading for reading, _ in per_instance)
        state, detail = self._profiling(field_ids, raw.gpm, [gpm for _, gpm in per_instance if gpm is not None])
        procs, proc_errors = self._processes.read() if processes else ((), ())
        return GpuReading(
            self.identity,
            by_link.get(DEVICE, EntityReading()),
            instances=instances,
            links=links,
            profiling=state,
            profiling_detail=detail,
            processes=procs,
            process_errors=proc_errors,
        )

    def _plan(self, field_ids: frozenset[int]) -> tuple[Plan, Plan]:
        key = (field_ids, self.mig)
        if key not in self._plans:
            self._plans[key] = (plan_gpu(field_ids, self.links, self.mig), plan_instance(field_ids, self.links))
        return self._plans[key]

    def _read_entries(self, plan: Plan) -> Mapping[Entry, Raw | ReadError]:
        results: dict[Entry, Raw | ReadError] = {}
        wanted = []
        for entry in plan.entries():
            known = self.memo.get(("fv", *entry))
            if known is None:
                wanted.append(entry)
            else:
                results[entry] = known
        if not wanted:
            return results
        nvml = self.ctx.nvml
        try:
            got = read_batch(nvml, self.handle, wanted)
        except nvml.NVMLError as exc:
            code = error_code(exc)
            failure = classify(code)
            for entry in wanted:
                if failure.remember:
                    self.memo.remember(("fv", *entry), failure.error, plan.users(entry=entry), code)
                results[entry] = failure.error
            return results
        for entry, value in got.items():
            if isinstance(value, Raw):
                results[entry] = value
                continue
            failure = classify(value, field_entry=True)
            if failure.remember:
                what = f"{plan.users(entry=entry)} (NVML field {entry[0]}, scope {entry[1]:#x})"
                self.memo.remember(("fv", *entry), failure.error, what, value)
            results[entry] = failure.error
        return results

    def _read_calls(self, plan: Plan, handle: Any, scope: tuple[Hashable, ...]) -> Mapping[CallKey, Any]:
        nvml = self.ctx.nvml
        results: dict[CallKey, Any] = {}
        for key in plan.calls():
            name, args = key
            if not scope and key in self._static:
                results[key] = self._static[key]
                continue
            memo_key = (*scope, "call", name, args)
            known = self.memo.get(memo_key)
            if known is not None:
                results[key] = known
                continue
            try:
                result = READERS[name](nvml, handle, args, self.ctx.fallbacks)
            except nvml.NVMLError as exc:
                code = error_code(exc)
                if scope and code in _LAYOUT_CHANGED:
                    self.layout_dirty = True  # the MIG device is gone: re-enumerate next time
                failure = classify(code)
                if failure.remember:
                    self.memo.remember(memo_key, failure.error, _describe(plan, key, scope), code)
                results[key] = failure.error
                continue
            if not scope and name in STATIC_CALLS:
                self._static[key] = result
            results[key] = result
        return results

    def _update_rates(self, plan: Plan, entries: Mapping[Entry, Raw | ReadError]) -> Mapping[int, float | ReadError]:
        rates: dict[int, float | ReadError] = {}
        for scope in plan.rate_scopes():
            tx = entries.get((C.FI_NVLINK_THROUGHPUT_DATA_TX, scope), ReadError.FAILED)
            rx = entries.get((C.FI_NVLINK_THROUGHPUT_DATA_RX, scope), ReadError.FAILED)
            if isinstance(tx, ReadError):
                rates[scope] = tx
                continue
            if isinstance(rx, ReadError):
                rates[scope] = rx
                continue
            total = int(tx.value) + int(rx.value)
            stamp = max(tx.timestamp_us, rx.timestamp_us) or int(self.ctx.clock() * 1e6)
            rates[scope] = nvlink_rate_kib_s(self._rates.get(scope), total, stamp)
            self._rates[scope] = (total, stamp)
        return rates

    # --- profiling ------------------------------------------------------------------------------------------

    def _gpm_supported(self) -> tuple[bool, ProfilingState, str]:
        if self._support is None:
            self._support = gpm_support(self.ctx.nvml, self.handle, self.identity.model_name)
            if not self._support[0]:
                log.info("%s: no profiling metrics: %s", self.label, self._support[2])
        return self._support

    def _read_gpu_gpm(self, plan: Plan) -> GpmResult | None:
        metrics = plan.gpm_metrics()
        if not metrics:
            return None
        supported, state, detail = self._gpm_supported()
        if not supported:
            return GpmResult(state, detail)
        if self._gpm is None:
            nvml = self.ctx.nvml
            take = functools.partial(nvml.nvmlGpmSampleGet, self.handle)
            self._gpm = GpmSampler(nvml, take, self.label, self.ctx.monotonic)
        return self._gpm.read(metrics)

    def _read_instance(self, inst: MigInstance, plan: Plan) -> tuple[InstanceReading, GpmResult | None]:
        gi = inst.identity.gpu_instance_id
        gpm: GpmResult | None = None
        if metrics := plan.gpm_metrics():
            supported, state, detail = self._gpm_supported()
            if not supported:
                gpm = GpmResult(state, detail)
            else:
                sampler = self._instance_gpm.get(gi)
                if sampler is None:
                    nvml = self.ctx.nvml
                    take = functools.partial(nvml.nvmlGpmMigSampleGet, self.handle, gi)
                    sampler = GpmSampler(nvml, take, f"{self.label} GPU instance {gi}", self.ctx.monotonic)
                    self._instance_gpm[gi] = sampler
                gpm = sampler.read(metrics)
        raw = RawResults(MappingProxyType({}), self._read_calls(plan, inst.handle, ("gi", gi)), {}, gpm)
        reading = readings(plan, raw).get(DEVICE, EntityReading())
        return InstanceReading(inst.identity, reading), gpm

    def _profiling(
        self, field_ids: frozenset[int], gpu_gpm: GpmResult | None, instance_gpm: list[GpmResult]
    ) -> tuple[ProfilingState, str]:
        if not wants_profiling(field_ids):
            return ProfilingState.NOT_REQUESTED, ""
        supported, state, detail = self._gpm_supported()
        if not supported:
            return state, detail
        if not self.mig:
            return (gpu_gpm.state, gpu_gpm.detail) if gpu_gpm is not None else (ProfilingState.NOT_REQUESTED, "")
        results = instance_gpm
        if not results:
            return ProfilingState.NOT_REQUESTED, "MIG is enabled but the GPU has no GPU instance"
        for wanted in (ProfilingState.AVAILABLE, ProfilingState.NO_PERMISSION, ProfilingState.UNSUPPORTED):
            for result in results:
                if result.state is wanted:
                    return result.state, result.detail
        return results[0].state, results[0].detail


def _describe(plan: Plan, key: CallKey, scope: tuple[Hashable, ...]) -> str:
    where = f" of GPU instance {scope[1]}" if scope else ""
    return f"{plan.users(call=key)}{where}"


def _link_state(reading: EntityReading) -> LinkState:
    """A link's state from NVML's per-link state field when it was read (1 active, 0 inactive); up otherwise, as
    every link NVML counts was before gpuscope read states."""
    state = reading.values.get(FieldId.DCGM_FI_DEV_NVLINK_GET_STATE)
    return LinkState.DOWN if state == 0 else LinkState.UP
