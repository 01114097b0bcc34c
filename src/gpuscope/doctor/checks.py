"""The check table: id, section, title and runbook of every check, in report order, and the pass that runs them."""

from __future__ import annotations

from collections.abc import Callable, Container
from dataclasses import dataclass

from gpuscope.doctor import dcgm, fabric, failures, floor, host, hygiene
from gpuscope.doctor.observations import Observations
from gpuscope.doctor.results import CheckResult, Finding, Section, Status
from gpuscope.errors import QueryFailed
from gpuscope.ruleconfig.config import RulesConfig


@dataclass(frozen=True, slots=True)
class Check:
    id: str
    section: Section
    title: str
    run: Callable[[Observations], Finding]
    runbook_alert: str | None = None  # the alert that covers this failure, whose runbook the fix links


F, M, H = Section.FLOOR, Section.FAILURES, Section.HYGIENE
CHECKS: tuple[Check, ...] = (
    Check("exporter-targets", F, "Exporter targets up", floor.exporter_targets, "GPUExporterDown"),
    Check("gpus-reporting", F, "Every GPU reports DCGM_FI_DEV_GPU_TEMP", floor.gpus_reporting, "GPUFellOffBus"),
    Check("prof-metrics", F, "Profiling metrics where supported", floor.prof_metrics, "GPUProfilingMetricsStale"),
    Check("rule-groups", F, "gpuscope rule groups loaded, evaluating", floor.rule_groups, "PrometheusRuleFailures"),
    Check("alertmanager", F, "Alertmanager discovered", floor.alertmanager, "PrometheusNotConnectedToAlertmanagers"),
    Check("ha-pair", F, "HA pair both up", floor.ha_pair),
    Check("global-path", F, "Global store receives this cluster", floor.global_path, "PrometheusRemoteWriteBehind"),
    Check("gpus-stopped", M, "GPUs that stopped reporting", failures.gpus_stopped, "GPUFellOffBus"),
    Check("prof-stale", M, "Stale profiling series", failures.prof_stale, "GPUProfilingMetricsStale"),
    Check(
        "exporter-restarts", M, "Exporter restarts, counter resets", failures.exporter_restarts, "GPUExporterRestarted"
    ),
    Check("exporter-snapshot", M, "Exporter snapshots fresh", failures.exporter_snapshot, "GPUExporterSnapshotStale"),
    Check("dcgm-hop", M, "DCGM host engines up, versions aligned", dcgm.dcgm_hop, "GPUDcgmHostEngineDown"),
    Check("remote-write", M, "remote_write keeping up", failures.remote_write, "PrometheusRemoteWriteBehind"),
    Check("wal-corruptions", M, "WAL corruptions", failures.wal_corruptions, "PrometheusTSDBWALCorruptions"),
    Check("head-series", M, "Head series vs budget, growth", failures.head_series, "PrometheusHeadSeriesOverBudget"),
    Check("series-churn", M, "Series churn", failures.series_churn, "PrometheusSeriesChurnHigh"),
    Check("gpu-models", M, "GPU models inside the budget", failures.gpu_models, "GPUModelOutsideBudget"),
    Check("scrape-duration", M, "Scrape duration vs timeout", failures.scrape_duration),
    Check("scrape-limits", M, "Sample/label limits", failures.scrape_limits, "PrometheusScrapeSampleLimitHit"),
    Check("host-targets", M, "node-exporter, kube-state-metrics, cAdvisor up", host.companion_targets),
    Check("nvlink-inventory", M, "NVLink links and NVSwitches as the spec's models", fabric.fabric_inventory),
    Check("workload-labels", H, "Pod/job labels on GPU series", hygiene.workload_labels, "PrometheusSeriesChurnHigh"),
    Check("label-collisions", H, "exported_* label collisions", hygiene.label_collisions),
    Check("label-count", H, "Labels per series (Mimir limit 30)", hygiene.label_count, "PrometheusLabelLimitHit"),
    Check("host-label", H, "One host label (Hostname vs hostname)", hygiene.host_label),
    Check("host-join", H, "Host signals join GPU series by host label", host.host_join),
)


def runbook_url(config: RulesConfig, alert: str) -> str:
    """Where the alert's own ``runbook_url`` annotation points, so doctor and the page link to the same runbook."""
    return f"{config.runbook_base_url.rstrip('/')}/{alert}.md"


def evaluate(o: Observations, only: Container[str] | None = None) -> tuple[CheckResult, ...]:
    """Every check (or those whose id is in ``only``), in table order; a check whose query failed says so instead
    of guessing."""
    out = []
    for check in CHECKS:
        if only is not None and check.id not in only:
            continue
        try:
            finding = check.run(o)
        except QueryFailed as exc:
            finding = Finding(Status.WARN, f"could not evaluate: {exc}")
        alert = finding.runbook_alert or check.runbook_alert
        out.append(
            CheckResult(
                check.id,
                check.section,
                check.title,
                finding.status,
                finding.summary,
                finding.evidence,
                finding.fix,
                runbook_url(o.config, alert) if alert else None,
            )
        )
    return tuple(out)
