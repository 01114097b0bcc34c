"""Group intervals against the alerts' bounds.

`promtool test rules` evaluates every group at every evaluation step, whatever the group's own interval, so the
scenarios cannot see an alert moved to a slower group, nor a rule that reads a series its own group records
below it (same-step values in promtool, one interval old in Prometheus). An alert fires at most one group
interval after its condition starts to hold, plus its ``for``: that sum must stay within the alert's bound, and
pages stay at the evaluation interval.
"""

from __future__ import annotations

import re

import pytest

from gpuscope.durations import prometheus_seconds
from gpuscope.rules import RulesConfig, build_groups
from gpuscope.rules.records import Alert, Recording
from gpuscope.rules.timescale import EVALUATION_INTERVAL_S
from tests.rules.variants import VARIANTS


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_for_plus_the_group_interval_fits_every_bound(variant: str) -> None:
    checked = 0
    for group in build_groups(VARIANTS[variant]):
        interval = prometheus_seconds(group.interval) if group.interval else EVALUATION_INTERVAL_S
        for rule in group.rules:
            if not isinstance(rule, Alert) or not rule.bound[0].isdigit():
                continue
            checked += 1
            worst = prometheus_seconds(rule.for_) + interval
            assert worst <= prometheus_seconds(rule.bound), f"{rule.name} in {group.name}: for + interval {worst:g}s"
            if rule.severity == "page":
                assert interval == EVALUATION_INTERVAL_S, f"{rule.name} pages but {group.name} runs every {interval}s"
    assert checked >= 15


@pytest.mark.parametrize("speedup", [1, 15])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_no_alert_resolves_on_one_missed_scrape(variant: str, speedup: int) -> None:
    """A failed scrape leaves one evaluation of every group with the target's series stale (and ``up`` 0):
    ``keep_firing_for`` must carry a firing alert over that evaluation to the next, on every group and at the
    demo's speedup too (the promtool scenarios show it for three alerts; this holds it for all)."""
    config = VARIANTS[variant].model_copy(update={"speedup": speedup})
    checked = 0
    for group in build_groups(config):
        interval = prometheus_seconds(group.interval) if group.interval else EVALUATION_INTERVAL_S / speedup
        for rule in group.rules:
            if isinstance(rule, Alert):
                checked += 1
                held = prometheus_seconds(rule.keep_firing_for)
                what = f"{rule.name} in {group.name}: held {held:g}s, evaluated every {interval:g}s"
                assert held >= 2 * interval, what
    assert checked >= 50


def test_a_rule_reading_its_own_groups_records_comes_after_them() -> None:
    """Rules of a group run in order: a rule sees this evaluation's value of a series recorded above it, and the
    previous evaluation's (up to one interval old) of one recorded below it."""
    for group in build_groups(RulesConfig()):
        recorded: set[str] = set()
        mine = {r.record for r in group.rules if isinstance(r, Recording)}
        for rule in group.rules:
            read = set(re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", rule.expr)) & mine
            assert read <= recorded, f"{group.name}: {getattr(rule, 'record', rule)} reads {read - recorded} first"
            if isinstance(rule, Recording):
                recorded.add(rule.record)
