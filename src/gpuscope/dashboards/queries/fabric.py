"""The NVLink fabric: partitions (cluster UUID + clique), the state of every GPU link and switch port, NVSwitch
SXids, what is down or failing per the fabric records (rules/alerts_fabric.py), and the fabric alerts.

The link and port matrices read the exporter's series (dcgm-exporter's labels: ``nvlink``, ``gpu``, ``nvswitch``
and the host label); the partition tables read the records, which carry the partition. A query over a field the
collectors CSV does not export is left out (``Q.needs``).
"""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q
from gpuscope.rules.alerts_fabric import (
    GPU_PARTITION,
    LINK_DOWN,
    LINK_ERRORS,
    LINK_STATE,
    PORT_DOWN,
    PORT_STATUS,
    SWITCH_FATAL,
    SWITCH_NON_FATAL,
    SXID_FATAL,
    SXID_NON_FATAL,
)

HEALTH = "DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY"
CLIQUE = "DCGM_FI_DEV_FABRIC_CLIQUE_ID"
# Every fabric alert: the per-partition ones of rules/alerts_fabric.py and the per-GPU ones of alerts_gpu.py.
ALERTS = "GPUNVLink.+|GPUNVSwitch.+|GPUFabricDegraded"
_ON_GPU_LINKS = 'gpu_uuid="$gpu"'  # L4's GPU, on its link series


def _partitions(q: Q, scope: str) -> str:
    return q.rec(GPU_PARTITION, scope)


def partition_gpus(q: Q, scope: str) -> Query | None:
    expr = f"count by (partition) ({_partitions(q, scope)})"
    return q.needs((CLIQUE,), expr, "GPUs", instant=True)


def partition_nodes(q: Q, scope: str) -> Query | None:
    expr = f"count by (partition) (group by (partition, {q.host}) ({_partitions(q, scope)}))"
    return q.needs((CLIQUE,), expr, "nodes", instant=True)


def partition_health(q: Q, scope: str) -> Query | None:
    """The worst fabric health summary of the partition's GPUs (1 healthy, 2 unhealthy, 3 limited capacity)."""
    on = f"{q.cluster}, {q.host}, gpu"
    expr = f"max by (partition) ({q.dcgm(HEALTH, scope)} * on ({on}) group_left (partition) {_partitions(q, scope)})"
    return q.needs((CLIQUE, HEALTH), expr if q.has(CLIQUE) and q.has(HEALTH) else None, "health", instant=True)


def partition_down(q: Q, scope: str) -> Query | None:
    """Links and switch ports down per partition (the records GPUNVLinkDown counts), 0 for every other partition:
    a row of the partition table, where one partition's count must not leave the others' cells blank."""
    down = f"count by (partition) ({q.rec(LINK_DOWN, scope)} or {q.rec(PORT_DOWN, scope)})"
    expr = f"{down}\nor on (partition)\n0 * count by (partition) ({_partitions(q, scope)})"
    return q.needs((LINK_STATE, PORT_STATUS), expr, "links down", instant=True)


def link_state_matrix(q: Q, scope: str) -> Query | None:
    """Every GPU link's state, one row per GPU (``<host> GPU <n>``), one column per link: 1 up, 0 down, blank
    where the link's series is gone (dcgm-exporter serves only links that are Up)."""
    state = f"max by ({q.host}, gpu, nvlink) ({q.dcgm(LINK_STATE, scope)})"
    expr = f'label_join({state}, "gpu_of", " GPU ", "{q.host}", "gpu")'
    return q.needs((LINK_STATE,), expr, instant=True)


def port_status_matrix(q: Q, scope: str) -> Query | None:
    """Every NVSwitch port's status, one row per switch (``<host> nvswitch<N>``), one column per port."""
    status = f"max by ({q.host}, nvswitch, nvlink) ({q.dcgm(PORT_STATUS, scope)})"
    expr = f'label_join({status}, "switch_of", " ", "{q.host}", "nvswitch")'
    return q.needs((PORT_STATUS,), expr, instant=True)


def links_down(q: Q, scope: str) -> Query | None:
    expr = f"max by (partition, {q.host}, gpu, nvlink) ({q.rec(LINK_DOWN, scope)})"
    return q.needs((LINK_STATE,), expr, "down", instant=True, fault="nvlink-down", zero=q.reporting(scope))


def ports_down(q: Q, scope: str) -> Query | None:
    expr = f"max by (partition, {q.host}, nvswitch, nvlink) ({q.rec(PORT_DOWN, scope)})"
    return q.needs((PORT_STATUS,), expr, "down", instant=True, fault="nvswitch-fatal", zero=q.reporting(scope))


def switch_sxids(q: Q, scope: str) -> tuple[Query | None, Query | None]:
    """The last fatal and non-fatal SXid of each switch (0: none)."""
    by = f"{q.host}, nvswitch"
    fatal = q.needs((SXID_FATAL,), f"max by ({by}) ({q.dcgm(SXID_FATAL, scope)})", "fatal SXid", instant=True)
    non_fatal = q.needs(
        (SXID_NON_FATAL,), f"max by ({by}) ({q.dcgm(SXID_NON_FATAL, scope)})", "non-fatal SXid", instant=True
    )
    return fatal, non_fatal


def failing_switches(q: Q, scope: str) -> Query | None:
    """Switches with a fatal SXid, or a new non-fatal one (the records the NVSwitch alerts count)."""
    expr = (
        f'label_replace({q.rec(SWITCH_FATAL, scope)}, "kind", "fatal", "", "")\n'
        f'or label_replace({q.rec(SWITCH_NON_FATAL, scope)}, "kind", "non-fatal", "", "")'
    )
    legend = f"{{{{{q.host}}}}} {{{{nvswitch}}}} {{{{kind}}}}"
    return q.needs((SXID_FATAL, SXID_NON_FATAL), expr, legend, fault="nvswitch-fatal", zero=q.reporting(scope))


def link_errors(q: Q, scope: str) -> Query | None:
    expr = f"max by (partition, {q.host}, gpu, nvlink) ({q.rec(LINK_ERRORS, scope)})"
    fields = (
        "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL",
        "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_PER_LINK_TOTAL",
        "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_PER_LINK_TOTAL",
        "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_PER_LINK_TOTAL",
    )
    return q.needs(fields, expr, "errors in 5m", instant=True, fault="nvlink-crc", zero=q.reporting(scope))


def fabric_alerts(q: Q, scope: str) -> Query:
    return Query(
        # by alert only: the per-GPU alerts carry no partition; the tables below name the partitions
        f'max by (alertname, severity) (ALERTS{{alertstate="firing",alertname=~"{ALERTS}",{scope}}})',
        "{{alertname}} ({{severity}})",
        fault="nvlink-crc",  # GPUNVLinkErrors: a fault every exporter's NVLink counters show
        zero=q.evaluating(scope),
    )


def gpu_links(q: Q) -> Query | None:
    """One GPU's links over time (L4), by ``gpu_uuid``: link series carry the UUID under that name."""
    expr = f"max by (nvlink) ({q.dcgm(LINK_STATE, _ON_GPU_LINKS)})"
    return q.needs((LINK_STATE,), expr, "link {{nvlink}}")
