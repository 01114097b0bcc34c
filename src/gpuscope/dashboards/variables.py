"""Template variables, each defined once and shared by every dashboard that scopes by it.

Each variable narrows the one before it (cluster → node → GPU → MIG instance; cluster → namespace → pod), so a
drill-down link only has to set the level it clicks on. ``cluster`` offers "All" (``.*``): a cluster-local
Prometheus has no ``cluster`` label (it is an external label, added on federation and remote write), and ``.*``
also matches a missing label, so the same dashboards work on a single Prometheus and on the global store.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Variable
from gpuscope.dashboards.promql import PRESENCE, Q


def cluster(q: Q) -> Variable:
    return Variable("cluster", "Cluster", f"label_values({q.p.up}, {q.cluster})", include_all=True, multi=True)


def node(q: Q) -> Variable:
    return Variable("node", "Node", f"label_values({q.dcgm(PRESENCE, q.in_cluster)}, {q.host})")


def gpu(q: Q) -> Variable:
    return Variable("gpu", "GPU (UUID)", f"label_values({q.dcgm(PRESENCE, q.on_node)}, {q.uuid})")


def mig(q: Q) -> Variable:
    """The GPU's MIG instances; "All" on a GPU without MIG (its series have no ``GPU_I_ID``)."""
    return Variable("mig", "MIG instance", f"label_values({q.dcgm(PRESENCE, q.on_gpu)}, GPU_I_ID)", include_all=True)


def namespace(q: Q) -> Variable:
    c = q.c
    return Variable(
        "namespace",
        "Namespace",
        f"label_values({q.rec('workload:gpu_activity:avg5m', q.in_cluster)}, {c.namespace_label})",
        include_all=True,
        multi=True,
    )


def pod(q: Q) -> Variable:
    c = q.c
    scope = f'{q.in_cluster},{c.namespace_label}=~"$namespace"'
    return Variable(
        "pod",
        "Pod",
        f"label_values({q.rec('workload:gpu_activity:avg5m', scope)}, {c.pod_label})",
        include_all=True,
        multi=True,
    )


def job_id(q: Q) -> Variable:
    return Variable(
        "job_id",
        "Job",
        f"label_values({q.jobs('gpuscope_job_info', q.in_cluster)}, job_id)",
        include_all=True,
        multi=True,
    )
