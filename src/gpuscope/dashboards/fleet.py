"""L1 Fleet: every cluster side by side — GPUs expected, reporting and lost, allocated against actively used,
SM/tensor/DRAM activity, power, firing alerts by owner, head series against the budget. Drills down to L2."""

from __future__ import annotations

from dataclasses import replace

from gpuscope.dashboards import styles, variables
from gpuscope.dashboards.model import Dashboard, Link, Panel, Query, Row, Steps, present
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import fleet as f
from gpuscope.dashboards.units import GPU_EQ_WORDS, GPU_EQUIVALENTS

KEY = "l1-fleet"


def _to_cluster(q: Q, field: str) -> Link:
    return Link("Cluster (L2)", "l2-cluster", (("cluster", f"${{{field}.{q.cluster}}}"),))


def _totals(q: Q) -> Row:
    power = f.fleet_total(q, "cluster:gpu_power_watts:sum5m", "power") if q.has("DCGM_FI_DEV_POWER_USAGE") else None
    pages = f.pages_firing(q)
    return Row(
        "Fleet",
        (
            Panel(
                "GPUs reporting", "stat", (f.fleet_total(q, "cluster:gpus_reporting:count", "GPUs"),), width=4, height=4
            ),
            Panel(
                "GPUs lost",
                "stat",
                (f.fleet_total(q, "cluster:gpus_lost:count", "lost"),),
                steps=styles.any_is_bad(),
                width=4,
                height=4,
            ),
            Panel(
                "GPUs allocated",
                "stat",
                (f.fleet_total(q, "cluster:gpus_allocated:count", "GPUs"),),
                unit=GPU_EQUIVALENTS,
                description=GPU_EQ_WORDS,
                width=4,
                height=4,
            ),
            Panel(
                "GPU activity (mean of clusters)", "stat", (f.fleet_activity(q),), unit="percentunit", width=4, height=4
            ),
            Panel("Power", "stat", present(power), unit="watt", width=4, height=4),
            Panel("Page alerts firing", "stat", (pages,), steps=styles.any_is_bad(), width=4, height=4),
        ),
    )


def _clusters_table(q: Q) -> Panel:
    def col(record: str, name: str, unit: str = "", steps: Steps | None = None) -> Query:
        base = f.per_cluster(q, record, name, instant=True)
        return Query(base.expr, name, instant=True, unit=unit, steps=steps)

    head = replace(f.cluster_head_series(q), steps=styles.head_series(q.options))
    power = col("cluster:gpu_power_watts:sum5m", "power", "watt") if q.has("DCGM_FI_DEV_POWER_USAGE") else None
    return Panel(
        "Clusters",
        "table",
        present(
            f.expected_gpus(q),
            col("cluster:gpus_reporting:count", "reporting"),
            col("cluster:gpus_lost:count", "lost", steps=styles.any_is_bad()),
            col("cluster:gpus_allocated:count", "allocated", GPU_EQUIVALENTS),
            col("cluster:gpus_allocated_active:count", "allocated and active", GPU_EQUIVALENTS),
            col("cluster:gpu_allocation_efficiency:ratio", "allocation efficiency", "percentunit"),
            col("cluster:gpu_activity:avg5m", "activity", "percentunit"),
            power,
            head,
        ),
        description="One row per cluster; click a row for its L2 dashboard. 'expected' is the fleet spec's count.",
        width=24,
        height=7,
        links=(_to_cluster(q, "__data.fields"),),
    )


def _gpus(q: Q) -> Row:
    link = (_to_cluster(q, "__field.labels"),)
    expected = f.expected_gpus(q)
    return Row(
        "GPUs",
        (
            Panel(
                "GPUs reporting (and expected)",
                "timeseries",
                present(
                    f.per_cluster(q, "cluster:gpus_reporting:count", "{{cluster}} reporting"),
                    Query(expected.expr, "{{cluster}} expected") if expected else None,
                ),
                width=8,
                links=link,
            ),
            Panel(
                "GPUs lost",
                "timeseries",
                (f.per_cluster(q, "cluster:gpus_lost:count", "{{cluster}} lost"),),
                steps=styles.any_is_bad(),
                width=8,
                links=link,
            ),
            Panel(
                "GPUs allocated vs actively used",
                "timeseries",
                (
                    f.per_cluster(q, "cluster:gpus_allocated:count", "{{cluster}} allocated"),
                    f.per_cluster(q, "cluster:gpus_allocated_active:count", "{{cluster}} allocated and active"),
                ),
                unit=GPU_EQUIVALENTS,
                description=f"Active: activity (SM active where collected) at least "
                f"{q.c.thresholds.idle_activity_ratio:.0%}, the GPUAllocatedButIdle threshold. {GPU_EQ_WORDS}",
                width=8,
                links=link,
            ),
        ),
    )


def _activity(q: Q) -> Row:
    link = (_to_cluster(q, "__field.labels"),)
    power = (
        f.per_cluster(q, "cluster:gpu_power_watts:sum5m", "{{cluster}}") if q.has("DCGM_FI_DEV_POWER_USAGE") else None
    )
    return Row(
        "Activity and power",
        (
            Panel(
                "SM / tensor / DRAM activity",
                "timeseries",
                present(
                    f.activity_signal(q, "sm_active", "DCGM_FI_PROF_SM_ACTIVE", "SM active"),
                    f.activity_signal(q, "tensor_active", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "tensor active"),
                    f.activity_signal(q, "dram_active", "DCGM_FI_PROF_DRAM_ACTIVE", "DRAM active"),
                    f.per_cluster(q, "cluster:gpu_activity:avg5m", "{{cluster}} activity"),
                ),
                unit="percentunit",
                min=0,
                max=1,
                description="activity = SM active where collected, else graphics-engine active, else utilization.",
                width=8,
                links=link,
            ),
            Panel("Power", "timeseries", present(power), unit="watt", width=8, links=link),
            Panel(
                "Allocation efficiency",
                "timeseries",
                (f.per_cluster(q, "cluster:gpu_allocation_efficiency:ratio"),),
                unit="percentunit",
                min=0,
                max=1,
                description="Share of allocated GPUs that are actively used.",
                width=8,
                links=link,
            ),
        ),
    )


def _alerts(q: Q) -> Row:
    return Row(
        "Alerts and capacity",
        (
            Panel(
                "Firing alerts by owner",
                "bargauge",
                (f.firing_alerts(q, "owner, severity"),),
                width=8,
                description="None while no alert fires.",
            ),
            Panel(
                "Firing alerts",
                "table",
                (f.firing_alerts(q, "alertname, owner, severity"),),
                width=8,
                description="None while no alert fires.",
            ),
            Panel(
                "Head series vs budget",
                "timeseries",
                (f.head_series(q),),
                steps=styles.head_series(q.options),
                description=f"Budget per Prometheus replica: {q.c.head_series_budget:,} series "
                "(ticket at the warn ratio, page above).",
                width=8,
            ),
        ),
    )


def fleet_dashboard(q: Q) -> Dashboard:
    return Dashboard(
        key=KEY,
        title="GPU L1 Fleet",
        description="Every cluster side by side. Point the data source at the global store (Thanos, Mimir or the "
        "federating Prometheus).",
        variables=(variables.cluster(q),),
        rows=(_totals(q), Row("Clusters", (_clusters_table(q),)), _gpus(q), _activity(q), _alerts(q)),
        drills_to=("l2-cluster", "efficiency"),
    )
