"""Rules fitted to the scrape interval: every window spans enough scrapes at 15 s, 30 s and 1 m, a 1 m fleet's
healthy GPUs do not page, and 15 s fleets and ``gpuscope up --fast`` keep the rules as written."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from gpuscope.durations import prometheus_seconds
from gpuscope.rules import RulesConfig, build_groups
from gpuscope.rules.records import Alert, Group, Recording
from gpuscope.rules.timescale import EVALUATION_INTERVAL_S, fit_scrape_interval
from gpuscope.spec.load import parse_fleet
from tests.rules.fixtures import gpu_labels, identity, self_labels
from tests.rules.variants import VARIANTS
from tests.support.prom import binary
from tests.support.promtool import Case, Series, alert_test, run_suite, write_rules
from tests.support.specs import ONE, fleet

_SPAN = r"((?:[0-9]+(?:ms|s|m|h|d))+)"
# Written apart from the pass under test: every plain range (a subquery's has a colon), and the ranges that are the
# argument of a function estimating a rate or a slope (its argument is always a selector, never a parenthesis).
RANGE = re.compile(rf"\[{_SPAN}\]")
RATE_RANGE = re.compile(
    rf"\b(?:rate|irate|increase|deriv|predict_linear)\(\s*[a-zA-Z_:][a-zA-Z0-9_:]*(?:\{{[^}}]*\}})?\[{_SPAN}\]"
)
INTERVALS = ("15s", "30s", "1m")


@pytest.mark.parametrize("scrape", INTERVALS)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_window_spans_two_scrapes_and_four_for_rates(variant: str, scrape: str) -> None:
    config = VARIANTS[variant].model_copy(update={"scrape_interval": scrape})
    every = prometheus_seconds(scrape)
    ranges = rates = 0
    for group in build_groups(config):
        for rule in group.rules:
            name = getattr(rule, "record", None) or getattr(rule, "name", "?")
            for window in RANGE.findall(rule.expr):
                ranges += 1
                assert prometheus_seconds(window) >= 2 * every, (
                    f"{name} in {group.name}: [{window}] at {scrape} scrapes"
                )
            for window in RATE_RANGE.findall(rule.expr):
                rates += 1
                assert prometheus_seconds(window) >= 4 * every, (
                    f"{name} in {group.name}: rate-family [{window}] at {scrape}"
                )
    assert ranges > 100 and rates > 50


@pytest.mark.parametrize("scrape", INTERVALS)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_missed_scrape_resolves_no_alert_at_any_interval(variant: str, scrape: str) -> None:
    """One failed scrape leaves the conditions reading the target empty until the next scrape: ``keep_firing_for``
    must outlast two scrapes, as it outlasts two evaluations of the alert's group."""
    config = VARIANTS[variant].model_copy(update={"scrape_interval": scrape})
    for group in build_groups(config):
        interval = max(
            prometheus_seconds(group.interval) if group.interval else EVALUATION_INTERVAL_S, prometheus_seconds(scrape)
        )
        for rule in group.rules:
            if isinstance(rule, Alert):
                held = prometheus_seconds(rule.keep_firing_for)
                assert held >= 2 * interval, f"{rule.name}: held {held:g}s at {scrape} scrapes"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rules_widened_for_one_minute_scrapes_pass_promtool_check(variant: str, tmp_path: Path) -> None:
    config = VARIANTS[variant].model_copy(update={"scrape_interval": "1m"})
    names = write_rules(config, tmp_path, annotations=True)
    result = subprocess.run(
        [binary("promtool"), "check", "rules", "--lint=all", "--lint-fatal", *(str(tmp_path / n) for n in names)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_pass_reads_calls_past_strings_and_leaves_subqueries() -> None:
    """A label matcher's regex may hold brackets and parentheses; a subquery's range spans evaluations."""
    expr = (
        'rate(x{a=~"(b)[0-9]+"}[1m]) + avg_over_time(y{b="[1m]"}[30s]) '
        "+ max_over_time((sum by (g) (rate(z[5m])))[10m:15s]) + deriv(w[10m])"
    )
    group = Group(name="g", rules=(Recording(record="r:x:sum", expr=expr),))
    fitted = fit_scrape_interval(group, 60).rules[0].expr
    assert fitted == (
        'rate(x{a=~"(b)[0-9]+"}[4m]) + avg_over_time(y{b="[1m]"}[2m]) '
        "+ max_over_time((sum by (g) (rate(z[5m])))[10m:15s]) + deriv(w[10m])"
    )


def test_at_15s_and_faster_the_rules_are_as_written() -> None:
    written = build_groups(RulesConfig())
    assert build_groups(RulesConfig(scrape_interval="10s")) == written
    assert build_groups(RulesConfig(scrape_interval="1m")) != written


def test_the_spec_gives_the_rules_its_interval_in_rule_time(tmp_path: Path) -> None:
    """``gpuscope up --fast`` scrapes every second at speedup 15: in rule time that is the 15 s the rules are
    written for, so its rules are the plain compressed ones."""
    minute = parse_fleet(fleet(ONE, "scrape_interval: 1m"), "fleet.yaml", tmp_path).spec.rules_config()
    assert minute.scrape_interval == "1m"
    fast_text = fleet(ONE, "scrape_interval: 1s\nscrape_timeout: 1s\nevaluation_interval: 1s\nspeedup: 15")
    fast = parse_fleet(fast_text, "fleet.yaml", tmp_path).spec.rules_config()
    assert fast.scrape_interval == "15s"
    assert build_groups(fast) == build_groups(fast.model_copy(update={"scrape_interval": "10s"}))


GIB = 1 << 30
TEMP = "DCGM_FI_DEV_GPU_TEMP"
MINUTE = RulesConfig(scrape_interval="1m")
# One sample a minute for an hour; one reading missed at 30m (a staleness marker), the exporter up throughout.
UP = Series("up", {"job": "dcgm-exporter", "instance": "node-a:9400"}, "1x59")
MISSED_AT_30M = "60x29 stale 60x28"

AT_ONE_MINUTE = (
    Case(
        "1 m scrapes: a GPU misses one reading (the exporter up, its other GPU reporting): not a lost GPU",
        "GPUFellOffBus",
        (UP, Series(TEMP, gpu_labels(0), MISSED_AT_30M), Series(TEMP, gpu_labels(1), "60x59")),
        quiet_at=("30m15s", "30m30s", "30m45s", "31m", "40m"),
        config=MINUTE,
        interval="1m",
    ),
    Case(
        "1 m scrapes: a zombie's memory misses one reading while pending: the 10 minutes do not start over",
        "GPUMemoryHeldByNoPod",
        (
            UP,
            Series("gpuscope_gpu_unattributed_memory_used_bytes", self_labels(0), "0x59"),
            Series(
                "gpuscope_gpu_unattributed_memory_used_bytes", self_labels(2), f"0x29 {8 * GIB}x4 stale {8 * GIB}x23"
            ),
        ),
        start="30m",
        fires_by="42m",
        expected=(identity(2),),
        quiet_at=("39m",),
        config=MINUTE,
        interval="1m",
    ),
)


@pytest.mark.promtool
def test_at_one_minute_scrapes_no_alert_misfires(tmp_path: Path) -> None:
    """Samples every minute, rules evaluated every 15 s (what a 1 m scrape interval with the default evaluation
    interval gives): windows of one minute hold a sample at best, none after one missed reading."""
    result = run_suite(tmp_path, [alert_test(c) for c in AT_ONE_MINUTE], MINUTE, "15s")
    assert result.returncode == 0, result.stdout + result.stderr
