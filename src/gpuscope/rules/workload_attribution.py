"""Workload rollups from the Kubernetes attribution options: pod-label groups (a ``team`` label from the
exporter's allowlist), shared GPUs (``--kubernetes-virtual-gpus``) and DRA claims (``--kubernetes-enable-dra``).

Each exists only when its option is configured, so a default bundle is unchanged. In ``info`` mode the labels
are on ``gpuscope_gpu_workload_info`` and are joined to ``workload:gpu_activity:avg5m`` on the GPU and the pod; in
``labels`` mode they are on the GPU series themselves. The pod (or claim) side is collapsed with ``max by`` first,
so a pod holding several replicas of one GPU counts once and the join stays one-to-one. Series are bounded by
the groups (teams, claims), never by pods.
"""

from __future__ import annotations

from gpuscope.rules.model import Group, Recording
from gpuscope.rules.promql import Promql

DRA_CLAIM = ("dra_claim_namespace", "dra_claim_name")


def group_record(label: str, what: str) -> str:
    """The recorded series of one pod-label group, e.g. ``team:gpu_activity:avg5m``."""
    return f"{label}:{what}"


def _labelled(q: Promql, labels: str, present: str) -> str:
    """One series per (GPU or MIG instance, pod) carrying ``labels``, valued with the pod's activity."""
    c = q.config
    pod = f"{c.uuid_label}, GPU_I_ID, {c.namespace_label}, {c.pod_label}"
    if c.workload_labels == "info":
        info = q.exporter("gpuscope_gpu_workload_info", f'{present}!=""')
        return f"workload:gpu_activity:avg5m\n* on ({pod}) group_left ({labels})\nmax by ({pod}, {labels}) ({info})"
    return f'max by ({c.cluster_label}, {pod}, {labels}) (gpu:activity:avg5m{{{present}!=""}})'


def attribution_groups(q: Promql) -> tuple[Group, ...]:
    c = q.config
    if c.workload_labels == "off":
        return ()
    rules: list[Recording] = []
    for label in c.pod_group_labels:
        source = _labelled(q, label, label)
        rules += [
            Recording(
                record=group_record(label, "gpu_activity:avg5m"),
                expr=f"avg by ({c.cluster_label}, {label}) (\n{source}\n)",
            ),
            Recording(
                record=group_record(label, "gpus_allocated:count"),
                expr=f"count by ({c.cluster_label}, {label}) (\n{source}\n)",
            ),
        ]
    if c.virtual_gpus:
        pods = f"{c.cluster_label}, {c.uuid_label}, GPU_I_ID, {c.namespace_label}, {c.pod_label}"
        held = (
            q.exporter("gpuscope_gpu_workload_info")
            if c.workload_labels == "info"
            else f'gpu:activity:avg5m{{{c.pod_label}!=""}}'
        )
        rules.append(
            Recording(
                record="gpu:sharing_pods:count",
                expr=f"count by ({c.cluster_label}, {c.uuid_label}, GPU_I_ID) (max by ({pods}) ({held}))",
            )
        )
    if c.dra:
        claim = ", ".join(DRA_CLAIM)
        rules.append(
            Recording(
                record="dra_claim:gpu_activity:avg5m",
                expr=f"avg by ({c.cluster_label}, {claim}) (\n{_labelled(q, claim, DRA_CLAIM[1])}\n)",
            )
        )
    return (Group(name="gpuscope-attribution.rules", rules=tuple(rules)),) if rules else ()
