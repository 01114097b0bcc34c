"""Shared GPUs: the PromQL of the per-pod and per-namespace memory and utilization panels, the noisy-neighbour
view and the memory held by no live pod (``dashboards/shared_gpus.py`` lays them out).

The series are the exporter's per-process attribution: ``gpuscope_gpu_process_*`` (``info`` mode) carry the
owner's labels (namespace/pod/container, ``hpc_job``, or ``process_name``/``user``) and the GPU's join keys.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries.workload import pod_by, pod_legend, pods

MEMORY = "gpuscope_gpu_process_memory_used_bytes"
UTILIZATION = "gpuscope_gpu_process_utilization_percent"
UNATTRIBUTED = "gpuscope_gpu_unattributed_memory_used_bytes"


def pod_memory(q: Q) -> Query:
    return Query(f"sum by ({pod_by(q)}) ({q.exporter(MEMORY, pods(q))})", pod_legend(q))


def namespace_memory(q: Q) -> Query:
    ns = q.c.namespace_label
    return Query(f"sum by ({ns}) ({q.exporter(MEMORY, pods(q))})", f"{{{{{ns}}}}}")


def pod_sm(q: Q) -> Query:
    util = q.exporter(UTILIZATION, pods(q), 'engine="sm"')
    return Query(f"sum by ({pod_by(q)}) ({util}) / 100", pod_legend(q))


def noisy_neighbours(q: Q) -> Query:
    """Each pod's share of the SM utilization of a GPU (or MIG instance) that more than one pod uses."""
    keys = f"{q.uuid}, GPU_I_ID"
    pod = q.c.pod_label
    util = q.exporter(UTILIZATION, q.in_cluster, 'engine="sm"')
    held = q.exporter(MEMORY, q.in_cluster, f'{pod}!=""')
    shared = f"count by ({keys}) (max by ({keys}, {pod_by(q)}) ({held})) > 1"
    return Query(
        f"sum by ({keys}, {pod_by(q)}) ({util})\n"
        f"  / on ({keys}) group_left sum by ({keys}) ({util})\n"
        f"  and on ({keys}) ({shared})",
        f"{pod_legend(q)} on {{{{{q.uuid}}}}} {{{{GPU_I_ID}}}}",
    )


def unattributed(q: Q, *matchers: str) -> Query:
    held = q.exporter(UNATTRIBUTED, q.in_cluster, *matchers)
    return Query(f"sum by ({q.gpu_by}) ({held})", f"{{{{{q.host}}}}} GPU {{{{gpu}}}}")


def gpu_owners(q: Q) -> Query:
    """L4: memory per owner on the selected GPU (pods, Slurm jobs, commands)."""
    c = q.c
    by = f"GPU_I_ID, {c.namespace_label}, {c.pod_label}, container, hpc_job, process_name"
    return Query(
        f"sum by ({by}) ({q.exporter(MEMORY, q.in_cluster, q.on_gpu)})",
        f"{{{{{c.namespace_label}}}}}/{{{{{c.pod_label}}}}}{{{{hpc_job}}}}{{{{process_name}}}} {{{{GPU_I_ID}}}}",
    )
