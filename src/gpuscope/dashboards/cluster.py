"""L2 Cluster (the Phase 1 floor): node x GPU status grid, SM-active heatmap, top allocated-but-idle GPUs, XID
and ECC events, throttling, NVLink errors, profiling staleness and lost GPUs. Drills down to L3, L4 and L5."""

from __future__ import annotations

from gpuscope.dashboards import styles, variables
from gpuscope.dashboards.host import allocation_row
from gpuscope.dashboards.model import Dashboard, Link, Panel, Query, Row, Transform, present
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import cluster as c
from gpuscope.dashboards.units import GPU_EQ_WORDS, GPU_EQUIVALENTS

KEY = "l2-cluster"


def to_node(q: Q, fields: str) -> Link:
    return Link("Node (L3)", "l3-node", (("node", f"${{{fields}.{q.host}}}"),))


def to_gpu(q: Q, fields: str) -> Link:
    return Link("GPU (L4)", "l4-gpu", (("node", f"${{{fields}.{q.host}}}"), ("gpu", f"${{{fields}.{q.uuid}}}")))


def _overview(q: Q) -> Row:
    power = c.cluster_sum(q, "cluster:gpu_power_watts:sum5m", "power") if q.has("DCGM_FI_DEV_POWER_USAGE") else None
    return Row(
        "Overview",
        (
            Panel(
                "GPUs reporting", "stat", (c.cluster_sum(q, "cluster:gpus_reporting:count", "GPUs"),), width=4, height=4
            ),
            Panel(
                "GPUs lost",
                "stat",
                (c.cluster_sum(q, "cluster:gpus_lost:count", "lost"),),
                steps=styles.any_is_bad(),
                width=4,
                height=4,
            ),
            Panel("Nodes reporting", "stat", (c.nodes(q),), width=4, height=4),
            Panel("Exporters down", "stat", (c.exporters_down(q),), steps=styles.any_is_bad(), width=4, height=4),
            Panel(
                "GPUs allocated",
                "stat",
                (c.cluster_sum(q, "cluster:gpus_allocated:count", "allocated"),),
                unit=GPU_EQUIVALENTS,
                description=GPU_EQ_WORDS,
                width=4,
                height=4,
            ),
            Panel("Power", "stat", present(power), unit="watt", width=4, height=4),
        ),
    )


def _status(q: Q) -> Row:
    grid = Panel(
        "GPU status (node x GPU)",
        "table",
        (c.gpu_status(q),),
        description="0 OK, 1 a ticket alert fires on the GPU, 2 a page: the alerts' own verdict.",
        mappings=styles.STATUS,
        steps=styles.STATUS_STEPS,
        transforms=(Transform("groupingToMatrix", {"columnField": "gpu", "rowField": q.host, "valueField": "Value"}),),
        width=12,
        height=10,
    )
    power = (
        c.node_column(q, "node:gpu_power_watts:sum5m", "power", "watt") if q.has("DCGM_FI_DEV_POWER_USAGE") else None
    )
    node_table = Panel(
        "Nodes",
        "table",
        present(
            c.node_column(q, "node:gpus_reporting:count", "GPUs reporting"),
            c.lost_per_node(q),
            c.node_column(q, "node:gpu_activity:avg5m", "activity", "percentunit"),
            power,
        ),
        description="Click a node for its L3 dashboard.",
        links=(to_node(q, "__data.fields"),),
        width=12,
        height=10,
    )
    return Row("Status", (grid, node_table))


def _activity(q: Q) -> Row:
    return Row(
        "Activity",
        (
            Panel(
                "SM activity across GPUs",
                "heatmap",
                (c.activity_heatmap(q),),
                unit="percentunit",
                description="How many GPUs run at each SM-active level over time (activity where SM active is not "
                "collected).",
                width=12,
            ),
            Panel(
                "Activity by node",
                "timeseries",
                (c.activity_by_node(q),),
                unit="percentunit",
                min=0,
                max=1,
                links=(to_node(q, "__field.labels"),),
                width=12,
            ),
        ),
    )


def _allocation(q: Q) -> Row:
    return Row(
        "Allocation",
        (
            Panel(
                "Top allocated-but-idle GPUs",
                "table",
                (c.idle_allocated(q),),
                unit="percentunit",
                steps=styles.activity_of_allocated(q.options),
                description=f"Allocated GPUs below {q.c.thresholds.idle_activity_ratio:.0%} activity, one row each; "
                f"GPUAllocatedButIdle fires after {q.c.thresholds.idle_for}. Click a GPU for its L4 dashboard (who "
                "holds it). Empty while every allocated GPU is busier.",
                links=(to_gpu(q, "__data.fields"),),
                width=12,
            ),
            Panel(
                "GPUs allocated vs active",
                "timeseries",
                (
                    c.per_cluster(q, "cluster:gpus_allocated:count", "allocated"),
                    c.per_cluster(q, "cluster:gpus_allocated_active:count", "allocated and active"),
                    c.per_cluster(q, "cluster:gpus_reporting:count", "reporting"),
                ),
                unit=GPU_EQUIVALENTS,
                description=GPU_EQ_WORDS,
                width=6,
            ),
            Panel(
                "Activity by namespace",
                "timeseries",
                present(c.namespace_activity(q)),
                unit="percentunit",
                min=0,
                max=1,
                width=6,
            ),
        ),
    )


def _events(q: Q) -> Row:
    gpu_links = (to_gpu(q, "__data.fields"),)

    def table(title: str, queries: tuple[Query | None, ...], description: str) -> Panel:
        return Panel(title, "table", present(*queries), description=description, links=gpu_links, width=12)

    return Row(
        "Health events",
        (
            table("XID errors in range", (c.xid_events(q),), "Events per GPU and XID in the dashboard's time range."),
            table(
                "Last XID per GPU",
                (c.last_xid(q),),
                "The last XID each GPU reported, where not 0. None while no GPU has reported one.",
            ),
            table(
                "ECC and row-remap events",
                c.ecc_events(q),
                "GPUDoubleBitEccErrors / GPURowRemapFailure sources. None while no GPU has had one.",
            ),
            table(
                "Lost GPUs",
                (c.lost_gpus(q),),
                "XID 79 / GPU_IS_LOST, or stopped reporting (GPUFellOffBus). None while every GPU reports.",
            ),
            Panel(
                "Thermal throttling (top 10)",
                "timeseries",
                present(c.thermal_throttling_top(q)),
                unit="percentunit",
                steps=styles.throttled_share(q.options),
                links=(to_gpu(q, "__field.labels"),),
                width=12,
            ),
            table(
                "Thermal events",
                (c.thermal_events(q),),
                "Thermal clock events, or at the alert's temperature. None while no GPU is throttled or hot.",
            ),
            table("NVLink errors in range", (c.nvlink_errors(q),), "Largest NVLink error-counter increase per GPU."),
            table(
                "Profiling metrics stale",
                (c.profiling_stale(q),),
                "DCGM_FI_PROF_* stopped while the GPU reports. None while they arrive.",
            ),
        ),
    )


def cluster_dashboard(q: Q) -> Dashboard:
    return Dashboard(
        key=KEY,
        title="GPU L2 Cluster",
        description="One cluster: which GPUs are unhealthy, idle or throttled. Works on the cluster's own Prometheus "
        "too.",
        variables=(variables.cluster(q),),
        rows=(
            _overview(q),
            _status(q),
            _activity(q),
            _allocation(q),
            *filter(None, (allocation_row(q),)),  # kube-state-metrics, when scraped (dashboards/host.py)
            _events(q),
        ),
        drills_to=("l3-node", "l5-workload", "fabric"),
    )
