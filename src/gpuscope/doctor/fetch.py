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

from gpuscope.doctor.detect import TEMP, TEMP_4_9, detect, detection_queries, rules_config
from gpuscope.doctor.expect import Expectation
from gpuscope.doctor.longterm import STORE_RATE_S, store_queries
from gpuscope.doctor.observations import (
    Observations,
    Peer,
    exporter_targets,
    parse_config,
)
from gpuscope.doctor.queries import (
    PROF_WINDOW_CHUNK,
    audit_queries,
    global_queries,
    prof_window_queries,
    replica_queries,
)
from gpuscope.doctor.timing import Timing, duration
from gpuscope.errors import ApiUnusable, AuditError, EndpointDown, QueryFailed, UsageError
from gpuscope.prom import Access, Client, Deadline, Endpoint, Limits, Vector, http_client
from gpuscope.prom.api import SHAPE_ERRORS
from gpuscope.ruleconfig.config import RulesConfig
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


def _must(value: Any) -> Any:
    """The audited Prometheus has to answer: anything else ends the audit with one line."""
    if isinstance(value, EndpointDown):
        raise AuditError(f"{value}; is Prometheus running there?")
    if isinstance(value, QueryFailed):
        raise AuditError(f"{value.where}: a query failed: {value.reason}")
    return value


def _victoriametrics(http: httpx.Client, endpoint: Endpoint, timeout_s: float) -> bool:
    """Whether ``endpoint`` is VictoriaMetrics (single-node or vmselect, at any path prefix): its build info has no
    version, and its own /metrics, at the root, names ``vm_app_version``."""
    url = httpx.URL(endpoint.url).copy_with(path="/metrics", query=None, fragment=None)
    try:
        with http.stream("GET", url, timeout=min(timeout_s, 10.0)) as answer:
            seen = bytearray()
            for chunk in answer.iter_bytes():
                seen += chunk
                if b"vm_app_version" in seen:
                    return answer.status_code == 200
                if len(seen) > 4 * 1024 * 1024:  # a real one names it within its first kilobytes
                    break
    except httpx.HTTPError:
        pass
    return False


def _shape(api: Client, exc: Exception) -> str:
    return f"{api.where()}: an answer has an unexpected shape ({type(exc).__name__}: {exc}); is it {api.endpoint.what}?"


def _peer_probe(api: Client, probe: Callable[[Client], dict[str, Any]]) -> Peer:
    url = api.endpoint.url
    try:
        return Peer(url, facts=probe(api))
    except EndpointDown as exc:
        return Peer(url, error=exc.reason)
    except QueryFailed as exc:
        return Peer(url, error=f"query failed: {exc.reason}")
    except SHAPE_ERRORS as exc:
        return Peer(url, error=_shape(api, exc))


def _probe_replica(api: Client) -> dict[str, Any]:
    version = api.buildinfo()
    runtime = api.runtime_info()
    loaded = parse_config(api.config())
    return {
        "version": version,
        "corruption_count": runtime.corruption_count,
        "external_labels": dict(loaded.external_labels),
    }


def _probe_alertmanager(api: Client) -> dict[str, Any]:
    body = api.get("/api/v2/status")
    if not isinstance(body, dict) or "versionInfo" not in body:
        raise AuditError(f"{api.where()} is not {api.endpoint.what}: GET /api/v2/status has no versionInfo")
    cluster = body.get("cluster") or {}
    return {
        "version": str((body.get("versionInfo") or {}).get("version", "")),
        "cluster_status": str(cluster.get("status", "")),
        "peers": len(cluster.get("peers") or []),
    }


def _probe_global(api: Client) -> dict[str, Any]:
    api.query("vector(1)", 0)  # any Prometheus-compatible query API answers this
    return {}


def _queried(api: Client, peer: Peer, queries: Mapping[str, str], at: float, pool: ThreadPoolExecutor) -> Peer:
    if peer.error is not None:
        return peer
    calls = _Round(pool)
    for name, expr in queries.items():
        calls.add(name, partial(api.query, expr, at))
    results = calls.results()
    down = next((r for r in results.values() if isinstance(r, EndpointDown)), None)
    if down is not None:
        return Peer(peer.url, error=down.reason, facts=peer.facts)
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
    try:
        return _observe_all(endpoints, access, base, expectation, fleet_host_label, timing)
    except (ApiUnusable, UsageError) as exc:  # cannot talk to it as configured: could not audit (exit 3)
        raise AuditError(exc.template).naming(*exc.refs) from None


def _observe_all(
    endpoints: Endpoints,
    access: Access,
    base: RulesConfig,
    expectation: Callable[[str | None], Expectation],
    fleet_host_label: str | None,
    timing: Timing,
) -> Observations:
    endpoint = Endpoint(endpoints.prometheus)  # a URL that is not one is said before any secret is read
    deadline = Deadline(access.timeout_s)
    limits = Limits(timeout_s=access.timeout_s)
    with http_client(access) as http, ThreadPoolExecutor(WORKERS) as pool:
        prom = Client(endpoint, http, limits=limits, deadline=deadline)
        try:  # alone first: the one answer that says whether this is a Prometheus at all
            version = prom.buildinfo()
        except EndpointDown as exc:
            raise AuditError(f"{exc.template}; is Prometheus running there?").naming(*exc.refs) from None
        except ApiUnusable as exc:  # an answer of another shape (or TLS, 401): VictoriaMetrics has no version
            if _victoriametrics(http, endpoint, access.timeout_s):
                raise AuditError(
                    f"{endpoint.where()}: this is VictoriaMetrics, not Prometheus: the doctor audits a cluster's "
                    "Prometheus replica (its configuration, rules and targets, which VictoriaMetrics does not have); "
                    "pass the replica's URL as {prometheus}, and VictoriaMetrics as {global_store}"
                ).naming("prometheus", "global_store") from None
            raise AuditError(exc.template).naming(*exc.refs) from None
        try:
            return _observe(
                prom,
                apis=_peer_apis(endpoints, http, limits, deadline),
                pool=pool,
                version=version,
                base=base,
                expectation=expectation,
                fleet_host_label=fleet_host_label,
                timing=timing,
            )
        except SHAPE_ERRORS as exc:
            raise AuditError(_shape(prom, exc)) from None


def _observe(
    prom: Client,
    *,
    apis: dict[str, Client],
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
        url=prom.endpoint.url,
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
            _must(value)
    return Observations(
        url=prom.endpoint.url,
        version=version,
        timing=timing,
        detected=detected,
        config=config,
        expectation=expected,
        queries=queries,
        results=results,
        targets=exporter_targets(first["targets"], detected.exporter_jobs),
        rules=first["rules"],
        alertmanagers=first["alertmanagers"],
        corruption_count=first["runtime"].corruption_count,
        head_series=first["tsdb"].head_series,
        loaded=loaded,
        gpu_series=series,
        replica_b=peers.get("replica_b"),
        alertmanager=peers.get("alertmanager"),
        global_store=peers.get("global"),
    )


def _prof_window(
    prom: Client, q: Promql, timing: Timing, lacking: Vector | Exception, pool: ThreadPoolExecutor
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


def _peer_apis(endpoints: Endpoints, http: httpx.Client, limits: Limits, deadline: Deadline) -> dict[str, Client]:
    wanted = {
        "replica_b": (endpoints.replica_b, "--replica-b", "Prometheus"),
        "alertmanager": (endpoints.alertmanager, "--alertmanager", "Alertmanager"),
        "global": (endpoints.global_store, "--global", "Prometheus-compatible query"),
    }
    return {
        name: Client(Endpoint(url, flag, kind), http, limits=limits, deadline=deadline)
        for name, (url, flag, kind) in wanted.items()
        if url
    }


def _round_one(
    prom: Client, apis: Mapping[str, Client], timing: Timing, pool: ThreadPoolExecutor
) -> tuple[dict[str, Any], dict[str, Peer]]:
    calls = _Round(pool)
    calls.add("runtime", prom.runtime_info)
    calls.add("config", prom.config)
    calls.add("rules", prom.rules)
    calls.add("alertmanagers", prom.alertmanagers)
    calls.add("tsdb", prom.tsdb_status)
    calls.add("targets", prom.targets)
    calls.add("labels", partial(prom.labels, (TEMP, TEMP_4_9), timing.now - timing.window_s, timing.now))
    for name, expr in detection_queries(timing.window).items():
        calls.add(name, partial(prom.query, expr, timing.now))
    probes = {"replica_b": _probe_replica, "alertmanager": _probe_alertmanager, "global": _probe_global}
    for name, api in apis.items():
        calls.add(f"peer.{name}", partial(_peer_probe, api, probes[name]))
    results = calls.results()
    peers = {name: results.pop(f"peer.{name}") for name in apis}
    return {name: _must(value) for name, value in results.items()}, peers


def _gpu_series(prom: Client, q: Promql, timing: Timing) -> tuple[dict[str, str], ...]:
    """Label sets of the GPU temperature and XID series: the widest GPU series (XID adds err_code/err_msg)."""
    names = f"{q.name(TEMP)}|{q.name('DCGM_FI_DEV_XID_ERRORS')}"
    return prom.series([f'{{__name__=~"{names}",{q.config.exporter_selector}}}'], timing.now - LOOKBACK_S, timing.now)
