"""Fabric: the NVLink partitions of a cluster (an NVL72 rack, an HGX baseboard), the state of every GPU link and
NVSwitch port as a matrix, switch SXids, what is down or failing by partition, and the fabric alerts. Linked
from L2 Cluster; L3 Node and L4 GPU show the same links for one node and one GPU."""

from __future__ import annotations

from gpuscope.dashboards import styles, variables
from gpuscope.dashboards.model import Dashboard, Panel, Query, Row, Transform, ValueText, present
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import fabric as f

KEY = "fabric"
_PARTITION = (
    "A partition is the GPUs the fabric manager lets talk over NVLink: they share a cluster UUID and a clique id "
    "(an NVL72 rack, an HGX baseboard). Empty where the collectors CSV lacks DCGM_FI_DEV_FABRIC_CLIQUE_ID."
)


def _matrix(
    title: str, query: Query | None, row: str, *, description: str, mappings: tuple[ValueText, ...]
) -> Panel | None:
    if query is None:
        return None
    return Panel(
        title,
        "table",
        (query,),
        description=description,
        mappings=mappings,
        transforms=(Transform("groupingToMatrix", {"columnField": "nvlink", "rowField": row, "valueField": "Value"}),),
        width=24,
        height=12,
    )


def link_panels(q: Q, scope: str) -> tuple[Panel, ...]:
    """The link-state and switch-port matrices of ``scope`` (a cluster, or one node on L3)."""
    panels = (
        _matrix(
            "NVLink state (GPU x link)",
            f.link_state_matrix(q, scope),
            "gpu_of",
            description="Every GPU link: up, down, or blank where its series stopped (dcgm-exporter serves only "
            "links that are up; GPUNVLinkDown counts both).",
            mappings=styles.LINK_STATE,
        ),
        _matrix(
            "NVSwitch ports (switch x port)",
            f.port_status_matrix(q, scope),
            "switch_of",
            description="Every NVSwitch port of the nodes that have their own switches (HGX baseboards). Empty on "
            "NVL72 compute trays: the rack's switches sit in its switch trays.",
            mappings=styles.PORT_STATUS,
        ),
    )
    return tuple(p for p in panels if p is not None)


def _partitions(q: Q) -> Row:
    scope = q.in_cluster
    counts = present(f.partition_gpus(q, scope), f.partition_nodes(q, scope), f.partition_down(q, scope))
    health = present(f.partition_health(q, scope))
    panels = [
        # a table maps values column by column only through units and steps: the health words get their own table
        *((Panel("Partitions", "table", counts, description=_PARTITION, width=16, height=6),) if counts else ()),
        *(
            (
                Panel(
                    "Fabric health by partition",
                    "table",
                    health,
                    description="The worst DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY of the partition's GPUs.",
                    mappings=styles.FABRIC_HEALTH,
                    width=8,
                    height=6,
                ),
            )
            if health
            else ()
        ),
        Panel(
            "Fabric alerts",
            "statushistory",
            (f.fabric_alerts(q, scope),),
            description="GPUNVLinkDown, GPUNVSwitchFatalError, GPUNVSwitchNonFatalError, GPUNVLinkErrorsPerLink (one "
            "per partition) and GPUFabricDegraded, GPUNVLinkErrors (per GPU).",
            width=24,
        ),
    ]
    return Row("Partitions", tuple(panels))


def _faults(q: Q) -> Row:
    scope = q.in_cluster
    tables = (
        ("Links down", f.links_down(q, scope), "GPU links down, by partition. None while every link is up."),
        ("Switch ports down", f.ports_down(q, scope), "NVSwitch ports down. None while every port is up."),
        ("Links with errors", f.link_errors(q, scope), "Per-link CRC/replay/recovery errors in the last 5 minutes."),
    )
    panels = [Panel(t, "table", (query,), description=d, width=8) for t, query, d in tables if query is not None]
    fatal, non_fatal = f.switch_sxids(q, scope)
    if sxids := present(fatal, non_fatal):
        panels.append(
            Panel(
                "NVSwitch SXids",
                "table",
                sxids,
                description="The last fatal and non-fatal SXid of each switch (0: none).",
                width=12,
            )
        )
    if failing := present(f.failing_switches(q, scope)):
        panels.append(Panel("Switches failing", "statushistory", failing, width=12))
    return Row("What is down", tuple(panels))


def fabric_dashboard(q: Q) -> Dashboard:
    rows = [_partitions(q), Row("Links and ports", link_panels(q, q.in_cluster)), _faults(q)]
    return Dashboard(
        key=KEY,
        title="GPU Fabric",
        description="NVLink partitions, the state of every link and NVSwitch port, and what is down, by partition.",
        variables=(variables.cluster(q),),
        rows=tuple(r for r in rows if r.panels),
        drills_to=("l3-node",),
    )
