"""Grafana units from the field catalog's units, after the rules' scaling to base units.

Queries show every field in base units (``Promql.base``: percent to ratio, MiB to bytes, MHz to hertz, mJ to
joules, MB/s to bytes/s), so one table maps a base unit to Grafana's unit id; Grafana then picks MHz/GiB/TB/s
prefixes itself. Counters are shown as rates where that is the meaningful figure (energy as watts, throttle
nanoseconds as the share of time throttled) and as totals where the count itself is the fact (ECC errors,
remapped rows).
"""

from __future__ import annotations

from gpuscope.fields.catalog import Field, MetricType

# Catalog unit -> the base unit ``Promql.base`` scales it to.
_BASE = {"%": "ratio", "MiB": "B", "MHz": "Hz", "mJ": "J", "ns": "s", "MB/s": "B/s"}

# Base unit -> Grafana unit id.
_GRAFANA = {
    "ratio": "percentunit",
    "B": "bytes",
    "B/s": "Bps",
    "Hz": "hertz",
    "C": "celsius",
    "W": "watt",
    "J": "joule",
    "s": "s",
    "bool": "bool_yes_no",
    "bitmask": "hex0x",
    "count": "short",
    "": "none",
}

# Units of a counter whose value is already a rate (DCGM types NVLink bandwidth as a counter of MB/s).
_RATE_UNITS = frozenset({"MB/s", "B/s"})


def base_unit(field: Field) -> str:
    return _BASE.get(field.unit, field.unit)


def grafana_unit(base: str) -> str:
    """Grafana's id for a base unit; ``none`` for a unit Grafana does not know."""
    return _GRAFANA.get(base, "none")


def shown_as_rate(field: Field) -> bool:
    """Counters shown per second: energy (as power) and throttle time (as a share of time)."""
    return field.type is MetricType.COUNTER and field.unit in ("mJ", "J", "ns")


def shown_unit(field: Field) -> str:
    """The Grafana unit of a field as dashboards show it."""
    if shown_as_rate(field):
        return "watt" if field.unit in ("mJ", "J") else "percentunit"
    if field.type is MetricType.COUNTER and field.unit not in _RATE_UNITS:
        return "short"
    return grafana_unit(base_unit(field))


# Allocated GPUs count a MIG instance or a time-sliced share as its fraction of a GPU: "42.9" needs its unit.
# Grafana's custom-unit syntax: the text after "suffix:" follows the number.
GPU_EQUIVALENTS = "suffix: GPU-eq"
GPU_EQ_WORDS = "In GPU-equivalents (GPU-eq): a MIG instance or a shared GPU counts as its share of one GPU."

# Quantities that cannot go below 0: their time series' axes start at 0, so an all-zero chart is not drawn from
# -1 to 1 (-100 %, -1 B). Temperatures and plain numbers (states, codes) keep their own range.
NON_NEGATIVE = frozenset(
    {"percentunit", "bytes", "decbytes", "Bps", "hertz", "watt", "joule", "s", "short", GPU_EQUIVALENTS}
)
# Ratios: the axis reaches 100 % unless the data goes further (a soft maximum), so 3 % does not fill the chart.
SOFT_MAX = {"percentunit": 1.0}
# Decimals where the automatic choice misleads: GPU-equivalents to a tenth of a GPU.
DECIMALS = {GPU_EQUIVALENTS: 1}
