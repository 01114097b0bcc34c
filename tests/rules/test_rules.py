"""The generated rules against promtool 2.42: syntax, every alert's scenarios, recorded values, and policy."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.exporter.attribution import exposition as workload_exposition
from gpuscope.exporter.processes import exposition as process_exposition
from gpuscope.fields import companion
from gpuscope.fields.catalog import BY_NAME
from gpuscope.jobs import metrics as job_metrics
from gpuscope.rules import COLD_TIER_REGEX, RulesConfig, alerts, build_groups, cold_tier_records, runbooks
from gpuscope.rules.records import Recording
from tests.rules.cases import ALERT_CASES, AREAS
from tests.rules.variants import VARIANTS
from tests.support.prom import binary
from tests.support.promtool import (
    Case,
    ExprCase,
    alert_test,
    expr_test,
    group_by_config,
    needed_rules,
    run_suite,
    steps,
    write_rules,
)

REPO = Path(__file__).resolve().parents[2]

TABLE = {  # the contract, written apart from the rules: alert -> (owner, bound)
    "GPUFellOffBus": ("infra", "2m"),
    "GPUXidCritical": ("infra", "1m"),
    "GPUDoubleBitEccErrors": ("infra", "1m"),
    "GPURowRemapFailure": ("infra", "1m"),
    "GPUThermalThrottling": ("infra", "5m"),
    "GPUNVLinkErrors": ("infra", "5m"),
    "GPUFabricDegraded": ("infra", "5m"),
    "GPUNVSwitchFatalError": ("infra", "1m"),
    "GPUNVLinkDown": ("infra", "3m"),
    "GPUNVSwitchNonFatalError": ("infra", "5m"),
    "GPUNVLinkErrorsPerLink": ("infra", "5m"),
    "GPUExporterDown": ("platform", "2m"),
    "GPUProfilingMetricsStale": ("platform", "6m"),
    "GPUExporterRestarted": ("platform", "2m"),
    "GPUExporterSnapshotStale": ("platform", "2m"),
    "GPUDcgmHostEngineDown": ("platform", "3m"),
    "GPUDcgmVersionSkew": ("platform", "15m"),
    "GPUModelOutsideBudget": ("platform", "15m"),
    "PrometheusHeadSeriesOverBudget": ("platform", "15m"),
    "PrometheusSeriesChurnHigh": ("platform", "30m"),
    "PrometheusTSDBWALCorruptions": ("platform", "1m"),
    "PrometheusRemoteWriteBehind": ("platform", "as mixin"),
    "PrometheusRemoteStorageFailures": ("platform", "as mixin"),
    "PrometheusRemoteWriteDesiredShards": ("platform", "as mixin"),
    "GPUAllocatedButIdle": ("workload", "1h"),
    "PushgatewayJobStale": ("workload", "as configured"),
    "GPUHostCPUSaturated": ("workload", "20m"),
    "GPUHostIOWaitHigh": ("infra", "20m"),
    "GPUHostMemoryPressure": ("workload", "7m"),
    "GPUHostFilesystemFull": ("infra", "7m"),
    "GPUHostInfiniBandPortDown": ("infra", "3m"),
    "GPUHostInfiniBandErrors": ("infra", "2m"),
    "GPUHostNetworkErrors": ("infra", "2m"),
    "GPUNodeAllocatableShort": ("infra", "15m"),
    "GPURequestsNearAllocatable": ("platform", "35m"),
    "GPUPodCPUThrottled": ("workload", "20m"),
    "GPUPodMemoryNearLimit": ("workload", "12m"),
    "GPUMemoryHeldByNoPod": ("platform", "12m"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rendered_files_pass_promtool_check(variant: str, tmp_path: Path) -> None:
    names = write_rules(VARIANTS[variant], tmp_path, annotations=True)
    result = subprocess.run(
        [binary("promtool"), "check", "rules", "--lint=all", "--lint-fatal", *(str(tmp_path / n) for n in names)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _suites() -> list[tuple[str, RulesConfig, str, list[Case | ExprCase]]]:
    """One promtool run per area, config and evaluation interval (runs spread over the test workers)."""
    suites = []
    for area, cases in AREAS.items():
        for i, (config, interval, grouped) in enumerate(group_by_config(cases).values()):
            suites.append((f"{area}-{i}", config, interval, grouped))
    return suites


@pytest.mark.promtool
@pytest.mark.parametrize(("label", "config", "interval", "cases"), _suites(), ids=[s[0] for s in _suites()])
def test_scenarios_with_promtool(
    label: str, config: RulesConfig, interval: str, cases: list[Case | ExprCase], tmp_path: Path
) -> None:
    tests = [alert_test(c) if isinstance(c, Case) else expr_test(c) for c in cases]
    result = run_suite(tmp_path, tests, config, interval)
    assert result.returncode == 0, f"{label}:\n{result.stdout}\n{result.stderr}"


def _kept(files: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for data in files.values() for g in data["groups"] for r in g["rules"]]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_suite_loads_every_rule_that_what_it_observes_reads(variant: str, tmp_path: Path) -> None:
    """The scenarios load only the rules they need (``needed_rules``); for each alert, the rules kept are closed:
    no kept rule reads a series only a dropped rule writes, or an alert's ALERTS series a dropped alert writes."""
    files = {n: yaml.safe_load((tmp_path / n).read_text()) for n in write_rules(VARIANTS[variant], tmp_path)}
    everything = _kept(files)
    recorded = {r["record"] for r in everything if "record" in r}
    for name in sorted({r["alert"] for r in everything if "alert" in r}):
        kept = _kept(needed_rules(files, [{"name": name, "alert_rule_test": [{"alertname": name}]}]))
        written = {r.get("record") or r["alert"] for r in kept}
        assert name in written
        assert len(kept) == len([r for r in everything if (r.get("record") or r["alert"]) in written]), name
        for rule in kept:
            reads = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", rule["expr"]))
            assert reads & recorded <= written, f"{name}: {rule} reads a dropped record"
            assert set(re.findall(r'ALERTS\{[^}]*alertname="([^"]+)"', rule["expr"])) <= written, name


def test_needed_rules_follows_records_name_patterns_and_alerts() -> None:
    def rule(name: str, expr: str) -> dict[str, str]:
        return {"record" if ":" in name else "alert": name, "expr": expr}

    files: dict[str, dict[str, Any]] = {
        "a.yaml": {
            "groups": [
                {"name": "one", "interval": "1m", "rules": [rule("x:a:sum", "sum(m)"), rule("x:b:sum", "x:a:sum * 2")]},
                {"name": "two", "rules": [rule("x:c:sum", 'sum({__name__=~"x:b:.+|y"})'), rule("x:d:sum", "m")]},
            ]
        },
        "b.yaml": {
            "groups": [
                {"name": "alerts", "rules": [rule("C", "x:c:sum > 1"), rule("D", 'ALERTS{alertname="C"}')]},
                {"name": "blind", "rules": [rule("E", "ALERTS > 0")]},
            ]
        },
    }

    def kept(*tests: dict[str, Any]) -> dict[str, list[str]]:
        return {
            g["name"]: [r.get("record") or r["alert"] for r in g["rules"]]
            for data in needed_rules(files, list(tests)).values()
            for g in data["groups"]
        }

    assert kept({"name": "t", "alert_rule_test": [{"alertname": "D"}]}) == {
        "one": ["x:a:sum", "x:b:sum"],
        "two": ["x:c:sum"],
        "alerts": ["C", "D"],
    }
    assert kept({"name": "t", "promql_expr_test": [{"expr": "x:b:sum"}]}) == {"one": ["x:a:sum", "x:b:sum"]}
    # ALERTS without an alert name could read any alert: everything is kept
    assert sum(map(len, kept({"name": "t", "alert_rule_test": [{"alertname": "E"}]}).values())) == 7
    with pytest.raises(AssertionError, match="no alert named Nope"):
        kept({"name": "t", "alert_rule_test": [{"alertname": "Nope"}]})
    assert (
        next(iter(needed_rules(files, [{"name": "t", "promql_expr_test": [{"expr": "x:a:sum"}]}]).values()))["groups"][
            0
        ]["interval"]
        == "1m"
    )


def test_every_alert_of_the_table_exists_with_owner_severity_and_runbook() -> None:
    by_name = {a.name: a for a in alerts(RulesConfig())}
    for name, (owner, bound) in TABLE.items():
        assert name in by_name, name
        assert by_name[name].owner == owner, name
        assert by_name[name].bound == bound, name
    for alert in by_name.values():
        assert alert.severity in ("page", "ticket")
        assert (REPO / "docs" / "runbooks" / f"{alert.name}.md").exists(), alert.name


def test_every_alert_has_a_firing_case_within_its_bound_and_a_near_miss() -> None:
    names = {a.name for a in alerts(RulesConfig())}
    for name in sorted(names):
        firing = [c for c in ALERT_CASES if c.alert == name and c.fires_by]
        near = [c for c in ALERT_CASES if c.alert == name and not c.fires_by]
        assert firing and near, f"{name}: needs a firing case and a near miss"
        bound = next(a.bound for a in alerts(RulesConfig()) if a.name == name)
        if bound[0].isdigit():
            for case in firing:
                assert steps(case.fires_by or "") - steps(case.start) <= steps(bound), f"{case.title}: beyond {bound}"


def test_runbooks_in_docs_match_the_rules() -> None:
    for name, text in runbooks(RulesConfig()).items():
        assert (REPO / "docs" / "runbooks" / name).read_text() == text, (
            f"docs/runbooks/{name} is stale: run `gpuscope rules runbooks -o docs/runbooks`"
        )


def test_cold_tier_is_exactly_the_rollups() -> None:
    config = RulesConfig()
    cold = set(cold_tier_records(config))
    recorded = {r.record for g in build_groups(config) for r in g.rules if isinstance(r, Recording)}
    pattern = re.compile(COLD_TIER_REGEX)
    assert cold and cold == {r for r in recorded if pattern.fullmatch(r)}


_PROM_OWN = re.compile(r"^(up|ALERTS|push_time_seconds|process_.+|prometheus_.+|scrape_.+)$")
_SELF = {
    "gpuscope_exporter_gpu_lost",
    "gpuscope_exporter_gpu_profiling_available",
    "gpuscope_exporter_gpu_profiling_supported",
    "gpuscope_exporter_start_time_seconds",
    "gpuscope_exporter_snapshot_age_seconds",
    "gpuscope_exporter_collection_interval_seconds",
    "gpuscope_exporter_backend_up",
    "gpuscope_exporter_dcgm_info",
    "gpuscope_gpu_workload_info",
    workload_exposition.JOB_INFO,  # the Slurm job-mapping directory's holders
    *process_exposition.series_names(),  # --process-metrics
}
# The pushed job metrics' contract (gpuscope.jobs.metrics): the names jobs really push.
_JOB = {
    job_metrics.INFO,
    job_metrics.START,
    job_metrics.END,
    job_metrics.EXIT_CODE,
    job_metrics.STEPS,
    job_metrics.STEP_DURATION,
    job_metrics.SAMPLES_RATE,
    job_metrics.TOKENS_RATE,
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rules_name_only_known_metrics(variant: str) -> None:
    config = VARIANTS[variant]
    groups = build_groups(config)
    recorded = {r.record for g in groups for r in g.rules if isinstance(r, Recording)}
    for group in groups:
        for rule in group.rules:
            for name in re.findall(r"([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{|\[)", rule.expr):
                known = (
                    name in BY_NAME
                    or name in recorded
                    or name in _SELF | _JOB | companion.BY_NAME.keys()
                    or _PROM_OWN.match(name)
                )
                assert known, f"{getattr(rule, 'record', getattr(rule, 'name', '?'))} uses unknown metric {name}"
