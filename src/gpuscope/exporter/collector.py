"""The collector: reads the backend once per interval and turns readings into snapshots.

It owns the state that spans collections: the last XID per GPU (sticky, like DCGM), XID and clock-event counts
over the configured windows and since start, and the exporter's error accounting. A failing collection keeps
the previous reading, so nothing already collected is lost; an unavailable backend is reported, not fatal.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from gpuscope.backends.base import (
    Backend,
    BackendUnavailable,
    GpuReading,
    NodeReading,
    ReadError,
    ReadRequest,
)
from gpuscope.exporter.attribution.resolve import Attribution, WorkloadStatus
from gpuscope.exporter.attribution.source import WorkloadSource
from gpuscope.exporter.devices import DeviceSelection
from gpuscope.exporter.snapshot import ErrorKey, GpuDerived, Snapshot
from gpuscope.fields.catalog import DERIVED, field_name
from gpuscope.fields.clock_events import CLOCK_EVENT_REASONS
from gpuscope.fields.collectors import CollectorSet
from gpuscope.fields.ids import FieldId

if TYPE_CHECKING:  # built only with --process-metrics / --kernel-log (exporter/settings.py)
    from gpuscope.exporter.kernellog import KernelLogReader, KernelLogView
    from gpuscope.exporter.processes.attribute import ProcessView
    from gpuscope.exporter.processes.nvml_lists import ProcessLists
    from gpuscope.exporter.processes.source import ProcessSource

log = logging.getLogger(__name__)

# Fields of the node, not of a GPU: the backend reports them once, in ``NodeReading.system``.
SYSTEM_FIELDS = frozenset({FieldId.DCGM_FI_DRIVER_VERSION, FieldId.DCGM_FI_NVML_VERSION})


def build_request(collectors: CollectorSet, *, header_fields: bool = False) -> ReadRequest:
    """The backend fields needed to serve a collectors set (sources of derived and exporter-owned fields too);
    ``header_fields``: also the fields only dcgm_fields.h describes (a backend that reads any DCGM id)."""
    ids: set[int] = {m.field.field_id for m in collectors.header_only} if header_fields else set()
    health = p2p = False
    for metric in (*collectors.metrics, *collectors.labels):
        fid = metric.field.field_id
        if fid in (FieldId.DCGM_EXP_CLOCK_EVENTS_COUNT, FieldId.DCGM_EXP_CLOCK_EVENTS_TOTAL):
            ids.add(FieldId.DCGM_FI_DEV_CLOCKS_EVENT_REASONS)
        elif fid == FieldId.DCGM_EXP_GPU_HEALTH_STATUS:
            health = True
        elif fid == FieldId.DCGM_EXP_P2P_STATUS:
            p2p = True
        elif fid in DERIVED:
            ids.add(DERIVED[fid][0])
        elif not metric.field.exporter and fid != FieldId.DCGM_FI_DEV_XID_ERRORS and fid not in SYSTEM_FIELDS:
            ids.add(fid)
    return ReadRequest(frozenset(ids), health=health, p2p=p2p)


class _GpuHistory:
    """Events and samples of one GPU kept for the window metrics."""

    __slots__ = ("clock_samples", "clock_total", "xid_events", "xid_last", "xid_total")

    def __init__(self) -> None:
        self.xid_last = 0
        self.xid_events: deque[tuple[float, int]] = deque()
        self.xid_total: Counter[int] = Counter()
        self.clock_samples: deque[tuple[float, int]] = deque()
        self.clock_total: Counter[str] = Counter()


class Collector:
    """Turns ``backend.collect()`` into ``Snapshot`` objects. One collection at a time (internally locked)."""

    def __init__(
        self,
        backend: Backend,
        collectors: CollectorSet,
        *,
        xid_window_s: float = 300.0,
        clock_events_window_s: float = 300.0,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        workloads: WorkloadSource | None = None,
        devices: DeviceSelection | None = None,
        switches: DeviceSelection | None = None,
        kernel_log: KernelLogReader | None = None,
        processes: ProcessSource | None = None,
        process_lists: ProcessLists | None = None,
    ) -> None:
        self.backend = backend
        self.workloads = workloads
        self.processes = processes
        self.process_lists = process_lists  # the processes from a second backend (NVML beside DCGM)
        self.devices = devices or DeviceSelection()
        self.switches = switches or DeviceSelection()
        self.kernel_log = kernel_log
        self._kernel_log_error = ""
        self._warned_missing = False
        # The DCGM backend reads any field dcgm_fields.h describes; for the others those fields are unsupported.
        self._header_fields = bool(getattr(backend, "reads_header_fields", False))
        self._set_request(collectors)
        self._xid_window = xid_window_s
        self._clock_window = clock_events_window_s
        self._clock = clock
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._history: dict[str, _GpuHistory] = {}
        self._errors: Counter[ErrorKey] = Counter()
        self.snapshot = Snapshot(backend=backend.name, started_at=clock())

    def reset(self) -> None:
        """Forget everything, as a restarted exporter process would."""
        with self._lock:
            self._history.clear()
            self._errors.clear()
            self.snapshot = Snapshot(backend=self.backend.name, started_at=self._clock(), seq=self.snapshot.seq + 1)

    def collect(self) -> Snapshot:
        """Read the backend once and return (and keep) the new snapshot."""
        start = self._monotonic()
        try:
            reading: NodeReading | None = self.backend.collect(self.request)
            error = ""
            if reading is not None and not self.devices.everything:
                reading = self._select(reading)
            if reading is not None and not self.switches.everything:
                reading = self.switches.apply_switches(reading)
            if reading is not None and self.process_lists is not None and self.request.processes:
                reading = self.process_lists.fill(reading)
        except BackendUnavailable as exc:
            reading, error = None, str(exc) or "backend unavailable"
        except Exception as exc:  # a backend bug must not take the exporter down
            log.exception("collection from the %s backend failed", self.backend.name)
            reading, error = None, f"collection failed: {type(exc).__name__}: {exc}"
        workloads = None
        if reading is not None and self.workloads is not None:
            # Same thread, same collection: the attribution always describes the GPUs of this reading.
            try:
                workloads = self.workloads.read(reading.gpus)
            except Exception:  # a bug in attribution must not cost the GPU metrics: keep the last attribution
                log.exception("workload attribution failed")
        procs = self._read_processes(reading, workloads) if reading is not None else None
        kernel = self._read_kernel_log()
        duration = self._monotonic() - start
        with self._lock:
            self.snapshot = self._next(reading, error, duration, workloads)
            if procs is not None:
                self.snapshot = replace(self.snapshot, processes=procs)
            if kernel is not None:
                self.snapshot = replace(self.snapshot, kernel_log=kernel)
            return self.snapshot

    def _read_kernel_log(self) -> KernelLogView | None:
        """New kernel log lines, on the collection thread (the reader never blocks)."""
        if self.kernel_log is None:
            return None
        try:
            view = self.kernel_log.poll()
        except Exception:  # a bug in the reader must not cost the GPU metrics
            log.exception("reading the kernel log failed")
            return self.snapshot.kernel_log
        if self.kernel_log.error and self.kernel_log.error != self._kernel_log_error:
            log.warning("--kernel-log: %s (retrying every collection)", self.kernel_log.error)
        self._kernel_log_error = self.kernel_log.error
        return view

    def _read_processes(
        self, reading: NodeReading, workloads: tuple[Attribution, WorkloadStatus] | None
    ) -> ProcessView | None:
        if self.processes is None:
            return None
        attribution, status = workloads if workloads is not None else (self.snapshot.attribution, None)
        try:
            return self.processes.read(reading.gpus, attribution, status is not None and status.kubernetes)
        except Exception:  # a bug in process attribution must not cost the GPU metrics
            log.exception("process attribution failed")
            return None

    def _select(self, reading: NodeReading) -> NodeReading:
        missing = self.devices.missing(reading)
        if missing and not self._warned_missing:
            self._warned_missing = True
            log.warning("-d/--devices names ids this node does not have: %s (serving the others)", missing)
        return self.devices.apply(reading)

    def set_collectors(self, collectors: CollectorSet) -> None:
        """Read what a new field list needs from the next collection on (a reload)."""
        with self._lock:
            self._set_request(collectors)

    def _set_request(self, collectors: CollectorSet) -> None:
        request = build_request(collectors, header_fields=self._header_fields)
        self.request = replace(request, processes=self.processes is not None)
        self._unsupported = () if self._header_fields else tuple(m.name for m in collectors.header_only)

    def _next(
        self,
        reading: NodeReading | None,
        error: str,
        duration: float,
        workloads: tuple[Attribution, WorkloadStatus] | None = None,
    ) -> Snapshot:
        prev = replace(
            self.snapshot, collections=self.snapshot.collections + 1, last_duration=duration, seq=self.snapshot.seq + 1
        )
        if reading is None:
            # Keep the last good reading: it ages and /health turns 503, but nothing already read is lost.
            return replace(prev, backend_up=False, backend_error=error, failures=prev.failures + 1)
        now = self._clock()
        derived = {gpu.identity.uuid: self._derive(gpu, now) for gpu in reading.gpus}
        unsupported = self._account_errors(reading)
        if workloads is not None:
            prev = replace(prev, attribution=workloads[0], workload_status=workloads[1])
        return replace(
            prev,
            reading=reading,
            reading_at=now,
            derived=MappingProxyType(derived),
            backend_up=True,
            backend_error="",
            read_errors=MappingProxyType(dict(self._errors)),
            unsupported=unsupported,
        )

    def _derive(self, gpu: GpuReading, now: float) -> GpuDerived:
        hist = self._history.setdefault(gpu.identity.uuid, _GpuHistory())
        for event in gpu.xid_events:
            hist.xid_last = event.code
            hist.xid_events.append((event.timestamp, event.code))
            hist.xid_total[event.code] += 1
        _trim(hist.xid_events, now - self._xid_window)
        mask = gpu.device.values.get(FieldId.DCGM_FI_DEV_CLOCKS_EVENT_REASONS)
        if isinstance(mask, int):
            hist.clock_samples.append((now, mask))
            for bit, name in CLOCK_EVENT_REASONS:
                if mask & bit:
                    hist.clock_total[name] += 1
        _trim(hist.clock_samples, now - self._clock_window)
        return GpuDerived(
            xid_last=hist.xid_last,
            xid_window=MappingProxyType(dict(Counter(code for _, code in hist.xid_events))),
            xid_total=MappingProxyType(dict(hist.xid_total)),
            clock_window=MappingProxyType(_count_reasons(hist.clock_samples)),
            clock_total=MappingProxyType(dict(hist.clock_total)),
        )

    def _account_errors(self, reading: NodeReading) -> frozenset[tuple[int, str, str]]:
        unsupported: set[tuple[int, str, str]] = set()
        for gpu in reading.gpus:
            idx, uuid = gpu.identity.index, gpu.identity.uuid
            # Fields the CSV lists that no backend here reads: unsupported on every GPU, as a GPU without one.
            unsupported.update((idx, uuid, name) for name in self._unsupported)
            if gpu.lost:
                self._errors[(idx, uuid, "*", ReadError.GPU_LOST.value)] += 1
                continue
            entity_errors = [gpu.device.errors, *(i.reading.errors for i in gpu.instances)]
            entity_errors += [link.reading.errors for link in gpu.links]
            seen: set[tuple[int, ReadError]] = set()
            for errors in entity_errors:
                for fid, reason in errors.items():
                    if fid not in self.request.field_ids or (fid, reason) in seen:
                        continue
                    seen.add((fid, reason))
                    name = field_name(fid)
                    if reason is ReadError.NOT_SUPPORTED:
                        unsupported.add((idx, uuid, name))
                    else:
                        self._errors[(idx, uuid, name, reason.value)] += 1
        return frozenset(unsupported)


def _trim(events: deque[tuple[float, int]], cutoff: float) -> None:
    while events and events[0][0] < cutoff:
        events.popleft()


def _count_reasons(samples: deque[tuple[float, int]]) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for _, mask in samples:
        for bit, name in CLOCK_EVENT_REASONS:
            if mask & bit:
                counts[name] += 1
    return dict(counts)
