"""Everything the audit fetched, parsed into plain records: the only input of the checks.

API payloads (targets, rules, runtime info, the loaded config) become small frozen records here, so the checks
are pure functions of an ``Observations`` and can be read without knowing the HTTP API's JSON shapes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gpuscope.doctor.detect import TEMP, Detected
from gpuscope.doctor.expect import Expectation
from gpuscope.doctor.results import Evidence
from gpuscope.doctor.timing import Timing
from gpuscope.durations import prometheus_seconds
from gpuscope.errors import QueryFailed, SpecError
from gpuscope.inputs import load
from gpuscope.prom.records import Rule, Target, Vector
from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.rules.promql import Promql


@dataclass(frozen=True, slots=True)
class LoadedConfig:
    """The parts of the audited Prometheus's loaded configuration that checks need."""

    external_labels: Mapping[str, str]
    remote_write: tuple[str, ...]  # each queue's name (or URL)
    scrape_interval_s: float = 0.0  # global.scrape_interval (0: unknown)

    def replica_label(self, cluster_label: str) -> str | None:
        """The external label that tells the HA pair apart (``replica``, ``__replica__``...), if any."""
        return next((k for k in sorted(self.external_labels) if k != cluster_label and "replica" in k), None)


@dataclass(frozen=True, slots=True)
class Peer:
    """An optional endpoint (replica B, Alertmanager, the global store): what it said, or why it could not."""

    url: str
    error: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    queries: Mapping[str, str] = field(default_factory=dict)
    results: Mapping[str, Vector | QueryFailed] = field(default_factory=dict)

    def value(self, name: str) -> float:
        return scalar(self.results, name, self.queries)

    def evidence(self, name: str) -> Evidence:
        return Evidence(f"{self.queries[name]}   (at {self.url})", number(self.value(name)))


@dataclass(frozen=True, slots=True)
class Observations:
    url: str
    version: str
    timing: Timing
    detected: Detected
    config: RulesConfig
    expectation: Expectation
    queries: Mapping[str, str]
    results: Mapping[str, Vector | QueryFailed]
    targets: tuple[Target, ...]  # the exporter jobs' targets only
    rules: tuple[Rule, ...]
    alertmanagers: tuple[str, ...]
    corruption_count: int
    head_series: int
    loaded: LoadedConfig
    gpu_series: tuple[Mapping[str, str], ...] | QueryFailed  # label sets of GPU series, for the label count
    replica_b: Peer | None = None
    alertmanager: Peer | None = None
    global_store: Peer | None = None

    @property
    def temp(self) -> str:
        """The GPU temperature metric's name in the detected dialect."""
        return Promql(self.config).name(TEMP)

    def vector(self, name: str) -> Vector:
        return vector(self.results, name, self.queries)

    def value(self, name: str) -> float:
        return scalar(self.results, name, self.queries)

    def gpu(self, labels: Mapping[str, str]) -> str:
        """A GPU as an operator names it: index, UUID, host and target."""
        c = self.config
        host = labels.get(c.host_label) or labels.get("instance", "?")
        return f"GPU {labels.get('gpu', '?')} ({labels.get(c.uuid_label, '?')}) on {host}"

    def evidence(self, name: str, value: str | None = None) -> Evidence:
        """The query as sent and its result (or ``value``, a summary of it)."""
        if value is None:
            value = describe(self.vector(name))
        return Evidence(self.queries[name], value)


def vector(results: Mapping[str, Vector | QueryFailed], name: str, queries: Mapping[str, str] | None = None) -> Vector:
    """A query's result; a failed query raises, naming the query, and the check reports it."""
    result = results[name]
    if isinstance(result, QueryFailed):
        raise QueryFailed("", f"{(queries or {}).get(name, name)} failed: {result.reason}")
    return result


def scalar(results: Mapping[str, Vector | QueryFailed], name: str, queries: Mapping[str, str] | None = None) -> float:
    """The first sample's value (queries built as ``... or vector(0)`` always have one).

    Every check reads a count or an age through here, so a value that is no finite number (``NaN``: 0/0 is ordinary
    PromQL, and any server may answer it; ``+Inf``) raises ``QueryFailed`` like a failed query: the check says it
    could not evaluate, where ``int()`` of it was a traceback and a comparison with it a silent PASS."""
    samples = vector(results, name, queries)
    value = samples[0].value if samples else 0.0
    if not math.isfinite(value):
        raise QueryFailed("", f"{(queries or {}).get(name, name)} answered {number(value)}, not a finite number")
    return value


def describe(samples: Vector, limit: int = 6) -> str:
    """A short, stable rendering of a query result for evidence lines."""
    if not samples:
        return "(empty)"
    if len(samples) == 1 and not samples[0].labels:
        return number(samples[0].value)
    parts = [f"{_labels(s.labels)} {number(s.value)}" for s in samples[:limit]]
    more = f" (+{len(samples) - limit} more)" if len(samples) > limit else ""
    return "; ".join(parts) + more


def _labels(labels: Mapping[str, str]) -> str:
    return "{" + ", ".join(f'{k}="{v}"' for k, v in sorted(labels.items()) if k != "__name__") + "}"


def listed(items: list[str], shown: int = 5) -> str:
    """The first few items of a finding's list, and how many more there are."""
    more = f" (+{len(items) - shown} more)" if len(items) > shown else ""
    return "; ".join(items[:shown]) + more


def number(value: float) -> str:
    if not math.isfinite(value):  # as Prometheus writes them
        return "NaN" if math.isnan(value) else ("+Inf" if value > 0 else "-Inf")
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value)}"
    return f"{value:.4g}"


def exporter_targets(targets: tuple[Target, ...], jobs: tuple[str, ...]) -> tuple[Target, ...]:
    """The exporter jobs' targets: the only ones the checks judge."""
    return tuple(t for t in targets if t.job in jobs)


def parse_config(text: str) -> LoadedConfig:
    """External labels and remote_write queues from ``/api/v1/status/config`` (the YAML Prometheus loaded)."""
    try:  # the server's YAML is input like any other: bounded, no alias bombs
        config = load(text, "/api/v1/status/config") or {}
    except SpecError:
        config = {}
    if not isinstance(config, dict):
        config = {}
    external = (config.get("global") or {}).get("external_labels") or {}
    queues = tuple(str(rw.get("name") or rw.get("url", "")) for rw in config.get("remote_write") or [])
    interval = str((config.get("global") or {}).get("scrape_interval") or "")
    return LoadedConfig(
        external_labels={str(k): str(v) for k, v in external.items()},
        remote_write=queues,
        scrape_interval_s=_interval_s(interval),
    )


def _interval_s(text: str) -> float:
    """The server's ``global.scrape_interval`` in seconds; 0 (unknown) for one that is no Prometheus duration."""
    try:
        return prometheus_seconds(text)
    except ValueError:
        return 0.0
