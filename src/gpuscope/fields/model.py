"""The catalog's types: one ``Field`` per row, and the enums that describe it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from gpuscope.fields.ids import FieldId


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
    NVLINK = "nvlink"


class MigScope(Enum):
    """What a GPU-level field does when its GPU is in MIG mode (only GPU instances are monitored then)."""

    PARENT = "parent"  # the parent GPU's value, repeated on every GPU instance (DCGM behaviour)
    INSTANCE = "instance"  # a value of its own per GPU instance (framebuffer, profiling)
    UNAVAILABLE = "unavailable"  # NVML cannot serve it with MIG on (utilization, encoder, decoder)
    PHYSICAL = "physical"  # one series per physical GPU, without GPU-instance labels (exporter-owned)


class Dialect(StrEnum):
    """Metric naming: dcgm-exporter <= 4.8 names as written in the CSV, or 4.9.0 renamed names and units."""

    CLASSIC = "classic"
    DCGM_4_9 = "4.9"


@dataclass(frozen=True, slots=True)
class Field:
    """One row of the catalog."""

    name: str
    field_id: FieldId
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
