"""The immutable snapshot the HTTP side serves: one collection's reading plus the exporter's own state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from gpuscope.backends.base import NodeReading
from gpuscope.exporter.attribution.resolve import Attribution, WorkloadStatus

if TYPE_CHECKING:  # set only with --process-metrics / --kernel-log, whose modules load only then
    from gpuscope.exporter.kernellog import KernelLogView
    from gpuscope.exporter.processes.attribute import ProcessView


@dataclass(frozen=True, slots=True)
class GpuDerived:
    """Values the exporter computes per physical GPU from events and samples over time."""

    xid_last: int = 0
    xid_window: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    xid_total: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    clock_window: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    clock_total: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


# (gpu index, UUID, field name, reason)
ErrorKey = tuple[int, str, str, str]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Everything ``/metrics`` and ``/health`` need; never touches the backend.

    ``reading`` is the last successful reading (kept when a later collection fails, so one bad collection loses
    nothing); ``reading_at`` is when it was taken, which is what freshness is measured against.
    """

    backend: str
    started_at: float
    reading: NodeReading | None = None
    reading_at: float | None = None
    derived: Mapping[str, GpuDerived] = field(default_factory=lambda: MappingProxyType({}))
    backend_up: bool = False
    backend_error: str = "no collection yet"
    collections: int = 0
    failures: int = 0
    last_duration: float = 0.0
    read_errors: Mapping[ErrorKey, int] = field(default_factory=lambda: MappingProxyType({}))
    unsupported: frozenset[tuple[int, str, str]] = frozenset()
    seq: int = 0
    # Who holds which GPU (kubelet, HPC mapping files), read in the same collection as ``reading``.
    attribution: Attribution = field(default_factory=Attribution)
    workload_status: WorkloadStatus | None = None  # None: attribution is off
    processes: ProcessView | None = None  # None: --process-metrics is off
    kernel_log: KernelLogView | None = None  # None: --kernel-log is off

    def age(self, now: float) -> float | None:
        """Seconds since the served reading was taken; ``None`` before the first one."""
        return None if self.reading_at is None else max(0.0, now - self.reading_at)
