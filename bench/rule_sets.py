"""Two rule sets in one Prometheus, and what their cost figures are made of: pure functions, no I/O but file reads.

The baseline (``bench/baseline/``: the rule files of the fleet spec before the rules were made cheaper) runs
beside the generated rules in the same Prometheus, on the same samples. Renamed so that the two sets never
write the same series: groups get ``baseline/``, recorded series ``baseline:``, alerts ``Baseline``. Renaming a
recorded name everywhere it is read changes no work a rule does (the name is one label among others).
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

BASELINE_DIR = Path(__file__).resolve().parent / "baseline"
BASELINE_FILES = ("gpuscope-recording.yaml", "gpuscope-alerts.yaml")
GROUP_PREFIX = "baseline/"
RECORD_PREFIX = "baseline:"
ALERT_PREFIX = "Baseline"
_NAME_CHAR = r"[A-Za-z0-9_:]"
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def seconds(duration: str) -> float:
    return sum(int(n) * _UNITS[u] for n, u in re.findall(r"([0-9]+)(ms|s|m|h|d)", duration))


def _rename_refs(expr: str, names: Sequence[str]) -> str:
    # Longest first, and only whole names: gpu:fb_used:ratio must not rename inside gpu:fb_used:ratio_avg5m.
    for name in sorted(names, key=len, reverse=True):
        expr = re.sub(rf"(?<!{_NAME_CHAR}){re.escape(name)}(?!{_NAME_CHAR})", RECORD_PREFIX + name, expr)
    return expr


def renamed(files: dict[str, str]) -> dict[str, str]:
    """Rule-file texts (file name -> YAML) with every group, recorded series and alert renamed as the baseline."""
    docs = {name: yaml.safe_load(text) for name, text in files.items()}
    records = [r["record"] for d in docs.values() for g in d["groups"] for r in g["rules"] if "record" in r]
    out: dict[str, str] = {}
    for name, doc in docs.items():
        for group in doc["groups"]:
            group["name"] = GROUP_PREFIX + group["name"]
            for rule in group["rules"]:
                rule["expr"] = _rename_refs(rule["expr"], records)
                if "record" in rule:
                    rule["record"] = RECORD_PREFIX + rule["record"]
                else:
                    rule["alert"] = ALERT_PREFIX + rule["alert"]
        out[name] = yaml.safe_dump(doc, sort_keys=False, width=120)
    return out


def baseline_files(directory: Path = BASELINE_DIR) -> dict[str, str]:
    """The renamed rule files of a frozen baseline directory (``bench/baseline/`` unless told another)."""
    return renamed({name: (directory / name).read_text() for name in BASELINE_FILES})


@dataclass(frozen=True)
class Rule:
    group: str
    interval_s: float
    name: str  # the recorded series or the alert
    expr: str

    @property
    def baseline(self) -> bool:
        return self.group.startswith(GROUP_PREFIX)


def rules_of(files: Iterable[str], default_interval_s: float) -> list[Rule]:
    """Every rule of some rule-file texts, with its group's interval."""
    out = []
    for text in files:
        for group in yaml.safe_load(text)["groups"]:
            interval = seconds(group["interval"]) if "interval" in group else default_interval_s
            for rule in group["rules"]:
                name = rule.get("record") or rule["alert"]
                out.append(Rule(group=group["name"], interval_s=interval, name=name, expr=rule["expr"]))
    return out


def plain(group: str) -> str:
    """The group's name without the baseline's prefix: the row both sets share."""
    return group.removeprefix(GROUP_PREFIX)


@dataclass(frozen=True)
class Fit:
    fixed_s: float
    per_gpu_s: float

    def at(self, gpus: int) -> float:
        return self.fixed_s + self.per_gpu_s * gpus


def fit(points: Sequence[tuple[int, float]]) -> Fit | None:
    """Least-squares line through (GPUs, seconds): the fixed part and the part per GPU; None under two sizes."""
    xs = [float(x) for x, _ in points]
    if len(set(xs)) < 2:
        return None
    slope, intercept = statistics.linear_regression(xs, [y for _, y in points])
    return Fit(fixed_s=intercept, per_gpu_s=slope)


def per_15s(duration_s: float, interval_s: float) -> float:
    """A group's evaluation time per 15 s of wall time: a 1 m group's evaluation counts a quarter."""
    return duration_s * 15.0 / interval_s


def query_log_rules(lines: Iterable[str], since: str, until: str) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Rule evaluations in Prometheus's query log between two RFC 3339 times: (group, expression) -> stats."""
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for line in lines:
        entry = json.loads(line)
        group = entry.get("ruleGroup")
        if not group or not since <= entry["ts"] <= until:
            continue
        out.setdefault((group["name"], entry["params"]["query"]), []).append(entry["stats"])
    return out


def query_log_queries(lines: Iterable[str], since: str, until: str) -> list[dict[str, Any]]:
    """Queries from API clients (not rule evaluations) in the query log between two RFC 3339 times."""
    out = []
    for line in lines:
        entry = json.loads(line)
        if "ruleGroup" not in entry and since <= entry["ts"] <= until:
            out.append(entry)
    return out
