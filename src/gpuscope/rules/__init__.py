"""Recording rules and alerts for every failure mode, generated from one ``RulesConfig``.

``build_groups`` gives the rules as data; ``render_rule_files`` the Prometheus rule files; ``cold_tier_records``
the recorded series meant for the long-term store's cold tier (the compiler keeps only these in
``write_relabel_configs``).
"""

from __future__ import annotations

from gpuscope.durations import prometheus_seconds
from gpuscope.ruleconfig.config import RulesConfig, Thresholds
from gpuscope.rules.alerts_fabric import fabric_group, fabric_minute_group, partition_records
from gpuscope.rules.alerts_gpu import infra_group, infra_minute_group
from gpuscope.rules.alerts_host import host_group, host_minute_group, host_recordings
from gpuscope.rules.alerts_pipeline import pipeline_group, pipeline_minute_group
from gpuscope.rules.alerts_processes import processes_group
from gpuscope.rules.alerts_prometheus import prometheus_group
from gpuscope.rules.alerts_workload import workload_group
from gpuscope.rules.efficiency_chargeback import chargeback_groups
from gpuscope.rules.promql import Promql
from gpuscope.rules.recording import COLD_TIER_REGEX, recording_groups
from gpuscope.rules.records import Alert, Group, Recording
from gpuscope.rules.render import RULE_FILES, render_files, render_runbook
from gpuscope.rules.timescale import compress, fit_scrape_interval, held_through_missed_scrapes
from gpuscope.rules.workload_attribution import attribution_groups

__all__ = [
    "COLD_TIER_REGEX",
    "RULE_FILES",
    "Alert",
    "Group",
    "Recording",
    "RulesConfig",
    "Thresholds",
    "alerts",
    "build_groups",
    "cold_tier_records",
    "render_rule_files",
    "runbooks",
]


def build_groups(config: RulesConfig) -> tuple[Group, ...]:
    q = Promql(config)
    groups = (
        *recording_groups(q),
        *chargeback_groups(q),
        *attribution_groups(q),
        infra_group(q),
        infra_minute_group(q),
        partition_records(q),
        fabric_group(q),
        fabric_minute_group(q),
        pipeline_group(q),
        pipeline_minute_group(q),
        prometheus_group(q),
        workload_group(q),
        host_recordings(q),
        host_group(q),
        host_minute_group(q),
        processes_group(q),
    )
    # A group with no rules (host signals off, say) is left out: Prometheus does not list an empty group, so
    # doctor would report it missing. The rules are written in real time for 15 s scrapes: they are fitted to the
    # scrape interval in rule time (``gpuscope up --fast`` scrapes every second at speedup 15: 15 s, as written),
    # then compressed by the speedup.
    scrape_s = prometheus_seconds(config.scrape_interval)
    fitted = (fit_scrape_interval(held_through_missed_scrapes(g, scrape_s), scrape_s) for g in groups if g.rules)
    return compress(tuple(fitted), config.speedup)


def render_rule_files(config: RulesConfig) -> dict[str, str]:
    return render_files(config, build_groups(config))


def alerts(config: RulesConfig) -> tuple[Alert, ...]:
    return tuple(r for g in build_groups(config) for r in g.rules if isinstance(r, Alert))


def cold_tier_records(config: RulesConfig) -> tuple[str, ...]:
    return tuple(r.record for g in build_groups(config) for r in g.rules if isinstance(r, Recording) and r.cold)


def runbooks(config: RulesConfig) -> dict[str, str]:
    """``<AlertName>.md`` -> Markdown, one per alert name (an alert with two severities shares one)."""
    out: dict[str, str] = {}
    for alert in alerts(config):
        out.setdefault(f"{alert.name}.md", render_runbook(alert))
    return out
