"""The audit's only I/O: ask every endpoint, in two rounds, and hand back ``Observations``.

Round one needs no knowledge of the deployment: status APIs, targets, rules, and the detection queries. Round
two runs the named queries built from what round one detected. Within a round every request runs concurrently;
all of them share the ``--timeout`` deadline. The audited Prometheus must answer (else ``AuditError``); replica
B, Alertmanager and the global store being down is recorded as what they said, for the checks to judge.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx

from gpuscope.doctor.client import Access, Api, Deadline, EndpointDown, QueryFailed, make_client
from gpuscope.doctor.detect import TEMP, TEMP_4_9, detect, detection_queries, rules_config
from gpuscope.doctor.expect import Expectation
from gpuscope.doctor.longterm import STORE_RATE_S, store_queries
from gpuscope.doctor.model import Vector
from gpuscope.doctor.observations import (
    Observations,
    Peer,
    parse_config,
    parse_rules,
    parse_targets,
)
from gpuscope.doctor.queries import (
    PROF_WINDOW_CHUNK,
    audit_queries,
    global_queries,
    prof_window_queries,
    replica_queries,
)
from gpuscope.doctor.timing import Timing, duration
from gpuscope.errors import AuditError
from gpuscope.rules import RulesConfig
from gpuscope.rules.promql import Promql

WORKERS = 8
LOOKBACK_S = 300.0  # Prometheus's default lookback: the series API sees what an instant query would


@dataclass(frozen=True, slots=True)
class Endpoints:
    prometheus: str
    alertmanager: str | None = None
    replica_b: str | None = None
    global_store: str | None = None


class _Round:
    """Run named calls concurrently; endpoint and query failures become values, ``AuditError`` propagates."""

    def __init__(self, pool: ThreadPoolExecutor) -> None:
        self.pool = pool
        self.futures: dict[str, Future[Any]] = {}

    def add(self, name: str, call: Callable[[], Any]) -> None:
        self.futures[name] = self.pool.submit(call)

    def results(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, future in self.futures.items():
            try:
                out[name] = future.result()
            except (EndpointDown, QueryFailed) as exc:
                out[name] = exc
        return out


def _must(api: Api, value: Any) -> Any:
    """The audited Prometheus has to answer: anything else ends the audit with one line."""
    if isinstance(value, EndpointDown):
        raise AuditError(f"{api.where()}: {value}; is Prometheus running there?")
    if isinstance(value, QueryFailed):
        raise AuditError(f"{api.where()}: a query failed: {value}")
    return value


def _version(api: Api) -> str:
    data = api.prometheus("/api/v1/status/buildinfo")
    if not isinstance(data, dict) or "version" not in data:
        raise AuditError(f"{api.where()} is not {api.what}: its buildinfo has no version")
    return str(data["version"])


# What reading a JSON answer of the wrong shape raises (a list where an object belongs, a string for a number).
_SHAPE_ERRORS = (AttributeError, KeyError, IndexError, TypeError, ValueError)


def _shape(api: Api, exc: Exception) -> str:
    return f"{api.where()}: an answer has an unexpected shape ({type(exc).__name__}: {exc}); is it {api.what}?"


def _peer_probe(api: Api, probe: Callable[[Api], dict[str, Any]]) -> Peer:
    try:
        return Peer(api.url, facts=probe(api))
    except EndpointDown as exc:
        return Peer(api.url, error=str(exc))
    except QueryFailed as exc:
        return Peer(api.url, error=f"query failed: {exc}")
    except _SHAPE_ERRORS as exc:
        return Peer(api.url, error=_shape(api, exc))


def _probe_replica(api: Api) -> dict[str, Any]:
    version = _version(api)
    runtime = api.prometheus("/api/v1/status/runtimeinfo")
    loaded = parse_config(api.prometheus("/api/v1/status/config"))
    return {
        "version": version,
        "corruption_count": int(runtime.get("corruptionCount", 0)),
        "external_labels": dict(loaded.external_labels),
    }


def _probe_alertmanager(api: Api) -> dict[str, Any]:
    body = api.get("/api/v2/status")
    if not isinstance(body, dict) or "versionInfo" not in body:
        raise AuditError(f"{api.where()} is not {api.what}: GET /api/v2/status has no versionInfo")
    cluster = body.get("cluster") or {}
    return {
        "version": str((body.get("versionInfo") or {}).get("version", "")),
        "cluster_status": str(cluster.get("status", "")),
        "peers": len(cluster.get("peers") or []),
    }


def _probe_global(api: Api) -> dict[str, Any]:
    api.query("vector(1)", 0)  # any Prometheus-compatible query API answers this
    return {}


def _queried(api: Api, peer: Peer, queries: Mapping[str, str], at: float, pool: ThreadPoolExecutor) -> Peer:
    if peer.error is not None:
        return peer
    calls = _Round(pool)
    for name, expr in queries.items():
        calls.add(name, partial(api.query, expr, at))
    results = calls.results()
    down = next((r for r in results.values() if isinstance(r, EndpointDown)), None)
    if down is not None:
        return Peer(peer.url, error=str(down), facts=peer.facts)
    return Peer(peer.url, None, peer.facts, dict(queries), results)


def observe(
    endpoints: Endpoints,
    access: Access,
    base: RulesConfig,
    expectation: Callable[[str | None], Expectation],
    fleet_host_label: str | None,
    timing: Timing,
) -> Observations:
    """Ask everything and return what was seen; ``expectation`` picks the fleet cluster once its label is known."""
    deadline = Deadline(access.timeout_s)
    with make_client(access) as client, ThreadPoolExecutor(WORKERS) as pool:
        prom = Api("--prometheus", endpoints.prometheus, client, deadline, "Prometheus")
        try:  # alone first: the one answer that says whether this is a Prometheus at all
            version = _version(prom)
        except EndpointDown as exc:
            raise AuditError(f"{prom.where()}: {exc}; is Prometheus running there?") from None
        try:
            return _observe(
                prom,
                apis=_peer_apis(endpoints, client, deadline),
                pool=pool,
                version=version,
                base=base,
                expectation=expectation,
                fleet_host_label=fleet_host_label,
                timing=timing,
            )
        except _SHAPE_ERRORS as exc:
            raise AuditError(_shape(prom, exc)) from None


def _observe(
    prom: Api,
    *,
    apis: dict[str, Api],
    pool: ThreadPoolExecutor,
    version: str,
    base: RulesConfig,
    expectation: Callable[[str | None], Expectation],
    fleet_host_label: str | None,
    timing: Timing,
) -> Observations:
    """Both rounds of the audit, once the audited Prometheus has answered as one."""
    first, peers = _round_one(prom, apis, timing, pool)
    loaded = parse_config(first["config"])
    detected = detect(
        {name: first[name] for name in detection_queries(timing.window)},
        first["labels"],
        loaded.external_labels,
        url=prom.url,
        window=timing.window,
        preferred_host_label=fleet_host_label,
    )
    config = rules_config(detected, base)
    expected = expectation(detected.cluster)
    q = Promql(config)
    queries = audit_queries(q, detected, timing)
    second = _Round(pool)
    for name, expr in queries.items():
        second.add(name, partial(prom.query, expr, timing.now))
    second.add("series", lambda: _gpu_series(prom, q, timing))
    if "replica_b" in peers:
        peers["replica_b"] = _queried(apis["replica_b"], peers["replica_b"], replica_queries(q), timing.now, pool)
    if "global" in peers:
        asked = {
            **global_queries(q, detected.cluster),
            **store_queries(
                config.cluster_label,
                detected.cluster,
                loaded.replica_label(config.cluster_label),
                duration(timing.scaled(STORE_RATE_S)),
            ),
        }
        peers["global"] = _queried(apis["global"], peers["global"], asked, timing.now, pool)
    results = second.results()
    series = results.pop("series")
    results["prof.window"], queries["prof.window"] = _prof_window(prom, q, timing, results["prof.lacking"], pool)
    for value in (series, *results.values()):
        if isinstance(value, EndpointDown):
            _must(prom, value)
    return Observations(
        url=prom.url,
        version=version,
        timing=timing,
        detected=detected,
        config=config,
        expectation=expected,
        queries=queries,
        results=results,
        targets=parse_targets(first["targets"], detected.exporter_jobs),
        rules=parse_rules(first["rules"]),
        alertmanagers=tuple(sorted(a["url"] for a in first["alertmanagers"].get("activeAlertmanagers", []))),
        corruption_count=int(first["runtime"].get("corruptionCount", 0)),
        head_series=int((first["tsdb"].get("headStats") or {}).get("numSeries", 0)),
        loaded=loaded,
        gpu_series=series,
        replica_b=peers.get("replica_b"),
        alertmanager=peers.get("alertmanager"),
        global_store=peers.get("global"),
    )


def _prof_window(
    prom: Api, q: Promql, timing: Timing, lacking: Vector | Exception, pool: ThreadPoolExecutor
) -> tuple[Vector | Exception, str]:
    """The GPUs lacking DCGM_FI_PROF_* series now that had them in the window: a third step, because it asks only
    about the GPUs round two found lacking them. The result and the query the evidence shows."""
    if isinstance(lacking, Exception):
        return lacking, "(not asked: the query for GPUs lacking DCGM_FI_PROF_* series failed)"
    uuid = q.config.uuid_label
    exprs = prof_window_queries(q, timing, sorted({s.labels[uuid] for s in lacking if s.labels.get(uuid)}))
    if not exprs:
        return (), "(not asked: every GPU reports DCGM_FI_PROF_* series now)"
    calls = _Round(pool)
    for i, expr in enumerate(exprs):
        calls.add(str(i), partial(prom.query, expr, timing.now))
    got = list(calls.results().values())
    failed = next((r for r in got if isinstance(r, Exception)), None)
    shown = (
        exprs[0] if len(exprs) == 1 else f"{exprs[0]}   (and {len(exprs) - 1} more of {PROF_WINDOW_CHUNK} GPUs each)"
    )
    if failed is not None:
        return failed, shown
    return tuple(sorted((s for r in got for s in r), key=lambda s: sorted(s.labels.items()))), shown


def _peer_apis(endpoints: Endpoints, client: httpx.Client, deadline: Deadline) -> dict[str, Api]:
    apis = {}
    if endpoints.replica_b:
        apis["replica_b"] = Api("--replica-b", endpoints.replica_b, client, deadline, "Prometheus")
    if endpoints.alertmanager:
        apis["alertmanager"] = Api("--alertmanager", endpoints.alertmanager, client, deadline, "Alertmanager")
    if endpoints.global_store:
        apis["global"] = Api("--global", endpoints.global_store, client, deadline, "Prometheus-compatible query")
    return apis


def _round_one(
    prom: Api, apis: Mapping[str, Api], timing: Timing, pool: ThreadPoolExecutor
) -> tuple[dict[str, Any], dict[str, Peer]]:
    calls = _Round(pool)
    for name, path in (
        ("runtime", "/api/v1/status/runtimeinfo"),
        ("config", "/api/v1/status/config"),
        ("rules", "/api/v1/rules"),
        ("alertmanagers", "/api/v1/alertmanagers"),
        ("tsdb", "/api/v1/status/tsdb"),
    ):
        calls.add(name, partial(prom.prometheus, path))
    calls.add("targets", lambda: prom.prometheus("/api/v1/targets", {"state": "active"}))
    span = {"start": f"{timing.now - timing.window_s:.3f}", "end": f"{timing.now:.3f}"}
    calls.add("labels", lambda: prom.prometheus("/api/v1/labels", {"match[]": [TEMP, TEMP_4_9], **span}))
    for name, expr in detection_queries(timing.window).items():
        calls.add(name, partial(prom.query, expr, timing.now))
    probes = {"replica_b": _probe_replica, "alertmanager": _probe_alertmanager, "global": _probe_global}
    for name, api in apis.items():
        calls.add(f"peer.{name}", partial(_peer_probe, api, probes[name]))
    results = calls.results()
    peers = {name: results.pop(f"peer.{name}") for name in apis}
    return {name: _must(prom, value) for name, value in results.items()}, peers


def _gpu_series(prom: Api, q: Promql, timing: Timing) -> tuple[dict[str, str], ...]:
    """Label sets of the GPU temperature and XID series: the widest GPU series (XID adds err_code/err_msg)."""
    names = f"{q.name(TEMP)}|{q.name('DCGM_FI_DEV_XID_ERRORS')}"
    data = prom.prometheus(
        "/api/v1/series",
        {
            "match[]": [f'{{__name__=~"{names}",{q.config.exporter_selector}}}'],
            "start": f"{timing.now - LOOKBACK_S:.3f}",
            "end": f"{timing.now:.3f}",
        },
    )
    rows = [{str(k): str(v) for k, v in s.items()} for s in data]
    return tuple(sorted(rows, key=lambda s: sorted(s.items())))
