"""The report tests' store: samples backfilled into real Prometheus blocks, and the report run against it as JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from gpuscope.cli import main
from gpuscope.durations import prometheus_seconds
from gpuscope.rules import RulesConfig
from gpuscope.rules.efficiency_chargeback import chargeback_groups
from gpuscope.rules.promql import Promql
from gpuscope.rules.recording import recording_groups
from gpuscope.rules.records import Recording
from gpuscope.rules.timescale import EVALUATION_INTERVAL_S
from tests.support.prom import Prometheus, backfill, run_prometheus


@contextmanager
def stored(work: Path, lines: list[str]) -> Iterator[Prometheus]:
    """A real Prometheus serving ``lines`` (OpenMetrics samples, backfilled into blocks under ``work``), however old."""
    with run_prometheus(
        {"global": {"scrape_interval": "1m"}, "scrape_configs": []},
        backfill(work, lines),
        extra_args=("--storage.tsdb.retention.time=100y",),
    ) as prom:
        yield prom


def report(prom: Prometheus, tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    code = main(["report", "--prometheus", prom.url, "-o", str(out), "--format", "json", *args])
    assert code == 0
    body: dict[str, Any] = json.loads(out.read_text())
    return body


def close(actual: float, expected: float) -> bool:
    return abs(actual - expected) <= 1e-6 * max(1.0, abs(expected))


def rows(body: dict[str, Any]) -> dict[str, tuple[float, float, float]]:
    return {r["group"]: (r["gpu_hours_held"], r["active_gpu_hours"], r["energy_kwh"]) for r in body["groups"]}


def check(actual: dict[str, tuple[float, float, float]], expected: dict[str, tuple[float, float, float]]) -> None:
    assert set(actual) == set(expected)
    for group, values in expected.items():
        assert all(close(a, e) for a, e in zip(actual[group], values, strict=True)), (group, actual[group], values)


@dataclass(frozen=True)
class Rule:
    """One recording rule, its expression and the interval its group runs at (seconds)."""

    record: str
    expr: str
    every: int


def recording_rules(config: RulesConfig) -> dict[str, Rule]:
    """Every recording rule of the generated rule files (the groups gpuscope renders), by record."""
    q = Promql(config)
    out: dict[str, Rule] = {}
    for group in (*recording_groups(q), *chargeback_groups(q)):
        every = int(prometheus_seconds(group.interval) if group.interval else EVALUATION_INTERVAL_S)
        for rule in group.rules:
            if isinstance(rule, Recording) and rule.record not in out:
                out[rule.record] = Rule(rule.record, rule.expr, every)
    return out


def _reads(rule: Rule, rules: dict[str, Rule]) -> set[str]:
    return {n for n in rules if n != rule.record and re.search(rf"(?<![\w:]){re.escape(n)}(?![\w:])", rule.expr)}


def _series_lines(name: str, result: list[dict[str, Any]]) -> list[str]:
    out = [f"# TYPE {name} gauge"]
    for s in result:
        labels = ",".join(f'{k}="{v}"' for k, v in sorted(s["metric"].items()) if k != "__name__")
        out += [f"{name}{{{labels}}} {float(v)!r} {int(float(t))}" for t, v in s["values"]]
    return out


def materialize(
    work: Path, raw: list[str], wanted: tuple[str, ...], start: int, end: int, offsets: dict[int, int] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """What a cluster Prometheus evaluating the real recording rules would have recorded between ``start`` and
    ``end``: every rule ``wanted`` reads, layer by layer (a rule after the rules it reads), each evaluated by a real
    Prometheus over the raw series and the layers before it, at its group's interval on the clock's grid plus the
    group's offset (``offsets``: interval -> seconds; a real server's offset is a hash of the group). The answers,
    as ``query_range`` results by record."""
    rules = recording_rules(RulesConfig())
    needed: set[str] = set()
    todo = list(wanted)
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo += _reads(rules[name], rules)
    done: dict[str, list[dict[str, Any]]] = {}
    lines = list(raw)
    for round_ in range(len(needed)):
        layer = [n for n in sorted(needed - set(done)) if _reads(rules[n], rules) <= set(done)]
        if not layer:
            break
        data = backfill(work / f"round-{round_}", lines)
        with run_prometheus({"global": {"scrape_interval": "1m"}, "scrape_configs": []}, data) as prom:
            for name in layer:
                rule = rules[name]
                first = start - start % rule.every + (offsets or {}).get(rule.every, 0)
                done[name] = query_range(prom, rule.expr, first, end, rule.every)
                lines += _series_lines(name, done[name])
    assert needed <= set(done), f"recorded series read in a cycle: {sorted(needed - set(done))}"
    return {name: done[name] for name in wanted}


def query_range(prom: Prometheus, expr: str, start: int, end: int, step: int) -> list[dict[str, Any]]:
    response = httpx.post(
        f"{prom.url}/api/v1/query_range",
        data={"query": expr, "start": str(start), "end": str(end), "step": str(step)},
        timeout=30,
    )
    response.raise_for_status()
    result: list[dict[str, Any]] = response.json()["data"]["result"]
    return result
