"""Label hygiene checks: the label mistakes that turn into cardinality, rejected samples or split dashboards."""

from __future__ import annotations

from gpuscope.doctor.detect import HOST_LABELS
from gpuscope.doctor.observations import Observations, number
from gpuscope.doctor.results import Evidence, Finding, Status
from gpuscope.errors import QueryFailed
from gpuscope.spec.fleet import LABEL_LIMIT


def workload_labels(o: Observations) -> Finding:
    labels = o.detected.workload_labels
    if not labels:
        return Finding(
            Status.PASS,
            "no pod/job labels on GPU series",
            (Evidence("GET /api/v1/labels (GPU temperature series)", ", ".join(o.detected.gpu_labels)),),
        )
    evidence: list[Evidence] = []
    found = []
    for label in labels:
        series = o.value(f"workload.{label}")
        evidence += [o.evidence(f"workload.{label}"), o.evidence(f"workload.values.{label}")]
        if series:
            found.append(f"{label} on {number(series)} series ({number(o.value(f'workload.values.{label}'))} values)")
    if found:
        return Finding(
            Status.WARN,
            f"workload labels on GPU series: {'; '.join(found)}: every pod restart re-creates them (churn)",
            tuple(evidence),
            "Use the info-series mode (gpuscope exporter --workload-labels info) and join on UUID at query time, or "
            "drop the labels in metric_relabel_configs.",
        )
    return Finding(
        Status.PASS,
        f"{', '.join(labels)} on GPU series are the exporter's own target labels, not workload attribution",
        tuple(evidence),
    )


def label_collisions(o: Observations) -> Finding:
    exported = [label for label in o.detected.gpu_labels if label.startswith("exported_")]
    if not exported:
        return Finding(Status.PASS, "no exported_* label collisions on GPU series")
    evidence = tuple(o.evidence(f"collision.{label}") for label in exported)
    return Finding(
        Status.WARN,
        f"the exporter's labels collide with target labels and were renamed: {', '.join(exported)}",
        evidence,
        "Scrape the exporter with honor_labels: true (ServiceMonitor honorLabels: true), or set the fleet spec's "
        "exporter.namespace_label/pod_label to the exported_* names (the doctor reads them so already).",
    )


def label_count(o: Observations) -> Finding:
    """Labels per series as Mimir counts them at ingestion: the series' own, __name__ and the external labels."""
    external = set(o.loaded.external_labels)
    if isinstance(o.gpu_series, QueryFailed):
        raise o.gpu_series
    if not o.gpu_series:
        return Finding(Status.SKIP, "not checked: no GPU series in the last 5 minutes")
    widest = max(o.gpu_series, key=lambda s: (len(set(s) | external), sorted(s.items())))
    count = len(set(widest) | external)
    evidence = (
        Evidence(
            f"GET /api/v1/series ({len(o.gpu_series)} GPU temperature and XID series) + external labels",
            f"at most {count} labels: {', '.join(sorted(set(widest) | external))}",
        ),
    )
    if count > LABEL_LIMIT:
        writes = bool(o.loaded.remote_write)
        return Finding(
            Status.FAIL if writes else Status.WARN,
            f"GPU series carry {count} labels, more than Mimir's default limit of {LABEL_LIMIT}"
            + (": remote_write samples are rejected" if writes else ""),
            evidence,
            "Drop labels at scrape time (metric_relabel_configs labeldrop), e.g. pod labels or unused target labels.",
        )
    return Finding(Status.PASS, f"at most {count} labels per GPU series (limit {LABEL_LIMIT})", evidence)


def host_label(o: Observations) -> Finding:
    counts = {h: o.value(f"host.{h}") for h in HOST_LABELS}
    evidence = [o.evidence(f"host.{h}") for h in HOST_LABELS]
    fleet = o.expectation.host_label
    if fleet is not None:
        evidence.append(Evidence(f"{o.expectation.source}: exporter.host_label", fleet))
    present = [h for h in HOST_LABELS if counts[h]]
    if len(present) == len(HOST_LABELS):
        return Finding(
            Status.FAIL,
            "both Hostname and hostname on GPU series: one fleet, two host labels (split dashboards, duplicate series)",
            tuple(evidence),
            "Run every exporter with one host label (gpuscope --host-label; dcgm-exporter >= 4.8.3 says hostname) "
            "and set the rules' host_label to it.",
        )
    if not present:
        return Finding(
            Status.WARN,
            "no host label on GPU series (exporter run with -n/--no-hostname?)",
            tuple(evidence),
            "Alerts and dashboards name GPUs by host: run the exporter without -n, with NODE_NAME set.",
        )
    if fleet is not None and present != [fleet]:
        return Finding(
            Status.FAIL,
            f"the exporters send {present[0]} but the fleet spec says {fleet}: its rules match no GPU series",
            tuple(evidence),
            f"Set exporter.host_label: {present[0]} in the fleet spec and regenerate.",
        )
    return Finding(Status.PASS, f"one host label: {present[0]}", tuple(evidence))
