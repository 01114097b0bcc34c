"""The audit's clock: one evaluation time for every query, the look-back window, and thresholds in audit time.

Thresholds are written in production time (remote_write 2 minutes behind, rollups every 5 minutes) and divided
by the speedup, exactly as the rules' own durations are (``rules.timescale``), so an audit of ``gpuscope up
--fast`` (``--speedup 15``) judges by the same clock as the alerts it runs beside.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

HOUR_S = 3600.0
SETTLE_S = 360.0  # after a Prometheus starts, its first scrapes and rule evaluations create every series once
MIN_MEASURE_S = 60.0  # a rate over less than this (production time) says little
# Wall-clock seconds of start-up no speedup shortens: opening the TSDB, loading the rules, the rule manager's first
# round, on a loaded machine. At speedup 15 the scaled settle is 24 s, and a 5 m group's first evaluation (which
# creates its series once) came a few seconds after it: read as churn, the doctor warned on a healthy stack.
SETTLE_WALL_MIN_S = 60.0
# Likewise the shortest rate: at speedup 15 one production minute is 4 s, 4 scrapes, over which a sped-up stack's
# ordinary bursts (a new pod's series, an hourly group's next round) read as several times the head per hour.
MIN_MEASURE_WALL_S = 30.0
ROLLUP_STALE_S = 600.0  # two 5-minute rollup evaluations
GROWTH_HORIZON_S = 86400.0  # head series growth is projected a day ahead


def duration(seconds: float) -> str:
    """A PromQL duration in whole seconds (at least 1s), in the largest unit that divides it: 1h, 4m, 90s."""
    whole = max(1, round(seconds))
    for unit, size in (("h", 3600), ("m", 60)):
        if whole % size == 0:
            return f"{whole // size}{unit}"
    return f"{whole}s"


@dataclass(frozen=True, slots=True)
class Timing:
    now: float
    window_s: float
    speedup: int = 1

    @property
    def window(self) -> str:
        return duration(self.window_s)

    def scaled(self, production_seconds: float) -> float:
        return production_seconds / self.speedup

    @property
    def settle_s(self) -> float:
        """Seconds after a Prometheus starts during which its first scrapes and rule evaluations create series."""
        return max(self.scaled(SETTLE_S), SETTLE_WALL_MIN_S)

    @property
    def min_measure_s(self) -> float:
        """The shortest history a rate may use."""
        return min(self.window_s, max(self.scaled(MIN_MEASURE_S), MIN_MEASURE_WALL_S))

    @property
    def first_measurable_s(self) -> float:
        """How long after its start a Prometheus' rates are measurable at the earliest."""
        return self.settle_s + self.min_measure_s

    def measurable(self, started: float) -> float:
        """Seconds of history after ``started`` that a rate may use (0 when too little): not the start-up burst."""
        if not math.isfinite(started):  # a start time a server answered NaN: nothing is known to be measurable
            return 0.0
        usable = min(self.window_s, self.now - started - self.settle_s)
        return usable if usable >= self.min_measure_s else 0.0


def default_window(speedup: int) -> float:
    """One hour of production time: the look-back of "restarts in the last hour"."""
    return HOUR_S / speedup
