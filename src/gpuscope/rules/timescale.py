"""Compressed time for demos and tests: one pass dividing every duration in the rules by a speed factor.

Rules are written in production time (15 s scrapes, ``[5m]`` windows, ``for: 10m``). ``gpuscope up --fast`` scrapes
every second; with ``speedup: 15`` each range, offset, ``for``, ``keep_firing_for`` and group interval shrinks 15x,
so the same logic fires 15x sooner. Production configs keep ``speedup: 1`` and are untouched.

The other passes here: ``held_through_missed_scrapes`` gives every alert the hysteresis a missed scrape needs, and
``fit_scrape_interval`` widens the windows written for 15 s scrapes to the fleet's scrape interval.
"""

from __future__ import annotations

import re
from dataclasses import replace

from gpuscope.durations import prometheus_seconds, prometheus_text
from gpuscope.rules.records import Alert, Group, Recording

# The rules are written for 15 s scrapes and evaluations (a group with no interval of its own runs at this one).
EVALUATION_INTERVAL_S = 15
_DURATION = r"(?:[0-9]+(?:ms|s|m|h|d))+"
_RANGE = re.compile(rf"\[({_DURATION})(:{_DURATION})?\]")
_OFFSET = re.compile(rf"offset ({_DURATION})")


def scale(duration: str, speed: int) -> str:
    """``5m`` at speed 15 -> ``20s``; never below one second."""
    if speed == 1 or not duration or duration == "0s":
        return duration
    seconds = max(1.0, prometheus_seconds(duration) / speed)
    if "ms" in duration:  # a window a millisecond short of a period stays short of it (``period_mean``)
        return f"{int(seconds * 1000)}ms"
    return f"{round(seconds)}s" if seconds >= 1 else f"{round(seconds * 1000)}ms"


def _expr(expr: str, speed: int) -> str:
    expr = _RANGE.sub(lambda m: f"[{scale(m.group(1), speed)}{_step(m.group(2), speed)}]", expr)
    return _OFFSET.sub(lambda m: f"offset {scale(m.group(1), speed)}", expr)


def _step(step: str | None, speed: int) -> str:
    return f":{scale(step[1:], speed)}" if step else ""


def held_through_missed_scrapes(group: Group, scrape_s: float = EVALUATION_INTERVAL_S) -> Group:
    """The group with every alert that has no ``keep_firing_for`` of its own held for two evaluations of the group
    or two scrapes (``scrape_s``, in rule time), whichever is longer, a minute at least; an alert's own
    ``keep_firing_for`` is raised to two scrapes where it is shorter.

    A failed scrape writes staleness markers for every series of its target, and an ``unless ... up == 0`` guard
    sees the failure itself: the evaluations until the next scrape find the condition empty, and Prometheus resolves
    a firing alert at once, to fire and notify it again on the evaluation after (a ticket closed and reopened for
    one missed scrape). Held this long, one to three missed 15 s scrapes (one missed scrape at longer intervals)
    never resolve an alert; a fault that clears resolves that much later. A pending alert's ``for`` still restarts
    after a gap: that delays a page, it repeats none.
    """
    every = max((prometheus_seconds(group.interval) if group.interval else 0) or EVALUATION_INTERVAL_S, scrape_s)
    hold, two_scrapes = prometheus_text(max(60, 2 * every)), 2 * scrape_s

    def held(rule: Recording | Alert) -> Recording | Alert:
        if not isinstance(rule, Alert):
            return rule
        if not rule.keep_firing_for:
            return replace(rule, keep_firing_for=hold)
        if prometheus_seconds(rule.keep_firing_for) < two_scrapes:
            return replace(rule, keep_firing_for=prometheus_text(two_scrapes))
        return rule

    return replace(group, rules=tuple(held(rule) for rule in group.rules))


# Functions that estimate a per-second rate or a slope from a window's samples: two samples are the least they
# work with, so their windows span four scrapes, and one missed scrape (or one reset) still leaves them enough.
RATE_FAMILY = frozenset({"rate", "irate", "increase", "deriv", "predict_linear"})
MIN_SCRAPES = 2
MIN_SCRAPES_RATE = 4
_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*$")


def range_selectors(expr: str) -> list[tuple[re.Match[str], str | None]]:
    """Every range ``[d]`` or subquery ``[d:s]`` of ``expr``, with the function it is the argument of (None where
    it is in no call's parentheses, or in a clause's: ``by (...)``). String literals are skipped: a label
    matcher's regex may hold brackets and parentheses."""
    out: list[tuple[re.Match[str], str | None]] = []
    calls: list[str | None] = []
    i = 0
    while i < len(expr):
        ch = expr[i]
        if ch in "\"'`":
            i += 1
            while i < len(expr) and expr[i] != ch:
                i += 2 if expr[i] == "\\" and ch != "`" else 1
        elif ch == "(":
            call = _CALL.search(expr, max(0, i - 40), i)
            calls.append(call.group(1) if call else None)
        elif ch == ")" and calls:
            calls.pop()
        elif ch == "[" and (found := _RANGE.match(expr, i)):
            out.append((found, calls[-1] if calls else None))
            i = found.end()
            continue
        i += 1
    return out


def _widened(expr: str, scrape_s: float) -> str:
    """``expr`` with every range selector spanning ``MIN_SCRAPES`` scrapes at least (``MIN_SCRAPES_RATE`` in a
    rate-family function). A subquery's range is left as it is: it spans evaluations of its step, not scrapes."""
    parts, last = [], 0
    for found, call in range_selectors(expr):
        if found.group(2):
            continue
        least = (MIN_SCRAPES_RATE if call in RATE_FAMILY else MIN_SCRAPES) * scrape_s
        if prometheus_seconds(found.group(1)) < least:
            parts += [expr[last : found.start()], f"[{prometheus_text(least)}]"]
            last = found.end()
    return "".join(parts) + expr[last:]


def fit_scrape_interval(group: Group, scrape_s: float) -> Group:
    """The group with every range selector widened to span two scrapes of ``scrape_s`` (in rule time), four in
    ``rate``, ``irate``, ``increase``, ``deriv`` and ``predict_linear``.

    The rules are written for 15 s scrapes: ``present_over_time(...[1m])`` asks "any sample in the last four
    scrapes?". At 1 m scrapes a one-minute window holds one sample at best, and none after a single missed scrape
    or a few milliseconds of scrape jitter: a healthy GPU reads as vanished, a held reading as gone. Widened, the
    window asks the same question of the samples there are. Windows already long enough (``[5m]`` averages,
    ``[1h]`` look-backs) are left alone, so a 15 s fleet's rules are unchanged. Group intervals are left alone too:
    a 15 s group at 1 m scrapes reads each sample up to four times, and acts within 15 s of the scrape that shows
    a fault (``evaluation_interval: 1m`` in the spec trades that for a quarter of the reads).
    """
    rules = tuple(replace(rule, expr=_widened(rule.expr, scrape_s)) for rule in group.rules)
    return replace(group, rules=rules)


def compress(groups: tuple[Group, ...], speed: int) -> tuple[Group, ...]:
    """The same groups with every duration divided by ``speed``."""
    if speed == 1:
        return groups
    out = []
    for group in groups:
        rules: list[Recording | Alert] = []
        for rule in group.rules:
            if isinstance(rule, Recording):
                rules.append(replace(rule, expr=_expr(rule.expr, speed)))
            else:
                rules.append(
                    replace(
                        rule,
                        expr=_expr(rule.expr, speed),
                        for_=scale(rule.for_, speed),
                        keep_firing_for=scale(rule.keep_firing_for, speed),
                    )
                )
        out.append(replace(group, rules=tuple(rules), interval=scale(group.interval, speed)))
    return tuple(out)
