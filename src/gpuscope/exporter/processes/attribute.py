"""Processes → owners → per-owner sums on each GPU or MIG instance (pure).

An owner is a Kubernetes container (namespace, pod, container), a container outside Kubernetes, a Slurm job or a
plain process (command name and user): never a PID, so a restarted process keeps its series. A pod's process is
named through its pod UID (``pods``: a pod directory or an API-server watch); without a UID source it is named
through the kubelet's device list when exactly one pod holds its GPU. What cannot be named goes to the GPU's
``unattributed`` sum, with the reason counted: the zombie case (a process holding memory after its pod was
deleted) is ``pod_gone``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from gpuscope.backends.base import GpuProcess, GpuReading
from gpuscope.exporter.attribution.resolve import Attribution, Target
from gpuscope.exporter.processes.cgroup import OwnerKind
from gpuscope.exporter.processes.pods import PodRef
from gpuscope.exporter.processes.procfs import ProcInfo, Unattributed

ENGINES = ("sm", "memory", "encoder", "decoder")


@dataclass(frozen=True, slots=True, order=True)
class Owner:
    """Who a process belongs to; the fields that matter depend on ``kind``."""

    kind: OwnerKind
    namespace: str = ""
    pod: str = ""
    container: str = ""
    job: str = ""
    name: str = ""
    user: str = ""


@dataclass(frozen=True, slots=True)
class OwnerUsage:
    """One owner's processes on one GPU or MIG instance, summed."""

    target: Target
    owner: Owner
    memory_bytes: int
    processes: int
    utilization: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))  # engine -> percent
    # As dcgm-exporter's per-pod split counts them: each process's memory floored to MiB, then summed; each
    # process's SM percent (NVML's integer sample) summed, uncapped.
    fb_used_mib: int = 0
    sm_util: int = 0


@dataclass(frozen=True, slots=True)
class Leftover:
    """The processes of one GPU that belong to no live owner."""

    memory_bytes: int = 0
    processes: int = 0


@dataclass(frozen=True, slots=True)
class ProcessUsage:
    """One collection's per-process view of the node."""

    owners: tuple[OwnerUsage, ...] = ()
    unattributed: Mapping[int, Leftover] = field(default_factory=lambda: MappingProxyType({}))  # by GPU index
    reasons: Mapping[Unattributed, int] = field(default_factory=lambda: MappingProxyType({}))  # this collection


def _target(gpu: GpuReading, process: GpuProcess) -> Target:
    index = gpu.identity.index
    gi = process.gpu_instance_id
    if gi is not None and any(i.identity.gpu_instance_id == gi for i in gpu.instances):
        return (index, gi)
    return (index, None)


def _pod_owner(
    info: ProcInfo, target: Target, pods: Mapping[str, PodRef] | None, kubelet: Attribution, kubelet_on: bool
) -> Owner | Unattributed:
    assert info.owner is not None
    held = kubelet.targets.get(target)
    holders = held.pods if held is not None else ()
    if pods is not None:
        ref = pods.get(info.owner.pod_uid)
        if ref is None:
            return Unattributed.POD_GONE
        named = [w.container for w in holders if (w.namespace, w.pod) == (ref.namespace, ref.name)]
        container = named[-1] if named else (ref.containers[0] if len(ref.containers) == 1 else "")
        return Owner(OwnerKind.POD, namespace=ref.namespace, pod=ref.name, container=container)
    if not kubelet_on:
        return Unattributed.NO_POD_SOURCE
    distinct = {(w.namespace, w.pod): w for w in holders}
    if not distinct:
        return Unattributed.POD_GONE
    if len(distinct) > 1:
        return Unattributed.POD_AMBIGUOUS
    (only,) = distinct.values()
    return Owner(OwnerKind.POD, namespace=only.namespace, pod=only.pod, container=only.container)


def owner_of(
    info: ProcInfo, target: Target, pods: Mapping[str, PodRef] | None, kubelet: Attribution, kubelet_on: bool
) -> Owner | Unattributed:
    """The owner of one process on ``target``, or why there is none."""
    if info.reason is not None or info.owner is None:
        return info.reason or Unattributed.UNKNOWN_CGROUP
    cg = info.owner
    if cg.kind is OwnerKind.POD:
        return _pod_owner(info, target, pods, kubelet, kubelet_on)
    if cg.kind is OwnerKind.CONTAINER:
        return Owner(OwnerKind.CONTAINER, container=cg.container_id[:12])
    if cg.kind is OwnerKind.SLURM:
        return Owner(OwnerKind.SLURM, job=cg.job)
    return Owner(OwnerKind.PROCESS, name=info.comm, user=info.user)


def attribute(
    gpus: Sequence[GpuReading],
    infos: Mapping[int, ProcInfo],
    pods: Mapping[str, PodRef] | None,
    kubelet: Attribution,
    kubelet_on: bool,
) -> ProcessUsage:
    """Sum every GPU's processes by (target, owner); what has no owner by GPU, with its reason counted."""
    sums: dict[tuple[Target, Owner], list[GpuProcess]] = {}
    leftovers: dict[int, Leftover] = {}
    reasons: dict[Unattributed, int] = {}
    for gpu in sorted(gpus, key=lambda g: g.identity.index):
        if gpu.lost:
            continue
        memory = count = 0
        for process in gpu.processes:
            target = _target(gpu, process)
            info = infos.get(process.pid, ProcInfo(process.pid, reason=Unattributed.PID_NOT_VISIBLE))
            owner = owner_of(info, target, pods, kubelet, kubelet_on)
            if isinstance(owner, Owner):
                sums.setdefault((target, owner), []).append(process)
                continue
            reasons[owner] = reasons.get(owner, 0) + 1
            memory += process.memory_bytes or 0
            count += 1
        leftovers[gpu.identity.index] = Leftover(memory, count)
    owners = tuple(
        OwnerUsage(
            target=target,
            owner=owner,
            memory_bytes=sum(p.memory_bytes or 0 for p in procs),
            processes=len(procs),
            utilization=MappingProxyType(_utilization(procs)),
            fb_used_mib=sum((p.memory_bytes or 0) >> 20 for p in procs),
            sm_util=sum(round(p.sm_percent) for p in procs if p.sm_percent is not None),
        )
        for (target, owner), procs in sorted(sums.items(), key=lambda kv: (_order(kv[0][0]), kv[0][1]))
    )
    return ProcessUsage(owners, MappingProxyType(leftovers), MappingProxyType(reasons))


def _utilization(procs: Sequence[GpuProcess]) -> dict[str, float]:
    """Per engine, the sum over the owner's processes that have a sample (no sample at all: no value)."""
    out: dict[str, float] = {}
    for engine in ENGINES:
        values = [v for p in procs if (v := getattr(p, f"{engine}_percent")) is not None]
        if values:
            out[engine] = min(100.0, sum(values))
    return out


def _order(target: Target) -> tuple[int, int]:
    return (target[0], -1 if target[1] is None else target[1])


@dataclass(frozen=True, slots=True)
class ProcessView:
    """What the snapshot carries: this collection's usage and the counts since start."""

    families: bool = True  # the per-process families are served (--process-metrics); False: the split only
    # The per-pod split of -k --kubernetes-virtual-gpus, in any mode but off (labels mode splits with
    # --process-metrics alone too, as before: there every series is per pod already)
    split: bool = False
    usage: ProcessUsage = field(default_factory=ProcessUsage)
    unattributed_total: Mapping[Unattributed, int] = field(default_factory=lambda: MappingProxyType({}))
    read_failures_total: int = 0  # per-process NVML readings that failed (not: unsupported)
