"""The cardinality budget (head series ~ GPUs x metrics x label combinations), computed rather than guessed.

Exporter series per node come from the exporter itself: a simulated node of each node group (its GPU model,
GPUs per node, MIG layout, the fleet's collectors CSV and naming) is collected once and rendered, and its series
are counted — so fields a model lacks, MIG repetition, NVLink, XID/err labels and self-metrics are exactly what
the exporter serves. Everything else is arithmetic with stated inputs: scrape series per target, node-exporter
per node, workload info series under pod churn over the head window, recording-rule outputs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from gpuscope.backends.sim.node import SimNode, SimNodeConfig
from gpuscope.durations import prometheus_seconds
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.catalog import Dialect
from gpuscope.fields.collectors import CollectorSet
from gpuscope.generate.budget_processes import SPLIT_FIELDS, process_series
from gpuscope.generate.budget_report import BudgetReport, ClusterBudget, NodeGroupBudget
from gpuscope.generate.host_scrape import host_series
from gpuscope.hardware.models import MODELS, parse_mig_layout
from gpuscope.rules import build_groups
from gpuscope.rules.records import Recording
from gpuscope.spec.fleet import Cluster, FleetSpec, NodeGroup
from gpuscope.spec.load import LoadedSpec

SCRAPE_SERIES_PER_TARGET = 5  # up, scrape_duration_seconds, scrape_samples_scraped, _post_metric_relabeling, _added
PROMETHEUS_SELF_SERIES = 1000  # a Prometheus scraping itself and its HA peer exposes roughly this many
HEAD_WINDOW_HOURS = 2.0  # a replaced series stays in the head until the next 2 h compaction
MIMIR_SERIES_PER_TENANT = 150_000  # Mimir's default max_global_series_per_user
MIMIR_SAMPLES_PER_TENANT = 10_000  # Mimir's default ingestion_rate


def _exporter_series(group: NodeGroup, mig: bool, collectors: CollectorSet, spec: FleetSpec) -> int:
    return _series_of_simulated_node(
        group.gpu_model,
        group.gpus_per_node,
        group.mig.layout if (mig and group.mig) else "",
        collectors,
        spec.exporter.host_label,
        spec.exporter.dialect,
    )


@cache
def _series_of_simulated_node(
    model_key: str, gpus: int, mig_layout: str, collectors: CollectorSet, host_label: str, dialect: str
) -> int:
    model = MODELS[model_key]
    layout = parse_mig_layout(model, mig_layout) if mig_layout else ()
    # Seed and clock are fixed so the count is reproducible; workloads only change clock-event reasons.
    sim = SimNode(SimNodeConfig("budget-node", model, gpus, layout, workload="training", seed=0), clock=lambda: 1e9)
    settings = ExporterSettings(collectors=collectors, dialect=Dialect(dialect), host_label=host_label)
    runtime = make_runtime(sim, settings, "budget-node", own_process_metrics=True, clock=lambda: 1e9)
    runtime.collect()
    text = runtime.body(1e9, gzip=False).decode()
    return sum(1 for line in text.splitlines() if line and not line.startswith("#"))


def _workload_series(group: NodeGroup, cluster: Cluster, spec: FleetSpec, fields_per_gpu: float) -> int:
    """Attribution series in the head: one per allocation, plus what churn leaves behind for ~2 h."""
    entities = group.nodes * group.gpus_per_node
    if group.mig:
        entities += group.mig.nodes * group.gpus_per_node * (len(group.mig.layout.split(",")) - 1)
    share = group.nodes / max(cluster.nodes, 1)
    churned = cluster.pod_restarts_per_hour * share * HEAD_WINDOW_HOURS
    mode = spec.exporter.workload_labels
    # Shared GPUs (--kubernetes-virtual-gpus): one attribution per replica, so each shared GPU has several holders.
    holders = spec.exporter.virtual_gpu_replicas if spec.exporter.virtual_gpus else 1
    if mode == "info":  # one info series per (GPU, pod, replica); pod labels, UID and DRA labels add none
        # The per-pod split of shared GPUs adds a GPU_UTIL and an FB_USED series per (GPU, pod, replica) beside the
        # device's, and each restarted sharing pod leaves its two behind like its info series (docs/shared-gpus.md).
        per_holder = 1 + (SPLIT_FIELDS if spec.exporter.virtual_gpus else 0)
        return math.ceil((entities * holders + churned) * per_holder)
    if mode == "labels":  # every series of a restarted pod's GPU is created again with the new pod name
        # ... and every further holder of a shared GPU is a further copy of each of its series; the per-pod split
        # of shared GPUs keeps the device's own GPU_UTIL and FB_USED beside their per-pod copies (docs/shared-gpus.md).
        split = SPLIT_FIELDS * entities if spec.exporter.virtual_gpus else 0
        return math.ceil((churned + entities * (holders - 1)) * fields_per_gpu) + split
    return 0


@dataclass(frozen=True, slots=True)
class _RecordingCounts:
    """How many recording rules scale with what: counted once, from one ``build_groups()``."""

    per_gpu: int  # gpu:* and workload:* rules: one series per GPU entity
    per_node: int  # node:* rules: one series per node
    other: int  # cluster-wide rules: a handful of series each
    cold: int  # rules kept in the cold tier (fleet rules included)
    # The cold-tier rollups by what they scale with: what a rollups-only cold tier stores per cluster.
    cold_per_gpu: int = 0
    cold_per_node: int = 0
    cold_other: int = 0  # one series per GPU model at most (cluster totals, counts by model)

    @property
    def cluster_rules(self) -> int:
        return self.per_gpu + self.per_node + self.other


def _recording_counts(spec: FleetSpec) -> _RecordingCounts:
    per_gpu = per_node = other = cold = 0
    cold_by = {"gpu": 0, "node": 0, "other": 0}
    for group in build_groups(spec.rules_config()):
        for rule in group.rules:
            if not isinstance(rule, Recording):
                continue
            cold += rule.cold
            if group.file == "fleet":
                continue
            if rule.record.startswith(("nvlink:", "nvswitch:")):
                # What is down or failing in the fabric (rules/alerts_fabric.py): series only while a link, port or
                # switch is at fault, none on a healthy fabric.
                continue
            if rule.record.startswith(("gpu:", "workload:")):
                per_gpu += 1
                kind = "gpu"
            elif rule.record.startswith("node:"):
                per_node += 1
                kind = "node"
            else:
                other += 1
                kind = "other"
            cold_by[kind] += rule.cold
    return _RecordingCounts(
        per_gpu=per_gpu,
        per_node=per_node,
        other=other,
        cold=cold,
        cold_per_gpu=cold_by["gpu"],
        cold_per_node=cold_by["node"],
        cold_other=cold_by["other"],
    )


def _recording_series(counts: _RecordingCounts, cluster: Cluster, gpu_entities: int) -> int:
    return counts.per_gpu * gpu_entities + counts.per_node * cluster.nodes + counts.other * 4


def predicted(loaded: LoadedSpec) -> dict[str, int]:
    """Each cluster's predicted head series, as the bundle's ``budget.json`` has them: what ``gpuscope doctor
    --fleet`` holds a live cluster to (``doctor.Predict``)."""
    return {c.cluster: c.head_series for c in compute_budget(loaded.spec, loaded.collectors).clusters}


def compute_budget(spec: FleetSpec, collectors: CollectorSet) -> BudgetReport:
    counts = _recording_counts(spec)
    groups: list[NodeGroupBudget] = []
    clusters: list[ClusterBudget] = []
    long_term_series = 0
    for cluster in spec.clusters:
        budget, group_budgets, stored_series = _cluster_budget(spec, cluster, collectors, counts)
        clusters.append(budget)
        groups.extend(group_budgets)
        long_term_series += stored_series
    return BudgetReport(
        node_groups=tuple(groups),
        clusters=tuple(clusters),
        budget_head_series=spec.budget.head_series,
        bytes_per_head_series=spec.budget.bytes_per_head_series,
        remote_write_bytes_per_sample=spec.budget.remote_write_bytes_per_sample,
        long_term_samples_per_second=sum(c.remote_write_samples_per_second for c in clusters),
        long_term_series=long_term_series,
        mimir_verdicts=_mimir_verdicts(spec, clusters),
    )


def _cluster_budget(
    spec: FleetSpec, cluster: Cluster, collectors: CollectorSet, counts: _RecordingCounts
) -> tuple[ClusterBudget, list[NodeGroupBudget], int]:
    """One cluster's budget, its node groups' and the series it leaves in the long-term store."""
    groups: list[NodeGroupBudget] = []
    exporter_total = workload_total = entities = 0
    biggest_node = 0
    for group in cluster.node_groups:
        mig_nodes = group.mig.nodes if group.mig else 0
        plain = _exporter_series(group, False, collectors, spec)
        per_mig = _exporter_series(group, True, collectors, spec) if mig_nodes else 0
        total = plain * (group.nodes - mig_nodes) + per_mig * mig_nodes
        biggest_node = max(biggest_node, plain, per_mig)
        workload = _workload_series(group, cluster, spec, plain / group.gpus_per_node)
        workload += process_series(group, cluster, spec, HEAD_WINDOW_HOURS)  # --process-metrics, worst case
        groups.append(
            NodeGroupBudget(
                cluster=cluster.name,
                node_group=group.name,
                nodes=group.nodes,
                gpus=group.nodes * group.gpus_per_node,
                exporter_series_per_node=total / group.nodes,
                exporter_series=total,
                workload_series=workload,
            )
        )
        exporter_total += total
        workload_total += workload
        instances = len(group.mig.layout.split(",")) if group.mig else 1
        entities += group.gpus_per_node * (group.nodes - mig_nodes + mig_nodes * instances)
    node_exporter = spec.budget.node_exporter_series_per_node * cluster.nodes if spec.host_signals.node_exporter else 0
    ksm, cadvisor, host_targets = host_series(spec, cluster)
    scrape = SCRAPE_SERIES_PER_TARGET * (2 * cluster.nodes + 3 + host_targets)
    recording = _recording_series(counts, cluster, entities)
    head = (
        exporter_total + workload_total + node_exporter + ksm + cadvisor + scrape + recording + PROMETHEUS_SELF_SERIES
    )
    samples = head / prometheus_seconds(spec.scrape_interval)
    cold = spec.retention.cold_tier == "rollups"
    models = len({g.gpu_model for g in cluster.node_groups})
    rollup_series = counts.cold_per_gpu * entities + counts.cold_per_node * cluster.nodes + counts.cold_other * models
    rw_samples = rollup_series / prometheus_seconds(spec.retention.rollup_resolution) if cold else samples
    ratio = head / spec.budget.head_series
    budget = ClusterBudget(
        cluster=cluster.name,
        nodes=cluster.nodes,
        gpus=cluster.gpus,
        exporter_series=exporter_total,
        workload_series=workload_total,
        node_exporter_series=node_exporter,
        scrape_series=scrape,
        recording_series=recording,
        prometheus_series=PROMETHEUS_SELF_SERIES,
        head_series=head,
        samples_per_second=samples,
        head_memory_bytes=head * spec.budget.bytes_per_head_series,
        remote_write_samples_per_second=rw_samples,
        remote_write_bytes_per_second=rw_samples * spec.budget.remote_write_bytes_per_sample,
        sample_limit_per_exporter=max(100, math.ceil(biggest_node * 1.5 / 100) * 100),
        verdict="over budget" if ratio > 1 else "warn (over 80%)" if ratio > 0.8 else "ok",
        kube_state_metrics_series=ksm,
        cadvisor_series=cadvisor,
    )
    return budget, groups, rollup_series if cold else head


def _mimir_verdicts(spec: FleetSpec, clusters: list[ClusterBudget]) -> tuple[tuple[str, str], ...]:
    by_name: Mapping[str, ClusterBudget] = {c.cluster: c for c in clusters}
    tenants = [(t.name, t.clusters) for t in spec.tenants] or _default_tenants(spec)
    out = []
    for name, members in tenants:
        series = sum(
            by_name[c].head_series
            if spec.retention.cold_tier == "full"
            else math.ceil(
                by_name[c].remote_write_samples_per_second * prometheus_seconds(spec.retention.rollup_resolution)
            )
            for c in members
        )
        rate = sum(by_name[c].remote_write_samples_per_second for c in members)
        problems = []
        if series > MIMIR_SERIES_PER_TENANT:
            problems.append(f"{series} series > default max_global_series_per_user {MIMIR_SERIES_PER_TENANT}")
        if rate > MIMIR_SAMPLES_PER_TENANT:
            problems.append(f"{rate:.0f} samples/s > default ingestion_rate {MIMIR_SAMPLES_PER_TENANT}")
        out.append((name, "; ".join(problems) + " (raise the tenant's limits)" if problems else "within defaults"))
    return tuple(out)


def _default_tenants(spec: FleetSpec) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.tenant or c.name, (c.name,)) for c in spec.clusters]
