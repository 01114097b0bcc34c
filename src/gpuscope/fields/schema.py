"""The catalog's types: one ``Field`` per row, and the enums that describe it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class MetricType(StrEnum):
    """The second CSV column."""

    GAUGE = "gauge"
    COUNTER = "counter"
    HISTOGRAM = "histogram"
    SUMMARY = "summary"
    LABEL = "label"


class ValueKind(StrEnum):
    """How DCGM stores the value, which decides its text form (``%d`` or ``%f``)."""

    INT = "int"
    DOUBLE = "double"
    STRING = "string"


class Entity(StrEnum):
    """Which entity a series describes, which decides its label set."""

    GPU = "gpu"
    NVLINK = "nvlink"  # DCGM_FE_LINK: a GPU's NVLink or an NVSwitch port
    NVSWITCH = "nvswitch"  # DCGM_FE_SWITCH


class MigScope(Enum):
    """What a GPU-level field does when its GPU is in MIG mode (only GPU instances are monitored then)."""

    PARENT = "parent"  # the parent GPU's value, repeated on every GPU instance (DCGM behaviour)
    INSTANCE = "instance"  # a value of its own per GPU instance (framebuffer, profiling)
    UNAVAILABLE = "unavailable"  # NVML cannot serve it with MIG on (utilization, encoder, decoder)
    PHYSICAL = "physical"  # one series per physical GPU, without GPU-instance labels (exporter-owned)


class Level(StrEnum):
    """Where a field's value lives, which decides what one value per entity means before any sum or average.

    From DCGM's MIG documentation and dcgm-exporter's behaviour: in MIG mode only GPU instances are watched, and a
    device-level field (power, energy, temperature, clocks, XID, ECC, ...) is the parent GPU's value repeated on
    every instance, with the same UUID; framebuffer and profiling fields have a value of their own per instance.
    """

    DEVICE = "device"  # one value per physical GPU (UUID), repeated per MIG instance
    GPU_INSTANCE = "gpu instance"  # one value per GPU instance (UUID + GPU_I_ID), or per GPU without MIG
    LINK = "link"  # one value per NVLink of a GPU (or port of an NVSwitch)
    SWITCH = "switch"  # one value per NVSwitch chip


class Aggregation(StrEnum):
    """How values of a field combine across entities (a node, a cluster, a team): always after reducing the
    series to one per entity of the field's level (``Level``), so a repeated value is never counted twice."""

    SUM = "sum"  # a quantity (watts, bytes, bytes/s): the sum over distinct entities
    WEIGHTED_MEAN = "weighted mean"  # a ratio of the entity: mean weighted by the entity's share of its GPU
    MAX = "max"  # a state or a reading that does not add (temperature, clock, P-state, last XID): the maximum
    RATE = "counter rate"  # a counter: rate per distinct entity (resets handled), then summed
    NONE = "none"  # a label-only field: never aggregated


class Dialect(StrEnum):
    """Metric naming: dcgm-exporter <= 4.8 names as written in the CSV, 4.9.0 renamed names and units, or 4.10.0's
    (4.9's, and its shipped collectors name the PROF PCIe/NVLink byte rates ``*_BYTES_PER_SECOND``)."""

    CLASSIC = "classic"
    DCGM_4_9 = "4.9"
    DCGM_4_10 = "4.10"  # 4.9's names plus the four PROF byte-rate fields as *_BYTES_PER_SECOND


@dataclass(frozen=True, slots=True)
class Field:
    """One row of the catalog."""

    name: str
    field_id: int  # a ``FieldId`` for catalog rows; DCGM's id for a header-only field (``catalog.header_field``)
    type: MetricType
    unit: str
    help: str
    value: ValueKind = ValueKind.INT
    entity: Entity = Entity.GPU
    mig: MigScope = MigScope.PARENT
    prof: bool = False
    exporter: bool = False
    in_default: bool = False

    @property
    def is_label(self) -> bool:
        return self.type is MetricType.LABEL

    @property
    def level(self) -> Level:
        """The entity one value belongs to (``MigScope`` says it for GPU fields; NVLink fields are per link)."""
        if self.entity is Entity.NVLINK:
            return Level.LINK
        if self.entity is Entity.NVSWITCH:
            return Level.SWITCH
        return Level.GPU_INSTANCE if self.mig is MigScope.INSTANCE else Level.DEVICE

    @property
    def aggregation(self) -> Aggregation:
        """How the field combines across entities, from its type and unit (``_ADDITIVE_UNITS`` are quantities)."""
        if self.is_label:
            return Aggregation.NONE
        if self.type is MetricType.COUNTER:
            return Aggregation.RATE
        if self.unit in _RATIO_UNITS:
            return Aggregation.WEIGHTED_MEAN
        return Aggregation.SUM if self.unit in _ADDITIVE_UNITS else Aggregation.MAX


# Units of gauges that add up across GPUs (power, memory, bandwidth) and of ratios of one GPU or instance; every
# other gauge (temperatures, clocks, states, bitmasks, flags) is combined by its maximum.
_ADDITIVE_UNITS = frozenset({"W", "MiB", "B", "B/s", "MB/s"})
_RATIO_UNITS = frozenset({"%", "ratio"})
