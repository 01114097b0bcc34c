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


_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
# An ALERTS or ALERTS_FOR_STATE selector and the alert name it asks for by equality, when it does.
_ALERTS = re.compile(r"\bALERTS(?:_FOR_STATE)?\b(\{[^}]*\})?")
_ALERTNAME = re.compile(r'\balertname\s*=\s*"([^"]*)"')
# A matcher on the metric name itself: {__name__=~"a:b|c:d"}.
_METRIC_NAME = re.compile(r'\b__name__\s*(=~|=|!=|!~)\s*"((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True)
class _Reads:
    """What one expression reads of what rules write: series by name or by a ``__name__`` pattern (anchored, as
    PromQL anchors it), and alerts through ALERTS."""

    names: frozenset[str]
    patterns: tuple[re.Pattern[str], ...]
    alerts: frozenset[str]
    every_rule: bool  # a negative __name__ matcher or an ALERTS selector without an alert name: no closure to read off


def _reads(expr: str) -> _Reads:
    alerts: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    every = expr.count("__name__") != len(matchers := _METRIC_NAME.findall(expr))
    for op, value in matchers:
        text = value.encode().decode("unicode_escape")  # PromQL's string escapes: "\\." is the regex \.
        if op in ("!=", "!~"):
            every = True
        else:
            try:
                patterns.append(re.compile(text if op == "=~" else re.escape(text)))
            except re.error:
                every = True
    for selector in _ALERTS.finditer(expr):
        named = _ALERTNAME.search(selector.group(1) or "")
        if named is None:
            every = True
        else:
            alerts.add(named.group(1))
    # Every identifier counts, label names and string contents too: reading in more than an expression needs
    # costs only time, reading in less would change what the kept rules compute.
    return _Reads(frozenset(_NAME.findall(expr)), tuple(patterns), frozenset(alerts), every)


def needed_rules(files: dict[str, dict[str, Any]], tests: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The rule files cut down to what ``tests`` can observe: the alerts they name, the series their expressions
    read, and, transitively, every rule those read. A group keeps its name, interval and the order of the rules it
    keeps (a rule reading a later rule of its group sees that rule's previous evaluation, as before); a group or
    file left with nothing is dropped.

    promtool evaluates every loaded group at every evaluation step, so a scenario about one alert spends its time
    on the ~150 other rules otherwise. Dropping a rule nothing observed reads changes no observed value.
    """
    rules = [r for data in files.values() for g in data["groups"] for r in g["rules"]]
    writes: dict[str, list[int]] = {}  # recorded series or alert name -> the rules writing it
    for i, rule in enumerate(rules):
        writes.setdefault(rule.get("record") or rule["alert"], []).append(i)

    def wanted(reads: _Reads) -> list[int]:
        if reads.every_rule:
            return list(range(len(rules)))
        names = reads.names | {n for n in writes for p in reads.patterns if p.fullmatch(n)}
        found = [i for name in names for i in writes.get(name, ()) if "record" in rules[i]]
        return found + [i for name in reads.alerts for i in writes.get(name, ()) if "alert" in rules[i]]

    todo: list[int] = []
    for test in tests:
        for alert_test in test.get("alert_rule_test", ()):
            named = [i for i in writes.get(alert_test["alertname"], ()) if "alert" in rules[i]]
            # promtool finds no alert of a name no rule has, so a near miss for it would pass whatever happens
            assert named, f"{test['name']}: no alert named {alert_test['alertname']} in the rule files"
            todo += named
        for expr_test in test.get("promql_expr_test", ()):
            todo += wanted(_reads(expr_test["expr"]))
    keep: set[int] = set()
    while todo:
        i = todo.pop()
        if i not in keep:
            keep.add(i)
            todo += wanted(_reads(rules[i]["expr"]))
    kept_ids = {id(rules[i]) for i in keep}
    out: dict[str, dict[str, Any]] = {}
    for name, data in files.items():
        groups = [{**g, "rules": [r for r in g["rules"] if id(r) in kept_ids]} for g in data["groups"]]
        if groups := [g for g in groups if g["rules"]]:
            out[name] = {**data, "groups": groups}
    return out


def run_suite(
    directory: Path, tests: Sequence[dict[str, Any]], config: RulesConfig, interval: str = STEP
) -> subprocess.CompletedProcess[str]:
    """`promtool test rules` on ``tests``, evaluating every ``interval``: one run per set of rules the tests need
    (``needed_rules``), each loading only that set. promtool evaluates every loaded rule at every step of every test,
    so one run of 42 alert tests loading the union of what they need took 97 s, where a run per set takes 23; tests
    needing the same rules (the conservation checks) still share one run. The answer is every run's output and the
    first failing run's exit code."""
    full = directory / "rendered"
    files = {name: yaml.safe_load((full / name).read_text()) for name in write_rules(config, full)}
    sets: dict[str, tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]] = {}
    for test in tests:
        needed = needed_rules(files, [test])
        sets.setdefault(yaml.safe_dump(needed, sort_keys=True), (needed, []))[1].append(test)
    runs = [
        _run_one(directory / f"run-{i:03d}", needed, group, interval) for i, (needed, group) in enumerate(sets.values())
    ]
    failed = [r for r in runs if r.returncode != 0]
    return subprocess.CompletedProcess(
        args=[r.args for r in runs],
        returncode=failed[0].returncode if failed else 0,
        stdout="".join(r.stdout for r in runs),
        stderr="".join(r.stderr for r in runs),
    )


def _run_one(
    directory: Path, needed: dict[str, dict[str, Any]], tests: list[dict[str, Any]], interval: str
) -> subprocess.CompletedProcess[str]:
    directory.mkdir(parents=True, exist_ok=True)  # hypothesis runs its examples in one tmp_path
    for name, data in needed.items():
        (directory / name).write_text(yaml.safe_dump(data, sort_keys=False))
    # promtool evaluates every group at every step, in a random order unless told one (it sorts a map by a key
    # that is 0 for every group): a rule reading another group's record then sees this step's value or the last
    # step's by chance. The rendered order: what a group reads is evaluated before it, as on a real server once
    # its offsets settle.
    order = [g["name"] for name in sorted(needed) for g in needed[name]["groups"]]
    suite = {"rule_files": sorted(needed), "evaluation_interval": interval, "group_eval_order": order, "tests": tests}
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
