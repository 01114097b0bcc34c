"""Who uses which GPU: device ids from the kubelet and job ids from Slurm, resolved to GPUs and MIG instances.

Pure functions only. The kubelet names devices in several ways depending on the device plugin (the forms
dcgm-exporter parses too); every form resolves against the GPUs of the current reading:

- ``GPU-<uuid>`` (NVIDIA device plugin) and ``MIG-<uuid>`` (a MIG instance, mixed strategy);
- ``<id>::<n>`` (time-slicing/MPS replica n of a device; EKS writes ``MIG-<uuid>::<n>`` too);
- ``nvidia<N>`` (GKE's plugin, ``--kubernetes-gpu-id-type device-name``) and ``nvidia<N>/gi<M>`` (GKE MIG:
  GPU N, GPU instance M);
- ``<id>/vgpu<n>`` (GKE sharing), which may follow any of the above; ``/vgpu`` without a number is read too
  (dcgm-exporter splits on ``/vgpu``).

With ``--kubernetes-virtual-gpus`` the replica (``n`` of ``::n`` or ``/vgpu<n>``) is kept as the workload's
``vgpu``: one entry per (target, pod, replica) instead of one per (target, pod).

Whatever ``--kubernetes-gpu-id-type`` says, both UUIDs and device names are recognised: picking the wrong id type
is a common reason for missing pod labels with dcgm-exporter, and the two forms cannot be confused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from gpuscope.backends.base import GpuReading

DEFAULT_SOCKET = "/var/lib/kubelet/pod-resources/kubelet.sock"
GPU_RESOURCE = "nvidia.com/gpu"
MIG_RESOURCE_PREFIX = "nvidia.com/mig-"

# (GPU index, GPU instance id or None for the whole GPU): what an info series or a label set describes.
Target = tuple[int, int | None]

_DEVICE_NAME = re.compile(r"nvidia(\d+)(?:/gi(\d+))?")
_VGPU = re.compile(r"vgpu(\d*)")


class WorkloadLabels(StrEnum):
    """How attribution is exposed (``--workload-labels``)."""

    INFO = "info"  # one gpuscope_gpu_workload_info / gpuscope_gpu_job_info series per allocation
    LABELS = "labels"  # dcgm-exporter: pod/namespace/container and hpc_job labels on every series
    OFF = "off"


@dataclass(frozen=True, slots=True)
class PodDevice:
    """One device held by one container, as the kubelet lists it."""

    namespace: str
    pod: str
    container: str
    resource: str
    device_id: str


# (name, value) pairs in byte order: extra labels of a workload (pod labels, DRA claim labels).
Pairs = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True, order=True)
class Workload:
    """A Kubernetes container that holds a GPU or a MIG instance.

    ``uid`` and ``labels`` come from the API server's pod watch (``--kubernetes-enable-pod-uid``/``-pod-labels``;
    empty otherwise or when the pod is not in the watch cache yet), ``vgpu`` is the shared-GPU replica
    (``--kubernetes-virtual-gpus``; None when off), ``dra`` the claim labels of a DRA-allocated device.
    """

    namespace: str
    pod: str
    container: str
    uid: str = ""
    labels: Pairs = ()
    vgpu: str | None = None
    dra: Pairs = ()


@dataclass(frozen=True, slots=True)
class Assignment:
    """Everything attributed to one target in one collection."""

    pods: tuple[Workload, ...] = ()
    jobs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Attribution:
    """The workload view of one collection: part of the immutable snapshot."""

    targets: Mapping[Target, Assignment] = field(default_factory=lambda: MappingProxyType({}))
    unmatched: tuple[str, ...] = ()  # device ids (or mapping file names) that name no GPU of this node
    # (namespace, pod) -> UID of the pods holding devices, from the API server's pod watch, whether or not
    # ``pod_uid`` labels are on: the per-pod split's series always carry ``pod_uid``, as dcgm-exporter's do.
    pod_uids: Mapping[tuple[str, str], str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class DraDevice:
    """A device a DRA ResourceClaim gave a container: who holds it, and the refs that may name it here."""

    workload: Workload  # with its dra_* labels
    refs: tuple[DeviceRef, ...]  # tried in order: the MIG instance's UUID, then its parent GPU's
    name: str  # <driver>/<pool>/<device>, for the unmatched list


@dataclass(frozen=True, slots=True)
class ApiStatus:
    """How one API server watch fares (``gpuscope.kube.reflector.Reflector``), for the self-metrics."""

    resource: str  # "pods" or "resourceslices"
    up: bool = False
    objects: int = 0  # kept in the watch cache
    requests: int = 0  # HTTP requests since start
    errors: tuple[tuple[str, int], ...] = ()  # (reason, failures since start), by reason


@dataclass(frozen=True, slots=True)
class WorkloadStatus:
    """How the attribution sources fared, for the exporter's self-metrics."""

    kubernetes: bool = False
    kubelet_up: bool = False
    kubelet_errors: int = 0  # failed List calls since start
    hpc: bool = False
    hpc_dir_readable: bool = False
    api: tuple[ApiStatus, ...] = ()  # one per API server watch (pod labels/UID, DRA); empty when none is on


@dataclass(frozen=True, slots=True)
class DeviceRef:
    """A parsed device id: by UUID (``GPU-…``/``MIG-…``), or by index with an optional GPU instance id."""

    uuid: str | None = None
    index: int | None = None
    gi: int | None = None


def parse_device_id(raw: str) -> DeviceRef:
    """Strip replica (``::N``) and sharing (``/vgpuN``) suffixes, then read a UUID or ``nvidia<N>[/gi<M>]``."""
    text = raw.strip().split("::", 1)[0]
    head, sep, last = text.rpartition("/")
    if sep and _VGPU.fullmatch(last):
        text = head
    match = _DEVICE_NAME.fullmatch(text)
    if match:
        return DeviceRef(index=int(match[1]), gi=None if match[2] is None else int(match[2]))
    return DeviceRef(uuid=text)


def replica_of(raw: str) -> str:
    """The shared-GPU replica a device id names: ``n`` of ``::n`` (device plugin) or of ``/vgpu<n>`` (GKE), else ""."""
    text, sep, replica = raw.strip().partition("::")
    if sep:
        return replica
    _, sep, last = text.rpartition("/")
    match = _VGPU.fullmatch(last) if sep else None
    return match[1] if match else ""


def is_gpu_resource(resource: str, extra_names: Iterable[str] = ()) -> bool:
    """Resources that carry NVIDIA devices: ``nvidia.com/gpu``, ``nvidia.com/mig-*`` and configured names."""
    return resource == GPU_RESOURCE or resource.startswith(MIG_RESOURCE_PREFIX) or resource in extra_names


class _Index:
    """Lookups from every device naming to a target, built once per collection from the reading."""

    def __init__(self, gpus: Sequence[GpuReading]) -> None:
        self.by_uuid: dict[str, Target] = {}
        self.instances: dict[int, tuple[int, ...]] = {}
        for gpu in gpus:
            idx = gpu.identity.index
            self.by_uuid[gpu.identity.uuid] = (idx, None)
            self.instances[idx] = tuple(i.identity.gpu_instance_id for i in gpu.instances)
            for inst in gpu.instances:
                self.by_uuid[inst.identity.uuid] = (idx, inst.identity.gpu_instance_id)

    def target(self, ref: DeviceRef) -> Target | None:
        if ref.uuid is not None:
            return self.by_uuid.get(ref.uuid)
        assert ref.index is not None
        gis = self.instances.get(ref.index)
        if gis is None or (ref.gi is not None and ref.gi not in gis):
            return None
        return (ref.index, ref.gi)

    def expand(self, target: Target) -> list[Target]:
        """A whole MIG-mode GPU covers its instances too, so that joins on GPU_I_ID match their series."""
        idx, gi = target
        if gi is not None:
            return [target]
        return [target, *((idx, i) for i in self.instances.get(idx, ()))]


def resolve(
    gpus: Sequence[GpuReading],
    pod_devices: Sequence[PodDevice] = (),
    jobs: Mapping[Target, Sequence[str]] | None = None,
    extra_resources: Iterable[str] = (),
    *,
    virtual_gpus: bool = False,
    dra: Sequence[DraDevice] = (),
) -> Attribution:
    """Place pods and jobs on this node's GPUs and MIG instances.

    One entry per (target, pod): when a pod lists a device under several containers (an init container's device
    is handed on to an app container) the last container listed wins, so a pod is one info series per device.
    Several pods on one target (time-slicing, MPS) stay several entries, in the kubelet's order; with
    ``virtual_gpus`` each replica a pod holds is an entry of its own, carrying the replica as ``vgpu``.
    ``dra`` are devices allocated through DRA (``dra.claim_devices``), each placed on the first of its refs
    that names a GPU or MIG instance of this node.
    """
    index = _Index(gpus)
    extra = frozenset(extra_resources)
    pods: dict[Target, dict[tuple[str, ...], Workload]] = {}
    unmatched: list[str] = []
    for dev in pod_devices:
        if not is_gpu_resource(dev.resource, extra):
            continue
        target = index.target(parse_device_id(dev.device_id))
        if target is None:
            unmatched.append(dev.device_id)
            continue
        vgpu = replica_of(dev.device_id) if virtual_gpus else None
        key: tuple[str, ...] = (dev.namespace, dev.pod) if vgpu is None else (dev.namespace, dev.pod, vgpu)
        held = pods.setdefault(target, {})
        held.pop(key, None)  # re-insert: the last container listed wins, in list order
        held[key] = Workload(dev.namespace, dev.pod, dev.container, vgpu=vgpu)
    for claimed in dra:
        dra_target = next((t for t in map(index.target, claimed.refs) if t is not None), None)
        if dra_target is None:
            unmatched.append(claimed.name)
            continue
        workload = claimed.workload
        key = (workload.namespace, workload.pod, *(value for _, value in workload.dra))
        held = pods.setdefault(dra_target, {})
        held.pop(key, None)
        held[key] = workload
    job_map: dict[Target, list[str]] = {}
    for raw_target, ids in (jobs or {}).items():
        if index.target(DeviceRef(index=raw_target[0], gi=raw_target[1])) is None:
            unmatched.append(_mapping_name(raw_target))
            continue
        for target in index.expand(raw_target):
            bucket = job_map.setdefault(target, [])
            for job in ids:
                if job not in bucket:
                    bucket.append(job)
    targets = {
        t: Assignment(tuple(pods.get(t, {}).values()), tuple(job_map.get(t, ())))
        for t in sorted(pods.keys() | job_map.keys(), key=_target_order)
    }
    return Attribution(MappingProxyType(targets), tuple(unmatched))


def _target_order(target: Target) -> tuple[int, int]:
    return (target[0], -1 if target[1] is None else target[1])


def _mapping_name(target: Target) -> str:
    return str(target[0]) if target[1] is None else f"{target[0]}.{target[1]}"
