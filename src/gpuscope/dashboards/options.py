"""What the dashboards are generated from: the fleet's rules config plus the facts of its spec.

The same ``RulesConfig`` as the rules (selectors, host/UUID/cluster label names, workload-label mode, dialect,
thresholds, budget), the fields the collectors CSV really exports (a panel for an uncollected field would be
empty forever), the scrape timing, whether Prometheus remote-writes, and the GPUs each cluster should have.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuscope.fields.catalog import RENAMED_IN_4_9, RENAMED_IN_4_10
from gpuscope.fields.collectors import CollectorSet
from gpuscope.rules import Recording, RulesConfig, build_groups
from gpuscope.spec.fleet import FleetSpec, seconds

_CLASSIC_OF = {new: classic for classic, new in (*RENAMED_IN_4_9.items(), *RENAMED_IN_4_10.items())}


@dataclass(frozen=True, slots=True)
class Options:
    fleet: str
    rules: RulesConfig
    fields: frozenset[str]  # classic catalog names the collectors CSV exports (metrics and label fields)
    scrape_timeout_s: float = 10.0
    remote_write: bool = False
    store: str = "federation"  # the long-term store of the chosen topology (the Pipeline page's last row)
    expected_gpus: tuple[tuple[str, int], ...] = ()  # (cluster, GPUs in the spec)
    recorded: frozenset[str] = frozenset()  # every recording rule the rules define
    process_metrics: bool = False  # exporter.process_metrics: the shared-GPU panels


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
        scrape_timeout_s=seconds(spec.scrape_timeout),
        remote_write=store in ("mimir", "victoriametrics"),
        store=store,
        expected_gpus=tuple((c.name, c.gpus) for c in spec.clusters),
        recorded=recorded_names(config),
        process_metrics=spec.exporter.process_metrics,
    )
