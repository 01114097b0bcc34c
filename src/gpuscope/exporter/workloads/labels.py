"""Label names and label sets of workload attribution (pure; escaping happens in the renderers)."""

from __future__ import annotations

from gpuscope.exporter.workloads.model import Assignment

# (name, value) pairs in byte order, as dcgm-exporter sorts its attributes.
Pairs = tuple[tuple[str, str], ...]
NO_ATTRIBUTES: tuple[Pairs, ...] = ((),)

POD_LABELS = ("container", "namespace", "pod")
POD_LABELS_OLD = ("container_name", "pod_namespace", "pod_name")  # -o/--use-old-namespace (dcgm-exporter 1.x)
JOB_LABEL = "hpc_job"


def pod_label_names(old_namespace: bool) -> tuple[str, str, str]:
    """(container, namespace, pod) label names."""
    return POD_LABELS_OLD if old_namespace else POD_LABELS


def attribute_variants(assignment: Assignment | None, old_namespace: bool) -> tuple[Pairs, ...]:
    """The attribute sets a target's series carry in ``labels`` mode: one series per set.

    As dcgm-exporter: one pod per device (the last one the kubelet lists wins) and every series duplicated once
    per HPC job. A target nobody holds keeps its series without attribute labels.
    """
    if assignment is None:
        return NO_ATTRIBUTES
    pod: Pairs = ()
    if assignment.pods:
        workload = assignment.pods[-1]
        container, namespace, name = pod_label_names(old_namespace)
        pod = ((container, workload.container), (namespace, workload.namespace), (name, workload.pod))
    if not assignment.jobs:
        return (tuple(sorted(pod)),)
    return tuple(tuple(sorted((*pod, (JOB_LABEL, job)))) for job in assignment.jobs)
