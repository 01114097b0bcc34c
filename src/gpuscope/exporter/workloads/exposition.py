"""The ``info`` mode families: one series per allocation, joined to GPU series at query time.

A pod restart adds one ``gpuscope_gpu_workload_info`` series instead of a new copy of every GPU series (the "pod
churn cardinality bomb", docs/architecture.md). The info series carries the GPU series' join keys: ``UUID`` (``uuid``
with ``-o``), ``gpu``, the host label, and ``GPU_I_ID`` for a MIG instance only — like the GPU series, whose
``GPU_I_ID`` is absent unless they describe a MIG instance, so ``on(UUID, GPU_I_ID)`` matches both kinds.
After ``container``/``namespace``/``pod`` come, byte-sorted, what the API server, shared GPUs and DRA add: the
pod's allowed labels, ``pod_uid``, ``vgpu`` (one series per replica a pod holds) and the ``dra_*`` labels.
"""

from __future__ import annotations

from gpuscope.exporter.render import RenderConfig, escape
from gpuscope.exporter.snapshot import Snapshot
from gpuscope.exporter.workloads.labels import JOB_LABEL, extra_pairs, pod_label_names
from gpuscope.exporter.workloads.model import WorkloadLabels, WorkloadStatus

WORKLOAD_INFO = "gpuscope_gpu_workload_info"
JOB_INFO = "gpuscope_gpu_job_info"


def render_workload_info(snapshot: Snapshot, config: RenderConfig) -> str:
    """The info families of a snapshot; empty unless ``--workload-labels info`` and something is allocated."""
    if config.workload_labels is not WorkloadLabels.INFO or snapshot.reading is None:
        return ""
    uuids = {gpu.identity.index: gpu.identity.uuid for gpu in snapshot.reading.gpus}
    host = f',{config.host_label}="{escape(config.hostname)}"' if config.hostname is not None else ""
    container, namespace, pod = pod_label_names(config.old_namespace)
    pods: list[str] = []
    jobs: list[str] = []
    for (index, gi), assignment in snapshot.attribution.targets.items():
        uuid = uuids.get(index)
        if uuid is None:
            continue
        instance = "" if gi is None else f',GPU_I_ID="{gi}"'
        head = f'gpu="{index}",{config.uuid_label}="{escape(uuid)}"{instance}{host}'
        pods.extend(
            f'{WORKLOAD_INFO}{{{head},{container}="{escape(w.container)}",{namespace}="{escape(w.namespace)}"'
            f',{pod}="{escape(w.pod)}"{_pairs(extra_pairs(w))}}} 1\n'
            for w in assignment.pods
        )
        jobs.extend(f'{JOB_INFO}{{{head},{JOB_LABEL}="{escape(job)}"}} 1\n' for job in assignment.jobs)
    return _family(
        WORKLOAD_INFO, "Kubernetes container holding the GPU or MIG instance (join on UUID and GPU_I_ID).", pods
    ) + _family(JOB_INFO, "HPC (Slurm) job running on the GPU or MIG instance (join on UUID and GPU_I_ID).", jobs)


def _pairs(pairs: tuple[tuple[str, str], ...]) -> str:
    return "".join(f',{name}="{escape(value)}"' for name, value in pairs)


def _family(name: str, help_text: str, lines: list[str]) -> str:
    if not lines:
        return ""
    return f"# HELP {name} {help_text}\n# TYPE {name} gauge\n" + "".join(lines)


def render_api_status(status: WorkloadStatus) -> str:
    """The API server watch self-metrics: up, failures by reason, objects cached, requests made (per resource)."""
    if not status.api:
        return ""
    up: list[str] = []
    errors: list[str] = []
    objects: list[str] = []
    requests: list[str] = []
    for api in status.api:
        res = f'resource="{escape(api.resource)}"'
        up.append(f"gpuscope_exporter_kubernetes_api_up{{{res}}} {int(api.up)}\n")
        errors.extend(
            f'gpuscope_exporter_kubernetes_api_errors_total{{{res},reason="{escape(reason)}"}} {count}\n'
            for reason, count in api.errors
        )
        objects.append(f"gpuscope_exporter_kubernetes_api_objects{{{res}}} {api.objects}\n")
        requests.append(f"gpuscope_exporter_kubernetes_api_requests_total{{{res}}} {api.requests}\n")
    return (
        _typed(
            "gpuscope_exporter_kubernetes_api_up",
            "gauge",
            "1 if the last list or watch of this resource on the API server succeeded (pod labels/UID, DRA).",
            up,
        )
        + _typed(
            "gpuscope_exporter_kubernetes_api_errors_total",
            "counter",
            "Failed API server requests by reason (unreachable, unauthorized, forbidden, expired, timeout, ...).",
            errors,
        )
        + _typed("gpuscope_exporter_kubernetes_api_objects", "gauge", "Objects in the watch cache.", objects)
        + _typed(
            "gpuscope_exporter_kubernetes_api_requests_total",
            "counter",
            "HTTP requests made to the API server (lists and watches) since start.",
            requests,
        )
    )


def _typed(name: str, kind: str, help_text: str, lines: list[str]) -> str:
    if not lines:
        return ""
    return f"# HELP {name} {help_text}\n# TYPE {name} {kind}\n" + "".join(lines)
