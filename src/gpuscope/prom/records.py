"""What the Prometheus HTTP API answers, as small frozen records: every caller reads these, never the JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sample:
    """One sample of an instant vector (a scalar answer is one sample without labels)."""

    labels: Mapping[str, str]
    value: float


Vector = tuple[Sample, ...]


@dataclass(frozen=True, slots=True)
class Series:
    """One series of a range query: ``points`` are ``(unix seconds, value)``, oldest first."""

    labels: Mapping[str, str]
    points: tuple[tuple[float, float], ...]


Matrix = tuple[Series, ...]


@dataclass(frozen=True, slots=True)
class Target:
    """One active scrape target (``/api/v1/targets``)."""

    job: str
    instance: str
    health: str  # "up", "down", "unknown"
    last_error: str
    scrape_timeout_s: float


@dataclass(frozen=True, slots=True)
class Rule:
    """One loaded rule (``/api/v1/rules``), recording or alerting."""

    group: str
    name: str
    health: str  # "ok", "err", "unknown"
    last_error: str
    query: str


@dataclass(frozen=True, slots=True)
class RuntimeInfo:
    """The parts of ``/api/v1/status/runtimeinfo`` gpuscope reads."""

    corruption_count: int


@dataclass(frozen=True, slots=True)
class TsdbStatus:
    """The parts of ``/api/v1/status/tsdb`` gpuscope reads."""

    head_series: int
