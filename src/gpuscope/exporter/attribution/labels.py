"""Label names and label sets of workload attribution (pure; escaping happens in the renderers)."""

from __future__ import annotations

from collections.abc import Mapping

from gpuscope.exporter.attribution.resolve import Assignment, Pairs, Workload
from gpuscope.fields.labels import JOB_LABEL, POD_LABELS, POD_LABELS_OLD, POD_UID_LABEL, VGPU_LABEL

NO_ATTRIBUTES: tuple[Pairs, ...] = ((),)


__all__ = [
    "JOB_LABEL",
    "NO_ATTRIBUTES",
    "POD_UID_LABEL",
    "VGPU_LABEL",
    "Pairs",
    "attribute_variants",
    "extra_pairs",
    "pod_label_names",
    "sections",
    "split_variants",
]


# dcgm-exporter's attributes (internal/pkg/transformation/const.go): written after the labels, in their own
# byte-sorted run. A pod's own labels are not among them: dcgm-exporter puts those with the label fields
# (``kubernetes.go``: ``Labels[k] = v``), which its template writes first (rendermetrics/render_metrics.go).
_ATTRIBUTES = frozenset({*POD_LABELS, *POD_LABELS_OLD, JOB_LABEL, POD_UID_LABEL, VGPU_LABEL})


def sections(pairs: Pairs) -> tuple[Pairs, Pairs]:
    """An attribute set as dcgm-exporter writes it: (the pod's labels, which join the label fields; the
    attributes: ``container``, ``namespace``, ``pod``, ``pod_uid``, ``vgpu``, ``dra_*``, ``hpc_job``)."""
    pod = tuple(p for p in pairs if p[0] not in _ATTRIBUTES and not p[0].startswith("dra_"))
    if not pod:
        return (), pairs
    return pod, tuple(p for p in pairs if p not in pod)


def pod_label_names(old_namespace: bool) -> tuple[str, str, str]:
    """(container, namespace, pod) label names."""
    return POD_LABELS_OLD if old_namespace else POD_LABELS


def extra_pairs(workload: Workload) -> Pairs:
    """What the API server, shared GPUs and DRA add to a workload's identity: ``pod_uid``, ``vgpu``, the pod's
    allowed labels and the ``dra_*`` claim labels (empty values left out: an empty label is no label)."""
    pairs = [*workload.labels, *workload.dra]
    if workload.uid:
        pairs.append((POD_UID_LABEL, workload.uid))
    if workload.vgpu:
        pairs.append((VGPU_LABEL, workload.vgpu))
    return tuple(sorted(pairs))


def attribute_variants(assignment: Assignment | None, old_namespace: bool) -> tuple[Pairs, ...]:
    """The attribute sets a target's series carry in ``labels`` mode: one series per set.

    As dcgm-exporter: one pod per device (the last one the kubelet lists wins), except with
    ``--kubernetes-virtual-gpus``, where every sharing pod (replica) gets its own copy with a ``vgpu`` label; and
    every series duplicated once per HPC job. A target nobody holds keeps its series without attribute labels.
    """
    if assignment is None:
        return NO_ATTRIBUTES
    container, namespace, name = pod_label_names(old_namespace)
    holders = assignment.pods
    if holders and any(w.vgpu is None for w in holders):
        holders = holders[-1:]
    pods: list[Pairs] = [
        ((container, w.container), (namespace, w.namespace), (name, w.pod), *extra_pairs(w)) for w in holders
    ] or [()]
    if not assignment.jobs:
        return tuple(tuple(sorted(pod)) for pod in pods)
    return tuple(tuple(sorted((*pod, (JOB_LABEL, job)))) for pod in pods for job in assignment.jobs)


def split_variants(
    assignment: Assignment, old_namespace: bool, uids: Mapping[tuple[str, str], str]
) -> tuple[tuple[tuple[str, str], Pairs], ...]:
    """The per-pod series of a split field (GPU_UTIL, FB_USED) on one target: ((namespace, pod), attribute set).

    As dcgm-exporter's ``createPerProcessMetrics``: one series per pod the kubelet lists on the target (every
    sharing pod and replica with ``--kubernetes-virtual-gpus``), each with ``pod_uid`` whether or not
    ``--kubernetes-enable-pod-uid`` is on (``uids``: the watch's; none while the pod is not in it) and ``vgpu``
    where the pod holds a replica; the pod's labels and ``hpc_job`` as on its other series.
    """
    container, namespace, name = pod_label_names(old_namespace)
    out: list[tuple[tuple[str, str], Pairs]] = []
    for w in assignment.pods:
        extra = dict(extra_pairs(w))
        uid = w.uid or uids.get((w.namespace, w.pod), "")
        if uid:
            extra[POD_UID_LABEL] = uid
        base = ((container, w.container), (namespace, w.namespace), (name, w.pod), *extra.items())
        variants = [base] if not assignment.jobs else [(*base, (JOB_LABEL, job)) for job in assignment.jobs]
        out.extend(((w.namespace, w.pod), tuple(sorted(pairs))) for pairs in variants)
    return tuple(out)
