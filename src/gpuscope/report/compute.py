"""The report's arithmetic (pure): hours from step series, efficiency and costs per group, the utilization
distribution, incidents as runs of steps, and the allocation forecast with its uncertainty.

A range series' value at ``t`` stands for the step ``(t - step, t]``, so GPU-hours are ``sum(values) * step / 3600``
and joules are ``sum(watts) * step``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gpuscope.prom import Series

DAY = 86_400.0
# Two-sided 95% quantile of the normal distribution: the forecast's interval is slope +- 1.96 standard errors.
Z95 = 1.96


@dataclass(frozen=True, slots=True)
class GroupRow:
    group: str
    gpu_hours_held: float
    active_gpu_hours: float
    efficiency: float
    idle_gpu_hours: float
    idle_cost: float | None
    energy_kwh: float
    energy_cost: float | None
    top_jobs: tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class Incident:
    kind: str
    subject: str
    start: float
    end: float
    detail: str


@dataclass(frozen=True, slots=True)
class Forecast:
    """Allocated GPUs = intercept + slope * days, fitted to daily means; when it reaches capacity."""

    slope_per_day: float
    slope_stderr: float
    capacity: float
    latest: float
    full_at: float | None
    full_low: float | None
    full_high: float | None
    days_fitted: int


def totals(series: Iterable[Series], first: str, second: str) -> dict[tuple[str, str], float]:
    """Sum of every series' values, by the values of two labels (absent label -> "")."""
    out: dict[tuple[str, str], float] = defaultdict(float)
    for s in series:
        out[(s.labels.get(first, ""), s.labels.get(second, ""))] += sum(v for _, v in s.points if math.isfinite(v))
    return dict(out)


def by_time(series: Iterable[Series]) -> dict[float, float]:
    """Sum across series at each timestamp."""
    out: dict[float, float] = defaultdict(float)
    for s in series:
        for t, v in s.points:
            if math.isfinite(v):
                out[t] += v
    return dict(sorted(out.items()))


def group_rows(
    held: Mapping[tuple[str, str], float],
    active: Mapping[tuple[str, str], float],
    power: Mapping[tuple[str, str], float],
    jobs: Mapping[tuple[str, str], float],
    step: int,
    hour_cost: Mapping[str, float],
    kwh_price: float | None,
    top: int = 5,
) -> tuple[GroupRow, ...]:
    """One row per group from (group, model) sums of step values: GPUs held, activity-weighted GPUs, watts."""
    hours = step / 3600.0
    # indexed by group once: scanning every key per group is quadratic, hours for 100,000 groups
    models_of: dict[str, set[str]] = defaultdict(set)
    for g, m in held:
        models_of[g].add(m)
    watts_of: dict[str, float] = defaultdict(float)
    for (g, _), w in power.items():
        watts_of[g] += w
    jobs_of: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for (g, j), v in jobs.items():
        jobs_of[g].append((j, v * hours))
    rows = []
    for group in sorted(set(models_of) | set(watts_of)):
        models = models_of.get(group, set())
        held_h = sum(held.get((group, m), 0.0) for m in models) * hours
        active_h = sum(active.get((group, m), 0.0) for m in models) * hours
        idle_by_model = {m: (held.get((group, m), 0.0) - active.get((group, m), 0.0)) * hours for m in models}
        idle_cost = sum(idle_by_model[m] * hour_cost[m] for m in models if m in hour_cost) if hour_cost else None
        kwh = watts_of.get(group, 0.0) * step / 3.6e6
        group_jobs = sorted(jobs_of.get(group, []), key=lambda x: (-x[1], x[0]))
        rows.append(
            GroupRow(
                group=group,
                gpu_hours_held=held_h,
                active_gpu_hours=active_h,
                efficiency=active_h / held_h if held_h else 0.0,
                idle_gpu_hours=held_h - active_h,
                idle_cost=idle_cost,
                energy_kwh=kwh,
                energy_cost=kwh * kwh_price if kwh_price is not None else None,
                top_jobs=tuple(group_jobs[:top]),
            )
        )
    return tuple(sorted(rows, key=lambda r: (-r.gpu_hours_held, r.group)))


def distribution(means: Iterable[float]) -> dict[str, int]:
    """How many GPUs ran below 10%, 10-50% and above 50% active on average over the period."""
    out = {"<10%": 0, "10-50%": 0, ">50%": 0}
    for m in means:
        out["<10%" if m < 0.1 else "10-50%" if m <= 0.5 else ">50%"] += 1
    return out


def incidents(
    series: Iterable[Series], step: int, kind: str, subject_keys: tuple[str, ...], min_seconds: float
) -> list[Incident]:
    """Runs of consecutive steps in which a series exists, lasting at least ``min_seconds``."""
    out = []
    for s in series:
        subject = " ".join(f"{k}={s.labels[k]}" for k in subject_keys if s.labels.get(k))
        runs: list[list[tuple[float, float]]] = []
        for t, v in s.points:
            if runs and t - runs[-1][-1][0] <= step * 1.5:
                runs[-1].append((t, v))
            else:
                runs.append([(t, v)])
        for run in runs:
            start, end = run[0][0] - step, run[-1][0]
            if end - start >= min_seconds:
                peak = max(v for _, v in run)
                detail = f"{peak:.0f} MiB used" if kind == "zombie memory" else f"activity {peak:.1%} at most"
                out.append(Incident(kind=kind, subject=subject, start=start, end=end, detail=detail))
    return sorted(out, key=lambda i: (i.start, i.subject))


def forecast(allocated: Mapping[float, float], capacity: float) -> Forecast | None:
    """A least-squares line through the daily means of allocated GPUs, and when it crosses ``capacity``.

    The interval comes from the data: the slope's standard error (residual scatter of the daily means around the
    line) gives slopes of +-1.96 SE, and each crosses capacity on its own date. A slope not clearly above zero
    leaves the interval's far end open (``full_high`` None); a slope at or below zero gives no date at all.
    """
    days: dict[int, list[float]] = defaultdict(list)
    for t, v in allocated.items():
        days[int((t - 1) // DAY)].append(v)  # the value at t stands for the step ending at t
    points = [(d + 0.5, sum(vs) / len(vs)) for d, vs in sorted(days.items()) if len(vs) > 0]
    n = len(points)
    if n < 3:
        return None
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx
    resid = [y - (my + slope * (x - mx)) for x, y in points]
    se = math.sqrt(sum(r * r for r in resid) / (n - 2) / sxx)
    latest = points[-1][1]

    def crossing(s: float) -> float | None:
        return (mx + (capacity - my) / s) * DAY if s > 0 else None

    high_slope, low_slope = slope + Z95 * se, slope - Z95 * se
    return Forecast(
        slope_per_day=slope,
        slope_stderr=se,
        capacity=capacity,
        latest=latest,
        full_at=crossing(slope),
        full_low=crossing(high_slope),
        full_high=crossing(low_slope),
        days_fitted=n,
    )
