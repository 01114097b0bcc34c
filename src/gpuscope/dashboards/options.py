"""The dashboards' ``Options`` from a fleet spec: its rules config, the fields its collectors CSV exports, every
record its rules define (built here, so only this module of the dashboards loads the rule builders), the scrape
timing, the store and the GPUs each cluster should have. The record itself is ``facts.Options``.
"""

from __future__ import annotations

from gpuscope.dashboards.facts import Options
from gpuscope.durations import prometheus_seconds
from gpuscope.fields.catalog import RENAMED_IN_4_9, RENAMED_IN_4_10
from gpuscope.fields.collectors import CollectorSet
from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.rules import Recording, build_groups
from gpuscope.spec.fleet import FleetSpec

_CLASSIC_OF = {new: classic for classic, new in (*RENAMED_IN_4_9.items(), *RENAMED_IN_4_10.items())}


def collected_fields(collectors: CollectorSet) -> frozenset[str]:
    """Classic names of the fields a collectors set exports.

    A 4.9-dialect row maps back to its classic name (queries name fields classically and ``Promql`` renames
    them). Rows written with DCGM 1.x names are left out: they are emitted under those names, which no
    generated query uses.
    """
    names = set()
    for metric in (*collectors.metrics, *collectors.labels):
        if metric.name != metric.field.name:
            continue
        names.add(_CLASSIC_OF.get(metric.field.name, metric.field.name))
    return frozenset(names)


def recorded_names(config: RulesConfig) -> frozenset[str]:
    return frozenset(r.record for g in build_groups(config) for r in g.rules if isinstance(r, Recording))


def options_for(spec: FleetSpec, collectors: CollectorSet, store: str) -> Options:
    """The options implied by a fleet spec, its collectors set and the chosen long-term store."""
    config = spec.rules_config()
    return Options(
        fleet=spec.name,
        rules=config,
        fields=collected_fields(collectors),
        scrape_timeout_s=prometheus_seconds(spec.scrape_timeout),
        remote_write=store in ("mimir", "victoriametrics"),
        store=store,
        expected_gpus=tuple((c.name, c.gpus) for c in spec.clusters),
        recorded=recorded_names(config),
        process_metrics=spec.exporter.process_metrics,
    )
