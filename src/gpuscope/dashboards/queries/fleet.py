"""L1 Fleet: the clusters side by side, from the cluster-level recording rules.

Meant for the global view (Thanos, Mimir or the federating Prometheus), where each cluster's series carry its
``cluster`` external label. ``max by (cluster)`` counts each cluster once even where both replicas of its HA
pair are visible (federation keeps both; Thanos and Mimir deduplicate before this), as the fleet rules do.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q


def per_cluster(q: Q, record: str, legend: str = "{{cluster}}", instant: bool = False) -> Query:
    return Query(f"max by ({q.cluster}) ({q.rec(record, q.in_cluster)})", _legend(q, legend), instant=instant)


def _legend(q: Q, legend: str) -> str:
    return legend.replace("{{cluster}}", f"{{{{{q.cluster}}}}}")


def fleet_total(q: Q, record: str, legend: str) -> Query:
    return Query(f"sum(max by ({q.cluster}) ({q.rec(record, q.in_cluster)}))", legend)


def fleet_activity(q: Q) -> Query:
    """Activity over every activity unit of the fleet (a whole GPU, or one MIG instance), each cluster counted
    once across its HA replicas: ``fleet:gpu_activity:avg5m``'s formula, from the cluster rules."""
    total = f"sum(max by ({q.cluster}) ({q.rec('cluster:gpu_activity:sum5m', q.in_cluster)}))"
    units = f"sum(max by ({q.cluster}) ({q.rec('cluster:gpu_activity_units:count', q.in_cluster)}))"
    return Query(f"{total} / {units}", "activity")


def expected_gpus(q: Q) -> Query | None:
    """The GPUs each cluster should have according to the fleet spec: the inventory ``up`` cannot see (a node
    missing from service discovery is not a down target, it is simply absent)."""
    sides = [f'label_replace(vector({n}), "{q.cluster}", "{name}", "", "")' for name, n in q.options.expected_gpus]
    if not sides:
        return None
    return Query(" or ".join(sides), "expected (fleet spec)", instant=True)


def activity_signal(q: Q, name: str, field: str, label: str) -> Query | None:
    """``cluster:gpu_<name>:avg5m`` for a profiling signal, if the CSV collects its field."""
    if not q.has(field):
        return None
    query = per_cluster(q, f"cluster:gpu_{name}:avg5m", f"{{{{cluster}}}} {label}")
    return Query(query.expr, query.legend, fields=(field,))


def firing_alerts(q: Q, by: str) -> Query:
    """Firing alerts counted by ``by`` (owner, severity, alertname); 0 while nothing fires and the rules run."""
    return Query(
        f'count by ({q.cluster}, {by}) (ALERTS{{alertstate="firing",{q.in_cluster}}})',
        _legend(q, "{{cluster}} " + " ".join(f"{{{{{label.strip()}}}}}" for label in by.split(","))),
        fault="xid",
        zero=q.evaluating(q.in_cluster),
    )


def head_series(q: Q) -> Query:
    return Query(
        f"max by ({q.cluster}, instance) ({q.prom('prometheus_tsdb_head_series', q.in_cluster)})",
        _legend(q, "{{cluster}} {{instance}}"),
    )


def cluster_head_series(q: Q) -> Query:
    """The clusters table's column: the larger replica's head series per cluster."""
    return Query(
        f"max by ({q.cluster}) ({q.prom('prometheus_tsdb_head_series', q.in_cluster)})", "head series", instant=True
    )


def pages_firing(q: Q) -> Query:
    return Query(f'count(ALERTS{{alertstate="firing",severity="page",{q.in_cluster}}}) or vector(0)', "pages")
