"""Pipeline: the five hops of the signal flow (docs/architecture.md), each with the signal that breaks first.

GPU → NVML (backend up, lost GPUs, failed collections), NVML → DCGM (profiling counters held by another tool),
DCGM → exporter (snapshot age, collection time, restarts), exporter → Prometheus (targets up, scrape duration
against the timeout, samples per scrape), Prometheus itself (samples/s, head series, churn, rule evaluation),
and Prometheus → long-term store (remote_write lag, pending and failed samples, shards; per store: the
federation scrape of each cluster, the Thanos sidecar's block uploads, VictoriaMetrics' own ingestion, dedup and
bytes per sample).
"""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q


def _by_target(q: Q, expr: str, how: str = "max") -> str:
    return f"{how} by ({q.cluster}, instance) ({expr})"


def _target_legend(q: Q) -> str:
    return f"{{{{{q.cluster}}}}} {{{{instance}}}}"


def exporter_metric(q: Q, metric: str, how: str = "max") -> Query:
    return Query(_by_target(q, q.exporter(metric, q.in_cluster), how), _target_legend(q))


def exporter_rate(q: Q, metric: str) -> Query:
    return Query(_by_target(q, f"rate({q.exporter(metric, q.in_cluster)}[$__rate_interval])", "sum"), _target_legend(q))


def profiling_unavailable(q: Q) -> Query:
    """GPUs whose profiling counters another client holds, per exporter (gpuscope says why in ``reason``)."""
    sel = q.exporter("gpuscope_exporter_gpu_profiling_available", q.in_cluster, 'reason!~"available|warming_up"')
    return Query(
        f"count by ({q.cluster}, instance, reason) ({sel} == 0)",
        f"{_target_legend(q)} {{{{reason}}}}",
        fault="profiling-lock",
        zero=f"count({q.exporter('gpuscope_exporter_gpu_profiling_available', q.in_cluster)})",
    )


def snapshot_age_intervals(q: Q) -> Query:
    """How many collection intervals old the served snapshot is (GPUExporterSnapshotStale's measure)."""
    age = q.exporter("gpuscope_exporter_snapshot_age_seconds", q.in_cluster)
    interval = q.exporter("gpuscope_exporter_collection_interval_seconds", q.in_cluster)
    return Query(_by_target(q, f"{age} / {interval}"), _target_legend(q))


def restarts(q: Q) -> Query:
    """Exporter restarts in the range: resets of its collections counter, which counts from 0 at every start.

    Not ``changes()`` of the start time: MetricsQL's ``changes`` counts a series' first sample as a change where no
    sample precedes the window, so VictoriaMetrics read 1 restart for every exporter of a stack younger than the
    range (Prometheus 0). ``resets`` compares each sample with the one before it on both stores, and a counter
    only goes down at a restart.
    """
    sel = q.exporter("gpuscope_exporter_collections_total", q.in_cluster)
    return Query(_by_target(q, f"resets({sel}[$__range])"), _target_legend(q))


def targets(q: Q) -> tuple[Query, Query]:
    up = q.exporter("up", q.in_cluster)
    legend = f"{{{{{q.cluster}}}}}"
    return (
        Query(f"sum by ({q.cluster}) ({up})", f"{legend} up"),
        Query(f"count by ({q.cluster}) ({up})", f"{legend} targets"),
    )


def dcgm_versions(q: Q) -> Query:
    """Each DCGM-backed exporter's libdcgm and host-engine versions (GPUDcgmVersionSkew when they differ)."""
    sel = q.exporter("gpuscope_exporter_dcgm_info", q.in_cluster)
    return Query(
        f"max by ({q.cluster}, instance, client_version, hostengine_version) ({sel})",
        f"{_target_legend(q)} libdcgm {{{{client_version}}}} / host engine {{{{hostengine_version}}}}",
        instant=True,
    )


def targets_down(q: Q) -> Query:
    up = q.exporter("up", q.in_cluster)
    return Query(f"{up} == 0", "down", instant=True, fault="exporter-down", zero=f"count({up})")


def scrape(q: Q, metric: str) -> Query:
    return Query(_by_target(q, q.exporter(metric, q.in_cluster)), _target_legend(q))


def prom(q: Q, metric: str) -> Query:
    return Query(_by_target(q, q.prom(metric, q.in_cluster)), _target_legend(q))


def samples_per_second(q: Q) -> Query:
    sel = q.prom("prometheus_tsdb_head_samples_appended_total", q.in_cluster)
    return Query(_by_target(q, f"rate({sel}[$__rate_interval])"), _target_legend(q))


def churn(q: Q) -> Query:
    """Series created per hour over head series (PrometheusSeriesChurnHigh's ratio)."""
    created = q.prom("prometheus_tsdb_head_series_created_total", q.in_cluster)
    head = q.prom("prometheus_tsdb_head_series", q.in_cluster)
    return Query(
        f"{_by_target(q, f'rate({created}[$__rate_interval])')} * 3600\n/ {_by_target(q, head)}", _target_legend(q)
    )


def per_rule_group(q: Q, expr: str, how: str = "sum") -> Query:
    """Per rule group, named by the group alone: Prometheus' ``rule_group`` is ``<rule file path>;<group>``, and a
    legend of full paths hides the name that tells the groups apart."""
    grouped = f"{how} by ({q.cluster}, rule_group) ({expr})"
    named = f'label_replace({grouped}, "group", "$1", "rule_group", ".*;(.*)")'
    return Query(named, f"{{{{{q.cluster}}}}} {{{{group}}}}")


def rule_failures(q: Q) -> Query:
    sel = q.prom("prometheus_rule_evaluation_failures_total", q.in_cluster)
    return per_rule_group(q, f"increase({sel}[$__rate_interval])")


def rule_missed(q: Q) -> Query:
    sel = q.prom("prometheus_rule_group_iterations_missed_total", q.in_cluster)
    return per_rule_group(q, f"increase({sel}[$__rate_interval])")


def rule_duration_share(q: Q) -> Query:
    """Evaluation time over the group's interval: at 100 % the group cannot keep up."""
    took = q.prom("prometheus_rule_group_last_duration_seconds", q.in_cluster)
    every = q.prom("prometheus_rule_group_interval_seconds", q.in_cluster)
    return per_rule_group(q, f"{took} / {every}", "max")


def remote_write_lag(q: Q) -> Query:
    """Newest appended sample minus newest sample sent (PrometheusRemoteWriteBehind)."""
    newest = q.prom("prometheus_remote_storage_highest_timestamp_in_seconds", q.in_cluster)
    sent = q.prom("prometheus_remote_storage_queue_highest_sent_timestamp_seconds", q.in_cluster)
    return Query(_by_target(q, f"{newest}\n- ignoring (remote_name, url) group_right {sent}"), _target_legend(q))


def remote_write(q: Q, metric: str, rate: bool = False, suffix: str = "") -> Query:
    sel = q.prom(metric, q.in_cluster)
    expr = f"rate({sel}[$__rate_interval])" if rate else sel
    return Query(_by_target(q, expr, "sum"), f"{_target_legend(q)}{suffix}")


def federation(q: Q, metric: str) -> Query:
    """The global Prometheus's scrape of each cluster's ``/federate`` (its jobs are ``federate-<cluster>``)."""
    return Query(f'max by (job, instance) ({metric}{{job=~"federate-.+"}})', "{{job}} {{instance}}")


def thanos_sidecar(q: Q, metric: str) -> Query:
    """The sidecar next to each replica, scraped by that replica as ``job="thanos-sidecar"``."""
    sel = f'{metric}{{job="thanos-sidecar",{q.in_cluster}}}'
    return Query(_by_target(q, f"increase({sel}[$__range])", "sum"), _target_legend(q))


def prometheus_blocks(q: Q) -> Query:
    """2 h blocks cut by each replica: what the sidecar has to upload."""
    sel = q.prom("prometheus_tsdb_compactions_total", q.in_cluster)
    return Query(_by_target(q, f"increase({sel}[$__range])", "sum"), _target_legend(q))


# VictoriaMetrics' own metrics: the single node scrapes itself (-selfScrapeInterval); in the cluster version
# vminsert and vmstorage serve the same names. No cluster label: they describe the store, not a cluster.
def vm_rows_inserted(q: Q) -> Query:
    return Query(
        'sum by (type) (rate(vm_rows_inserted_total{type="promremotewrite"}[$__rate_interval]))', "rows/s {{type}}"
    )


def vm_deduplicated(q: Q) -> Query:
    return Query("sum by (type) (rate(vm_deduplicated_samples_total[$__rate_interval]))", "deduplicated/s {{type}}")


def vm_ignored(q: Q) -> Query:
    return Query("sum by (reason) (rate(vm_rows_ignored_total[$__rate_interval]))", "ignored/s {{reason}}")


def vm_new_series(q: Q) -> Query:
    return Query("sum(rate(vm_new_timeseries_created_total[$__rate_interval]))", "new series/s")


def vm_bytes_per_sample(q: Q) -> Query:
    return Query('sum(vm_data_size_bytes{type=~"storage/.+"}) / sum(vm_rows{type=~"storage/.+"})', "bytes per sample")
