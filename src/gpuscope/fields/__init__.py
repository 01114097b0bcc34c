"""The field catalog and the collectors CSV that selects from it."""

from gpuscope.fields.catalog import ALL_FIELDS, BY_ID, BY_NAME, Dialect, Entity, Field, MetricType, MigScope
from gpuscope.fields.collectors import CollectorSet, Metric, load_collectors, parse_collectors

__all__ = [
    "ALL_FIELDS",
    "BY_ID",
    "BY_NAME",
    "CollectorSet",
    "Dialect",
    "Entity",
    "Field",
    "Metric",
    "MetricType",
    "MigScope",
    "load_collectors",
    "parse_collectors",
]
