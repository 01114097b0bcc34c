"""Every PromQL query of the audit, by name, built from the detected labels with the rules' own builders.

Where an alert already asks the question (remote_write behind or failing, a model outside the budget, a stale
snapshot, an exporter down) the query *is* that alert's expression as the rules render it for this config (time
windows compressed by the same speedup), so doctor and the alerts cannot disagree. Elsewhere doctor asks about
its look-back window rather than an alert's: "restarted in the last hour", "had profiling metrics in the window".
"""

from __future__ import annotations

from collections.abc import Sequence

from gpuscope.doctor.detect import HOST_LABELS, TEMP, Detected
from gpuscope.doctor.fabric import fabric_queries
from gpuscope.doctor.host import host_queries
from gpuscope.doctor.longterm import ROLLUP
from gpuscope.doctor.timing import GROWTH_HORIZON_S, HOUR_S, Timing, duration
from gpuscope.escaping import promql_string_content
from gpuscope.rules import alerts
from gpuscope.rules.alerts_kube import with_kube_restarts
from gpuscope.rules.alerts_pipeline import restarts
from gpuscope.rules.promql import Promql, regex_of

# query name -> the alert whose expression it evaluates
ALERT_QUERIES = {
    "targets.down": "GPUExporterDown",
    "snapshot.stale": "GPUExporterSnapshotStale",
    "models.outside": "GPUModelOutsideBudget",
    "dcgm.down": "GPUDcgmHostEngineDown",
    "dcgm.skew": "GPUDcgmVersionSkew",
    "rw.behind": "PrometheusRemoteWriteBehind",
    "rw.failures": "PrometheusRemoteStorageFailures",
    "rw.shards": "PrometheusRemoteWriteDesiredShards",
}
PROF_REGEX = "DCGM_FI_PROF_.+"
PROF_WINDOW_CHUNK = 100  # UUIDs per query: about 4 KiB of URL, under any proxy's limit
_SENT = "prometheus_remote_storage_queue_highest_sent_timestamp_seconds"


def _quote(value: str) -> str:
    return promql_string_content(value)


def alert_queries(q: Promql) -> dict[str, str]:
    exprs: dict[str, str] = {}
    for alert in alerts(q.config):  # compressed by the config's speedup, as loaded into Prometheus
        exprs.setdefault(alert.name, alert.expr)
    return {name: exprs[alert] for name, alert in ALERT_QUERIES.items()}


def floor_queries(q: Promql, t: Timing) -> dict[str, str]:
    c, w = q.config, t.window
    temp = q.dcgm(TEMP)
    prof = q.exporter("", f'__name__=~"{PROF_REGEX}"')
    return {
        "targets.up": f"count({q.up} == 1) or vector(0)",
        "targets.total": f"count({q.up}) or vector(0)",
        "gpus.now": f"count(count by ({c.uuid_label}) ({temp})) or vector(0)",
        "gpus.window": f"count(count by ({c.uuid_label}) (last_over_time({temp}[{w}]))) or vector(0)",
        "gpus.up_without": f"{q.up} == 1 unless on (instance) {temp}",
        "prof.lacking": f"max by ({q.gpu_id}, modelName) ({temp}) unless on ({c.uuid_label}) {prof}",
        "prof.models": f"count by (modelName) ({prof})",
        "prof.unsupported": f"{q.exporter('gpuscope_exporter_gpu_profiling_supported')} == 0",
        "prof.locked": (
            f"max by ({q.gpu_id}) ({q.exporter('gpuscope_exporter_gpu_profiling_available')} == 0 "
            f"and on ({c.uuid_label}, instance) {q.exporter('gpuscope_exporter_gpu_profiling_supported')} == 1)"
        ),
        "prometheus.up": f"up{{{c.prometheus_selector}}}",
        "rules.failures": (
            f"sum by (rule_group) (increase({q.prom('prometheus_rule_evaluation_failures_total')}[{w}])) > 0"
        ),
        "am.errors": (
            f"sum by (instance, alertmanager) (increase({q.prom('prometheus_notifications_errors_total')}[{w}])) > 0"
        ),
    }


def prof_window_queries(q: Promql, t: Timing, lacking: Sequence[str]) -> tuple[str, ...]:
    """ "Had DCGM_FI_PROF_* series in the window", asked only of the GPUs that lack them now (``prof.lacking``), in
    chunks of ``PROF_WINDOW_CHUNK`` UUIDs: the checks only want the GPUs that lost them. Asked of every GPU, the
    subquery reads every PROF series at 60 steps (13 s at 8,000 GPUs); asked of none, in a healthy fleet, it is
    not asked at all.

    A range function would drop the metric names of several PROF fields and clash; a subquery over the grouped
    instant vector asks "any PROF series for this GPU" at each step instead."""
    uuid, step = q.config.uuid_label, duration(t.window_s / 60)
    out = []
    for start in range(0, len(lacking), PROF_WINDOW_CHUNK):
        ids = regex_of(tuple(lacking[start : start + PROF_WINDOW_CHUNK]))
        prof = q.exporter("", f'__name__=~"{PROF_REGEX}",{uuid}=~"{ids}"')
        out.append(f"max_over_time((group by ({uuid}) ({prof}))[{t.window}:{step}])")
    return tuple(out)


def failure_queries(q: Promql, d: Detected, t: Timing) -> dict[str, str]:
    c, w = q.config, t.window
    temp = q.dcgm(TEMP)
    out = {
        "gpus.stopped": (
            f"(max by ({q.gpu_id}) (last_over_time({temp}[{w}])) unless on ({c.uuid_label}) {temp})\n"
            f"and on (instance) {q.up} == 1"
        ),
        "gpus.lost": f"{q.exporter('gpuscope_exporter_gpu_lost')} == 1",
        "gpuscope.exporters": f"count({q.exporter('gpuscope_exporter_backend_up')}) or vector(0)",
        "dcgm.exporters": f"count({q.exporter('gpuscope_exporter_dcgm_info')}) or vector(0)",
        "restarts": with_kube_restarts(q, restarts(q, w), w),  # as GPUExporterRestarted: kube-state-metrics too
        "rw.pending": f"sum by (instance, remote_name, url) ({q.prom('prometheus_remote_storage_samples_pending')})",
        "rw.lag": (
            f"max by (instance) ({q.prom('prometheus_remote_storage_highest_timestamp_in_seconds')})\n"
            "- on (instance) group_right\n"
            f"max by (instance, remote_name, url) ({q.prom(_SENT)})"
        ),
        "head.series": f"max by (instance) ({q.prom('prometheus_tsdb_head_series')})",
        "models.all": f"count by (modelName) (count by ({c.uuid_label}, modelName) ({temp}))",
        "scrape.p95": (
            f"max by (job, instance) (quantile_over_time(0.95, scrape_duration_seconds{{{c.exporter_selector}}}[{w}]))"
        ),
        "limits.sample": _increase(q, "prometheus_target_scrapes_exceeded_sample_limit_total", w),
        "limits.label": _increase(q, "prometheus_target_scrape_pool_exceeded_label_limits_total", w),
        "limits.body": _increase(q, "prometheus_target_scrapes_exceeded_body_size_limit_total", w),
    }
    created, head = "prometheus_tsdb_head_series_created_total", "prometheus_tsdb_head_series"
    for p in d.prometheus_instances:
        usable = t.measurable(p.started)
        if not usable:
            continue
        only, r = f'instance="{_quote(p.instance)}"', duration(usable)
        out[f"churn.{p.instance}"] = (
            # per production hour, as the churn alert counts it: a sped-up stack's hour is shorter
            f"rate({q.prom(created, only)}[{r}]) * {t.scaled(HOUR_S):g} / max_over_time({q.prom(head, only)}[{r}])"
        )
        out[f"growth.{p.instance}"] = f"predict_linear({q.prom(head, only)}[{r}], {round(t.scaled(GROWTH_HORIZON_S))})"
    return out


def _increase(q: Promql, metric: str, window: str) -> str:
    return f"sum by (instance) (increase({q.prom(metric)}[{window}])) > 0"


def hygiene_queries(q: Promql, d: Detected, t: Timing) -> dict[str, str]:
    out: dict[str, str] = {}
    for host in HOST_LABELS:
        out[f"host.{host}"] = f"count({_with(q, host)}) or vector(0)"
    for label in d.workload_labels:
        with_label = _with(q, label)
        # Target labels (the exporter pod's own namespace/pod under a ServiceMonitor) are on `up` too; workload
        # attribution is not. Only GPU series whose value differs from their target's count.
        out[f"workload.{label}"] = f"count({with_label} unless on (instance, {label}) {q.up}) or vector(0)"
        out[f"workload.values.{label}"] = (
            f"count(count by ({label}) (last_over_time({with_label}[{t.window}]))) or vector(0)"
        )
    for label in d.gpu_labels:
        if label.startswith("exported_"):
            out[f"collision.{label}"] = f"count({_with(q, label)}) or vector(0)"
    return out


def _with(q: Promql, label: str) -> str:
    """GPU temperature series that carry ``label``."""
    return q.dcgm(TEMP, f'{label}!=""')


def audit_queries(q: Promql, d: Detected, t: Timing) -> dict[str, str]:
    """Every phase-two query against the audited Prometheus, keyed by the name the checks use."""
    return {
        **floor_queries(q, t),
        **failure_queries(q, d, t),
        **hygiene_queries(q, d, t),
        **alert_queries(q),
        **host_queries(q),  # node-exporter, kube-state-metrics, cAdvisor (doctor/host.py)
        **fabric_queries(q),  # the NVLink inventory (doctor/fabric.py)
    }


def replica_queries(q: Promql) -> dict[str, str]:
    """What replica B is asked: does it scrape the same exporters and see the same GPUs."""
    return {
        "targets.up": f"count({q.up} == 1) or vector(0)",
        "gpus.now": f"count(count by ({q.config.uuid_label}) ({q.dcgm(TEMP)})) or vector(0)",
    }


def global_queries(q: Promql, cluster: str | None) -> dict[str, str]:
    """Whether this cluster's data arrives in the global store: the rollups, else the raw GPU series. The counts
    are of clusters and of distinct GPUs: a federating store holds both replicas of each, which are one."""
    c = q.config
    only = f'{c.cluster_label}="{_quote(cluster)}"' if cluster else ""
    rollup = f"{ROLLUP}{{{only}}}"
    raw = f"{q.name(TEMP)}{{{only}}}"
    return {
        "rollup.count": f"count(max by ({c.cluster_label}) ({rollup})) or vector(0)",
        "rollup.age": f"time() - max(timestamp({rollup}))",
        "raw.count": f"count(count by ({c.cluster_label}, {c.uuid_label}) ({raw})) or vector(0)",
        "raw.age": f"time() - max(timestamp({raw}))",
    }
