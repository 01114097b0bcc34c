"""Shared GPUs (``exporter.process_metrics``): per-namespace and per-pod GPU memory and utilization on GPUs that
several pods share (time-slicing, MPS, MIG), a noisy-neighbour view, memory held by no live pod; an L5 row and an
L4 panel.

The series come from the exporter's per-process attribution: ``gpuscope_gpu_process_*`` (``info`` mode) carry the
owner's labels (namespace/pod/container, ``hpc_job``, or ``process_name``/``user``) and the GPU's join keys; in
``labels`` mode the per-pod split lives on ``DCGM_FI_DEV_FB_USED``/``GPU_UTIL`` themselves, which L5's pod row
already shows, so only the unattributed memory is added here.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Panel, Row
from gpuscope.dashboards.model import one_query_timeseries as _ts
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries.shared_gpus import (
    gpu_owners,
    namespace_memory,
    noisy_neighbours,
    pod_memory,
    pod_sm,
    unattributed,
)


def _on(q: Q) -> bool:
    return q.options.process_metrics


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
