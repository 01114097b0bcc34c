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

from gpuscope.fields.labels import JOB_LABEL
from gpuscope.prom import Series

DAY = 86_400.0
BUCKETS = ("<10%", "10-50%", ">50%")
# Decimals of every GPU-hour, GPU count, kWh and cost the report shows: the headline and the tables alike, and
# enough that a 15-minute pod's quarter GPU-hour is not a 0.
DECIMALS = 2
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


def job_totals(series: Iterable[Series], group: str, pod: str) -> dict[tuple[str, str], float]:
    """Sum of every series' values by group and job: a pod by its name, a Slurm job (``hpc_job``, which has no pod
    label) as ``hpc_job <id>``, so the jobs of one group are not summed into one nameless job."""
    out: dict[tuple[str, str], float] = defaultdict(float)
    for s in series:
        job = s.labels.get(JOB_LABEL, "")
        name = s.labels.get(pod, "") or (f"{JOB_LABEL} {job}" if job else "")
        out[(s.labels.get(group, ""), name)] += sum(v for _, v in s.points if math.isfinite(v))
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
        priced = [m for m in models if m in hour_cost]
        # a group on unpriced models only has no idle cost ("—"), not a free one (0.00)
        idle_cost = sum(idle_by_model[m] * hour_cost[m] for m in priced) if priced else None
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


@dataclass(frozen=True, slots=True)
class Distribution:
    """The fleet's GPUs by mean activity over the range, counted as capacity counts them (physical GPUs): a whole
    GPU is 1, a MIG instance its share of its GPU, and the slices of a MIG GPU in no instance (they do no work)
    count below 10%. So the buckets and ``no_reading`` add up to the GPUs at the range's end."""

    gpus: dict[str, float]  # physical GPUs per bucket
    whole: dict[str, int]  # whole GPUs per bucket
    instances: dict[str, int]  # MIG instances per bucket
    unpartitioned: float  # GPUs' worth of MIG slices in no instance (in "<10%")
    no_reading: float  # GPUs with a share but no activity reading in the range (in no bucket)


def bucket(mean: float) -> str:
    """The distribution's bucket of a mean activity: below 10%, 10-50%, above 50%."""
    return BUCKETS[0] if mean < 0.1 else BUCKETS[1] if mean <= 0.5 else BUCKETS[2]


def distribution(means: Mapping[tuple[str, str], float], shares: Mapping[tuple[str, str], float]) -> Distribution:
    """The distribution of the units ``shares`` names (``(UUID, GPU_I_ID)`` -> share of a physical GPU; ``GPU_I_ID``
    empty for a whole GPU) by their mean activity ``means`` (same keys; units absent from ``shares`` are gone from
    the fleet by the range's end and not counted, as capacity does not count them)."""
    gpus = dict.fromkeys(BUCKETS, 0.0)
    whole = dict.fromkeys(BUCKETS, 0)
    instances = dict.fromkeys(BUCKETS, 0)
    no_reading = 0.0
    mig_share: dict[str, float] = defaultdict(float)  # per MIG GPU: the share its instances cover
    for (uuid, instance), share in sorted(shares.items()):
        if instance:
            mig_share[uuid] += share
        mean = means.get((uuid, instance))
        if mean is None:
            no_reading += share
            continue
        b = bucket(mean)
        gpus[b] += share
        (instances if instance else whole)[b] += 1
    # float sums of g/7 shares: a fully partitioned GPU leaves 1e-16, not a slice
    unpartitioned = sum(1.0 - covered for covered in mig_share.values() if 1.0 - covered > 1e-9)
    gpus[BUCKETS[0]] += unpartitioned
    return Distribution(gpus=gpus, whole=whole, instances=instances, unpartitioned=unpartitioned, no_reading=no_reading)


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
