"""Compressed time for demos and tests: one pass dividing every duration in the rules by a speed factor.

Rules are written in production time (15 s scrapes, ``[5m]`` windows, ``for: 10m``). ``gpuscope up --fast`` scrapes
every second; with ``speedup: 15`` each range, offset, ``for``, ``keep_firing_for`` and group interval shrinks 15x,
so the same logic fires 15x sooner. Production configs keep ``speedup: 1`` and are untouched.

The other pass here, ``held_through_missed_scrapes``, gives every alert the hysteresis a missed scrape needs.
"""

from __future__ import annotations

import re
from dataclasses import replace

from gpuscope.rules.model import Alert, Group, Recording

# The rules are written for 15 s scrapes and evaluations (a group with no interval of its own runs at this one).
EVALUATION_INTERVAL_S = 15
_UNITS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = r"(?:[0-9]+(?:ms|s|m|h|d))+"
_RANGE = re.compile(rf"\[({_DURATION})(:{_DURATION})?\]")
_OFFSET = re.compile(rf"offset ({_DURATION})")


def to_seconds(duration: str) -> float:
    return sum(int(n) * _UNITS[u] for n, u in re.findall(r"([0-9]+)(ms|s|m|h|d)", duration))


def scale(duration: str, speed: int) -> str:
    """``5m`` at speed 15 -> ``20s``; never below one second."""
    if speed == 1 or not duration or duration == "0s":
        return duration
    seconds = max(1.0, to_seconds(duration) / speed)
    if "ms" in duration:  # a window a millisecond short of a period stays short of it (``period_mean``)
        return f"{int(seconds * 1000)}ms"
    return f"{round(seconds)}s" if seconds >= 1 else f"{round(seconds * 1000)}ms"


def _expr(expr: str, speed: int) -> str:
    expr = _RANGE.sub(lambda m: f"[{scale(m.group(1), speed)}{_step(m.group(2), speed)}]", expr)
    return _OFFSET.sub(lambda m: f"offset {scale(m.group(1), speed)}", expr)


def _step(step: str | None, speed: int) -> str:
    return f":{scale(step[1:], speed)}" if step else ""


def held_through_missed_scrapes(group: Group) -> Group:
    """The group with every alert that has no ``keep_firing_for`` of its own held for two evaluations of the group,
    a minute at least.

    A failed scrape writes staleness markers for every series of its target, and an ``unless ... up == 0`` guard
    sees the failure itself: the next evaluation finds the condition empty, and Prometheus resolves a firing alert
    at once, to fire and notify it again on the evaluation after (a ticket closed and reopened for one missed
    scrape). Held this long, one to three missed 15 s scrapes never resolve an alert; a fault that clears resolves
    that much later. A pending alert's ``for`` still restarts after a gap: that delays a page, it repeats none.
    """
    every = to_seconds(group.interval) or EVALUATION_INTERVAL_S
    held_s = round(max(60, 2 * every))
    hold = f"{held_s // 60}m" if held_s % 60 == 0 else f"{held_s}s"
    rules = tuple(
        replace(rule, keep_firing_for=hold) if isinstance(rule, Alert) and not rule.keep_firing_for else rule
        for rule in group.rules
    )
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
