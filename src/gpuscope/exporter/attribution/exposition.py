"""The ``info`` mode families: one series per allocation, joined to GPU series at query time.

A pod restart adds one ``gpuscope_gpu_workload_info`` series instead of a new copy of every GPU series (the "pod
churn cardinality bomb", docs/architecture.md). The info series carries the GPU series' join keys: ``UUID`` (``uuid``
with ``-o``), ``gpu``, the host label, and ``GPU_I_ID`` for a MIG instance only — like the GPU series, whose
``GPU_I_ID`` is absent unless they describe a MIG instance, so ``on(UUID, GPU_I_ID)`` matches both kinds.
After ``container``/``namespace``/``pod`` come, byte-sorted, what the API server, shared GPUs and DRA add: the
pod's allowed labels, ``pod_uid``, ``vgpu`` (one series per replica a pod holds) and the ``dra_*`` labels.
"""

from __future__ import annotations

from gpuscope.exporter.attribution.labels import JOB_LABEL, extra_pairs, pod_label_names
from gpuscope.exporter.attribution.resolve import WorkloadLabels, WorkloadStatus
from gpuscope.exporter.render import RenderConfig
from gpuscope.exporter.snapshot import Snapshot
from gpuscope.exposition import COUNTER, GAUGE, family, integer, label, label_suffix, sample

WORKLOAD_INFO = "gpuscope_gpu_workload_info"
JOB_INFO = "gpuscope_gpu_job_info"
API_UP = "gpuscope_exporter_kubernetes_api_up"
API_ERRORS = "gpuscope_exporter_kubernetes_api_errors_total"
API_OBJECTS = "gpuscope_exporter_kubernetes_api_objects"
API_REQUESTS = "gpuscope_exporter_kubernetes_api_requests_total"


def render_workload_info(snapshot: Snapshot, config: RenderConfig) -> str:
    """The info families of a snapshot; empty unless ``--workload-labels info`` and something is allocated."""
    if config.workload_labels is not WorkloadLabels.INFO or snapshot.reading is None:
        return ""
    uuids = {gpu.identity.index: gpu.identity.uuid for gpu in snapshot.reading.gpus}
    host = "," + label(config.host_label, config.hostname) if config.hostname is not None else ""
    container, namespace, pod = pod_label_names(config.old_namespace)
    pods: list[str] = []
    jobs: list[str] = []
    for (index, gi), assignment in snapshot.attribution.targets.items():
        uuid = uuids.get(index)
        if uuid is None:
            continue
        instance = "" if gi is None else f',GPU_I_ID="{gi}"'
        head = f'gpu="{index}",{label(config.uuid_label, uuid)}{instance}{host}'
        pods.extend(
            sample(
                WORKLOAD_INFO,
                head
                + label_suffix(((container, w.container), (namespace, w.namespace), (pod, w.pod), *extra_pairs(w))),
                "1",
            )
            for w in assignment.pods
        )
        jobs.extend(sample(JOB_INFO, head + label_suffix(((JOB_LABEL, job),)), "1") for job in assignment.jobs)
    return family(
        WORKLOAD_INFO,
        GAUGE,
        "Kubernetes container holding the GPU or MIG instance (join on UUID and GPU_I_ID).",
        pods,
    ) + family(JOB_INFO, GAUGE, "HPC (Slurm) job running on the GPU or MIG instance (join on UUID and GPU_I_ID).", jobs)


def render_api_status(status: WorkloadStatus) -> str:
    """The API server watch self-metrics: up, failures by reason, objects cached, requests made (per resource)."""
    if not status.api:
        return ""
    up: list[str] = []
    errors: list[str] = []
    objects: list[str] = []
    requests: list[str] = []
    for api in status.api:
        res = label("resource", api.resource)
        up.append(sample(API_UP, res, integer(api.up)))
        errors.extend(
            sample(API_ERRORS, res + label_suffix((("reason", reason),)), integer(count))
            for reason, count in api.errors
        )
        objects.append(sample(API_OBJECTS, res, integer(api.objects)))
        requests.append(sample(API_REQUESTS, res, integer(api.requests)))
    return (
        family(
            API_UP,
            GAUGE,
            "1 if the last list or watch of this resource on the API server succeeded (pod labels/UID, DRA).",
            up,
        )
        + family(
            API_ERRORS,
            COUNTER,
            "Failed API server requests by reason (unreachable, unauthorized, forbidden, expired, timeout, ...).",
            errors,
        )
        + family(API_OBJECTS, GAUGE, "Objects in the watch cache.", objects)
        + family(
            API_REQUESTS,
            COUNTER,
            "HTTP requests made to the API server (lists and watches) since start.",
            requests,
        )
    )
