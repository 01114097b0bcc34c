"""The cardinality budget as records: per node group, per cluster, and the report ``budget.json`` holds.

Apart from ``budget.py``, which computes them on a simulated node of each node group, so the generators that only
read a budget (the Prometheus configs' limits, the store's, the README's table) do not load the exporter.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class NodeGroupBudget:
    cluster: str
    node_group: str
    nodes: int
    gpus: int
    exporter_series_per_node: float
    exporter_series: int
    workload_series: int


@dataclass(frozen=True, slots=True)
class ClusterBudget:
    cluster: str
    nodes: int
    gpus: int
    exporter_series: int
    workload_series: int
    node_exporter_series: int
    scrape_series: int
    recording_series: int
    prometheus_series: int
    head_series: int
    samples_per_second: float
    head_memory_bytes: int
    remote_write_samples_per_second: float
    remote_write_bytes_per_second: float
    sample_limit_per_exporter: int
    verdict: str
    kube_state_metrics_series: int = 0  # generate/host_scrape.py host_series
    cadvisor_series: int = 0


@dataclass(frozen=True, slots=True)
class BudgetReport:
    node_groups: tuple[NodeGroupBudget, ...]
    clusters: tuple[ClusterBudget, ...]
    budget_head_series: int
    bytes_per_head_series: int
    remote_write_bytes_per_sample: float
    long_term_samples_per_second: float
    long_term_series: int
    mimir_verdicts: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, object]:
        return asdict(self)
