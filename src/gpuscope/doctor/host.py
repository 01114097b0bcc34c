"""Host signals: are node-exporter, kube-state-metrics and cAdvisor scraped and up, and do their host labels join
with the GPU series (the dashboards' host row and the host alerts join by that one label)?

A job with no target at all is "not scraped" (SKIP: a cluster may run without kube-state-metrics); targets down
are a FAIL; GPU hosts without node-exporter series, or kube-state-metrics nodes that name no GPU host, are a WARN
naming them.
"""

from __future__ import annotations

from gpuscope.doctor.detect import TEMP
from gpuscope.doctor.observations import Observations, listed
from gpuscope.doctor.results import Finding, Status
from gpuscope.rules.alerts_host import gpu_hosts
from gpuscope.rules.promql import Promql

JOBS = ("node_exporter", "kube_state_metrics", "cadvisor")
_NAMES = {"node_exporter": "node-exporter", "kube_state_metrics": "kube-state-metrics", "cadvisor": "cAdvisor"}


def _selector(q: Promql, job: str) -> str:
    hs = q.config.host
    return {
        "node_exporter": hs.node_exporter_selector,
        "kube_state_metrics": hs.kube_state_metrics_selector,
        "cadvisor": hs.cadvisor_selector,
    }[job]


def host_queries(q: Promql) -> dict[str, str]:
    h = q.config.host_label
    out: dict[str, str] = {}
    for job in JOBS:
        sel = _selector(q, job)
        out[f"host.{job}.total"] = f"count(up{{{sel}}}) or vector(0)"
        out[f"host.{job}.down"] = f"up{{{sel}}} == 0"
    ne = f"node_uname_info{{{q.config.host.node_exporter_selector}}}"
    out["host.ne_missing"] = f"{gpu_hosts(q)}\nunless on ({h}) group by ({h}) ({ne})"
    ksm = f"kube_node_info{{{q.config.host.kube_state_metrics_selector}}}"
    nodes = f'group by ({h}) (label_replace({ksm}, "{h}", "$1", "node", "(.+)"))'
    out["host.ksm_unjoined"] = f"{gpu_hosts(q)}\nunless on ({h}) {nodes}"
    out["host.gpu_hosts"] = f"count({gpu_hosts(q)}) or vector(0)"
    return out


def companion_targets(o: Observations) -> Finding:
    scraped, down, absent = [], [], []
    evidence = []
    for job in JOBS:
        total = o.value(f"host.{job}.total")
        evidence.append(o.evidence(f"host.{job}.total", f"{total:g} targets"))
        if not total:
            absent.append(_NAMES[job])
            continue
        scraped.append(_NAMES[job])
        bad = [s.labels.get("instance", "?") for s in o.vector(f"host.{job}.down")]
        if bad:
            down.append(f"{_NAMES[job]}: {listed(bad)}")
            evidence.append(o.evidence(f"host.{job}.down"))
    if down:
        return Finding(
            Status.FAIL,
            f"targets down: {'; '.join(down)}",
            tuple(evidence),
            "Check the exporter on those nodes (the node-exporter/kube-state-metrics pod, the kubelet's "
            "/metrics/cadvisor and its token); the host row and host alerts are blind there meanwhile.",
        )
    if not scraped:
        return Finding(
            Status.SKIP,
            "none of node-exporter, kube-state-metrics, cAdvisor is scraped (job selectors in docs/host-signals.md)",
            tuple(evidence),
        )
    rest = f"; not scraped: {', '.join(absent)}" if absent else ""
    return Finding(Status.PASS, f"{', '.join(scraped)} up{rest}", tuple(evidence))


def host_join(o: Observations) -> Finding:
    c = o.config
    if not o.value("host.gpu_hosts"):
        return Finding(Status.SKIP, f"no GPU series ({Promql(c).name(TEMP)}) to join with")
    problems, evidence = [], []
    if o.value("host.node_exporter.total"):
        missing = [s.labels.get(c.host_label, "?") for s in o.vector("host.ne_missing")]
        evidence.append(o.evidence("host.ne_missing"))
        if missing:
            problems.append(f"GPU hosts without node-exporter series under {c.host_label}: {listed(missing)}")
    if o.value("host.kube_state_metrics.total"):
        unjoined = [s.labels.get(c.host_label, "?") for s in o.vector("host.ksm_unjoined")]
        evidence.append(o.evidence("host.ksm_unjoined"))
        if unjoined:
            problems.append(f"GPU hosts kube-state-metrics has no node for: {listed(unjoined)}")
    if not evidence:
        return Finding(Status.SKIP, "neither node-exporter nor kube-state-metrics is scraped")
    if problems:
        return Finding(
            Status.WARN,
            "; ".join(problems),
            tuple(evidence),
            f"Give node-exporter targets the GPU exporter's {c.host_label} value (targets/node-exporter.json labels, "
            "the node group's hostnames, or the ServiceMonitor's node-name relabeling); Kubernetes node names must "
            "equal the GPU exporter's host label (NODE_NAME).",
        )
    return Finding(Status.PASS, f"every GPU host joins its host signals by {c.host_label}", tuple(evidence))
