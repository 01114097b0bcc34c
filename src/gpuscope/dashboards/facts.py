"""What the dashboards are generated from: the fleet's rules config plus the facts of its spec, as one record.

The same ``RulesConfig`` as the rules (selectors, host/UUID/cluster label names, workload-label mode, dialect,
thresholds, budget), the fields the collectors CSV really exports (a panel for an uncollected field would be
empty forever), the scrape timing, whether Prometheus remote-writes, and the GPUs each cluster should have.
``options.options_for`` builds it from a spec; every layout and query module reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuscope.ruleconfig.config import RulesConfig


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
