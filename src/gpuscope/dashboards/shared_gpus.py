"""Shared GPUs (``exporter.process_metrics``): per-namespace and per-pod GPU memory and utilization on GPUs that
several pods share (time-slicing, MPS, MIG), a noisy-neighbour view, memory held by no live pod; an L5 row and an
L4 panel.

The series come from the exporter's per-process attribution: ``gpuscope_gpu_process_*`` (``info`` mode) carry the
owner's labels (namespace/pod/container, ``hpc_job``, or ``process_name``/``user``) and the GPU's join keys; in
``labels`` mode the per-pod split lives on ``DCGM_FI_DEV_FB_USED``/``GPU_UTIL`` themselves, which L5's pod row
already shows, so only the unattributed memory is added here.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Panel, Query, Row
from gpuscope.dashboards.model import one_query_timeseries as _ts
from gpuscope.dashboards.promql import Q

MEMORY = "gpuscope_gpu_process_memory_used_bytes"
UTILIZATION = "gpuscope_gpu_process_utilization_percent"
UNATTRIBUTED = "gpuscope_gpu_unattributed_memory_used_bytes"


def _on(q: Q) -> bool:
    return q.options.process_metrics


def _pods(q: Q) -> str:
    c = q.c
    return f'{q.in_cluster},{c.namespace_label}=~"$namespace",{c.pod_label}=~"$pod"'


def _pod_by(q: Q) -> str:
    return f"{q.c.namespace_label}, {q.c.pod_label}"


def _legend(q: Q) -> str:
    return f"{{{{{q.c.namespace_label}}}}}/{{{{{q.c.pod_label}}}}}"


def pod_memory(q: Q) -> Query:
    return Query(f"sum by ({_pod_by(q)}) ({q.exporter(MEMORY, _pods(q))})", _legend(q))


def namespace_memory(q: Q) -> Query:
    ns = q.c.namespace_label
    return Query(f"sum by ({ns}) ({q.exporter(MEMORY, _pods(q))})", f"{{{{{ns}}}}}")


def pod_sm(q: Q) -> Query:
    util = q.exporter(UTILIZATION, _pods(q), 'engine="sm"')
    return Query(f"sum by ({_pod_by(q)}) ({util}) / 100", _legend(q))


def noisy_neighbours(q: Q) -> Query:
    """Each pod's share of the SM utilization of a GPU (or MIG instance) that more than one pod uses."""
    keys = f"{q.uuid}, GPU_I_ID"
    pod = q.c.pod_label
    util = q.exporter(UTILIZATION, q.in_cluster, 'engine="sm"')
    held = q.exporter(MEMORY, q.in_cluster, f'{pod}!=""')
    shared = f"count by ({keys}) (max by ({keys}, {_pod_by(q)}) ({held})) > 1"
    return Query(
        f"sum by ({keys}, {_pod_by(q)}) ({util})\n"
        f"  / on ({keys}) group_left sum by ({keys}) ({util})\n"
        f"  and on ({keys}) ({shared})",
        f"{_legend(q)} on {{{{{q.uuid}}}}} {{{{GPU_I_ID}}}}",
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


def l5_row(q: Q) -> Row | None:
    """The L5 row; ``None`` without process metrics."""
    if not _on(q):
        return None
    held = _ts(
        "GPU memory held by no live pod",
        unattributed(q),
        "bytes",
        "Processes whose pod is gone (zombies), or that the exporter cannot attribute; "
        "GPUMemoryHeldByNoPod alerts on it.",
    )
    if q.c.workload_labels == "labels":
        return Row("Shared GPUs", (held,))
    return Row(
        "Shared GPUs",
        (
            _ts("GPU memory per pod", pod_memory(q), "bytes", "Summed over the pod's processes on every GPU."),
            _ts("GPU memory per namespace", namespace_memory(q), "bytes", "Summed over the namespace's pods."),
            _ts(
                "SM utilization per pod",
                pod_sm(q),
                "percentunit",
                "From per-process samples: the pod's own share of the GPU, not the whole GPU's utilization.",
                bounded=True,
            ),
            _ts(
                "Noisy neighbours: share of a shared GPU",
                noisy_neighbours(q),
                "percentunit",
                "Each pod's share of the SM utilization of a GPU (or MIG instance) more than one pod uses.",
                bounded=True,
            ),
            held,
        ),
    )


def l4_panel(q: Q) -> Panel | None:
    """The L4 panel; ``None`` without process metrics or in labels mode."""
    if not _on(q) or q.c.workload_labels == "labels":
        return None
    return Panel(
        "GPU memory by owner",
        "timeseries",
        (gpu_owners(q),),
        unit="bytes",
        description="Per-process memory of this GPU summed per pod, Slurm job or command (MIG instances apart).",
        width=12,
    )
