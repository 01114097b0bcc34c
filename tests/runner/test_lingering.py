"""``gpuscope clear`` says which alerts still fire and for up to how long: from the rules a real Prometheus runs,
only the alternatives of a rule that still match count, and ``keep_firing_for`` adds to them."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuscope.durations import prometheus_seconds
from gpuscope.rules import alerts
from gpuscope.runner.lingering import after_clear, branches, lookback
from gpuscope.runner.plan import FAST_SPEEDUP, builtin_spec_text, plan_stack
from gpuscope.spec.load import parse_fleet
from tests.support.net import free_port, wait_for
from tests.support.prom import run_prometheus

# An "event" (Prometheus started moments ago) that three alternatives remember for different times: one by an
# offset on the side of an `unless` (1h), one over a window (10m); the third (2h) does not match at all.
RULES = """
groups:
- name: remembered
  interval: 1s
  rules:
  - alert: EventRemembered
    expr: |
      (max by (job) (prometheus_build_info) unless on (job) max by (job) (prometheus_build_info offset 1h))
      or
      (max by (job) (changes(prometheus_build_info[10m]) >= 0))
      or
      (max by (job) (max_over_time(up[2h]) == 2))
    keep_firing_for: 1m
"""


@pytest.mark.e2e  # a real Prometheus
def test_after_clear_counts_the_alternatives_that_still_match(tmp_path: Path) -> None:
    port = free_port()  # Prometheus scrapes itself: its build info is the "event"
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": ["rules.yml"],
        "scrape_configs": [{"job_name": "prometheus", "static_configs": [{"targets": [f"127.0.0.1:{port}"]}]}],
    }
    with run_prometheus(config, tmp_path, files={"rules.yml": RULES}, port=port) as prom:
        found = wait_for(lambda: after_clear({"prometheus-a@gpu-a": prom.url}), timeout=60, what="the alert")
    [alert] = found
    assert (alert.alert, alert.labels["job"]) == ("EventRemembered", "prometheus")
    assert alert.lookback is not None and alert.lookback.term == "offset 1h"  # not the 2h of what does not match
    assert alert.keep_firing_s == 60
    assert alert.at_most_s == 3600 + 60
    assert "up to 61m00s once its cause is gone" in alert.line() and "keep_firing_for 1m00s" in alert.line()


def test_gpu_fell_off_bus_is_held_by_its_xid_offset_and_fast_compresses_it() -> None:
    """The issue's case: after `gpuscope clear` the last-XID branch keeps matching until the XID is as old as the
    offset of its `unless` side (not its 1h range), the longest hold of the rule's alternatives."""
    spec = parse_fleet(builtin_spec_text(), "builtin-fleet.yaml", Path.cwd()).spec
    held = {}
    for fast in (False, True):
        rule = next(a for a in alerts(plan_stack(spec, fast=fast).spec.rules_config()) if a.name == "GPUFellOffBus")
        holds = [lb for lb in map(lookback, branches(rule.expr)) if lb is not None]
        assert len(branches(rule.expr)) > len(holds)  # the level branches (a lost GPU) end with the fault
        held[fast] = max(holds, key=lambda lb: lb.seconds)
        # the offset of the `unless` side, not its range: the branch stops matching once the XID is that old
        assert held[fast].seconds == prometheus_seconds(held[fast].term.split("offset")[1].strip())
        assert rule.keep_firing_for  # and the alert fires on for that long after
    assert held[True].seconds == pytest.approx(held[False].seconds / FAST_SPEEDUP)
