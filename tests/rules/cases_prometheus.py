"""Prometheus self-monitoring scenarios: budget, churn, WAL, and every v2.42 mixin alert we ship."""

from __future__ import annotations

from gpuscope.rules import RulesConfig
from tests.rules.fixtures import change, flat, grow
from tests.support.promtool import Case, Series, steps

PROM = {"job": "prometheus", "instance": "prom-a:9090"}
SMALL_BUDGET = RulesConfig(head_series_budget=1000)


def p(name: str, values: str, **labels: str) -> Series:
    return Series(name, {**PROM, **labels}, values)


HEAD_SERIES = (
    Case(
        "head series cross 80% of the budget",
        "PrometheusHeadSeriesOverBudget",
        (p("prometheus_tsdb_head_series", change(500, 900)),),
        fires_by="45m",
        expected=({**PROM, "severity": "ticket"},),
        quiet_at=("35m",),
        config=SMALL_BUDGET,
    ),
    Case(
        "head series cross the budget: the page and the warning both fire",
        "PrometheusHeadSeriesOverBudget",
        (p("prometheus_tsdb_head_series", change(500, 1200)),),
        fires_by="45m",
        expected=({**PROM, "severity": "ticket"}, {**PROM, "severity": "page"}),
        config=SMALL_BUDGET,
    ),
    Case(
        "near miss: just under 80%",
        "PrometheusHeadSeriesOverBudget",
        (p("prometheus_tsdb_head_series", flat(790)),),
        quiet_at=("45m",),
        config=SMALL_BUDGET,
    ),
)

CHURN = (
    Case(
        "pods restarting every minute: 20 new series every scrape on a 1000-series head",
        "PrometheusSeriesChurnHigh",
        (
            p("prometheus_tsdb_head_series", flat(1000, "1h15m")),
            p("prometheus_tsdb_head_series_created_total", grow(1000, 20, total="1h15m")),
        ),
        fires_by="60m",
        expected=(PROM,),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: a fresh Prometheus creates its whole head once at start-up",
        "PrometheusSeriesChurnHigh",
        (p("prometheus_tsdb_head_series", "0 1000x240"), p("prometheus_tsdb_head_series_created_total", "0 1000x240")),
        quiet_at=("10m", "16m", "30m"),
    ),
)

WAL = (
    Case(
        "WAL corruption repaired while running",
        "PrometheusTSDBWALCorruptions",
        (p("prometheus_tsdb_wal_corruptions_total", change(0, 1)), p("process_start_time_seconds", flat(100))),
        fires_by="31m",
        expected=(PROM,),
        quiet_at=("29m45s",),
    ),
    Case(
        "WAL corruption repaired during start-up replay",
        "PrometheusTSDBWALCorruptions",
        (p("prometheus_tsdb_wal_corruptions_total", change(0, 1)), p("process_start_time_seconds", change(100, 1800))),
        fires_by="31m",
        expected=(PROM,),
    ),
    Case(
        "near miss: no corruption",
        "PrometheusTSDBWALCorruptions",
        (p("prometheus_tsdb_wal_corruptions_total", flat(0)), p("process_start_time_seconds", change(100, 1800))),
        quiet_at=("31m",),
    ),
)


def _after(start: str, for_: str, slack: str = "3m") -> str:
    total = steps(start) + steps(for_) + steps(slack)
    return f"{total * 15}s"


def _counter(alert: str, metric: str, for_: str, extra: dict[str, str] | None = None) -> tuple[Case, Case]:
    labels = {**PROM, **(extra or {})}
    # One sample a minute: these alerts look at hours of data, and 15 s steps would only cost test time.
    minutes = (steps("30m") + steps(for_) + steps("10m")) // 4
    return (
        Case(
            f"{metric} increases",
            alert,
            (Series(metric, labels, f"0x29 1+1x{minutes - 30}"),),
            fires_by=_after("30m", for_),
            expected=(labels,),
            quiet_at=("29m",),
            interval="1m",
        ),
        Case(
            f"near miss: {metric} flat",
            alert,
            (Series(metric, labels, f"3x{minutes}"),),
            quiet_at=(_after("30m", for_),),
            interval="1m",
        ),
    )


AM = {"alertmanager": "http://am-a:9093/api/v2/alerts"}
AM2 = {"alertmanager": "http://am-b:9093/api/v2/alerts"}
RW = {"remote_name": "mimir", "url": "http://mimir/api/v1/push"}

MIXIN = (
    Case(
        "config reload fails",
        "PrometheusBadConfig",
        (p("prometheus_config_last_reload_successful", change(1, 0)),),
        fires_by="46m",
        expected=(PROM,),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: reloads succeed",
        "PrometheusBadConfig",
        (p("prometheus_config_last_reload_successful", flat(1)),),
        quiet_at=("46m",),
    ),
    Case(
        "notification queue filling fast",
        "PrometheusNotificationQueueRunningFull",
        (
            p("prometheus_notifications_queue_capacity", flat(10000)),
            p("prometheus_notifications_queue_length", grow(0, 100)),
        ),
        fires_by="50m",
        expected=(PROM,),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: short queue",
        "PrometheusNotificationQueueRunningFull",
        (
            p("prometheus_notifications_queue_capacity", flat(10000)),
            p("prometheus_notifications_queue_length", flat(10)),
        ),
        quiet_at=("48m",),
    ),
    Case(
        "10% of alerts to one Alertmanager fail",
        "PrometheusErrorSendingAlertsToSomeAlertmanagers",
        (
            p("prometheus_notifications_errors_total", grow(0, 1), **AM),
            p("prometheus_notifications_sent_total", grow(0, 10), **AM),
        ),
        fires_by="48m",
        expected=({**PROM, **AM},),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: no errors",
        "PrometheusErrorSendingAlertsToSomeAlertmanagers",
        (
            p("prometheus_notifications_errors_total", flat(2), **AM),
            p("prometheus_notifications_sent_total", grow(0, 10), **AM),
        ),
        quiet_at=("48m",),
    ),
    Case(
        "alerts to every Alertmanager fail",
        "PrometheusErrorSendingAlertsToAnyAlertmanager",
        (
            p("prometheus_notifications_errors_total", grow(0, 1), **AM),
            p("prometheus_notifications_sent_total", grow(0, 10), **AM),
            p("prometheus_notifications_errors_total", grow(0, 1), **AM2),
            p("prometheus_notifications_sent_total", grow(0, 10), **AM2),
        ),
        fires_by="48m",
        expected=(PROM,),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: one Alertmanager still accepts alerts",
        "PrometheusErrorSendingAlertsToAnyAlertmanager",
        (
            p("prometheus_notifications_errors_total", grow(0, 1), **AM),
            p("prometheus_notifications_sent_total", grow(0, 10), **AM),
            p("prometheus_notifications_errors_total", flat(0), **AM2),
            p("prometheus_notifications_sent_total", grow(0, 10), **AM2),
        ),
        quiet_at=("48m",),
    ),
    Case(
        "no Alertmanager discovered",
        "PrometheusNotConnectedToAlertmanagers",
        (p("prometheus_notifications_alertmanagers_discovered", change(2, 0)),),
        fires_by="46m",
        expected=(PROM,),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: Alertmanagers discovered",
        "PrometheusNotConnectedToAlertmanagers",
        (p("prometheus_notifications_alertmanagers_discovered", flat(2)),),
        quiet_at=("46m",),
    ),
    Case(
        "nothing appended while targets exist",
        "PrometheusNotIngestingSamples",
        (
            p("prometheus_tsdb_head_samples_appended_total", "0+1000x119 119000x120"),
            p("prometheus_target_metadata_cache_entries", flat(40), scrape_job="dcgm-exporter"),
        ),
        fires_by="48m",
        expected=(PROM,),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: ingesting",
        "PrometheusNotIngestingSamples",
        (
            p("prometheus_tsdb_head_samples_appended_total", "0+1000x240"),
            p("prometheus_target_metadata_cache_entries", flat(40), scrape_job="dcgm-exporter"),
        ),
        quiet_at=("48m",),
    ),
    Case(
        "remote_write: the newest sent sample stops advancing",
        "PrometheusRemoteWriteBehind",
        (
            p("prometheus_remote_storage_highest_timestamp_in_seconds", "0+15x240"),
            p("prometheus_remote_storage_queue_highest_sent_timestamp_seconds", "0+15x119 1785x120", **RW),
        ),
        fires_by="49m",
        expected=({**PROM, **RW},),
        quiet_at=("29m45s",),
    ),
    Case(
        "remote_write never succeeded: samples wait and the highest-sent series was never created",
        "PrometheusRemoteWriteBehind",
        (
            p("prometheus_remote_storage_highest_timestamp_in_seconds", "0+15x240"),
            p("prometheus_remote_storage_samples_pending", change(0, 3500), **RW),
        ),
        fires_by="45m15s",
        expected=({**PROM, **RW},),
        quiet_at=("44m45s",),
    ),
    Case(
        "near miss: remote_write 5 s behind",
        "PrometheusRemoteWriteBehind",
        (
            p("prometheus_remote_storage_highest_timestamp_in_seconds", "0+15x240"),
            p("prometheus_remote_storage_queue_highest_sent_timestamp_seconds", "-5+15x240", **RW),
            p("prometheus_remote_storage_samples_pending", flat(200), **RW),  # always some in flight
        ),
        quiet_at=("49m",),
    ),
    Case(
        "remote_write: 9% of samples fail",
        "PrometheusRemoteStorageFailures",
        (
            p("prometheus_remote_storage_samples_failed_total", grow(0, 10), **RW),
            p("prometheus_remote_storage_samples_total", grow(0, 100), **RW),
        ),
        fires_by="48m",
        expected=({**PROM, **RW},),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: no failures",
        "PrometheusRemoteStorageFailures",
        (
            p("prometheus_remote_storage_samples_failed_total", flat(0), **RW),
            p("prometheus_remote_storage_samples_total", grow(0, 100), **RW),
        ),
        quiet_at=("48m",),
    ),
    Case(
        "remote_write wants more shards than allowed",
        "PrometheusRemoteWriteDesiredShards",
        (
            p("prometheus_remote_storage_shards_desired", change(10, 250), **RW),
            p("prometheus_remote_storage_shards_max", flat(200), **RW),
        ),
        fires_by="47m",
        expected=({**PROM, **RW},),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: shards within max",
        "PrometheusRemoteWriteDesiredShards",
        (
            p("prometheus_remote_storage_shards_desired", flat(10), **RW),
            p("prometheus_remote_storage_shards_max", flat(200), **RW),
        ),
        quiet_at=("47m",),
    ),
    Case(
        "query load near capacity",
        "PrometheusHighQueryLoad",
        (p("prometheus_engine_queries", change(2, 18)), p("prometheus_engine_queries_concurrent_max", flat(20))),
        fires_by="50m",
        expected=(PROM,),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: light query load",
        "PrometheusHighQueryLoad",
        (p("prometheus_engine_queries", flat(4)), p("prometheus_engine_queries_concurrent_max", flat(20))),
        quiet_at=("48m",),
    ),
    *_counter("PrometheusTSDBReloadsFailing", "prometheus_tsdb_reloads_failures_total", "4h"),
    *_counter("PrometheusTSDBCompactionsFailing", "prometheus_tsdb_compactions_failed_total", "4h"),
    *_counter("PrometheusDuplicateTimestamps", "prometheus_target_scrapes_sample_duplicate_timestamp_total", "10m"),
    *_counter("PrometheusOutOfOrderTimestamps", "prometheus_target_scrapes_sample_out_of_order_total", "10m"),
    *_counter(
        "PrometheusRuleFailures",
        "prometheus_rule_evaluation_failures_total",
        "15m",
        {"rule_group": "/etc/prometheus/gpuscope-alerts.yaml;gpuscope-gpu-health.alerts"},
    ),
    *_counter(
        "PrometheusMissingRuleEvaluations",
        "prometheus_rule_group_iterations_missed_total",
        "15m",
        {"rule_group": "/etc/prometheus/gpuscope-recording.yaml;gpuscope-gpu.rules"},
    ),
    *_counter("PrometheusTargetLimitHit", "prometheus_target_scrape_pool_exceeded_target_limit_total", "15m"),
    *_counter("PrometheusLabelLimitHit", "prometheus_target_scrape_pool_exceeded_label_limits_total", "15m"),
    *_counter("PrometheusScrapeBodySizeLimitHit", "prometheus_target_scrapes_exceeded_body_size_limit_total", "15m"),
    *_counter("PrometheusScrapeSampleLimitHit", "prometheus_target_scrapes_exceeded_sample_limit_total", "15m"),
    *_counter(
        "PrometheusTargetSyncFailure", "prometheus_target_sync_failed_total", "5m", {"scrape_job": "dcgm-exporter"}
    ),
)

CASES = HEAD_SERIES + CHURN + WAL + MIXIN
