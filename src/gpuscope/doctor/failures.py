"""Failure-mode checks (docs/architecture.md): what is going wrong now, or went wrong within the look-back window.

Severity follows the matching alert: what pages is a FAIL, what makes a ticket is a WARN.
"""

from __future__ import annotations

import math

from gpuscope.doctor.observations import Observations, listed, number
from gpuscope.doctor.results import Evidence, Finding, Status
from gpuscope.doctor.timing import GROWTH_HORIZON_S, duration

NEAR_TIMEOUT = 0.8


def _no_self_metrics(o: Observations) -> Finding | None:
    if o.detected.prometheus_instances:
        return None
    return Finding(
        Status.SKIP,
        "not measurable: Prometheus does not scrape its own metrics (no prometheus_build_info)",
        (),
        "Add a scrape job for Prometheus itself (and its HA peer): the mixin alerts need it too.",
    )


def gpus_stopped(o: Observations) -> Finding:
    uuid = o.config.uuid_label
    gone = {s.labels.get(uuid, ""): s.labels for s in o.vector("gpus.stopped")}
    for s in o.vector("gpus.lost"):
        gone.setdefault(s.labels.get(uuid, ""), s.labels)
    evidence = (o.evidence("gpus.stopped"), o.evidence("gpus.lost"))
    if gone:
        names = [o.gpu(labels) for _, labels in sorted(gone.items())]
        return Finding(
            Status.FAIL,
            f"{len(names)} GPU(s) stopped reporting while their exporter is up: {listed(names)}",
            evidence,
            "A GPU whose series vanish while the exporter answers has usually fallen off the bus (XID 79): drain "
            "the node and follow the runbook.",
        )
    return Finding(Status.PASS, f"no GPU stopped reporting in the last {o.timing.window}", evidence)


def prof_stale(o: Observations) -> Finding:
    uuid = o.config.uuid_label
    had = {s.labels.get(uuid) for s in o.vector("prof.window")}
    unsupported = {s.labels.get(uuid) for s in o.vector("prof.unsupported")}
    stale = {
        s.labels.get(uuid, ""): s.labels
        for s in o.vector("prof.lacking")
        if s.labels.get(uuid) in had and s.labels.get(uuid) not in unsupported
    }
    for s in o.vector("prof.locked"):
        stale.setdefault(s.labels.get(uuid, ""), s.labels)
    evidence = (o.evidence("prof.lacking"), o.evidence("prof.locked"))
    if stale:
        names = [o.gpu(labels) for _, labels in sorted(stale.items())]
        return Finding(
            Status.WARN,
            f"{len(names)} GPU(s) lost their DCGM_FI_PROF_* series while still reporting: {listed(names)}",
            evidence,
            "Another profiler holds the counters (nsys, ncu, dcgmi, a vendor agent): see the runbook.",
        )
    return Finding(Status.PASS, "no GPU lost its profiling metrics", evidence)


def exporter_restarts(o: Observations) -> Finding:
    restarted = [s.labels.get("instance", "?") for s in o.vector("restarts")]
    evidence = (o.evidence("restarts"),)
    if restarted:
        return Finding(
            Status.WARN,
            f"{len(restarted)} exporter(s) restarted or reset their counters in the last {o.timing.window}: "
            f"{listed(restarted)}",
            evidence,
            "Look at the previous container's exit reason (OOMKilled?) and logs; see the runbook.",
        )
    return Finding(Status.PASS, f"no exporter restart or counter reset in the last {o.timing.window}", evidence)


def exporter_snapshot(o: Observations) -> Finding:
    if not o.value("gpuscope.exporters"):
        return Finding(
            Status.SKIP,
            "not applicable: these exporters have no snapshot metrics (dcgm-exporter reads DCGM per scrape)",
            (o.evidence("gpuscope.exporters"),),
        )
    stale = [s.labels.get("instance", "?") for s in o.vector("snapshot.stale")]
    evidence = (o.evidence("snapshot.stale"),)
    if stale:
        return Finding(
            Status.WARN,
            f"{len(stale)} exporter(s) serve an old snapshot or cannot read their GPUs: {listed(stale)}",
            evidence,
            "Run `nvidia-smi` on the node: if it hangs, the driver is wedged; curl the exporter's /health for why.",
        )
    return Finding(Status.PASS, "every gpuscope exporter serves a fresh snapshot", evidence)


def remote_write(o: Observations) -> Finding:
    queues = o.loaded.remote_write
    if not queues:
        return Finding(Status.SKIP, "not applicable: no remote_write configured (federation or Thanos sidecar)")
    missing = _no_self_metrics(o)
    if missing:
        return missing
    behind, failing, shards = o.vector("rw.behind"), o.vector("rw.failures"), o.vector("rw.shards")
    evidence = (
        o.evidence("rw.lag"),
        o.evidence("rw.pending"),
        o.evidence("rw.behind"),
        o.evidence("rw.failures"),
        o.evidence("rw.shards"),
    )
    where = ", ".join(sorted({s.labels.get("instance", "?") for s in (*behind, *failing)}))
    if behind:
        return Finding(
            Status.FAIL,
            f"remote_write is behind on {where}: samples wait in the WAL",
            evidence,
            "Check the remote store's health and latency, and whether shards are maxed out; see the runbook.",
        )
    if failing:
        return Finding(
            Status.FAIL,
            f"remote_write requests fail on {where}",
            evidence,
            "Check the remote endpoint's health, credentials and limits (HTTP 4xx/5xx in the Prometheus log).",
            "PrometheusRemoteStorageFailures",
        )
    if shards:
        return Finding(
            Status.WARN,
            "remote_write wants more shards than max_shards allows",
            evidence,
            "Raise queue_config.max_shards, or write only the cold-tier rollups.",
            "PrometheusRemoteWriteDesiredShards",
        )
    lag = max((s.value for s in o.vector("rw.lag")), default=0.0)
    return Finding(Status.PASS, f"remote_write to {', '.join(queues)} keeps up (lag {number(lag)}s)", evidence)


def wal_corruptions(o: Observations) -> Finding:
    counts = [(o.url, o.corruption_count)]
    peer = o.replica_b
    if peer is not None and peer.error is None:
        counts.append((peer.url, int(peer.facts.get("corruption_count", 0))))
    evidence = tuple(Evidence(f"GET {url}/api/v1/status/runtimeinfo: corruptionCount", str(n)) for url, n in counts)
    corrupt = [url for url, n in counts if n > 0]
    if corrupt:
        return Finding(
            Status.FAIL,
            f"WAL corruption repaired at the last start of {', '.join(corrupt)}: samples after it were lost",
            evidence,
            "Check the disk (free space, I/O errors) and why the process stopped uncleanly; see the runbook.",
        )
    return Finding(Status.PASS, "no WAL corruption since the last start", evidence)


def head_series(o: Observations) -> Finding:
    budget, warn = o.config.head_series_budget, o.config.head_series_warn_ratio
    # The audited server's own count, and every Prometheus it scrapes (its HA peer): the fullest one decides.
    # A count that is no finite number is not one: skipped, so NaN never wins the max and passes the budget.
    scraped = {s.labels.get("instance", "?"): s.value for s in o.vector("head.series") if math.isfinite(s.value)}
    heads = {o.url: float(o.head_series), **scraped}
    where, head = max(heads.items(), key=lambda kv: (kv[1], kv[0]))
    evidence = [
        Evidence(f"GET {o.url}/api/v1/status/tsdb: headStats.numSeries", str(o.head_series)),
        o.evidence("head.series"),
        Evidence(f"budget ({o.expectation.source})", str(budget)),
    ]
    if o.expectation.predicted_head_series is not None:
        evidence.append(Evidence("gpuscope budget predicts", str(o.expectation.predicted_head_series)))
    growth = {
        p.instance: o.value(f"growth.{p.instance}")
        for p in o.detected.prometheus_instances
        if f"growth.{p.instance}" in o.queries
    }
    evidence += [o.evidence(f"growth.{instance}") for instance in sorted(growth)]
    if head > budget:
        return Finding(
            Status.FAIL,
            f"{head:.0f} head series on {where}, over the budget of {budget}",
            tuple(evidence),
            "Find what grew (/api/v1/status/tsdb) and drop the label or trim the collectors CSV.",
        )
    if head > warn * budget:
        return Finding(
            Status.WARN,
            f"{head:.0f} head series on {where}, above {warn:.0%} of the budget of {budget}",
            tuple(evidence),
            "Find what grew (/api/v1/status/tsdb) before the head outgrows memory.",
        )
    rising = sorted(instance for instance, value in growth.items() if value > budget)
    if rising:
        horizon = duration(o.timing.scaled(GROWTH_HORIZON_S))
        return Finding(
            Status.WARN,
            f"head series on {', '.join(rising)} grow past the budget of {budget} within {horizon}",
            tuple(evidence),
            "Find the series being added (/api/v1/status/tsdb).",
        )
    return Finding(
        Status.PASS, f"at most {head:.0f} head series, {head / budget:.1%} of the budget of {budget}", tuple(evidence)
    )


def series_churn(o: Observations) -> Finding:
    missing = _no_self_metrics(o)
    if missing:
        return missing
    limit = o.config.thresholds.churn_ratio_per_hour
    measured = {
        p.instance: o.value(f"churn.{p.instance}")
        for p in o.detected.prometheus_instances
        if f"churn.{p.instance}" in o.queries
    }
    if not measured:
        needs = duration(o.timing.first_measurable_s)
        return Finding(Status.SKIP, f"not measurable yet: every Prometheus started less than {needs} ago")
    evidence = tuple(o.evidence(f"churn.{instance}") for instance in sorted(measured))
    high = [f"{instance} {value:.2f}" for instance, value in sorted(measured.items()) if value > limit]
    if high:
        return Finding(
            Status.WARN,
            f"series are created faster than {limit:g}x the head per hour: {listed(high)}",
            evidence,
            "A label that changes per pod or job is on raw series: see 'pod/job labels on GPU series' and the runbook.",
        )
    return Finding(Status.PASS, f"series churn at most {max(measured.values()):.2f}x the head per hour", evidence)


def gpu_models(o: Observations) -> Finding:
    # The alert counts series (one per MIG instance); the evidence counts physical GPUs.
    gpus = {s.labels.get("modelName", "?"): s.value for s in o.vector("models.all")}
    outside = {
        model: gpus.get(model, s.value) for s in o.vector("models.outside") if (model := s.labels.get("modelName", "?"))
    }
    evidence = (
        o.evidence("models.all"),
        o.evidence("models.outside"),
        Evidence(f"budgeted models ({o.expectation.source})", ", ".join(o.config.budgeted_models)),
    )
    if outside:
        names = [f"{model} ({number(n)} GPUs)" for model, n in sorted(outside.items())]
        return Finding(
            Status.WARN,
            f"GPU models outside the budget: {', '.join(names)}",
            evidence,
            "Add the model to the fleet spec's budgeted models and re-run `gpuscope budget`; see the runbook.",
        )
    return Finding(Status.PASS, "every GPU model reporting is in the budget", evidence)


def scrape_duration(o: Observations) -> Finding:
    timeouts = {(t.job, t.instance): t.scrape_timeout_s for t in o.targets}
    evidence = (o.evidence("scrape.p95"),)
    near = []
    worst = 0.0
    for s in o.vector("scrape.p95"):
        timeout = timeouts.get((s.labels.get("job", ""), s.labels.get("instance", "")))
        if timeout is None or not math.isfinite(s.value):
            continue
        worst = max(worst, s.value / timeout)
        if s.value >= NEAR_TIMEOUT * timeout:
            near.append(f"{s.labels.get('instance')} p95 {s.value:.3g}s of {timeout:g}s")
    if near:
        return Finding(
            Status.WARN,
            f"exporter scrapes close to their timeout: {listed(near)}",
            evidence,
            "Raise scrape_timeout (below the interval) or trim the collectors CSV; dcgm-exporter reads DCGM per "
            "scrape, gpuscope serves a snapshot and answers in milliseconds.",
        )
    return Finding(Status.PASS, f"exporter scrapes take at most {worst:.1%} of their timeout (p95)", evidence)


def scrape_limits(o: Observations) -> Finding:
    hit = [f"{t.instance}: {t.last_error}" for t in o.targets if "limit" in t.last_error]
    missing = _no_self_metrics(o)
    counters = {} if missing else {n: o.vector(n) for n in ("limits.sample", "limits.label", "limits.body")}
    evidence = tuple(o.evidence(n) for n in counters)
    if hit:
        evidence += (Evidence("GET /api/v1/targets (lastError)", listed(hit)),)
    if hit or any(counters.values()):
        kinds = [n.split(".")[1] for n, v in counters.items() if v]
        alert = "PrometheusLabelLimitHit" if kinds == ["label"] else "PrometheusScrapeSampleLimitHit"
        return Finding(
            Status.WARN,
            f"scrape limits hit in the last {o.timing.window} ({', '.join(kinds) or 'see lastError'}): whole "
            "scrapes were dropped",
            evidence,
            "Raise sample_limit / label_limit (gpuscope budget sizes them) or trim the exporter's series/labels.",
            alert,
        )
    return Finding(Status.PASS, f"no sample, label or body-size limit hit in the last {o.timing.window}", evidence)
