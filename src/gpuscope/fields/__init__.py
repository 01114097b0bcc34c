"""The field catalog, its field ids by name, and the collectors CSV that selects from it."""

from gpuscope.fields.catalog import ALL_FIELDS, BY_ID, BY_NAME, Dialect, Entity, Field, MetricType, MigScope
from gpuscope.fields.clock_events import CLOCK_EVENT_REASONS, ClockEventReason
from gpuscope.fields.collectors import CollectorSet, Metric, load_collectors, parse_collectors
from gpuscope.fields.ids import FieldId

__all__ = [
    "ALL_FIELDS",
    "BY_ID",
    "BY_NAME",
    "CLOCK_EVENT_REASONS",
    "ClockEventReason",
    "CollectorSet",
    "Dialect",
    "Entity",
    "Field",
    "FieldId",
    "Metric",
    "MetricType",
    "MigScope",
    "load_collectors",
    "parse_collectors",
]
