"""Running the report's queries against Prometheus and turning the answers into one ``Report`` (the I/O edge).

The tier is chosen by the range: up to ``raw_max_days`` the raw exporter series at 5 m steps (incidents and
per-pod tables need them), beyond it the 1 h chargeback rollups. Before the numbers, two facts about the store:
the form its workload attribution takes (``attribution.py``; ``--attribution auto``) and, for the raw tier, the
scrape interval each sample stands for (``--scrape-interval auto``), each found by a bounded query. Bad input is a
``UsageError`` (exit 2) raised before anything is written: no data in the range, a group-by label no series
carries, a price for a model the fleet does not have.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Literal

from gpuscope.errors import InvalidValue, UsageError
from gpuscope.prom import Client, Series
from gpuscope.report import compute
from gpuscope.report.attribution import (
    DETECTION_ORDER,
    UUID_LABELS,
    Attribution,
    Dialect,
    configure,
    probe,
    uuid_probe,
)
from gpuscope.report.queries import (
    GROUP_BYS,
    PROBE_SECONDS,
    ROLLUP_GROUP_BYS,
    SCRAPE_SECONDS,
    Queries,
    Tier,
    group_label,
    sample_times,
    scrape_probe,
)
from gpuscope.ruleconfig.config import RulesConfig

log = logging.getLogger(__name__)

STEPS: dict[Tier, int] = {"raw": 300, "rollup": 3600}
MAX_POINTS = 11_000  # Prometheus refuses range queries with more points per series
# Scrape-interval sub-steps one raw-tier query evaluates at most (12 h at 15 s): the per-instant expressions'
# intermediate results are series x sub-steps samples, and Prometheus refuses a query above --query.max-samples
# (50 M by default), so a long range is asked in chunks of whole steps.
MAX_SUBSTEPS = 2880
# Pieces asked at once: Prometheus evaluates each query on one core, so a long range takes a fraction of the time on a
# server with cores to spare (its --query.max-concurrency is 20 by default).
PARALLEL = 4
# The most series one answer may hold: one per GPU (the per-GPU activity, the incidents) for a fleet of 12,500
# eight-GPU nodes, or one per pod. A store answering more is refused with the query's name: 150,000 series once
# took the report past its memory (a MemoryError, once a segfault in the plotting) instead of a message.
MAX_SERIES = 100_000
MAX_CURRENCY = 16  # characters of --currency: a code or a symbol, not a sentence


@dataclass(frozen=True, slots=True)
class Quantity:
    """What a query's values are, and the largest magnitude one series' point can physically have: beyond it a
    point is no measurement (a 1e308 sample, a counter gone wild) and would overflow the sums, the costs and the
    plots' axes; such points are dropped, counted and named in the report."""

    unit: str
    bound: float


GPUS = Quantity("GPUs", 1e7)  # a count of GPUs in one series: no fleet holds ten million
WATTS = Quantity("W", 2e10)  # ten million GPUs at 2 kW, more than any GPU draws
RATIO = Quantity("(activity ratio)", 100.0)  # 0 to 1; even a percentage read as a ratio stays under 100
MIB = Quantity("MiB", 1e7)  # framebuffer memory of one GPU: 10 TiB is far beyond any


@dataclass(frozen=True, slots=True)
class Dropped:
    """Points of one query left out of every figure, and why."""

    query: str
    infinite: int  # +Inf or -Inf
    beyond: int  # finite, beyond the quantity's bound
    bound: str  # the bound, with its unit

    def describe(self) -> str:
        why = []
        if self.infinite:
            why.append(f"{self.infinite:,} infinite")
        if self.beyond:
            why.append(f"{self.beyond:,} beyond {self.bound}, no physical value")
        return f"{self.query}: {self.infinite + self.beyond:,} points dropped ({'; '.join(why)})"


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
    attribution: Dialect | Literal["auto"] = "auto"
    scrape_interval: int | None = None  # seconds each raw sample stands for; None: detected from the store
    max_series: int = MAX_SERIES  # series one answer may hold
    currency: str = ""  # what the prices are in, shown with every cost ("" -> "cost units")


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
    distribution: compute.Distribution
    prof_gpus: int
    units: int
    incidents: tuple[compute.Incident, ...] | None
    attributed: bool  # whether any allocation (workload info) series exists in the range
    forecast: compute.Forecast | None
    kwh_price: float | None
    hour_costs: dict[str, float]
    queries: tuple[QueryRecord, ...]
    attribution: Attribution
    scrape_interval: int = SCRAPE_SECONDS  # raw tier: the seconds each sample stands for
    scrape_source: str = "default"  # "detected", "given" (the request's) or "default" (nothing to detect it from)
    query_count: int = 0
    bytes_fetched: int = 0
    dropped: tuple[Dropped, ...] = ()  # points of the answers left out of every figure, per query
    currency: str = ""
    unpriced: tuple[str, ...] = ()  # models of the fleet without a --gpu-hour-cost: their idle hours have no cost

    @property
    def cost_unit(self) -> str:
        """What every cost is in: the --currency, or "cost units" where none was given."""
        return self.currency or "cost units"


def choose_tier(request: ReportRequest) -> Tier:
    if request.tier != "auto":
        return request.tier
    return "raw" if request.end - request.start <= request.raw_max_days * compute.DAY else "rollup"


def step_of(request: ReportRequest, tier: Tier) -> int:
    return request.raw_step if tier == "raw" else STEPS["rollup"]


def validate(request: ReportRequest) -> Tier:
    if not math.isfinite(request.start) or not math.isfinite(request.end) or request.end <= request.start:
        raise InvalidValue(
            "start",
            "",
            "{start} must be before {end} (e.g. {start} 2026-11-01 {end} 2026-12-01)",
            refs=("start", "end"),
        )
    if request.group_by not in GROUP_BYS:
        raise InvalidValue("group_by", repr(request.group_by), f"choose one of {', '.join(GROUP_BYS)}")
    tier = choose_tier(request)
    if tier == "rollup" and request.group_by not in ROLLUP_GROUP_BYS:
        raise InvalidValue(
            "group_by",
            request.group_by,
            f"the 1 h rollups carry {', '.join(ROLLUP_GROUP_BYS)} only (no pod); "
            f"use a range of at most {request.raw_max_days:g} days or {{tier}} raw",
            refs=("tier",),
        )
    if not 1 <= request.raw_step <= STEPS["rollup"]:
        raise InvalidValue("raw_step", str(request.raw_step), "give seconds between 1 and 3600 (the raw tier's step)")
    if request.scrape_interval is not None and not 1 <= request.scrape_interval <= PROBE_SECONDS:
        raise InvalidValue(
            "scrape_interval",
            str(request.scrape_interval),
            f"give the exporters' scrape interval in seconds (1 to {PROBE_SECONDS}), or auto",
        )
    if (request.end - request.start) / step_of(request, tier) > MAX_POINTS:
        days = MAX_POINTS * step_of(request, tier) / compute.DAY
        raise InvalidValue("range", "", f"at most {days:.0f} days in one report on the {tier} tier")
    if len(request.currency) > MAX_CURRENCY or not request.currency.isprintable():
        raise InvalidValue(
            "currency",
            f"{request.currency!r:.80}",
            f"give a currency code or symbol of at most {MAX_CURRENCY} printable characters (USD, EUR, €)",
        )
    for model, price in request.hour_costs:
        if not math.isfinite(price) or price < 0:
            raise InvalidValue("hour_costs", f"{model}={price}", "give a price of zero or more")
    if request.kwh_price is not None and (not math.isfinite(request.kwh_price) or request.kwh_price < 0):
        raise InvalidValue("kwh_price", str(request.kwh_price), "give a price of zero or more")
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


def bounded(
    series: tuple[Series, ...], name: str, quantity: Quantity, max_series: int = MAX_SERIES
) -> tuple[tuple[Series, ...], Dropped | None]:
    """``finite(series)`` without the points beyond ``quantity``'s bound either, and what was dropped (NaN is not
    counted: 0/0 is ordinary PromQL); ``UsageError`` naming the query when the answer holds too many series."""
    if len(series) > max_series:
        raise UsageError(
            f"the query for {name!r} answered {len(series):,} series, more than the report reads "
            f"({max_series:,}): report a shorter range, or per cluster (a Prometheus per cluster)"
        )
    infinite = sum(1 for s in series for _, v in s.points if math.isinf(v))
    beyond = sum(1 for s in series for _, v in s.points if math.isfinite(v) and abs(v) > quantity.bound)
    kept = finite(series)
    if beyond:
        kept = tuple(
            Series(s.labels, points)
            for s in kept
            for points in [tuple(p for p in s.points if abs(p[1]) <= quantity.bound)]
            if points
        )
    if not infinite and not beyond:
        return kept, None
    return kept, Dropped(query=name, infinite=infinite, beyond=beyond, bound=f"{quantity.bound:g} {quantity.unit}")


def attribution_of(client: Client, request: ReportRequest, start: float, end: float) -> Attribution:
    """The form of workload attribution: as given, or the first form the store has in the range; and the label
    naming a GPU (the configured spelling, or the other one where only that one is in the store)."""
    seconds = int(end - start)
    uuid = request.config.uuid_label
    if not client.query(uuid_probe(request.config, uuid, seconds), end):
        other = next(label for label in UUID_LABELS if label != uuid)
        if client.query(uuid_probe(request.config, other, seconds), end):
            uuid = other
    if request.attribution != "auto":
        return Attribution(dialect=request.attribution, detected=False, uuid_label=uuid)
    for dialect in DETECTION_ORDER:
        if client.query(probe(request.config, dialect, seconds), end):
            return Attribution(dialect=dialect, detected=True, uuid_label=uuid)
    return Attribution(dialect="none", detected=True, uuid_label=uuid)


def scrape_of(client: Client, request: ReportRequest, start: float, end: float) -> tuple[int, str]:
    """The seconds each raw sample stands for, and where that came from: the flag, or the store (the median spacing
    of the samples of the GPU series with the most in 10 minutes, looked for at up to 24 points of the range and at
    its end), or the default when the range has no series with two samples."""
    if request.scrape_interval is not None:
        return request.scrape_interval, "given"
    every = max(PROBE_SECONDS, int(end - start) // 24)
    probe = scrape_probe(request.config)
    at_end = tuple(Series(s.labels, ((end, s.value),)) for s in client.query(probe, end))
    found = finite((*client.query_range(probe, min(start + every, end), end, every), *at_end))
    best = max(((v, t, s.labels) for s in found for t, v in s.points if v >= 2), default=None, key=lambda b: b[0])
    if best is None:
        return SCRAPE_SECONDS, "default"
    _, at, labels = best
    answer = client.query_range(sample_times(request.config, labels), at - PROBE_SECONDS, at, 1)
    times = sorted({v for s in finite(answer) for _, v in s.points})
    gaps = sorted(b - a for a, b in itertools.pairwise(times))
    if not gaps:
        return SCRAPE_SECONDS, "default"
    return max(1, round(gaps[len(gaps) // 2])), "detected"


def chunks(start: float, end: float, step: int, scrape: int) -> list[tuple[float, float]]:
    """``(start, end]`` in pieces of whole steps holding at most ``MAX_SUBSTEPS`` scrape intervals each."""
    size = max(1, MAX_SUBSTEPS * scrape // step) * step
    return [(t, min(end, t + size)) for t in range(int(start), int(end), size)]


def merged(parts: list[tuple[Series, ...]]) -> tuple[Series, ...]:
    """The series of consecutive range answers, each label set's points joined in time order."""
    points: dict[frozenset[tuple[str, str]], dict[float, float]] = {}
    labels: dict[frozenset[tuple[str, str]], Mapping[str, str]] = {}
    for part in parts:
        for s in part:
            key = frozenset(s.labels.items())
            labels.setdefault(key, s.labels)
            points.setdefault(key, {}).update(s.points)  # one point per time, should pieces ever touch
    return tuple(Series(labels[k], tuple(sorted(p.items()))) for k, p in points.items())


def queries_for(
    client: Client, request: ReportRequest, tier: Tier, span: tuple[float, float], attribution: Attribution
) -> tuple[Queries, str]:
    """The queries for the store's attribution form and, on the raw tier, its scrape interval (and whence it came)."""
    config = configure(request.config, attribution)
    scrape, source = scrape_of(client, request, *span) if tier == "raw" else (SCRAPE_SECONDS, "not used")
    queries = Queries(
        config=config,
        tier=tier,
        group_label=group_label(request.group_by, config, request.team_label),
        step=step_of(request, tier),
        team_label=request.team_label,
        scrape=scrape,
    )
    return queries, source


def found(
    request: ReportRequest,
    q: Queries,
    span: tuple[float, float],
    capacity: tuple[Series, ...],
    held: Mapping[tuple[str, str], float],
) -> None:
    """The store has what the request asks about: GPUs in the range, the group-by label on the allocations, the
    models priced."""
    if not capacity:
        source = "raw exporter series" if q.tier == "raw" else "1 h chargeback rollups"
        raise InvalidValue(
            "range",
            "",
            f"no GPU series between {span[0]:.0f} and {span[1]:.0f} in the {source}; pick a range with data",
        )
    # No allocations at all (no attribution configured) still gives the fleet figures; the tables are empty.
    if held and all(g == "" for g, _ in held):
        raise InvalidValue(
            "group_by",
            request.group_by,
            f"no allocation carries the label {q.group_label!r}"
            + (" (set {team_label} to the pod label naming teams)" if request.group_by == "team" else ""),
            refs=("team_label",),
        )
    models = models_of(capacity)
    for model, _ in request.hour_costs:
        if model not in models:
            raise InvalidValue(
                "hour_costs", f"{model}=...", f"the fleet has no {model!r}; it has {', '.join(sorted(models))}"
            )


@dataclass
class Reader:
    """Runs the report's queries and reads their answers: each query recorded for the appendix, each answer bounded
    (``bounded``) and what it dropped kept for the report and said on stderr (a CSV has no room for it)."""

    client: Client
    step: int
    end: float
    pieces: Sequence[tuple[float, float]]  # the range in pieces (``chunks``)
    max_series: int = MAX_SERIES
    records: list[QueryRecord] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)

    def read(self, name: str, answer: tuple[Series, ...], quantity: Quantity) -> tuple[Series, ...]:
        kept, lost = bounded(answer, name, quantity, self.max_series)
        if lost is not None:
            self.dropped.append(lost)
            log.warning("%s", lost.describe())
        return kept

    def ranged(self, name: str, expr: str, how: str, quantity: Quantity) -> tuple[Series, ...]:
        step, pieces = self.step, self.pieces
        kind = f"range, step {step}s" + (f", in {len(pieces)} pieces" if len(pieces) > 1 else "")
        self.records.append(QueryRecord(name=name, expr=expr, kind=kind, how=how))

        def piece_of(piece: tuple[float, float]) -> tuple[Series, ...]:
            answer = self.client.query_range(expr, piece[0] + step, piece[1], step)
            if (
                len(answer) > self.max_series
            ):  # each piece as it comes: the pieces at once would hold several times more
                bounded(answer, name, quantity, self.max_series)
            return answer

        with ThreadPoolExecutor(max_workers=PARALLEL, thread_name_prefix="report piece") as pool:
            parts = list(pool.map(piece_of, pieces))
        return self.read(name, merged(parts), quantity)

    def instant(self, name: str, expr: str, how: str, quantity: Quantity) -> tuple[Series, ...]:
        end = self.end
        self.records.append(QueryRecord(name=name, expr=expr, kind=f"instant at the end ({end:.0f})", how=how))
        answer = tuple(Series(s.labels, ((end, s.value),)) for s in self.client.query(expr, end))
        return self.read(name, answer, quantity)


def collect(client: Client, request: ReportRequest) -> Report:
    tier = validate(request)
    step = step_of(request, tier)
    start = math.floor(request.start / step) * step
    end = math.floor(request.end / step) * step
    if end <= start:
        raise InvalidValue("range", "", f"the range is shorter than one {step}s step of the {tier} tier")
    attribution = attribution_of(client, request, start, end)
    q, scrape_source = queries_for(client, request, tier, (start, end), attribution)
    label, config = q.group_label, q.config
    pieces = chunks(start, end, step, q.scrape) if tier == "raw" else [(start, end)]
    reader = Reader(client=client, step=step, end=end, pieces=pieces, max_series=request.max_series)
    ranged, instant = reader.ranged, reader.instant

    def held_by(name: str, expr: str, how: str, quantity: Quantity) -> tuple[Series, ...]:
        # without attribution (told none, or none found) nobody holds anything: no table, the fleet figures still
        return ranged(name, expr, how, quantity) if attribution.dialect != "none" else ()

    hours = f"sum of values x {step}s / 3600"
    capacity = ranged("GPUs in the fleet", q.capacity(), "mean GPUs seen per step, summed over models", GPUS)
    held = held_by("GPU-hours held" + (" (and per pod: top jobs)" if tier == "raw" else ""), q.held(), hours, GPUS)
    keys = (label, "modelName")
    held_t = compute.totals(held, *keys)
    found(request, q, (start, end), capacity, held_t)
    active = held_by("active GPU-hours", q.active(), hours + " (activity-weighted)", GPUS)
    power = held_by("energy", q.power(), f"sum of watts x {step}s / 3.6e6 = kWh", WATTS)
    jobs = compute.job_totals(held, label, config.pod_label) if tier == "raw" else {}
    fleet_act = ranged("fleet utilization", q.fleet_activity(), "mean over GPUs at each step", RATIO)
    seconds = int(end - start)
    per_gpu = instant(
        "utilization distribution",
        q.per_gpu_activity(seconds),
        "each GPU's and MIG instance's mean over the range, bucketed",
        RATIO,
    )
    shares = instant(
        "GPU share of each GPU and MIG instance",
        q.unit_shares(),
        "the distribution's weights: a whole GPU 1, a MIG instance its share of compute slices",
        GPUS,
    )
    prof = instant("GPUs with profiling counters", q.prof_coverage(), "count", GPUS)
    found_incidents: tuple[compute.Incident, ...] | None = None
    # Zombie memory means "in use on a GPU nobody holds": without any attribution every busy GPU would be one.
    if tier == "raw" and held:
        c = config
        zombies = ranged("zombie GPU memory", q.zombies(), "runs of consecutive steps", MIB)
        idle = ranged("allocated-but-idle", q.idle_allocations(request.idle_ratio), "runs of at least 1 h", RATIO)
        found_incidents = tuple(
            compute.incidents(zombies, step, "zombie memory", (c.host_label, c.uuid_label, "GPU_I_ID"), 2 * step)
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
    now = instant("GPUs at the end of the range", q.capacity_now(), "count by model: the fleet's capacity", GPUS)
    capacity_by_model = {s.labels.get("modelName", ""): s.points[0][1] for s in now}
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
        distribution=compute.distribution(
            unit_values(per_gpu, config.uuid_label), unit_values(shares, config.uuid_label)
        ),
        prof_gpus=int(sum(v for s in prof for _, v in s.points)),
        units=len(per_gpu),
        incidents=found_incidents,
        attributed=bool(held),
        forecast=compute.forecast(allocated, sum(capacity_by_model.values())),
        kwh_price=request.kwh_price,
        hour_costs=dict(request.hour_costs),
        queries=tuple(reader.records),
        attribution=attribution,
        scrape_interval=q.scrape,
        scrape_source=scrape_source,
        query_count=client.requests,
        bytes_fetched=client.bytes_read,
        dropped=tuple(reader.dropped),
        currency=request.currency,
        unpriced=tuple(sorted(m for m in models_of(capacity) if m not in dict(request.hour_costs))),
    )


def models_of(capacity: tuple[Series, ...]) -> set[str]:
    """The models of the fleet (the capacity answer's)."""
    return {m for s in capacity for m in [s.labels.get("modelName", "")] if m}


def unit_values(answer: tuple[Series, ...], uuid_label: str) -> dict[tuple[str, str], float]:
    """An instant answer's value per unit, ``(UUID, GPU_I_ID)`` (``GPU_I_ID`` empty for a whole GPU)."""
    return {(s.labels.get(uuid_label, ""), s.labels.get("GPU_I_ID", "")): v for s in answer for _, v in s.points}
