"""Phase 1 floor checks (docs/architecture.md, "The Phase 1 floor"): without these, nothing built on top can be trusted.

Exporter targets up (and as many as the fleet spec lists), every GPU reporting its temperature, profiling metrics
where the GPU has them, gpuscope's rule groups loaded and evaluating, Alertmanager connected, both replicas of the
HA pair up, and data arriving in the global store.
"""

from __future__ import annotations

import re

from gpuscope.doctor.longterm import ROLLUP, victoriametrics
from gpuscope.doctor.observations import Observations, Peer, listed, number
from gpuscope.doctor.results import Evidence, Finding, Status
from gpuscope.doctor.timing import ROLLUP_STALE_S
from gpuscope.rules import build_groups
from gpuscope.rules.alerts_host import HOST_GROUPS
from gpuscope.rules.promql import Promql


def exporter_targets(o: Observations) -> Finding:
    up, total = int(o.value("targets.up")), int(o.value("targets.total"))
    expected = o.expectation.targets
    evidence = [o.evidence("targets.up"), o.evidence("targets.total")]
    down = [f"{t.instance}: {t.last_error or t.health}" for t in o.targets if t.health != "up"]
    if down:
        evidence.append(Evidence("GET /api/v1/targets (exporter targets not up)", listed(down)))
    if expected is not None:
        evidence.append(Evidence(f"{o.expectation.source}: nodes", str(expected)))
    fix_down = "Scrape a down target by hand (curl its /metrics) and fix what its lastError says; see the runbook."
    if total == 0:
        return Finding(Status.FAIL, "no exporter targets at all", tuple(evidence), fix_down)
    if up < total:
        return Finding(Status.FAIL, f"{total - up} of {total} exporter targets down", tuple(evidence), fix_down)
    if expected is not None and total < expected:
        return Finding(
            Status.FAIL,
            f"{total} exporter targets, the fleet spec lists {expected} nodes",
            tuple(evidence),
            "Some GPU nodes are not discovered: check the DaemonSet's node selector / the file_sd targets.",
        )
    if o.expectation.note:
        return Finding(
            Status.WARN,
            f"{up}/{total} exporter targets up; {o.expectation.note}",
            tuple(evidence),
            "Give each Prometheus a `cluster` external label naming its fleet-spec cluster (gpuscope generate does).",
        )
    if expected is not None and total > expected:
        return Finding(
            Status.WARN,
            f"{total} exporter targets, more than the {expected} nodes the fleet spec lists",
            tuple(evidence),
            "Add the new nodes to the fleet spec and re-run `gpuscope budget` so the budget covers them.",
        )
    as_expected = " as the fleet spec lists" if expected is not None else ""
    return Finding(Status.PASS, f"{up}/{total} exporter targets up{as_expected}", tuple(evidence))


def gpus_reporting(o: Observations) -> Finding:
    now, seen = int(o.value("gpus.now")), int(o.value("gpus.window"))
    expected = o.expectation.gpus if o.expectation.gpus is not None else seen
    source = (
        Evidence(f"{o.expectation.source}: GPUs", str(expected))
        if o.expectation.gpus is not None
        else o.evidence("gpus.window")
    )
    blank = [s.labels.get("instance", "?") for s in o.vector("gpus.up_without")]
    evidence = [o.evidence("gpus.now"), source]
    if blank:
        evidence.append(o.evidence("gpus.up_without", ", ".join(blank)))
    if now == 0:
        return Finding(
            Status.FAIL,
            f"no GPU reports {o.temp}",
            tuple(evidence),
            "The exporters answer but serve no GPU series: check the driver/DCGM on the nodes and the exporter log.",
        )
    if blank:
        return Finding(
            Status.FAIL,
            f"{len(blank)} exporter target(s) up but reporting no GPU: {listed(blank)}",
            tuple(evidence),
            "On those nodes run `nvidia-smi`; the exporter's log (or gpuscope's /health) says why it has no GPU.",
        )
    if now < expected:
        return Finding(
            Status.FAIL,
            f"{now}/{expected} GPUs report {o.temp}",
            tuple(evidence),
            "Find the missing GPUs (failure mode 'GPUs that stopped reporting', or targets down) and follow the "
            "runbook.",
        )
    if o.expectation.gpus is not None and now > expected:
        return Finding(
            Status.WARN,
            f"{now} GPUs report {o.temp}, more than the {expected} the fleet spec lists",
            tuple(evidence),
            "Add the GPUs to the fleet spec so the budget and the L1 dashboard's 'expected' count include them.",
        )
    return Finding(Status.PASS, f"{now}/{expected} GPUs report {o.temp}", tuple(evidence))


def _uuids(o: Observations, name: str) -> set[str]:
    return {s.labels.get(o.config.uuid_label, "") for s in o.vector(name)}


def prof_metrics(o: Observations) -> Finding:
    """GPUs that had no profiling series in the whole window, though their model has them (or gpuscope says so)."""
    uuid = o.config.uuid_label
    had, unsupported, locked = _uuids(o, "prof.window"), _uuids(o, "prof.unsupported"), _uuids(o, "prof.locked")
    with_prof = {s.labels.get("modelName", "") for s in o.vector("prof.models")}
    never = [
        s.labels
        for s in o.vector("prof.lacking")
        if s.labels.get(uuid) not in had | unsupported | locked  # lost within the window: 'stale', not this
    ]
    missing = [o.gpu(labels) for labels in never if labels.get("modelName") in with_prof]
    models = sorted({labels.get("modelName", "") for labels in never if labels.get("modelName") not in with_prof})
    evidence = (o.evidence("prof.lacking"), o.evidence("prof.models"), o.evidence("prof.unsupported"))
    if missing:
        return Finding(
            Status.FAIL,
            f"{len(missing)} GPU(s) without DCGM_FI_PROF_* series while other GPUs of their model have them: "
            f"{listed(missing)}",
            evidence,
            "DCGM profiling is off or held on those nodes: check for another profiler (nsys, dcgmi) and that the "
            "exporter there runs the same collectors CSV.",
        )
    if models:
        return Finding(
            Status.WARN,
            f"no DCGM_FI_PROF_* series for {', '.join(models)}",
            evidence,
            "Add DCGM_FI_PROF_SM_ACTIVE (and the other PROF fields) to the collectors CSV; if present, the GPUs or "
            "DCGM lack profiling support (gpuscope's NVML backend reads them via GPM on Hopper and newer).",
        )
    skipped = f" ({len(unsupported)} GPU(s) without profiling support)" if unsupported else ""
    return Finding(Status.PASS, f"every GPU that supports them reports DCGM_FI_PROF_*{skipped}", evidence)


def rule_groups(o: Observations) -> Finding:
    # The host-signal groups depend on what the deployment scrapes, which doctor does not know from the rules'
    # config: counted when loaded, never missing (the host checks, doctor/host.py, judge those signals).
    names = {g.name for g in build_groups(o.config) if g.file != "fleet"}
    expected = sorted(names - set(HOST_GROUPS))
    loaded = {r.group for r in o.rules}
    ours = sorted(g for g in names | set(HOST_GROUPS) if g in loaded)
    missing = [g for g in expected if g not in loaded]
    broken = [f"{r.group}/{r.name}: {r.last_error}" for r in o.rules if r.health == "err"]
    failing = [s.labels.get("rule_group", "?") for s in o.vector("rules.failures")]
    evidence = [
        Evidence(
            "GET /api/v1/rules",
            f"{len(ours)} gpuscope groups loaded, {len(missing)} of {len(expected)} expected missing, "
            f"{len(broken)} rules err",
        ),
        o.evidence("rules.failures"),
    ]
    if not ours:
        return Finding(
            Status.FAIL,
            "no gpuscope rule groups loaded",
            tuple(evidence),
            "Render them (`gpuscope rules render --config rules.yaml -o rules/`) and list the files in rule_files "
            "(or apply the bundle's PrometheusRule).",
        )
    if missing:
        return Finding(
            Status.FAIL,
            f"gpuscope rule groups missing: {', '.join(missing)}",
            tuple(evidence),
            "Load both gpuscope-recording.yaml and gpuscope-alerts.yaml of the same render.",
        )
    if broken or failing:
        return Finding(
            Status.FAIL,
            f"rule evaluation failures: {listed(broken or failing)}",
            tuple(evidence),
            "Prometheus's /rules page shows each failing rule's error; fix the expression or its inputs.",
        )
    mismatch = _label_mismatch(o)
    if mismatch:
        evidence.append(Evidence("GET /api/v1/rules (GPUExporterDown, gpu:present:max1m)", mismatch))
        return Finding(
            Status.FAIL,
            f"the loaded rules do not match this deployment's series: {mismatch}",
            tuple(evidence),
            "Re-render the rules with this deployment's exporter_selector and host_label (rules config, or the "
            "fleet spec's exporter settings): as loaded, GPU alerts can never fire.",
        )
    return Finding(Status.PASS, f"{len(ours)} gpuscope rule groups loaded, none failing", tuple(evidence))


def _label_mismatch(o: Observations) -> str:
    """Rules rendered for another selector or host label evaluate fine and match nothing: say so."""
    by_name = {r.name: r.query for r in o.rules}
    problems = []
    down = by_name.get("GPUExporterDown")
    selector = o.config.exporter_selector
    if down is not None and selector not in down:
        problems.append(f"GPUExporterDown is `{down}` but the GPU series come from {selector}")
    present = by_name.get("gpu:present:max1m")
    host = o.config.host_label
    if present is not None and o.detected.host_labels and not re.search(rf"\b{host}\b", present):
        problems.append(f"gpu:present:max1m does not keep {host}, the exporters' host label")
    return "; ".join(problems)


def alertmanager(o: Observations) -> Finding:
    errors = o.vector("am.errors")
    evidence = [Evidence("GET /api/v1/alertmanagers", ", ".join(o.alertmanagers) or "none"), o.evidence("am.errors")]
    peer = o.alertmanager
    if peer is not None:
        said = peer.error or f"Alertmanager {peer.facts.get('version')}, cluster {peer.facts.get('cluster_status')}"
        evidence.append(Evidence(f"GET {peer.url}/api/v2/status", said))
    if not o.alertmanagers:
        return Finding(
            Status.FAIL,
            "Prometheus has discovered no Alertmanager: alerts go nowhere",
            tuple(evidence),
            "Add the Alertmanagers (all of them, no load balancer) to the alerting section of prometheus.yml.",
        )
    if peer is not None and peer.error is not None:
        return Finding(
            Status.FAIL,
            f"Alertmanager {peer.url} does not answer: {peer.error}",
            tuple(evidence),
            "Bring Alertmanager back; meanwhile firing alerts are only on Prometheus's /alerts page.",
        )
    if errors:
        return Finding(
            Status.WARN,
            f"notifications to Alertmanager failed in the last {o.timing.window}",
            tuple(evidence),
            "Check the Alertmanager's health and the network path from Prometheus.",
            "PrometheusErrorSendingAlertsToSomeAlertmanagers",
        )
    reach = ", reachable" if peer is not None else ""
    return Finding(Status.PASS, f"{len(o.alertmanagers)} Alertmanager(s) discovered{reach}", tuple(evidence))


def ha_pair(o: Observations) -> Finding:
    peer = o.replica_b
    if peer is None:
        return _ha_from_self_scrape(o)
    if peer.error is not None:
        return Finding(
            Status.FAIL,
            f"replica B {peer.url} does not answer: {peer.error}",
            (Evidence(f"GET {peer.url}/api/v1/status/buildinfo", peer.error),),
            "Bring replica B back: until then one Prometheus failure loses alerting and data for this cluster.",
        )
    a_up, b_up = int(o.value("targets.up")), int(peer.value("targets.up"))
    a_gpus, b_gpus = int(o.value("gpus.now")), int(peer.value("gpus.now"))
    mine, theirs = dict(o.loaded.external_labels), dict(peer.facts.get("external_labels", {}))
    evidence = (
        peer.evidence("targets.up"),
        o.evidence("targets.up"),
        peer.evidence("gpus.now"),
        Evidence("external labels (A | B)", f"{_labelset(mine)} | {_labelset(theirs)}"),
    )
    if mine == theirs:
        return Finding(
            Status.FAIL,
            "both replicas carry the same external labels: the long-term store cannot tell them apart",
            evidence,
            "Give each replica its own replica label (gpuscope generate sets replica, or __replica__ for Mimir).",
        )
    if (a_up, a_gpus) != (b_up, b_gpus):
        return Finding(
            Status.WARN,
            f"replicas disagree: A sees {a_up} targets up and {a_gpus} GPUs, B {b_up} and {b_gpus}",
            evidence,
            "Both replicas must scrape the same targets with the same config: diff their /api/v1/status/config.",
        )
    return Finding(Status.PASS, f"replica B up, scraping the same {b_up} targets and {b_gpus} GPUs", evidence)


def _ha_from_self_scrape(o: Observations) -> Finding:
    """Without --replica-b: the Prometheus servers this one scrapes (gpuscope's replicas scrape each other)."""
    servers = o.vector("prometheus.up")
    if len(servers) < 2:
        return Finding(Status.SKIP, "not checked: pass --replica-b with the other replica's URL")
    down = [s.labels.get("instance", "?") for s in servers if s.value != 1]
    evidence = (o.evidence("prometheus.up"),)
    if down:
        return Finding(
            Status.FAIL,
            f"{len(down)} of {len(servers)} Prometheus servers down: {', '.join(down)}",
            evidence,
            "Bring the replica back: until then one Prometheus failure loses alerting and data for this cluster.",
        )
    return Finding(
        Status.PASS,
        f"{len(servers)}/{len(servers)} Prometheus servers up (pass --replica-b to compare what they scrape)",
        evidence,
    )


def _labelset(labels: dict[str, str]) -> str:
    return "{" + ", ".join(f"{k}={v}" for k, v in sorted(labels.items())) + "}"


def global_path(o: Observations) -> Finding:
    store, queues = o.global_store, o.loaded.remote_write
    if store is None and not queues:
        return Finding(
            Status.SKIP,
            "not checked: no remote_write configured; pass --global with the store that federates this cluster",
        )
    sending: list[Evidence] = []
    if queues:
        sending = [o.evidence("rw.lag"), o.evidence("rw.pending"), o.evidence("rw.behind")]
    if store is not None and store.error is not None:
        return Finding(
            Status.FAIL,
            f"the global store {store.url} does not answer: {store.error}",
            (Evidence(f"GET {store.url}/api/v1/query", store.error), *sending),
            "Bring the global store back; the replicas' remote_write queues (or the next federation scrape) fill "
            "the gap if it returns within the WAL window.",
        )
    if queues and (o.vector("rw.behind") or o.vector("rw.failures")):
        return Finding(
            Status.FAIL,
            f"remote_write to {', '.join(queues)} is behind or failing",
            tuple(sending),
            "See the failure mode 'remote_write behind or failing' and its runbook.",
        )
    if store is None:
        return Finding(Status.PASS, f"remote_write to {', '.join(queues)} keeps up", tuple(sending))
    return victoriametrics(o, store, _global_data(o, store, sending))


def _global_data(o: Observations, store: Peer, sending: list[Evidence]) -> Finding:
    """This cluster's newest rollup (else raw GPU series) in the global store, and how old it is."""
    limit = o.timing.scaled(ROLLUP_STALE_S)
    evidence: list[Evidence] = []
    where = f"cluster {o.detected.cluster}" if o.detected.cluster else "this cluster"
    for kind, metric in (("rollup", ROLLUP), ("raw", Promql(o.config).name("DCGM_FI_DEV_GPU_TEMP"))):
        count = store.value(f"{kind}.count")
        evidence.append(store.evidence(f"{kind}.count"))
        if count <= 0:
            continue
        age = store.value(f"{kind}.age")
        evidence.append(store.evidence(f"{kind}.age"))
        if age <= limit:
            return Finding(
                Status.PASS, f"{where}'s {metric} is in the global store, {number(age)}s old", (*evidence, *sending)
            )
        return Finding(
            Status.FAIL,
            f"{where}'s newest {metric} in the global store is {number(age)}s old (limit {number(limit)}s)",
            (*evidence, *sending),
            "Data stopped arriving: check remote_write (or the federation job) from this cluster.",
        )
    return Finding(
        Status.FAIL,
        f"the global store has no {ROLLUP} or GPU series for {where}",
        (*evidence, *sending),
        "Nothing arrives: check remote_write's url/credentials (or that the global Prometheus federates this "
        "cluster), and that the cold-tier rollups are in write_relabel_configs' keep list.",
    )
