"""Time ranges and the interval variables, resolved as Grafana resolves them for a Prometheus data source.

* A range is two times, each ``now``, ``now-<n><unit>`` (units s m h d w M y) or epoch milliseconds.
* ``$__interval`` is the range divided by the panel's data points (its width in pixels, or ``maxDataPoints``),
  rounded to Grafana's table of "nice" intervals, and never below the lower limit: the panel's ``interval``
  or else the data source's scrape interval (``timeInterval``).
* The range query's step is that interval, raised so that a query never asks for more than 11,000 points.
* ``$__rate_interval`` is ``max($__interval + scrape interval, 4 * scrape interval)``.
* ``$__range`` is the range in whole seconds with an ``s`` (``3600s``); ``_s`` and ``_ms`` give bare numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gpuscope.durations import GRAFANA_UNITS_MS, grafana_ms, grafana_relative_ms, grafana_text
from gpuscope.errors import UsageError

_EPOCH_MS = re.compile(r"^[0-9]{1,15}$")  # up to the year 33658: more is no time a Prometheus has
# Prometheus refuses more points per series than this; Grafana raises the step to stay under it.
MAX_POINTS = 11_000
DEFAULT_SCRAPE_MS = 15_000

# Grafana's "nice" intervals: an interval below the bound (ms) rounds to the value (ms).
_ROUND = (
    (10, 1),
    (15, 10),
    (35, 20),
    (75, 50),
    (150, 100),
    (350, 200),
    (750, 500),
    (1_500, 1_000),
    (3_500, 2_000),
    (7_500, 5_000),
    (12_500, 10_000),
    (17_500, 15_000),
    (25_000, 20_000),
    (45_000, 30_000),
    (90_000, 60_000),
    (210_000, 120_000),
    (450_000, 300_000),
    (750_000, 600_000),
    (1_050_000, 900_000),
    (1_500_000, 1_200_000),
    (2_700_000, 1_800_000),
    (5_400_000, 3_600_000),
    (9_000_000, 7_200_000),
    (16_200_000, 10_800_000),
    (32_400_000, 21_600_000),
    (86_400_000, 43_200_000),
    (604_800_000, 86_400_000),
    (1_814_400_000, 604_800_000),
    (3_628_800_000, 2_592_000_000),
)


@dataclass(frozen=True, slots=True)
class TimeRange:
    from_ms: int
    to_ms: int

    @property
    def span_ms(self) -> int:
        return self.to_ms - self.from_ms


@dataclass(frozen=True, slots=True)
class Intervals:
    """What a panel's queries are run with."""

    interval_ms: int  # $__interval
    step_s: float  # the range query's step
    rate_interval_ms: int  # $__rate_interval
    range_s: int  # $__range, in seconds


def parse_time(text: str, now_ms: int) -> int:
    """``now``, ``now-15m`` or epoch milliseconds -> epoch milliseconds."""
    text = text.strip()
    if _EPOCH_MS.match(text):
        return int(text)
    try:
        return now_ms - grafana_relative_ms(text)
    except ValueError:
        raise UsageError(
            f"time {text!r:.80}: expected now, now-<number><s|m|h|d|w|M|y> or epoch milliseconds"
        ) from None


def opening_from(default_from: str, since_ms: int | None, now_ms: int) -> str:
    """Where a dashboard opens: its own default start, or ``since_ms`` (epoch milliseconds: when the data begins,
    a local stack's start) where that is later. A stack minutes old then fills the charts instead of squeezing
    its series into the last 2 % of "Last 3 hours"; once it is older than the default, the default stands."""
    if since_ms is None:
        return default_from
    try:
        start = parse_time(default_from, now_ms)
    except UsageError:
        return default_from
    return str(since_ms) if start < since_ms < now_ms else default_from


def parse_range(from_text: str, to_text: str, now_ms: int) -> TimeRange:
    start, end = parse_time(from_text, now_ms), parse_time(to_text, now_ms)
    if start >= end:
        raise UsageError(f"time range {from_text:.40} to {to_text:.40}: the start must be before the end")
    return TimeRange(from_ms=start, to_ms=end)


def parse_duration_ms(text: str) -> int:
    """``15s``, ``1m``, ``500ms`` -> milliseconds (a Grafana interval); a bad one is a ``UsageError``."""
    try:
        return grafana_ms(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def round_interval(ms: float) -> int:
    for bound, value in _ROUND:
        if ms < bound:
            return value
    return GRAFANA_UNITS_MS["y"]


def intervals(
    rng: TimeRange, *, data_points: int, scrape_ms: int = DEFAULT_SCRAPE_MS, min_interval_ms: int | None = None
) -> Intervals:
    """The interval variables and query step for a panel of ``data_points`` points over ``rng``."""
    points = max(1, data_points)
    lower = min_interval_ms if min_interval_ms is not None else scrape_ms
    interval = max(round_interval(rng.span_ms / points), lower)
    step_ms = max(interval, -(-rng.span_ms // MAX_POINTS))
    rate = max(interval + scrape_ms, 4 * scrape_ms)
    return Intervals(
        interval_ms=interval,
        step_s=step_ms / 1000,
        rate_interval_ms=rate,
        range_s=round(rng.span_ms / 1000),
    )


def interval_values(iv: Intervals) -> dict[str, str]:
    """The built-in variables' text, by name (without the ``$``)."""
    return {
        "__interval": grafana_text(iv.interval_ms),
        "__interval_ms": str(iv.interval_ms),
        "__rate_interval": grafana_text(iv.rate_interval_ms),
        "__rate_interval_ms": str(iv.rate_interval_ms),
        "__range": f"{iv.range_s}s",
        "__range_s": str(iv.range_s),
        "__range_ms": str(iv.range_s * 1000),
    }
