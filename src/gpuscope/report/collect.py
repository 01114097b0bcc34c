"""Running the report's queries against Prometheus and turning the answers into one ``Report`` (the I/O edge).

The tier is chosen by the range: up to ``raw_max_days`` the raw exporter series at 5 m steps (incidents and
per-pod tables need them), beyond it the 1 h chargeback rollups. Bad input is a ``UsageError`` (exit 2) raised
before anything is written: no data in the range, a group-by label no series carries, a price for a model the
fleet does not have.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from gpuscope.errors import UsageError
from gpuscope.prom import Client, Series
from gpuscope.report import compute
from gpuscope.report.queries import GROUP_BYS, ROLLUP_GROUP_BYS, Queries, Tier, group_label
from gpuscope.rules.config import RulesConfig

STEPS: dict[Tier, int] = {"raw": 300, "rollup": 3600}
MAX_POINTS = 11_000  # Prometheus refuses range queries with more points per series


@dataclass(frozen=True, slots=True)
class ReportRequest:
    start: float
    end: float
    group_by: str = "namespace"
    kwh_price: float | None = None
    hour_costs: tuple[tuple[str, float], ...] = ()
    tier: Literal["auto", "raw", "rollup"] = "auto"
    raw_max_days: float = 15.0
    team_label: str = "team"
    idle_ratio: float = 0.05
    idle_min_seconds: float = 3600.0
    raw_step: int = STEPS["raw"]  # shorter on a local stack with minutes of history
    config: RulesConfig = field(default_factory=RulesConfig)


@dataclass(frozen=True, slots=True)
class QueryRecord:
    name: str
    expr: str
    kind: str  # "range" or "instant"
    how: str  # how the number is derived from the answer


@dataclass(frozen=True, slots=True)
class Report:
    start: float
    end: float
    step: int
    tier: Tier
    group_by: str
    group_label: str
    rows: tuple[compute.GroupRow, ...]
    capacity_by_model: dict[str, float]
    allocated: dict[float, float]
    capacity: dict[float, float]
    fleet_activity: dict[float, float]
    distribution: dict[str, int]
    prof_gpus: int
    units: int
    incidents: tuple[compute.Incident, ...] | None
    attributed: bool  # whether any allocation (workload info) series exists in the range
    forecast: compute.Forecast | None
    kwh_price: float | None
    hour_costs: dict[str, float]
    queries: tuple[QueryRecord, ...]
    query_count: int = 0
    bytes_fetched: int = 0


def choose_tier(request: ReportRequest) -> Tier:
    if request.tier != "auto":
        return request.tier
    return "raw" if request.end - request.start <= request.raw_max_days * compute.DAY else "rollup"


def step_of(request: ReportRequest, tier: Tier) -> int:
    return request.raw_step if tier == "raw" else STEPS["rollup"]


def validate(request: ReportRequest) -> Tier:
    if not math.isfinite(request.start) or not math.isfinite(request.end) or request.end <= request.start:
        raise UsageError("--from must be before --to (e.g. --from 2026-11-01 --to 2026-12-01)")
    if request.group_by not in GROUP_BYS:
        raise UsageError(f"--group-by {request.group_by!r}: choose one of {', '.join(GROUP_BYS)}")
    tier = choose_tier(request)
    if tier == "rollup" and request.group_by not in ROLLUP_GROUP_BYS:
        raise UsageError(
            f"--group-by {request.group_by}: the 1 h rollups carry {', '.join(ROLLUP_GROUP_BYS)} only (no pod); "
            f"use a range of at most {request.raw_max_days:g} days or --tier raw"
        )
    if not 1 <= request.raw_step <= STEPS["rollup"]:
        raise UsageError(f"--step {request.raw_step}: give seconds between 1 and 3600 (the raw tier's step)")
    if (request.end - request.start) / step_of(request, tier) > MAX_POINTS:
        days = MAX_POINTS * step_of(request, tier) / compute.DAY
        raise UsageError(f"--from/--to: at most {days:.0f} days in one report on the {tier} tier")
    for model, price in request.hour_costs:
        if not math.isfinite(price) or price < 0:
            raise UsageError(f"--gpu-hour-cost {model}={price}: give a price of zero or more")
    if request.kwh_price is not None and (not math.isfinite(request.kwh_price) or request.kwh_price < 0):
        raise UsageError(f"--price-per-kwh {request.kwh_price}: give a price of zero or more")
    return tier


def finite(series: tuple[Series, ...]) -> tuple[Series, ...]:
    """``series`` without NaN and infinite points (0/0 is ordinary PromQL: a GPU with no samples in a window), so
    every sum, count and bucket of the report is over numbers; a series left without points is left out."""
    out = []
    for s in series:
        points = tuple(p for p in s.points if math.isfinite(p[0]) and math.isfinite(p[1]))
        if points:
            out.append(s if len(points) == len(s.points) else Series(s.labels, points))
    return tuple(out)


def collect(client: Client, request: ReportRequest) -> Report:
    tier = validate(request)
    step = step_of(request, tier)
    start = math.floor(request.start / step) * step
    end = math.floor(request.end / step) * step
    if end <= start:
        raise UsageError(f"--from/--to: the range is shorter than one {step}s step of the {tier} tier")
    label = group_label(request.group_by, request.config, request.team_label)
    q = Queries(config=request.config, tier=tier, group_label=label, step=step, team_label=request.team_label)
    records: list[QueryRecord] = []

    def ranged(name: str, expr: str, how: str) -> tuple[Series, ...]:
        records.append(QueryRecord(name=name, expr=expr, kind=f"range, step {step}s", how=how))
        return finite(client.query_range(expr, start + step, end, step))

    def instant(name: str, expr: str, how: str) -> tuple[Series, ...]:
        records.append(QueryRecord(name=name, expr=expr, kind=f"instant at --to ({end:.0f})", how=how))
        return finite(tuple(Series(s.labels, ((end, s.value),)) for s in client.query(expr, end)))

    hours = f"sum of values x {step}s / 3600"
    capacity = ranged("GPUs in the fleet", q.capacity(), "per step, summed over models; the latest is capacity")
    held = ranged("GPU-hours held", q.held(), hours)
    if not capacity:
        source = "raw exporter series" if tier == "raw" else "1 h chargeback rollups"
        raise UsageError(
            f"--from/--to: no GPU series between {start:.0f} and {end:.0f} in the {source}; pick a range with data"
        )
    keys = (label, "modelName")
    held_t = compute.totals(held, *keys)
    # No allocations at all (no attribution configured) still gives the fleet figures; the tables are empty.
    if held_t and all(g == "" for g, _ in held_t):
        raise UsageError(
            f"--group-by {request.group_by}: no allocation carries the label {label!r}"
            + (" (set --team-label to the pod label naming teams)" if request.group_by == "team" else "")
        )
    models = {m for s in capacity for m in [s.labels.get("modelName", "")] if m}
    for model, _ in request.hour_costs:
        if model not in models:
            raise UsageError(
                f"--gpu-hour-cost {model}=...: the fleet has no {model!r}; it has {', '.join(sorted(models))}"
            )
    active = ranged("active GPU-hours", q.active(), hours + " (activity-weighted)")
    power = ranged("energy", q.power(), f"sum of watts x {step}s / 3.6e6 = kWh")
    jobs: dict[tuple[str, str], float] = {}
    if tier == "raw":
        top = ranged("top jobs (GPU-hours per pod)", q.top_jobs(), hours)
        jobs = compute.totals(top, label, request.config.pod_label)
    fleet_act = ranged("fleet utilization", q.fleet_activity(), "mean over GPUs at each step")
    seconds = int(end - start)
    per_gpu = instant(
        "utilization distribution", q.per_gpu_activity(seconds), "each GPU's mean over the range, bucketed"
    )
    prof = instant("GPUs with profiling counters", q.prof_coverage(), "count")
    found_incidents: tuple[compute.Incident, ...] | None = None
    # Zombie memory means "in use on a GPU nobody holds": without any attribution every busy GPU would be one.
    if tier == "raw" and held:
        c = request.config
        zombies = ranged("zombie GPU memory", q.zombies(), "runs of consecutive steps")
        idle = ranged("allocated-but-idle", q.idle_allocations(request.idle_ratio), "runs of at least 1 h")
        found_incidents = tuple(
            compute.incidents(zombies, step, "zombie memory", (c.host_label, c.uuid_label), 2 * step)
            + compute.incidents(
                idle,
                step,
                "allocated but idle",
                (c.namespace_label, c.pod_label, c.uuid_label),
                request.idle_min_seconds,
            )
        )
    capacity_t = compute.by_time(capacity)
    held_by_time = compute.by_time(held)
    allocated = {t: held_by_time.get(t, 0.0) for t in sorted(set(capacity_t) | set(held_by_time))}
    last = max(capacity_t) if capacity_t else end
    capacity_by_model = {s.labels.get("modelName", ""): dict(s.points).get(last, 0.0) for s in capacity}
    return Report(
        start=start,
        end=end,
        step=step,
        tier=tier,
        group_by=request.group_by,
        group_label=label,
        rows=compute.group_rows(
            held_t,
            compute.totals(active, *keys),
            compute.totals(power, *keys),
            jobs,
            step,
            dict(request.hour_costs),
            request.kwh_price,
        ),
        capacity_by_model=capacity_by_model,
        allocated=allocated,
        capacity=capacity_t,
        fleet_activity=compute.by_time(fleet_act),
        distribution=compute.distribution(v for s in per_gpu for _, v in s.points),
        prof_gpus=int(sum(v for s in prof for _, v in s.points)),
        units=len(per_gpu),
        incidents=found_incidents,
        attributed=bool(held),
        forecast=compute.forecast(allocated, capacity_t.get(last, 0.0)),
        kwh_price=request.kwh_price,
        hour_costs=dict(request.hour_costs),
        queries=tuple(records),
        query_count=client.requests,
        bytes_fetched=client.bytes_read,
    )
