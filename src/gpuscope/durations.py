"""Durations, one function per grammar, each named for it: what gpuscope reads and writes as a length of time.

- Prometheus (``prometheus_seconds``, ``prometheus_text``): ``model.ParseDuration``, the grammar of PromQL ranges,
  ``for:``, the spec, the policy and the Prometheus API's answers: units ``y w d h m s ms``, each at most once,
  largest first (``1h30m``, ``1500ms``), or a bare ``0``. A year is 365 days, a week 7.
- Go (``go_seconds``, ``go_text``): ``time.ParseDuration``, the grammar of dcgm-exporter's config file and flags and
  of the durations Go servers print (VictoriaMetrics' flags): a sign, then decimal numbers with units ``ns us µs
  ms s m h`` in any order (``1m0s``, ``1.5h``, ``300ms``), or ``0``; at most Go's int64 nanoseconds.
- Grafana (``grafana_ms``, ``grafana_text``, ``grafana_relative_ms``): a dashboard's intervals and the console's
  inputs: one decimal number and one unit ``ms s m h d w M y`` (``M`` a 30-day month); a time range's ends
  ``now`` and ``now-6h`` (a whole number there).
- Seconds with days, hours and minutes (``dhms_seconds``): the job commands' durations (``90``, ``90s``, ``1h30m``,
  ``2d``), a bare number being seconds.

Every parser raises ``ValueError`` naming the text and the grammar it is not in; the caller adds where it came
from (a flag, a spec field, a server). Standard library only.
"""

from __future__ import annotations

import re

_PROMETHEUS_UNITS = {"y": 31_536_000.0, "w": 604_800.0, "d": 86_400.0, "h": 3_600.0, "m": 60.0, "s": 1.0, "ms": 0.001}
# model.ParseDuration's own expression: every unit at most once, largest first; at least one of them.
PROMETHEUS = re.compile(
    r"(?=[0-9])(?:([0-9]+)y)?(?:([0-9]+)w)?(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?(?:([0-9]+)ms)?"
)
_MAX_INT64 = 2**63 - 1
# Both Go and Prometheus keep a duration as int64 nanoseconds (Prometheus: milliseconds, int64 too, but refuses
# what overflows the nanoseconds of time.Duration): about 292 years.
MAX_GO_SECONDS = _MAX_INT64 / 1e9
_GO_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_GO_PART = re.compile(r"([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)")
GRAFANA_UNITS_MS = {
    "ms": 1,
    "s": 1_000,
    "m": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
    "w": 604_800_000,
    "M": 2_592_000_000,  # Grafana's relative month: 30 days
    "y": 31_536_000_000,
}
# ASCII digits and few of them: a browser's request can carry anything, and int() refuses "²" and 4,300+ digits.
_GRAFANA = re.compile(r"([0-9]{1,12}(?:\.[0-9]{1,9})?)(ms|s|m|h|d|w|M|y)")
_GRAFANA_RELATIVE = re.compile(r"now(?:-([0-9]{1,12})(ms|s|m|h|d|w|M|y))?")  # whole numbers only, as Grafana
_DHMS = re.compile(r"(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s?)?")


def prometheus_seconds(text: str) -> float:
    """Seconds of a Prometheus duration (``15s``, ``1h30m``, ``1500ms``, ``0``); ``ValueError`` otherwise."""
    if text == "0":  # the one number without a unit ParseDuration takes
        return 0.0
    match = PROMETHEUS.fullmatch(text) if len(text) <= 64 else None
    if match is None:
        raise ValueError(f"{text!r:.40} is not a Prometheus duration (write e.g. 15s, 5m, 1h30m or 15d)")
    total = sum(int(n) * size for n, size in zip(match.groups(), _PROMETHEUS_UNITS.values(), strict=True) if n)
    if total > MAX_GO_SECONDS:
        raise ValueError(f"{text!r:.40} is longer than a Prometheus duration can be (about 292 years)")
    return total


def prometheus_text(seconds: float) -> str:
    """A Prometheus duration for ``seconds``, in whole minutes where it is one (``2m``, ``90s``, ``1500ms``)."""
    ms = round(seconds * 1000)
    if ms % 60_000 == 0:
        return f"{ms // 60_000}m"
    return f"{ms // 1000}s" if ms % 1000 == 0 else f"{ms}ms"


def go_seconds(text: str) -> float:
    """Seconds of a Go duration (``time.ParseDuration``: ``1h30m``, ``300ms``, ``1m0s``, ``0``); ``ValueError``
    otherwise."""
    raw = text.strip()
    sign = -1.0 if raw.startswith("-") else 1.0
    body = raw.lstrip("+-") if raw[:1] in "+-" else raw
    if body == "0":
        return 0.0
    if not body or len(body) > 64:
        raise ValueError(f"invalid duration {text!r:.40}")
    total, at = 0.0, 0
    while at < len(body):
        m = _GO_PART.match(body, at)
        if m is None or m.group(1) in ("", "."):
            raise ValueError(f"invalid duration {text!r:.40} (write e.g. 30s, 500ms or 1m30s)")
        total += float(m.group(1)) * _GO_UNITS[m.group(2)]
        at = m.end()
    if not total <= MAX_GO_SECONDS:  # also inf, from a number too long for a float
        raise ValueError(f"invalid duration {text!r:.40} (more than Go's largest, 2562047h47m16s)")
    return sign * total


def go_text(seconds: float) -> str:
    """``seconds`` as a Go duration that ``go_seconds`` reads back (whole nanoseconds, as Go keeps them)."""
    return f"{round(seconds * 1e9)}ns"


def grafana_ms(text: str) -> int:
    """Milliseconds of a Grafana interval (``15s``, ``1m``, ``500ms``, ``1.5h``, ``1M``); ``ValueError`` otherwise."""
    match = _GRAFANA.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"duration {text!r:.80}: expected a number and a unit (ms, s, m, h, d, w, M, y), e.g. 15s")
    return round(float(match.group(1)) * GRAFANA_UNITS_MS[match.group(2)])


def grafana_relative_ms(text: str) -> int:
    """How far back from now a Grafana relative time is, in milliseconds: ``now`` 0, ``now-6h`` six hours;
    ``ValueError`` for anything else."""
    match = _GRAFANA_RELATIVE.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"time {text!r:.80}: expected now or now-<number><s|m|h|d|w|M|y>")
    amount, unit = match.groups()
    return int(amount) * GRAFANA_UNITS_MS[unit] if amount else 0


def grafana_text(ms: int) -> str:
    """Milliseconds as Grafana writes an interval: the largest unit that divides it (``1m``, ``90s``, ``500ms``)."""
    if ms <= 0:
        return "0s"
    for unit in ("y", "w", "d", "h", "m", "s"):
        if ms % GRAFANA_UNITS_MS[unit] == 0:
            return f"{ms // GRAFANA_UNITS_MS[unit]}{unit}"
    return f"{ms}ms"


def dhms_seconds(text: str) -> float:
    """Seconds of ``90``, ``90s``, ``10m``, ``1h30m`` or ``2d`` (days, hours, minutes, seconds in that order, a
    bare number being seconds); ``ValueError`` otherwise."""
    match = _DHMS.fullmatch(text.strip())
    if not text.strip() or match is None:
        raise ValueError(f"invalid duration {text!r}: write e.g. 90s, 30m, 1h or 2d")
    days, hours, minutes, seconds = (int(g or 0) for g in match.groups())
    return float(days * 86400 + hours * 3600 + minutes * 60 + seconds)
