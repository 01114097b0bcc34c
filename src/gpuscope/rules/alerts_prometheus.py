"""Prometheus self-monitoring alerts (owner: platform).

The prometheus-mixin's alerts at v2.42.0 (the version Debian ships; newer mixins reference metrics 2.42 does not
expose and would silently never fire), severities mapped critical → page, warning → ticket; plus ours for what
the mixin lacks: head series against the cardinality budget, series churn, WAL corruption.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gpuscope.rules.promql import Promql, alternatives
from gpuscope.rules.records import Alert, Group, Runbook

_INSTANCE = "{{ $labels.instance }}"


def head_series(q: Promql) -> tuple[Alert, Alert]:
    c = q.config
    budget = c.head_series_budget
    series = f"max_over_time({q.prom('prometheus_tsdb_head_series')}[5m])"
    runbook = Runbook(
        meaning="The Prometheus head block holds more series than the cardinality budget: memory grows with every "
        "series (about 6 kB of RSS each, Go GC headroom included) and an OOM loses the head. The usual cause is a new "
        "label with many values (pod labels, a new GPU model, MIG re-layouts).",
        confirm=(
            "prometheus_tsdb_head_series",
            'topk(10, count by (__name__) ({__name__=~".+"}))   # expensive: run once',
            "$ curl -s <prometheus>/api/v1/status/tsdb | jq .data.seriesCountByMetricName",
        ),
        actions=(
            "Find what grew with /api/v1/status/tsdb; `gpuscope doctor` names label hygiene problems.",
            "Drop the high-cardinality label at scrape time (metric_relabel_configs) or switch the exporter to the "
            "info-series workload mode.",
        ),
    )
    warn = Alert(
        name="PrometheusHeadSeriesOverBudget",
        expr=f"{series} > {c.head_series_warn_ratio:g} * {budget}",
        severity="ticket",
        owner="platform",
        summary="Prometheus head series are above 80% of the budget.",
        description=f"Prometheus {_INSTANCE} holds {{{{ $value | humanize }}}} head series; the budget is {budget}.",
        runbook=runbook,
        bound="15m",
        for_="10m",
    )
    over = Alert(
        name="PrometheusHeadSeriesOverBudget",
        expr=f"{series} > {budget}",
        severity="page",
        owner="platform",
        summary="Prometheus head series are above the budget.",
        description=f"Prometheus {_INSTANCE} holds {{{{ $value | humanize }}}} head series, over the budget of "
        f"{budget}.",
        runbook=runbook,
        bound="15m",
        for_="10m",
    )
    return warn, over


def churn(q: Promql) -> Alert:
    ratio = q.config.thresholds.churn_ratio_per_hour
    created = q.prom("prometheus_tsdb_head_series_created_total")
    head = q.prom("prometheus_tsdb_head_series")
    # Per hour as six 10-minute increases, not rate x 3600 s: the same value, and a stack whose ranges are
    # shrunk by a speedup still measures per (sped-up) hour instead of overstating churn by the speedup.
    return Alert(
        name="PrometheusSeriesChurnHigh",
        expr=f"increase({created}[10m]) * 6 / max_over_time({head}[10m]) > {ratio:g}",
        severity="ticket",
        owner="platform",
        summary="Prometheus is creating series much faster than it keeps them: the pod-churn cardinality bomb.",
        description=f"Prometheus {_INSTANCE} creates new series at {{{{ $value | humanizePercentage }}}} of its head "
        "per hour.",
        runbook=Runbook(
            meaning="Series are being replaced, not added: a label that changes on every restart (pod name, container "
            "id, job id) is on raw metrics. Each replaced set stays in the head for up to 3 hours, so memory grows "
            "with the restart rate.",
            confirm=(
                "rate(prometheus_tsdb_head_series_created_total[10m]) * 3600 / prometheus_tsdb_head_series",
                "sum by (job) (sum_over_time(scrape_series_added[10m]))",
            ),
            actions=(
                "Find the job adding series (query above), then the label that churns.",
                "For GPU exporters: use the info-series workload mode (gpuscope --workload-labels info) instead of pod "
                "labels on every series, or drop pod/container labels in metric_relabel_configs.",
            ),
        ),
        bound="30m",
        for_="15m",
    )


def wal_corruptions(q: Promql) -> Alert:
    wal = q.prom("prometheus_tsdb_wal_corruptions_total")
    expr = alternatives(
        f"increase({wal}[10m]) > 0",
        f"{wal} > 0 and on (instance, job) changes({q.prom('process_start_time_seconds')}[10m]) > 0",
    )
    return Alert(
        name="PrometheusTSDBWALCorruptions",
        expr=expr,
        severity="page",
        owner="platform",
        summary="Prometheus found and repaired a corrupt write-ahead log.",
        description=f"Prometheus {_INSTANCE} repaired WAL corruption: samples after the corrupt record were lost.",
        runbook=Runbook(
            meaning="The WAL replay hit a corrupt segment (disk full, unclean shutdown, bad disk) and truncated it. "
            "Data since the corruption is gone from this replica; its HA peer and the long-term store still have it.",
            confirm=("prometheus_tsdb_wal_corruptions_total > 0", "$ journalctl -u prometheus | grep -i corrupt"),
            actions=(
                "Check the disk (free space, dmesg I/O errors) and why the process stopped uncleanly.",
                "Queries through the global store/dedup are unaffected; dashboards on this replica have a gap.",
            ),
        ),
        bound="1m",
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class MixinRule:
    """One prometheus-mixin alert: name, expression, ``for`` and severity as the mixin has them, with our summary
    and one-step runbook. ``_mixin`` turns it into an ``Alert``.
    """

    name: str
    expr: str
    for_: str
    severity: Literal["critical", "warning"]  # the mixin's: critical pages, warning opens a ticket
    summary: str
    meaning: str  # the runbook's "what it means"
    action: str  # the runbook's one step


def _mixin(rule: MixinRule) -> Alert:
    return Alert(
        name=rule.name,
        expr=rule.expr,
        severity="page" if rule.severity == "critical" else "ticket",
        owner="platform",
        summary=rule.summary,
        description=f"Prometheus {_INSTANCE}: {rule.summary[0].lower()}{rule.summary[1:]}",
        runbook=Runbook(meaning=rule.meaning, confirm=(rule.expr,), actions=(rule.action,)),
        bound="as mixin",
        for_=rule.for_,
    )


def prometheus_mixin(q: Promql) -> tuple[Alert, ...]:
    """The prometheus-mixin v2.42.0 alerts (its ``alerts.libsonnet``), selector from the config."""
    p = q.prom
    rw_hi = p("prometheus_remote_storage_highest_timestamp_in_seconds")
    rw_sent = p("prometheus_remote_storage_queue_highest_sent_timestamp_seconds")
    failed = f"(rate({p('prometheus_remote_storage_failed_samples_total')}[5m]) or rate({p('prometheus_remote_storage_samples_failed_total')}[5m]))"  # noqa: E501
    ok = f"(rate({p('prometheus_remote_storage_succeeded_samples_total')}[5m]) or rate({p('prometheus_remote_storage_samples_total')}[5m]))"  # noqa: E501
    notif_err = f"rate({p('prometheus_notifications_errors_total')}[5m])"
    notif_sent = f"rate({p('prometheus_notifications_sent_total')}[5m])"
    rules = (
        MixinRule(
            name="PrometheusBadConfig",
            expr=f"max_over_time({p('prometheus_config_last_reload_successful')}[5m]) == 0",
            for_="10m",
            severity="critical",
            summary="Failed to reload its configuration.",
            meaning="A config reload failed; the old config is still in use.",
            action="Run `promtool check config` on the file and fix it; the reload error is in the log.",
        ),
        MixinRule(
            name="PrometheusNotificationQueueRunningFull",
            expr=f"(predict_linear({p('prometheus_notifications_queue_length')}[5m], 60 * 30) > "
            f"min_over_time({p('prometheus_notifications_queue_capacity')}[5m]))",
            for_="15m",
            severity="warning",
            summary="Its alert notification queue is running full.",
            meaning="Alerts are produced faster than Alertmanager takes them.",
            action="Check Alertmanager latency and the notification error rate.",
        ),
        MixinRule(
            name="PrometheusErrorSendingAlertsToSomeAlertmanagers",
            expr=f"({notif_err} / {notif_sent}) * 100 > 1",
            for_="15m",
            severity="warning",
            summary="Errors while sending alerts to some Alertmanagers.",
            meaning="Some Alertmanagers reject or time out on alerts.",
            action="Check the failing Alertmanager's health and the network path.",
        ),
        MixinRule(
            name="PrometheusErrorSendingAlertsToAnyAlertmanager",
            expr=f"min without (alertmanager) ({notif_err} / {notif_sent}) * 100 > 3",
            for_="15m",
            severity="critical",
            summary="Errors while sending alerts to every Alertmanager.",
            meaning="No Alertmanager accepts alerts: pages are lost.",
            action="Restore Alertmanager; meanwhile watch Prometheus's /alerts page.",
        ),
        MixinRule(
            name="PrometheusNotConnectedToAlertmanagers",
            expr=f"max_over_time({p('prometheus_notifications_alertmanagers_discovered')}[5m]) < 1",
            for_="10m",
            severity="warning",
            summary="Not connected to any Alertmanager.",
            meaning="No Alertmanager is configured or discovered.",
            action="Check the alerting section of the config and service discovery.",
        ),
        MixinRule(
            name="PrometheusTSDBReloadsFailing",
            expr=f"increase({p('prometheus_tsdb_reloads_failures_total')}[3h]) > 0",
            for_="4h",
            severity="warning",
            summary="Failing to reload blocks from disk.",
            meaning="Block reloads fail: a block on disk is unreadable.",
            action="Look for the failing block in the log; check disk health.",
        ),
        MixinRule(
            name="PrometheusTSDBCompactionsFailing",
            expr=f"increase({p('prometheus_tsdb_compactions_failed_total')}[3h]) > 0",
            for_="4h",
            severity="warning",
            summary="Failing to compact blocks.",
            meaning="Compactions fail: disk usage grows and queries slow down.",
            action="Check free disk space and the compaction error in the log.",
        ),
        MixinRule(
            name="PrometheusNotIngestingSamples",
            expr=f"(rate({p('prometheus_tsdb_head_samples_appended_total')}[5m]) <= 0 and "
            f"(sum without (scrape_job) ({p('prometheus_target_metadata_cache_entries')}) > 0 or "
            f"sum without (rule_group) ({p('prometheus_rule_group_rules')}) > 0))",
            for_="10m",
            severity="warning",
            summary="Not ingesting samples.",
            meaning="Targets or rules exist but nothing is appended.",
            action="Check target health and the storage logs.",
        ),
        MixinRule(
            name="PrometheusDuplicateTimestamps",
            expr=f"rate({p('prometheus_target_scrapes_sample_duplicate_timestamp_total')}[5m]) > 0",
            for_="10m",
            severity="warning",
            summary="Dropping samples with duplicate timestamps.",
            meaning="An exporter exposes the same series twice.",
            action="Find the target (scrape logs) and fix its exposition.",
        ),
        MixinRule(
            name="PrometheusOutOfOrderTimestamps",
            expr=f"rate({p('prometheus_target_scrapes_sample_out_of_order_total')}[5m]) > 0",
            for_="10m",
            severity="warning",
            summary="Dropping samples with out-of-order timestamps.",
            meaning="A target sends timestamps going backwards.",
            action="Find the target and fix its timestamps (or stop exposing them).",
        ),
        MixinRule(
            name="PrometheusRemoteStorageFailures",
            expr=f"({failed}) / (({failed}) + ({ok})) * 100 > 1",
            for_="15m",
            severity="critical",
            summary="Failing to send samples to remote storage.",
            meaning="remote_write requests fail: the long-term store is falling behind and the WAL window is the "
            "limit.",
            action="Check the remote endpoint's health, credentials and limits (HTTP 4xx/5xx in the log).",
        ),
        MixinRule(
            name="PrometheusRemoteWriteBehind",
            expr=f"(max_over_time({rw_hi}[5m]) - ignoring(remote_name, url) group_right max_over_time({rw_sent}[5m]))"
            f" > {q.secs(120)}\n"
            # The mixin's form is blind to a queue that never sent anything: Prometheus only creates the
            # highest-sent series on the first success, and retried samples are not failed samples. Samples
            # waiting with nothing ever sent is the same alert (a wrong URL, or a store down since start-up).
            f"or\n({p('prometheus_remote_storage_samples_pending')} > 0 unless on (instance, remote_name, url) "
            f"{rw_sent})",
            for_="15m",
            severity="critical",
            summary="remote_write is falling behind.",
            meaning="The newest sample sent is more than 2 minutes behind the newest appended (or nothing was ever "
            "sent): samples pending grow.",
            action="Check prometheus_remote_storage_samples_pending, the remote's latency and whether shards are maxed "
            "out.",
        ),
        MixinRule(
            name="PrometheusRemoteWriteDesiredShards",
            expr=f"(max_over_time({p('prometheus_remote_storage_shards_desired')}[5m]) > "
            f"max_over_time({p('prometheus_remote_storage_shards_max')}[5m]))",
            for_="15m",
            severity="warning",
            summary="remote_write wants more shards than allowed.",
            meaning="Throughput to the remote store is capped by max_shards.",
            action="Raise queue_config.max_shards or reduce what is written (cold-tier rollups only).",
        ),
        MixinRule(
            name="PrometheusRuleFailures",
            expr=f"increase({p('prometheus_rule_evaluation_failures_total')}[5m]) > 0",
            for_="15m",
            severity="critical",
            summary="Failing to evaluate rules.",
            meaning="Some rules fail: their alerts cannot fire.",
            action="The rule group and error are on the /rules page; fix the expression.",
        ),
        MixinRule(
            name="PrometheusMissingRuleEvaluations",
            expr=f"increase({p('prometheus_rule_group_iterations_missed_total')}[5m]) > 0",
            for_="15m",
            severity="warning",
            summary="Missing rule evaluations because groups are slow.",
            meaning="A rule group takes longer than its interval.",
            action="Find the slow group (prometheus_rule_group_last_duration_seconds) and simplify or lengthen its "
            "interval.",
        ),
        MixinRule(
            name="PrometheusTargetLimitHit",
            expr=f"increase({p('prometheus_target_scrape_pool_exceeded_target_limit_total')}[5m]) > 0",
            for_="15m",
            severity="warning",
            summary="Dropped targets over a target limit.",
            meaning="A scrape pool discovered more targets than target_limit.",
            action="Raise target_limit or split the job.",
        ),
        MixinRule(
            name="PrometheusLabelLimitHit",
            expr=f"increase({p('prometheus_target_scrape_pool_exceeded_label_limits_total')}[5m]) > 0",
            for_="15m",
            severity="warning",
            summary="Dropped targets over a label limit.",
            meaning="Scrapes exceed label_limit: whole scrapes are rejected.",
            action="Find the series with too many labels; raise label_limit or drop labels.",
        ),
        MixinRule(
            name="PrometheusScrapeBodySizeLimitHit",
            expr=f"increase({p('prometheus_target_scrapes_exceeded_body_size_limit_total')}[5m]) > 0",
            for_="15m",
            severity="warning",
            summary="Dropped scrapes over the body size limit.",
            meaning="A target's response is larger than body_size_limit.",
            action="Raise body_size_limit or reduce the target's output.",
        ),
        MixinRule(
            name="PrometheusScrapeSampleLimitHit",
            expr=f"increase({p('prometheus_target_scrapes_exceeded_sample_limit_total')}[5m]) > 0",
            for_="15m",
            severity="warning",
            summary="Dropped scrapes over the sample limit.",
            meaning="A target exposes more samples than sample_limit: up becomes 0.",
            action="Raise sample_limit (gpuscope budget sizes it) or trim the collectors CSV.",
        ),
        MixinRule(
            name="PrometheusTargetSyncFailure",
            expr=f"increase({p('prometheus_target_sync_failed_total')}[30m]) > 0",
            for_="5m",
            severity="critical",
            summary="Failing to sync targets.",
            meaning="Service discovery results cannot be turned into targets.",
            action="Check the scrape config (relabeling) and SD errors in the log.",
        ),
        MixinRule(
            name="PrometheusHighQueryLoad",
            expr=f"avg_over_time({p('prometheus_engine_queries')}[5m]) / "
            f"max_over_time({p('prometheus_engine_queries_concurrent_max')}[5m]) > 0.8",
            for_="15m",
            severity="warning",
            summary="Query load is close to capacity.",
            meaning="Queries queue for the query engine.",
            action="Find the heavy dashboards/rules; use recording rules; raise --query.max-concurrency with memory.",
        ),
    )
    return tuple(_mixin(rule) for rule in rules)


def prometheus_group(q: Promql) -> Group:
    return Group(
        name="gpuscope-prometheus.alerts",
        rules=(*head_series(q), churn(q), wal_corruptions(q), *prometheus_mixin(q)),
        file="alerts",
    )
