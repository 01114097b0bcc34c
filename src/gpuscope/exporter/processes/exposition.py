"""The per-process families (``--process-metrics``), and the per-pod split of ``labels`` mode (pure).

``info`` mode (and ``off``): one series per (GPU or MIG instance, owner) for memory and for each utilization engine
with a sample, labelled like ``gpuscope_gpu_workload_info`` (``gpu``, ``UUID``, ``GPU_I_ID`` for a MIG instance,
the host label) plus the owner's labels, so dashboards join the two on the same keys. Never a PID: a restarted
process keeps its series, and a pod restart adds one series per kind, not one per process.

dcgm-exporter's per-pod split (``labels_split``): with ``-k --kubernetes-virtual-gpus`` in ``info`` or ``labels``
mode (the processes are then read for it alone), and in ``labels`` mode with ``--process-metrics`` too.
``DCGM_FI_DEV_GPU_UTIL`` and ``DCGM_FI_DEV_FB_USED`` of a GPU (or MIG instance) the kubelet lists pods on are the
device's own series plus one per listed pod, valued with that pod's processes' sum (0 without any): in ``labels``
mode in place of the device series copied per pod, in ``info`` mode beside the device series, which keeps its
stable labels. The other fields are as without the split.

Both modes: per GPU the memory and count of processes that belong to no live owner (``unattributed``), and the
counts of unattributed processes by reason and of failed per-process reads since start.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from gpuscope.backends.base import Value
from gpuscope.exporter.attribution.labels import JOB_LABEL, Pairs, pod_label_names, split_variants
from gpuscope.exporter.attribution.resolve import Target, WorkloadLabels
from gpuscope.exporter.processes.attribute import ENGINES, Owner, ProcessView
from gpuscope.exporter.processes.cgroup import OwnerKind
from gpuscope.exporter.render import RenderConfig, Split
from gpuscope.exporter.snapshot import Snapshot
from gpuscope.exposition import COUNTER, GAUGE, family, general, integer, label, label_suffix, sample
from gpuscope.fields.ids import FieldId

MEMORY = "gpuscope_gpu_process_memory_used_bytes"
UTILIZATION = "gpuscope_gpu_process_utilization_percent"
UNATTRIBUTED_MEMORY = "gpuscope_gpu_unattributed_memory_used_bytes"
UNATTRIBUTED_PROCESSES = "gpuscope_gpu_unattributed_processes"
UNATTRIBUTED_TOTAL = "gpuscope_exporter_process_unattributed_total"
READ_FAILURES = "gpuscope_exporter_process_read_failures_total"
PROCESS_LABEL, USER_LABEL = "process_name", "user"


def owner_labels(owner: Owner, old_namespace: bool) -> str:
    """The owner's labels as text (leading comma), escaped."""
    pairs: tuple[tuple[str, str], ...]
    if owner.kind is OwnerKind.POD:
        container, namespace, pod = pod_label_names(old_namespace)
        pairs = ((container, owner.container), (namespace, owner.namespace), (pod, owner.pod))
    elif owner.kind is OwnerKind.CONTAINER:
        pairs = ((pod_label_names(old_namespace)[0], owner.container),)
    elif owner.kind is OwnerKind.SLURM:
        pairs = ((JOB_LABEL, owner.job),)
    else:
        pairs = ((PROCESS_LABEL, owner.name), (USER_LABEL, owner.user))
    return label_suffix(pairs)


def _heads(snapshot: Snapshot, config: RenderConfig) -> dict[Target, str]:
    """The join keys of every GPU and MIG instance, as the info series write them."""
    assert snapshot.reading is not None
    host = "," + label(config.host_label, config.hostname) if config.hostname is not None else ""
    heads: dict[Target, str] = {}
    for gpu in snapshot.reading.gpus:
        if gpu.lost:
            continue
        index = gpu.identity.index
        base = f'gpu="{index}",{label(config.uuid_label, gpu.identity.uuid)}'
        heads[(index, None)] = base + host
        for inst in gpu.instances:
            gi = inst.identity.gpu_instance_id
            heads[(index, gi)] = f'{base},GPU_I_ID="{gi}"{host}'
    return heads


def render_processes(snapshot: Snapshot, config: RenderConfig) -> str:
    """The per-process families; empty unless ``--process-metrics`` is on and there is a reading."""
    view = snapshot.processes
    if view is None or snapshot.reading is None:
        return ""
    if not view.families:  # read for the split of --kubernetes-virtual-gpus only
        return ""
    heads = _heads(snapshot, config)
    out: list[str] = []
    if config.workload_labels is not WorkloadLabels.LABELS:
        out.append(_owner_families(view, heads, config))
    memory, count = [], []
    for index, left in sorted(view.usage.unattributed.items()):
        head = heads.get((index, None))
        if head is not None:
            memory.append(sample(UNATTRIBUTED_MEMORY, head, integer(left.memory_bytes)))
            count.append(sample(UNATTRIBUTED_PROCESSES, head, integer(left.processes)))
    out.append(
        family(
            UNATTRIBUTED_MEMORY,
            GAUGE,
            "GPU memory held by processes that belong to no live container, job or command (bytes).",
            memory,
        )
    )
    out.append(family(UNATTRIBUTED_PROCESSES, GAUGE, "Processes on the GPU that belong to no live owner.", count))
    reasons = [
        sample(UNATTRIBUTED_TOTAL, label("reason", r.value), integer(n)) for r, n in view.unattributed_total.items()
    ]
    out.append(
        family(
            UNATTRIBUTED_TOTAL,
            COUNTER,
            "Process readings (one per process and collection) that could not be attributed, by reason.",
            reasons,
        )
    )
    out.append(
        family(
            READ_FAILURES,
            COUNTER,
            "Per-process NVML readings that failed (a busy or resetting GPU).",
            [sample(READ_FAILURES, "", integer(view.read_failures_total))],
        )
    )
    return "".join(out)


def _owner_families(view: ProcessView, heads: Mapping[Target, str], config: RenderConfig) -> str:
    memory: list[str] = []
    util: list[str] = []
    for usage in view.usage.owners:
        head = heads.get(usage.target)
        if head is None:
            continue
        labels = head + owner_labels(usage.owner, config.old_namespace)
        memory.append(sample(MEMORY, labels, integer(usage.memory_bytes)))
        util.extend(
            sample(UTILIZATION, labels + label_suffix((("engine", engine),)), general(usage.utilization[engine]))
            for engine in ENGINES
            if engine in usage.utilization
        )
    return family(
        MEMORY,
        GAUGE,
        "GPU memory used by the processes of one container, job or command on the GPU or MIG instance (bytes).",
        memory,
    ) + family(
        UTILIZATION,
        GAUGE,
        "Utilization of a GPU engine by the processes of one owner since the last collection (percent).",
        util,
    )


def labels_split(snapshot: Snapshot, config: RenderConfig) -> Split:
    """Per target the kubelet lists pods on, the series of GPU_UTIL and FB_USED, as dcgm-exporter's per-pod split
    writes them: the device's own series first (no pod labels, the device's value), then one per listed pod
    (``split_variants``), valued with the sum over that pod's processes on the target, 0 for a pod with none. A
    process of a pod the kubelet does not list on the target counts for no series there, and a target nobody is
    listed on keeps its device series alone. Empty unless the split is on (``--kubernetes-virtual-gpus``) or the
    mode is ``labels``; ``info`` mode's series are the same as ``labels`` mode's, so a dcgm-exporter command line
    (no ``--workload-labels``) gets dcgm-exporter's split series."""
    view = snapshot.processes
    if view is None or snapshot.reading is None:
        return {}
    if not view.split and config.workload_labels is not WorkloadLabels.LABELS:
        return {}
    shares: dict[tuple[Target, str, str], tuple[int, int]] = {}  # (target, namespace, pod) -> (MiB, SM %)
    for usage in view.usage.owners:
        if usage.owner.kind is not OwnerKind.POD:
            continue
        key = (usage.target, usage.owner.namespace, usage.owner.pod)
        summed_mib, summed_sm = shares.get(key, (0, 0))
        shares[key] = (summed_mib + usage.fb_used_mib, summed_sm + usage.sm_util)
    lost = {gpu.identity.index for gpu in snapshot.reading.gpus if gpu.lost}
    uids = snapshot.attribution.pod_uids
    split: dict[Target, dict[int, tuple[tuple[Pairs, Value | None], ...]]] = {}
    for target, assignment in snapshot.attribution.targets.items():
        if not assignment.pods or target[0] in lost:
            continue
        memory: list[tuple[Pairs, Value | None]] = [((), None)]  # None: the device's own value
        util: list[tuple[Pairs, Value | None]] = [((), None)]
        for (namespace, pod), pairs in split_variants(assignment, config.old_namespace, uids):
            mib, sm = shares.get((target, namespace, pod), (0, 0))
            memory.append((pairs, mib))
            util.append((pairs, sm))
        split[target] = {FieldId.DCGM_FI_DEV_FB_USED: tuple(memory), FieldId.DCGM_FI_DEV_GPU_UTIL: tuple(util)}
    return split


def series_names() -> Iterator[str]:
    """Every family this module can write (the budget and docs list them)."""
    yield from (MEMORY, UTILIZATION, UNATTRIBUTED_MEMORY, UNATTRIBUTED_PROCESSES, UNATTRIBUTED_TOTAL, READ_FAILURES)
