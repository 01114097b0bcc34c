"""What every GPU source returns: one immutable reading of a node per collection.

A backend answers one call, ``collect(request)``, with everything the exporter needs for one snapshot: the GPUs
and their MIG instances as they are now, the requested field values in DCGM's units, a per-field reason for each
value it could not read, XID events since the last call, and profiling/health state. Failures of one GPU or one
field are data in the reading; only "the backend cannot be used at all" is an exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from types import MappingProxyType
from typing import Protocol

Value = int | float | str

_EMPTY: Mapping[int, object] = MappingProxyType({})


class ReadError(StrEnum):
    """Why a field has no value; exported as the ``reason`` label of the read-error counter."""

    NOT_SUPPORTED = "not_supported"
    NO_PERMISSION = "no_permission"
    GPU_LOST = "gpu_lost"
    PROFILING_UNAVAILABLE = "profiling_unavailable"
    NO_DATA = "no_data"
    TIMEOUT = "timeout"
    FAILED = "error"


class ProfilingState(StrEnum):
    """Whether DCGM_FI_PROF_* values are flowing for a GPU, and if not, why.

    ``unsupported`` means the GPU never had them (no GPM, consumer card); ``locked`` means another profiler
    holds the counters. The profiling-staleness alert tells these apart.
    """

    AVAILABLE = "available"
    WARMING_UP = "warming_up"
    UNSUPPORTED = "unsupported"
    LOCKED = "locked"
    NO_PERMISSION = "no_permission"
    NOT_REQUESTED = "not_requested"


class BackendUnavailable(Exception):
    """The whole backend is unusable right now (no driver, library missing); retried next collection."""


@dataclass(frozen=True, slots=True)
class GpuIdentity:
    """The labels that name a physical GPU on dcgm-exporter series."""

    index: int
    uuid: str
    pci_bus_id: str
    model_name: str


@dataclass(frozen=True, slots=True)
class InstanceIdentity:
    """A MIG GPU instance (dcgm-exporter's ``GPU_I_PROFILE``/``GPU_I_ID``)."""

    gpu_instance_id: int
    profile: str
    uuid: str


@dataclass(frozen=True, slots=True)
class EntityReading:
    """Values read for one entity, keyed by DCGM field id, in the field's catalog unit."""

    values: Mapping[int, Value] = field(default_factory=lambda: MappingProxyType({}))
    errors: Mapping[int, ReadError] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class InstanceReading:
    identity: InstanceIdentity
    reading: EntityReading


class LinkState(IntEnum):
    """DCGM's ``dcgmNvLinkLinkState_t`` (dcgm_structs.h), which ``dcgmGetNvLinkLinkStatus`` answers per link."""

    NOT_SUPPORTED = 0
    DISABLED = 1
    DOWN = 2
    UP = 3


@dataclass(frozen=True, slots=True)
class LinkReading:
    """One NVLink of a GPU or one port of an NVSwitch: ``link`` is DCGM's (and NVML's) 0-based index."""

    link: int
    reading: EntityReading
    state: LinkState = LinkState.UP


@dataclass(frozen=True, slots=True)
class SwitchReading:
    """One NVSwitch chip (``DCGM_FE_SWITCH``, id = its physical id) and its ports."""

    switch_id: int
    reading: EntityReading
    ports: tuple[LinkReading, ...] = ()


@dataclass(frozen=True, slots=True)
class XidEvent:
    timestamp: float
    code: int


@dataclass(frozen=True, slots=True)
class HealthCheck:
    """One DCGM health watch: value 0 pass, 10 warn, 20 fail, with the DCGM_FR_* code."""

    watch: str
    status: int
    error_code: str


@dataclass(frozen=True, slots=True)
class GpuProcess:
    """One process using a GPU, in the host PID namespace (``--process-metrics``).

    ``memory_bytes`` is ``None`` when the driver cannot say (WDDM, some vGPU guests); the utilization values are
    percent over the samples since the previous collection, ``None`` when the GPU gave no sample for the process
    (it was idle, it exited between two calls, or the driver lacks the call). ``gpu_instance_id`` is the MIG GPU
    instance the process runs in, ``None`` without MIG. ``kinds`` are ``compute`` and/or ``graphics``.
    """

    pid: int
    kinds: tuple[str, ...] = ("compute",)
    memory_bytes: int | None = None
    gpu_instance_id: int | None = None
    sm_percent: float | None = None
    memory_percent: float | None = None
    encoder_percent: float | None = None
    decoder_percent: float | None = None


HEALTH_PASS, HEALTH_WARN, HEALTH_FAIL = 0, 10, 20
HEALTH_WATCHES = ("PCIE", "NVLINK", "PMU", "MCU", "MEM", "SM", "INFOROM", "THERMAL", "POWER", "DRIVER", "ALL")


@dataclass(frozen=True, slots=True)
class GpuReading:
    """Everything read about one physical GPU in one collection."""

    identity: GpuIdentity
    device: EntityReading
    lost: bool = False
    instances: tuple[InstanceReading, ...] = ()
    links: tuple[LinkReading, ...] = ()
    profiling: ProfilingState = ProfilingState.NOT_REQUESTED
    profiling_detail: str = ""
    xid_events: tuple[XidEvent, ...] = ()
    health: tuple[HealthCheck, ...] = ()
    p2p: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    processes: tuple[GpuProcess, ...] = ()  # read only when ``ReadRequest.processes``
    process_errors: tuple[str, ...] = ()  # per-process readings that failed this collection ("utilization: ...")

    @property
    def mig_enabled(self) -> bool:
        return bool(self.instances)


@dataclass(frozen=True, slots=True)
class DcgmInfo:
    """The DCGM versions on the path to the GPUs: this exporter's libdcgm and the host engine it talks to."""

    client_version: str
    hostengine_version: str


@dataclass(frozen=True, slots=True)
class NodeReading:
    """One collection of a whole node."""

    gpus: tuple[GpuReading, ...]
    system: Mapping[int, Value] = field(default_factory=lambda: MappingProxyType({}))
    dcgm: DcgmInfo | None = None  # set by backends that read through a DCGM host engine
    switches: tuple[SwitchReading, ...] = ()  # read when the request has NVSwitch or NVLink-entity fields


@dataclass(frozen=True, slots=True)
class ReadRequest:
    """What the exporter needs this collection: the union of the CSV's fields and its own."""

    field_ids: frozenset[int]
    health: bool = False
    p2p: bool = False
    processes: bool = False  # the processes using each GPU (``--process-metrics``)


@dataclass(frozen=True, slots=True)
class FieldWatch:
    """How often a backend that samples fields on its own schedule (DCGM's field watches) samples a field, and
    how much of its history it keeps (``maxKeepAge``; ``maxKeepSamples``, 0: no count limit)."""

    interval_s: float
    max_keep_age_s: float = 600.0
    max_keep_samples: int = 0


@dataclass(frozen=True, slots=True)
class WatchPlan:
    """The default watch and the fields that differ (dcgm-exporter's watch groups / collections, by field id)."""

    default: FieldWatch
    overrides: Mapping[int, FieldWatch] = field(default_factory=lambda: MappingProxyType({}))

    def of(self, field_id: int) -> FieldWatch:
        return self.overrides.get(field_id, self.default)


class Backend(Protocol):
    """A source of GPU readings: the simulator, NVML, or a test double."""

    name: str

    def collect(self, request: ReadRequest) -> NodeReading:
        """Read the node; raise ``BackendUnavailable`` only if nothing at all can be read."""
        ...

    def close(self) -> None:
        """Release handles; the backend is not used again."""
        ...
