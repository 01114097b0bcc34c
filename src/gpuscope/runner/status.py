"""What the local stack looks like right now, asked of its own APIs: the live view and ``gpuscope status``.

Per cluster and replica: exporter targets up, GPUs reporting, samples per second, rules, Alertmanagers; firing
alerts by owner from Alertmanager; notifications received; and the Phase 1 floor (docs/architecture.md) as
checks that turn green. The floor is the doctor's own checks (``doctor.checks``, ids ``FLOOR_CHECKS``), run on
what each replica answered, plus the global store holding each cluster's GPUs: one floor, judged one way.

Everything is a ``StackStatus``; ``to_json`` is the document ``gpuscope status --json`` prints (docs/local-stack.md
lists its keys). An endpoint that does not answer is a replica ``reachable: false`` or an empty list, never an
exception: the view shows what it can.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from gpuscope.doctor.checks import evaluate
from gpuscope.doctor.detect import Detected
from gpuscope.doctor.expect import Expectation
from gpuscope.doctor.observations import LoadedConfig, Observations, exporter_targets, scalar
from gpuscope.doctor.queries import floor_queries
from gpuscope.doctor.results import Status
from gpuscope.doctor.timing import Timing, default_window
from gpuscope.durations import prometheus_seconds
from gpuscope.errors import ApiError, QueryFailed
from gpuscope.prom import AsyncClient, Endpoint, Limits, Rule, Sample, Target, Vector, aio
from gpuscope.rules import Alert, build_groups
from gpuscope.rules.promql import Promql
from gpuscope.runner.plan import LocalPlan

# The doctor's floor checks that one replica's own answers decide (the HA pair and the global path need two
# endpoints: the view shows both replicas side by side, and checks the global store below).
FLOOR_CHECKS = ("exporter-targets", "gpus-reporting", "rule-groups", "alertmanager")
_ASKED = ("targets.up", "targets.total", "gpus.now", "gpus.window", "gpus.up_without", "rules.failures", "am.errors")
REPLICAS = ("a", "b")


@dataclass(frozen=True, slots=True, kw_only=True)
class FloorCheck:
    name: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplicaStatus:
    reachable: bool
    targets_up: int = 0
    gpus_reporting: int = 0
    samples_per_second: float = 0.0
    rule_groups: int = 0
    rule_errors: int = 0
    alertmanagers: int = 0
    floor: tuple[FloorCheck, ...] = ()  # the doctor's floor checks on this replica's answers


@dataclass(frozen=True, slots=True, kw_only=True)
class ClusterStatus:
    name: str
    targets_total: int
    gpus_expected: int
    replicas: Mapping[str, ReplicaStatus]  # "a", "b"

    @property
    def best(self) -> ReplicaStatus:
        """The replica the summary columns show: A, unless only B answers."""
        a, b = self.replicas["a"], self.replicas["b"]
        return a if a.reachable or not b.reachable else b

    def to_json(self) -> dict[str, Any]:
        replicas = {r: {k: v for k, v in asdict(s).items() if k != "floor"} for r, s in self.replicas.items()}
        return {
            "name": self.name,
            "targets_total": self.targets_total,
            "targets_up": {r: s.targets_up for r, s in self.replicas.items()},
            "gpus_expected": self.gpus_expected,
            "gpus_reporting": self.best.gpus_reporting,
            "samples_per_second": self.best.samples_per_second,
            "replicas": replicas,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class FiringAlert:
    alertname: str
    owner: str
    severity: str
    labels: Mapping[str, str]


@dataclass(frozen=True, slots=True, kw_only=True)
class StackStatus:
    clusters: tuple[ClusterStatus, ...]
    firing: tuple[FiringAlert, ...]
    alertmanager_reachable: bool
    notifications: int
    remediation: tuple[str, ...]
    global_gpus_by_cluster: Mapping[str, int]
    global_exporter_targets_by_cluster: Mapping[str, int]
    floor: tuple[FloorCheck, ...] = field(default=())

    @property
    def floor_green(self) -> bool:
        return bool(self.floor) and all(c.ok for c in self.floor)

    def to_json(self) -> dict[str, Any]:
        return {
            "clusters": [c.to_json() for c in self.clusters],
            "alerts": {
                "firing_by_owner": dict(Counter(al.owner for al in self.firing)),
                "firing": [{**asdict(al), "labels": dict(al.labels)} for al in self.firing],
            },
            "alertmanager_reachable": self.alertmanager_reachable,
            "notifications": self.notifications,
            "remediation": list(self.remediation),
            "global": {
                "gpus_by_cluster": dict(self.global_gpus_by_cluster),
                "exporter_targets_by_cluster": dict(self.global_exporter_targets_by_cluster),
            },
            "floor": [asdict(c) for c in self.floor],
        }


# The alert a healthy local stack raises by design: the teams mix's idle team holds a GPU it never uses
# (backends/sim/teams.py). The tour says when it arrives.
STORY_ALERT = "GPUAllocatedButIdle"


@dataclass(frozen=True, slots=True, kw_only=True)
class StoryAlert:
    """When the story alert fires, read from the rules the stack's Prometheus servers run (its ``for`` as the
    spec's thresholds and speedup make it), not assumed: ``for: 50m`` at real time, 15x sooner with ``--fast``."""

    alert: str
    for_: str
    # From the stack's start: the ``for``, plus the evaluation that first records the idle GPU and the one that
    # fires it (the alert and the record it reads are both evaluated on the group's interval).
    fires_after_seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"alert": self.alert, "for": self.for_, "fires_after_seconds": self.fires_after_seconds}


def story_alert(plan: LocalPlan) -> StoryAlert | None:
    """The story alert as this stack's rules have it, or None where the spec's rules have none."""
    for group in build_groups(plan.spec.rules_config()):
        for rule in group.rules:
            if isinstance(rule, Alert) and rule.name == STORY_ALERT:
                interval_s = prometheus_seconds(group.interval or plan.spec.evaluation_interval)
                return StoryAlert(
                    alert=rule.name, for_=rule.for_, fires_after_seconds=prometheus_seconds(rule.for_) + 2 * interval_s
                )
    return None


# The live view asks every second: an endpoint slower than this is shown as not answering, not waited for.
ASK_TIMEOUT_S = 3.0


@asynccontextmanager
async def stack_clients(plan: LocalPlan) -> AsyncIterator[dict[str, AsyncClient]]:
    """One client per API of the stack, by its ``plan.urls()`` name, over one connection pool."""
    limits = Limits(timeout_s=ASK_TIMEOUT_S)
    async with aio.http_client() as http:
        yield {
            name: AsyncClient(Endpoint(url, flag=name, kind=_kind(name)), http, limits=limits, max_in_flight=16)
            for name, url in plan.urls().items()
            if name.startswith("prometheus-") or name in ("global", "alertmanager", "remediate")
        }


def _kind(name: str) -> str:
    return {"alertmanager": "Alertmanager", "remediate": "remediator", "global": "Prometheus-compatible query"}.get(
        name, "Prometheus"
    )


def expected_gpus(plan: LocalPlan, cluster: str) -> int:
    return sum(n.config.gpus for n in plan.nodes_of(cluster))


def _promql(plan: LocalPlan) -> Promql:
    """The spec's own selectors, label names and dialect, as the rules use them."""
    return Promql(plan.spec.rules_config())


@dataclass(frozen=True, slots=True)
class _Answers:
    """What one replica said, for the doctor's floor checks."""

    results: dict[str, Vector | QueryFailed]
    targets: tuple[Target, ...]
    rules: tuple[Rule, ...]
    alertmanagers: tuple[str, ...]
    samples: float


# Each replica is asked every second: its floor queries go as one query, each part marked with this label.
QUERY_LABEL = "gpuscope_floor_query"
SAMPLES = "sum(scrape_samples_scraped) or vector(0)"


def combined(queries: Mapping[str, str]) -> str:
    """One PromQL expression answering every query of ``queries``, each answer labelled with its name: one request
    instead of one per query, on the supervisor's event loop that also serves the simulated exporters."""
    return " or ".join(f'label_replace({expr}, "{QUERY_LABEL}", "{name}", "", "")' for name, expr in queries.items())


def split(answer: Vector | QueryFailed, names: Iterable[str]) -> dict[str, Vector | QueryFailed]:
    """The answer of ``combined`` back into one vector per query name (the same failure for all, if it failed)."""
    if isinstance(answer, QueryFailed):
        return dict.fromkeys(names, answer)
    out: dict[str, list[Sample]] = {name: [] for name in names}
    for s in answer:
        labels = dict(s.labels)
        name = labels.pop(QUERY_LABEL, "")
        if name in out:
            out[name].append(Sample(labels, s.value))
    return {name: tuple(samples) for name, samples in out.items()}


async def _vector(prom: AsyncClient, expr: str) -> Vector | QueryFailed:
    try:
        return await prom.query(expr)
    except QueryFailed as exc:
        return exc


async def _ask(prom: AsyncClient, queries: Mapping[str, str]) -> _Answers:
    """Every answer the floor checks need, concurrently; an unreachable replica raises ``ApiError``."""
    answer, targets, rules, managers = await asyncio.gather(
        _vector(prom, combined({**queries, "samples": SAMPLES})), prom.targets(), prom.rules(), prom.alertmanagers()
    )
    results = split(answer, [*queries, "samples"])
    samples = _value(results, "samples")
    del results["samples"]
    return _Answers(results=results, targets=targets, rules=rules, alertmanagers=managers, samples=samples)


def _exporter_jobs(selector: str) -> tuple[str, ...]:
    return tuple(re.findall(r'\bjob="([^"]+)"', selector)) or ("dcgm-exporter",)


def replica_observations(
    plan: LocalPlan, cluster: str, url: str, queries: Mapping[str, str], got: _Answers
) -> Observations:
    """One replica's answers as the doctor's ``Observations``: the stack's plan is the fleet expectation."""
    config = plan.spec.rules_config()
    jobs = _exporter_jobs(config.exporter_selector)
    detected = Detected(
        exporter_jobs=jobs,
        dialect=config.dialect,
        gpu_labels=(config.host_label, config.uuid_label),
        host_label=config.host_label,
        uuid_label=config.uuid_label,
        prometheus_instances=(),
        external_labels={config.cluster_label: cluster},
        cluster_label=config.cluster_label,
    )
    expectation = Expectation(
        source="the local stack's plan",
        cluster=cluster,
        targets=len(plan.nodes_of(cluster)),
        gpus=expected_gpus(plan, cluster),
        predicted_head_series=None,
        host_label=config.host_label,
    )
    return Observations(
        url=url,
        version="",
        timing=_timing(plan),
        detected=detected,
        config=config,
        expectation=expectation,
        queries=queries,
        results=got.results,
        targets=exporter_targets(got.targets, jobs),
        rules=got.rules,
        alertmanagers=got.alertmanagers,
        corruption_count=0,
        head_series=0,
        loaded=LoadedConfig(external_labels={config.cluster_label: cluster}, remote_write=()),
        gpu_series=(),
    )


def _timing(plan: LocalPlan) -> Timing:
    speed = plan.spec.speedup
    return Timing(time.time(), default_window(speed), speed)


def _value(results: Mapping[str, Vector | QueryFailed], name: str) -> float:
    """A query's value as the doctor's checks read it, 0 when it failed or is no finite number (a NaN count was
    ``int()``'s traceback; ``gpuscope status --json`` never writes NaN)."""
    try:
        return scalar(results, name)
    except QueryFailed:
        return 0.0


def _count(results: Mapping[str, Vector | QueryFailed], name: str) -> int:
    return int(_value(results, name))


async def replica_status(plan: LocalPlan, cluster: str, prom: AsyncClient) -> ReplicaStatus:
    queries = {name: expr for name, expr in floor_queries(_promql(plan), _timing(plan)).items() if name in _ASKED}
    try:
        got = await _ask(prom, queries)
    except ApiError:
        return ReplicaStatus(reachable=False)
    observed = replica_observations(plan, cluster, prom.endpoint.url, queries, got)
    floor = tuple(
        FloorCheck(name=r.title, ok=r.status is not Status.FAIL, detail=r.summary)
        for r in evaluate(observed, FLOOR_CHECKS)
    )
    return ReplicaStatus(
        reachable=True,
        targets_up=_count(got.results, "targets.up"),
        gpus_reporting=_count(got.results, "gpus.now"),
        samples_per_second=round(got.samples / plan.interval_s, 1),
        rule_groups=len({r.group for r in got.rules}),
        rule_errors=sum(1 for r in got.rules if r.health == "err"),
        alertmanagers=len(got.alertmanagers),
        floor=floor,
    )


async def _by_cluster(prom: AsyncClient, expr: str) -> dict[str, int]:
    try:
        # A sample that is no finite number is skipped: the cluster shows no count rather than a traceback.
        return {s.labels.get("cluster", ""): int(s.value) for s in await prom.query(expr) if math.isfinite(s.value)}
    except ApiError:
        return {}


async def _json(client: AsyncClient | None, path: str, params: tuple[tuple[str, str], ...] = ()) -> Any:
    if client is None:
        return None
    try:
        return await client.get(path, params)
    except ApiError:
        return None


async def gather(plan: LocalPlan, clients: Mapping[str, AsyncClient], notifications: int) -> StackStatus:
    """The stack's status, asked of ``clients`` (one per ``plan.urls()`` name: ``prometheus-a@gpu-a``, ``global``,
    ``alertmanager``, ``remediate``)."""
    names = [c.name for c in plan.spec.clusters]
    keys = [(c, r) for c in names for r in REPLICAS]
    replicas = await asyncio.gather(*(replica_status(plan, c, clients[f"prometheus-{r}@{c}"]) for c, r in keys))
    by_replica = dict(zip(keys, replicas, strict=True))
    q = _promql(plan)
    temp, uuid = q.dcgm("DCGM_FI_DEV_GPU_TEMP"), q.config.uuid_label
    if plan.spec.retention.cold_tier == "rollups":
        # Only the cold-tier rollups reach the global store; their GPU temperature stands for "reporting" there.
        temp = "gpu:temperature_celsius:max_rollup5m"
    store = clients["global"]
    global_gpus = await _by_cluster(store, f"count by (cluster) (count by (cluster, {uuid}) ({temp}))")
    global_up = await _by_cluster(store, f"count by (cluster) (count by (cluster, instance) ({q.up} == 1))")
    firing = (("active", "true"), ("silenced", "false"), ("inhibited", "false"))
    alerts = await _json(clients.get("alertmanager"), "/api/v2/alerts", firing)
    decisions = await _json(clients.get("remediate"), "/api/v1/decisions")
    clusters = tuple(
        ClusterStatus(
            name=name,
            targets_total=len(plan.nodes_of(name)),
            gpus_expected=expected_gpus(plan, name),
            replicas={r: by_replica[(name, r)] for r in REPLICAS},
        )
        for name in names
    )
    status = StackStatus(
        clusters=clusters,
        firing=firing_alerts(alerts),
        alertmanager_reachable=alerts is not None,
        notifications=notifications,
        remediation=remediation_lines(decisions),
        global_gpus_by_cluster=global_gpus,
        global_exporter_targets_by_cluster=global_up,
    )
    return replace(status, floor=floor_checks(status))


def firing_alerts(alerts: Any) -> tuple[FiringAlert, ...]:
    """Alertmanager's ``/api/v2/alerts``, sorted by owner and name."""
    if not isinstance(alerts, list):
        return ()
    out = []
    for al in alerts:
        labels = al.get("labels") if isinstance(al, dict) else None
        if not isinstance(labels, dict):
            continue
        labels = {str(k): str(v) for k, v in labels.items()}
        out.append(
            FiringAlert(
                alertname=labels.get("alertname", ""),
                owner=labels.get("owner", "none"),
                severity=labels.get("severity", ""),
                labels=labels,
            )
        )
    return tuple(sorted(out, key=lambda al: (al.owner, al.alertname)))


# What the live view shows of the remediator: what it would do, and why it did not (redeliveries and alerts outside
# the policy are left out).
_SHOWN = ("would", "done", "over_budget", "persons", "failed", "resolved")


def remediation_lines(decisions: Any) -> tuple[str, ...]:
    if not isinstance(decisions, list):
        return ()
    shown = [str(d.get("line", "")) for d in decisions if isinstance(d, dict) and d.get("result") in _SHOWN]
    return tuple(shown[-6:])


def floor_checks(status: StackStatus) -> tuple[FloorCheck, ...]:
    """The Phase 1 floor as it applies to the local stack: the doctor's checks on each replica, named by cluster
    and replica, then each cluster's GPUs in the global store."""
    checks = []
    for c in status.clusters:
        for r in REPLICAS:
            replica = c.replicas[r]
            if not replica.reachable:
                checks.append(
                    FloorCheck(name=f"{c.name}: Prometheus replica {r} answers", ok=False, detail="no answer")
                )
            checks += [
                FloorCheck(name=f"{c.name}: {check.name} in replica {r}", ok=check.ok, detail=check.detail)
                for check in replica.floor
            ]
        in_global = status.global_gpus_by_cluster.get(c.name, 0)
        checks.append(
            FloorCheck(
                name=f"{c.name}: GPUs in the global store",
                ok=in_global == c.gpus_expected,
                detail=f"{in_global}/{c.gpus_expected} GPUs",
            )
        )
    return tuple(checks)
