"""Workload rollups from the Kubernetes attribution options: pod-label groups (a ``team`` label from the
exporter's allowlist), shared GPUs (``--kubernetes-virtual-gpus``) and DRA claims (``--kubernetes-enable-dra``).

Each exists only when its option is configured, so a default bundle is unchanged. In ``info`` mode the labels
are on ``gpuscope_gpu_workload_info``, in ``labels`` mode on the GPU series themselves; either way they are joined
to the per-holder records (``workload:gpu_held:ratio``, ``workload:gpu_active:ratio``) on the GPU and the pod, so a
group's GPUs are counted in the accounting unit (a shared GPU's holders split it) and its activity is weighted by
them. The label side is collapsed with ``group by`` first, so the join stays one-to-one. Series are bounded by
the groups (teams, claims), never by pods.
"""

from __future__ import annotations

from gpuscope.ruleconfig.groups import GROUP_RECORDS, group_record
from gpuscope.rules.promql import Promql
from gpuscope.rules.recording import HELD, HELD_ACTIVE
from gpuscope.rules.records import Group, Recording

DRA_CLAIM = ("dra_claim_namespace", "dra_claim_name")


def _labelled(q: Promql, record: str, labels: str, present: str) -> str:
    """``record`` (one series per unit and pod: its held share, or held x activity) labelled with ``labels`` from
    the pod's info series (``info`` mode) or from the GPU series' own pod labels (``labels`` mode)."""
    c = q.config
    pod = f"{c.uuid_label}, GPU_I_ID, {c.namespace_label}, {c.pod_label}"
    if c.workload_labels == "info":
        source = q.exporter("gpuscope_gpu_workload_info", f'{present}!=""')
    else:
        source = f'gpu:activity:avg5m{{{present}!=""}}'
    return f"{record}\n* on ({pod}) group_left ({labels})\ngroup by ({pod}, {labels}) ({source})"


def _per_group(q: Promql, by: str, labels: str, present: str) -> tuple[str, str]:
    """(activity, GPUs held) of each group: held GPU-equivalents, and activity weighted by them."""
    held = f"sum by ({by}) (\n{_labelled(q, HELD, labels, present)}\n)"
    active = f"sum by ({by}) (\n{_labelled(q, HELD_ACTIVE, labels, present)}\n)"
    return f"{active}\n/\n{held}", held


def attribution_groups(q: Promql) -> tuple[Group, ...]:
    c = q.config
    if c.workload_labels == "off":
        return ()
    rules: list[Recording] = []
    for label in c.pod_group_labels:
        activity, held = _per_group(q, f"{c.cluster_label}, {label}", label, label)
        rules += [
            Recording(record=group_record(label, GROUP_RECORDS[0]), expr=activity),
            Recording(record=group_record(label, GROUP_RECORDS[1]), expr=held),
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
        activity, _ = _per_group(q, f"{c.cluster_label}, {claim}", claim, DRA_CLAIM[1])
        rules.append(Recording(record="dra_claim:gpu_activity:avg5m", expr=activity))
    return (Group(name="gpuscope-attribution.rules", rules=tuple(rules)),) if rules else ()
