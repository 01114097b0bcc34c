"""What ``step()`` records: a handful of numbers in memory, whatever the rate of steps or the state of the gateway.

The training loop calls ``record_step`` on its own thread; the pusher takes a ``Progress`` snapshot on its
thread. Nothing is queued per step — counters, the last step, sums over the current push window and the latest
value of each custom gauge — so memory stays bounded when the gateway is down for hours, and a step costs one
uncontended lock and a few additions. Bad values from the caller never raise here: the training job must not
crash because of its telemetry; they are dropped and reported once through ``problems``.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Mapping

from gpuscope.jobs.labels import gauge_metric
from gpuscope.jobs.metrics import Progress

MAX_GAUGES = 64


class ProgressRecorder:
    """Thread-safe aggregate of the job's steps and gauges."""

    def __init__(self, monotonic: Callable[[], float] = time.perf_counter) -> None:
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._last_step_at = monotonic()
        self._steps = 0
        self._last_duration: float | None = None
        self._window = [0.0, 0.0, 0.0]  # step seconds, samples, tokens since the last snapshot
        self._samples_rate: float | None = None
        self._tokens_rate: float | None = None
        self._gauges: dict[str, float] = {}
        self._names: dict[str, str | None] = {}  # caller's gauge name -> metric name (None: dropped)
        self._problems: list[str] = []
        self._reported: set[str] = set()

    def record_step(
        self, duration_s: float | None, samples: float, tokens: float, gauges: Mapping[str, object]
    ) -> None:
        now = self._monotonic()
        with self._lock:
            try:
                seconds = now - self._last_step_at if duration_s is None else float(duration_s)
                self._last_step_at = now
                if not seconds >= 0:  # negative or NaN: a caller's clock bug, not a step duration
                    raise ValueError(f"step duration {duration_s!r} is not a non-negative number")
                n_samples, n_tokens = float(samples), float(tokens)
                self._steps += 1
                self._last_duration = seconds
                self._window[0] += seconds
                self._window[1] += n_samples
                self._window[2] += n_tokens
            except (TypeError, ValueError) as exc:
                self._problem("step", f"step() ignored a bad value: {exc}")
            if gauges:
                self._set_gauges(gauges)

    def set_gauges(self, gauges: Mapping[str, object]) -> None:
        with self._lock:
            self._set_gauges(gauges)

    def _set_gauges(self, gauges: Mapping[str, object]) -> None:
        for name, value in gauges.items():
            metric = self._names[name] if name in self._names else self._admit(name)
            if metric is None:
                continue
            try:
                self._gauges[metric] = float(value)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                self._problem(f"value:{name}", f"gauge {name!r}: {value!r} is not a number; ignored")

    def _admit(self, name: str) -> str | None:
        """Map a new gauge name to its metric once; bounded, so a name built per step cannot grow memory."""
        metric = gauge_metric(str(name))
        if metric is None:
            self._problem(f"name:{name}", f"gauge name {name!r} is empty or taken by a built-in job metric; ignored")
        elif metric not in self._gauges and len(self._gauges) >= MAX_GAUGES:
            self._problem("too-many", f"more than {MAX_GAUGES} custom gauges; {name!r} and later new ones ignored")
            metric = None
        if len(self._names) < 4 * MAX_GAUGES:
            self._names[name] = metric
        return metric

    def _problem(self, key: str, message: str) -> None:
        if key not in self._reported and len(self._reported) < MAX_GAUGES:
            self._reported.add(key)
            self._problems.append(message)

    def problems(self) -> list[str]:
        """New problems since the last call (each kind reported once), for the pusher to log."""
        with self._lock:
            out, self._problems = self._problems, []
            return out

    def snapshot(self) -> Progress:
        """The progress so far; closes the rate window (rates are over the steps since the previous snapshot)."""
        with self._lock:
            seconds, samples, tokens = self._window
            if seconds > 0:
                if samples > 0:
                    self._samples_rate = samples / seconds
                if tokens > 0:
                    self._tokens_rate = tokens / seconds
            self._window = [0.0, 0.0, 0.0]
            return Progress(
                self._steps,
                self._last_duration,
                _finite(self._samples_rate),
                _finite(self._tokens_rate),
                dict(self._gauges),
            )


def _finite(value: float | None) -> float | None:
    return value if value is None or math.isfinite(value) else None
