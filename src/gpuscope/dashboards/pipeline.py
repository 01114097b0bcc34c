"""Pipeline: the telemetry path (docs/architecture.md) on one page, one row per hop, each panel coloured where the
platform alert about that hop fires. The last row is the long-term store of the chosen topology: remote_write
(Mimir, VictoriaMetrics, with the store's own ingestion and dedup), the federation scrape, or the Thanos sidecar."""

from __future__ import annotations

from gpuscope.dashboards import styles, variables
from gpuscope.dashboards.model import Dashboard, Panel, Query, Row, Steps, Transform
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import pipeline as p

KEY = "pipeline"


def _ts(title: str, queries: tuple[Query, ...], unit: str, steps: Steps | None = None, description: str = "") -> Panel:
    return Panel(title, "timeseries", queries, unit=unit, steps=steps, description=description, width=8)


def _gpu_to_exporter(q: Q) -> tuple[Row, Row, Row]:
    o = q.options
    return (
        Row(
            "GPU → NVML",
            (
                _ts("Backend up", (p.exporter_metric(q, "gpuscope_exporter_backend_up", "min"),), "none", styles.up()),
                _ts(
                    "GPUs lost",
                    (p.exporter_metric(q, "gpuscope_exporter_gpu_lost", "sum"),),
                    "short",
                    styles.any_is_bad(),
                ),
                _ts(
                    "Failed collections/s",
                    (p.exporter_rate(q, "gpuscope_exporter_collection_failures_total"),),
                    "short",
                ),
            ),
        ),
        Row(
            "NVML → DCGM",
            (
                _ts(
                    "GPUs without profiling metrics",
                    (p.profiling_unavailable(q),),
                    "short",
                    styles.any_is_bad(),
                    "Another client (Nsight, dcgmi, a vendor agent) holds the profiling counters. "
                    "None while no one does.",
                ),
            ),
        ),
        Row(
            "DCGM → exporter",
            (
                _ts(
                    "Snapshot age (collection intervals)",
                    (p.snapshot_age_intervals(q),),
                    "short",
                    styles.snapshot_age_intervals(o),
                    f"GPUExporterSnapshotStale fires above {o.rules.thresholds.snapshot_stale_intervals} intervals.",
                ),
                _ts(
                    "Collection duration",
                    (p.exporter_metric(q, "gpuscope_exporter_collection_duration_seconds"),),
                    "s",
                ),
                _ts("Exporter restarts in range", (p.restarts(q),), "short", styles.any_is_bad()),
                Panel(
                    "DCGM versions (libdcgm / host engine)",
                    "table",
                    (p.dcgm_versions(q),),
                    description="Exporters reading through DCGM; keep libdcgm at or above the host engine "
                    "(GPUDcgmVersionSkew). A dead host engine shows as Backend up = 0 (GPUDcgmHostEngineDown).",
                    transforms=(Transform("organize", {"excludeByName": {"Value": True}}),),  # an info series: 1
                    width=24,
                    height=5,
                ),
            ),
        ),
    )


def _exporter_to_prometheus(q: Q) -> Row:
    o = q.options
    return Row(
        "Exporter → Prometheus",
        (
            _ts("Exporter targets up", p.targets(q), "short"),
            _ts(
                "Scrape duration vs timeout",
                (p.scrape(q, "scrape_duration_seconds"),),
                "s",
                styles.scrape_duration(o),
                f"The scrape timeout is {o.scrape_timeout_s:g} s: a scrape reaching it fails (up = 0).",
            ),
            _ts("Samples per scrape", (p.scrape(q, "scrape_samples_scraped"),), "short"),
            Panel(
                "Exporter targets down",
                "table",
                (p.targets_down(q),),
                steps=styles.up(),
                width=24,
                height=5,
                description="None while every exporter answers.",
            ),
        ),
    )


def _prometheus(q: Q) -> Row:
    o = q.options
    return Row(
        "Prometheus",
        (
            _ts("Samples appended/s", (p.samples_per_second(q),), "short"),
            _ts(
                "Head series vs budget",
                (p.prom(q, "prometheus_tsdb_head_series"),),
                "short",
                styles.head_series(o),
                f"Budget per replica: {o.rules.head_series_budget:,} series.",
            ),
            _ts(
                "Series churn (created per hour / head)",
                (p.churn(q),),
                "percentunit",
                styles.churn(o),
                "PrometheusSeriesChurnHigh: the pod-churn cardinality bomb.",
            ),
            _ts("Rule evaluation failures", (p.rule_failures(q),), "short", styles.any_is_bad()),
            _ts("Rule groups: missed iterations", (p.rule_missed(q),), "short", styles.any_is_bad()),
            _ts(
                "Rule groups: evaluation time / interval",
                (p.rule_duration_share(q),),
                "percentunit",
                Steps(
                    styles.GREEN,
                    ((0.8, styles.ORANGE), (1, styles.RED)),
                    source="orange from 80% of the interval, red at it: a group slower than its interval skips "
                    "evaluations (PrometheusMissingRuleEvaluations)",
                ),
            ),
        ),
    )


def _remote_write(q: Q) -> tuple[Panel, ...]:
    return (
        _ts(
            "remote_write lag",
            (p.remote_write_lag(q),),
            "s",
            styles.remote_write_lag(q.options),
            "Newest sample appended minus newest sent (PrometheusRemoteWriteBehind).",
        ),
        _ts(
            "Samples pending",
            (p.remote_write(q, "prometheus_remote_storage_samples_pending"),),
            "short",
        ),
        _ts(
            "Samples failed/s and shards",
            (
                p.remote_write(q, "prometheus_remote_storage_samples_failed_total", rate=True, suffix=" failed/s"),
                p.remote_write(q, "prometheus_remote_storage_shards", suffix=" shards"),
                p.remote_write(q, "prometheus_remote_storage_shards_desired", suffix=" shards desired"),
            ),
            "short",
        ),
    )


def _victoriametrics(q: Q) -> tuple[Panel, ...]:
    return (
        _ts(
            "VictoriaMetrics: rows ingested/s",
            (p.vm_rows_inserted(q),),
            "short",
            description="Both replicas' samples, before deduplication: about twice one replica's rate.",
        ),
        _ts(
            "VictoriaMetrics: samples deduplicated/s",
            (p.vm_deduplicated(q),),
            "short",
            description="The HA pair's second copy, dropped (-dedup.minScrapeInterval) at merge or at query time.",
        ),
        _ts(
            "VictoriaMetrics: rows ignored/s",
            (p.vm_ignored(q),),
            "short",
            styles.any_is_bad(),
            "Samples outside the retention window or from the future: lost.",
        ),
        _ts("VictoriaMetrics: new series/s", (p.vm_new_series(q),), "short"),
        _ts("VictoriaMetrics: bytes per sample on disk", (p.vm_bytes_per_sample(q),), "decbytes"),
    )


def _long_term(q: Q) -> Row | None:
    store = q.options.store
    if store == "mimir":
        return Row("Prometheus → long-term store (Mimir)", _remote_write(q))
    if store == "victoriametrics":
        return Row("Prometheus → long-term store (VictoriaMetrics)", (*_remote_write(q), *_victoriametrics(q)))
    if store == "thanos":
        return Row(
            "Prometheus → long-term store (Thanos sidecar)",
            (
                _ts("2 h blocks cut in range", (p.prometheus_blocks(q),), "short"),
                _ts(
                    "Blocks uploaded in range",
                    (p.thanos_sidecar(q, "thanos_shipper_uploads_total"),),
                    "short",
                    description="Each replica's sidecar ships every block to object storage.",
                ),
                _ts(
                    "Block upload failures in range",
                    (p.thanos_sidecar(q, "thanos_shipper_upload_failures_total"),),
                    "short",
                    styles.any_is_bad(),
                ),
            ),
        )
    if store == "federation":
        return Row(
            "Clusters → global Prometheus (federation)",
            (
                _ts("Federation targets up", (p.federation(q, "up"),), "none", styles.up()),
                _ts(
                    "Federation scrape duration",
                    (p.federation(q, "scrape_duration_seconds"),),
                    "s",
                    description="The global Prometheus's /federate scrape of each replica (timeout 50 s).",
                ),
                _ts("Rollup samples per federation scrape", (p.federation(q, "scrape_samples_scraped"),), "short"),
            ),
        )
    return None


def pipeline_dashboard(q: Q) -> Dashboard:
    long_term = _long_term(q)
    return Dashboard(
        key=KEY,
        title="GPU Telemetry Pipeline",
        description="The five hops from GPU to long-term store, each with the signal that breaks first.",
        variables=(variables.cluster(q),),
        rows=(*_gpu_to_exporter(q), _exporter_to_prometheus(q), _prometheus(q), *((long_term,) if long_term else ())),
    )
