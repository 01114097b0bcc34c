"""Alert scenarios as data, turned into `promtool test rules` suites against freshly rendered rule files.

A scenario is input series (with the label sets gpuscope and dcgm-exporter really produce), the time the failure
starts, the eval time by which the alert must fire (start + the alert's detection bound) with the exact labels it
must carry, and eval times at which it must not fire. Near misses are scenarios with no firing time.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gpuscope.rules import RulesConfig, alerts, render_rule_files
from tests.support.prom import binary

STEP = "15s"


@dataclass(frozen=True)
class Series:
    name: str
    labels: dict[str, str]
    values: str

    def promtool(self) -> dict[str, str]:
        inner = ",".join(f'{k}="{v}"' for k, v in self.labels.items())
        return {"series": f"{self.name}{{{inner}}}", "values": self.values}


@dataclass(frozen=True)
class Case:
    title: str
    alert: str
    series: tuple[Series, ...]
    fires_by: str | None = None
    expected: tuple[dict[str, str], ...] = ()
    quiet_at: tuple[str, ...] = ()
    start: str = "30m"
    config: RulesConfig = field(default_factory=RulesConfig)
    interval: str = STEP  # input-series step; 1m for scenarios that need hours of data
    # Further eval times at which the alert must still fire with the same labels (one page, not resolved between).
    still_firing_at: tuple[str, ...] = ()


@dataclass(frozen=True)
class ExprCase:
    """A promql_expr_test: recorded values after evaluating the rules."""

    title: str
    series: tuple[Series, ...]
    eval_time: str
    expr: str
    samples: tuple[tuple[str, float], ...]
    config: RulesConfig = field(default_factory=RulesConfig)


def steps(duration: str) -> int:
    """Number of 15 s steps in a Prometheus duration like 30m, 1h15m or 29m45s."""
    units = {"s": 1, "m": 60, "h": 3600}
    parts = re.findall(r"(\d+)([smh])", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, f"bad duration {duration!r}"
    return sum(int(n) * units[u] for n, u in parts) // 15


def _labels_for(case: Case, expected: dict[str, str]) -> dict[str, str]:
    defs = [a for a in alerts(case.config) if a.name == case.alert]
    assert defs, f"no alert named {case.alert}"
    out = {"alertname": case.alert, "owner": defs[0].owner}
    if "severity" not in expected:
        assert len({a.severity for a in defs}) == 1, f"{case.alert} has several severities: say which"
        out["severity"] = defs[0].severity
    return {**out, **expected}


def alert_test(case: Case) -> dict[str, Any]:
    tests: list[dict[str, Any]] = []
    if case.fires_by is not None:
        tests.append(
            {
                "eval_time": case.fires_by,
                "alertname": case.alert,
                "exp_alerts": [{"exp_labels": _labels_for(case, e)} for e in case.expected],
            }
        )
    tests += [
        {
            "eval_time": t,
            "alertname": case.alert,
            "exp_alerts": [{"exp_labels": _labels_for(case, e)} for e in case.expected],
        }
        for t in case.still_firing_at
    ]
    tests += [{"eval_time": t, "alertname": case.alert, "exp_alerts": []} for t in case.quiet_at]
    return {
        "name": case.title,
        "interval": case.interval,
        "input_series": [s.promtool() for s in case.series],
        "alert_rule_test": tests,
    }


def expr_test(case: ExprCase) -> dict[str, Any]:
    return {
        "name": case.title,
        "interval": STEP,
        "input_series": [s.promtool() for s in case.series],
        "promql_expr_test": [
            {
                "expr": case.expr,
                "eval_time": case.eval_time,
                "exp_samples": [{"labels": labels, "value": value} for labels, value in case.samples],
            }
        ],
    }


def write_rules(config: RulesConfig, directory: Path, *, annotations: bool = False) -> list[str]:
    """Render the rule files; annotations are stripped unless asked for, so tests compare labels only."""
    directory.mkdir(parents=True, exist_ok=True)
    names = []
    for name, rendered in render_rule_files(config).items():
        text = rendered
        if not annotations:
            data = yaml.safe_load(rendered)
            for group in data["groups"]:
                for rule in group["rules"]:
                    rule.pop("annotations", None)
            text = yaml.safe_dump(data, sort_keys=False)
        (directory / name).write_text(text)
        names.append(name)
    return names


def run_suite(
    directory: Path, tests: Sequence[dict[str, Any]], config: RulesConfig, interval: str = STEP
) -> subprocess.CompletedProcess[str]:
    """Write rules + one test file and run `promtool test rules` on it, evaluating every ``interval``."""
    rule_files = write_rules(config, directory)
    suite = {"rule_files": rule_files, "evaluation_interval": interval, "tests": list(tests)}
    path = directory / "suite.yaml"
    path.write_text(yaml.safe_dump(suite, sort_keys=False))
    return subprocess.run([binary("promtool"), "test", "rules", str(path)], capture_output=True, text=True, check=False)


def group_by_config(
    cases: Iterable[Case | ExprCase],
) -> dict[str, tuple[RulesConfig, str, list[Case | ExprCase]]]:
    """Cases sharing a rules config and an evaluation interval can share one promtool run."""
    groups: dict[str, tuple[RulesConfig, str, list[Case | ExprCase]]] = {}
    for case in cases:
        interval = case.interval if isinstance(case, Case) else STEP
        key = case.config.model_dump_json() + interval
        groups.setdefault(key, (case.config, interval, []))[2].append(case)
    return groups
