"""What keeps firing after ``gpuscope clear``, and for how long, read from the rules the replicas run.

Clearing a fault ends its cause, not its alerts. A rule that remembers an event matches until the event has left
its look-back: ``increase(...[10m])`` for ten minutes after the XID was counted, ``x unless (max_over_time(x[1h]
offset 15m) == 79)`` until the XID is fifteen minutes old (the ``unless`` side ends the match, so only its offset
counts), and ``keep_firing_for`` holds the alert after that. Which of a rule's alternatives (``a or b or c``)
still matches is Prometheus's to say, so each is asked; the longest look-back among those that match, plus
``keep_firing_for``, is how long the alert may still fire: at most that (counted from the clear; the event itself
may be older), and with ``--fast`` the deployed rules are already compressed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpuscope.durations import prometheus_seconds

_DURATION = r"[0-9]+(?:ms|[smhdwy])(?:[0-9]+(?:ms|[smhdwy]))*"
# a range (``[10m]``, a subquery's ``[1h:1m]``) with its offset, or an instant selector's offset
_LOOKBACK = re.compile(rf"\[\s*({_DURATION})\s*(?::\s*(?:{_DURATION})?\s*)?\](?:\s*offset\s+({_DURATION}))?")
_OFFSET = re.compile(rf"(?<!\])\boffset\s+({_DURATION})")
_WORD = re.compile(r"\b(or|unless)\b")
_MODIFIER = re.compile(r"\s*(?:on|ignoring)\s*\([^)]*\)")


@dataclass(frozen=True, slots=True)
class Lookback:
    """The longest look-back of a PromQL expression: how long after an event it may still match, and the term."""

    seconds: float
    term: str


@dataclass(frozen=True, slots=True)
class Lingering:
    """An alert still firing after the clear, and how long it may stay so, with why."""

    alert: str
    labels: dict[str, str]
    state: str
    lookback: Lookback | None  # None: no alternative of its rule matches any more
    keep_firing_s: float

    @property
    def at_most_s(self) -> float:
        return (self.lookback.seconds if self.lookback else 0.0) + self.keep_firing_s

    def line(self) -> str:
        where = ", ".join(f"{k}={v}" for k, v in sorted(self.labels.items()) if k in _WHERE)
        why = []
        if self.lookback is not None:
            why.append(f"its rule still matches through `{self.lookback.term}`")
        if self.keep_firing_s:
            why.append(f"keep_firing_for {_human(self.keep_firing_s)}")
        return (
            f"{self.alert} ({where or 'fleet-wide'}): up to {_human(self.at_most_s)} once its cause is gone "
            f"({'; '.join(why) or 'its next evaluation'})"
        )


_WHERE = ("cluster", "Hostname", "gpu", "instance", "namespace", "pod", "job_id")


def _human(seconds: float) -> str:
    whole = round(seconds)
    minutes, secs = divmod(whole, 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


def _depths(expr: str) -> list[int]:
    """The parenthesis depth at each character (string literals, whose parentheses are text, skipped)."""
    depths, depth, quote = [], 0, ""
    for i, ch in enumerate(expr):
        if quote:
            if ch == quote and expr[i - 1] != "\\":
                quote = ""
        elif ch in "\"'`":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        depths.append(depth)
    return depths


def branches(query: str) -> list[str]:
    """The alternatives of ``a or b or c`` at the top level of ``query`` (the query itself when there is one)."""
    depths = _depths(query)
    out, start = [], 0
    for m in _WORD.finditer(query):
        if m.group(1) == "or" and depths[m.start()] == 0:
            out.append(query[start : m.start()])
            start = m.end()
    out.append(query[start:])
    return [b.strip() for b in out if b.strip()]


def _unless_sides(expr: str) -> list[tuple[int, int]]:
    """The spans of the right-hand operands of ``unless``: they end a match, so their ranges do not prolong it."""
    depths = _depths(expr)
    spans = []
    for m in _WORD.finditer(expr):
        if m.group(1) != "unless":
            continue
        start = m.end()
        if modifier := _MODIFIER.match(expr, start):
            start = modifier.end()
        while start < len(expr) and expr[start].isspace():
            start += 1
        level, end = depths[m.start()], start
        # the operand runs to the next operator at the ``unless``'s own depth, or to where that depth closes
        while end < len(expr) and depths[end] >= level and not (depths[end] == level and expr[end] == ")"):
            if depths[end] == level and _WORD.match(expr, end) and expr[end - 1].isspace():
                break
            end += 1
        spans.append((start, end))
    return spans


def lookback(expr: str) -> Lookback | None:
    """How long after an event ``expr`` may still match: the longest range plus offset outside the right-hand side
    of an ``unless``, or offset inside one (an ``unless`` that looks at the event with an offset lets the match
    go on until the event is that old). None when it looks at the present only."""
    sides = _unless_sides(expr)

    def inside(pos: int) -> bool:
        return any(a <= pos < b for a, b in sides)

    found: list[Lookback] = []
    for m in _LOOKBACK.finditer(expr):
        rng, off = prometheus_seconds(m.group(1)), prometheus_seconds(m.group(2) or "0")
        if inside(m.start()):
            if off:
                found.append(Lookback(off, m.group(0)))
        else:
            found.append(Lookback(rng + off, m.group(0)))
    found += [Lookback(prometheus_seconds(m.group(1)), m.group(0)) for m in _OFFSET.finditer(expr)]
    return max(found, key=lambda lb: lb.seconds, default=None)


def _matches(series: Sequence[Mapping[str, str]], alert_labels: Mapping[str, str]) -> bool:
    return any(all(alert_labels.get(k) == v for k, v in s.items() if k != "__name__") for s in series)


def lingering(rules: Any, evaluate: Callable[[str], Sequence[Mapping[str, str]]]) -> list[Lingering]:
    """Every alert ``rules`` (a replica's ``/api/v1/rules`` data) holds firing, with how long it may stay so;
    ``evaluate`` runs an instant query on that replica and returns the label sets of its answer."""
    out: list[Lingering] = []
    for group in rules.get("groups", []) if isinstance(rules, Mapping) else []:
        for rule in group.get("rules", []):
            # a pending alert never reached Alertmanager: there is nothing to resolve
            active = [a for a in rule.get("alerts") or [] if a.get("state") == "firing"]
            if rule.get("type") != "alerting" or not active:
                continue
            keep = float(rule.get("keepFiringFor") or 0)
            parts = [(b, evaluate(b)) for b in branches(str(rule.get("query", "")))]
            for alert in active:
                labels = {str(k): str(v) for k, v in (alert.get("labels") or {}).items()}
                holding = [lookback(b) for b, series in parts if _matches(series, labels)]
                longest = max(
                    (lb or Lookback(0.0, "") for lb in holding),
                    key=lambda lb: lb.seconds,
                    default=None,
                )
                out.append(
                    Lingering(
                        alert=str(rule.get("name", "")),
                        labels=labels,
                        state=str(alert.get("state")),
                        lookback=longest if longest is not None and longest.seconds else None,
                        keep_firing_s=keep,
                    )
                )
    return sorted(out, key=lambda x: (-x.at_most_s, x.alert))


def after_clear(urls: Mapping[str, str], timeout_s: float = 10.0) -> list[Lingering]:
    """Ask each cluster's replica A (``prometheus-a@<cluster>`` of the stack's URLs) what still fires."""
    from gpuscope.prom import Client, Endpoint, Limits, api  # I/O: the replicas' rules and instant queries

    out: list[Lingering] = []
    for name, url in sorted(urls.items()):
        if not name.startswith("prometheus-a@"):
            continue
        with Client(Endpoint(url, flag=name), limits=Limits(timeout_s=timeout_s)) as client:

            def evaluate(expr: str, c: Client = client) -> list[dict[str, str]]:
                return [dict(s.labels) for s in c.run(api.instant(expr))]

            out += lingering(client.run(api.raw("/api/v1/rules", [("type", "alert")], envelope=True)), evaluate)
    return sorted(out, key=lambda x: (-x.at_most_s, x.alert))
