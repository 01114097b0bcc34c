"""What a host engine has: its GPUs with their identity labels, their MIG GPU instances, and the system strings.

Identity comes from DCGM fields read live (name, UUID, PCI bus id) in one call for every GPU; the MIG layout
from ``dcgmGetGpuInstanceHierarchy``, whose GPU-instance entries give dcgm-exporter's ``GPU_I_ID`` (the NVML
instance id) and whose entity ids are what later calls name. A GPU instance's profile (``1g.10gb``) is the
name DCGM reports for that entity, or its slice count (``1g``) when DCGM has no name for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gpuscope.backends.base import GpuIdentity, InstanceIdentity, ReadError, Value
from gpuscope.backends.dcgm import structs as S
from gpuscope.backends.dcgm.connection import Calls
from gpuscope.backends.dcgm.values import decode
from gpuscope.fields.ids import FieldId

_DRIVER_VERSION = FieldId.DCGM_FI_DRIVER_VERSION
_NVML_VERSION = FieldId.DCGM_FI_NVML_VERSION
_IDENTITY_FIELDS = (S.FI_DEV_NAME, S.FI_DEV_UUID, S.FI_DEV_PCI_BUSID)
_LINK_NOT_SUPPORTED = 0  # DcgmNvLinkLinkStateNotSupported


@dataclass(frozen=True, slots=True)
class Instance:
    """A MIG GPU instance: its DCGM entity id and its labels."""

    entity_id: int
    identity: InstanceIdentity


@dataclass(frozen=True, slots=True)
class Gpu:
    """One GPU of the host engine, by DCGM GPU id (dcgm-exporter's ``gpu`` label)."""

    gpu_id: int
    identity: GpuIdentity
    instances: tuple[Instance, ...] = ()


@dataclass(frozen=True, slots=True)
class Link:
    """A GPU's NVLink or an NVSwitch's port, as ``dcgmGetNvLinkLinkStatus`` lists it (state not NotSupported)."""

    parent_group: int  # S.EntityGroup.GPU or SWITCH
    parent_id: int
    index: int
    state: int  # dcgmNvLinkLinkState_t

    @property
    def entity_id(self) -> int:
        return S.link_id(self.parent_group, self.parent_id, self.index)


@dataclass(frozen=True, slots=True)
class Inventory:
    gpus: tuple[Gpu, ...]
    system: dict[int, Value]
    switches: tuple[int, ...] = ()  # NVSwitch entity ids
    links: tuple[Link, ...] = ()  # read only when a request has NVLink-entity or switch fields

    def gpu_of_instance(self) -> dict[int, int]:
        return {inst.entity_id: gpu.gpu_id for gpu in self.gpus for inst in gpu.instances}


def _strings(calls: Calls, entities: Sequence[tuple[int, int]], fields: tuple[int, ...]) -> dict[tuple[int, int], str]:
    if not entities:
        return {}
    lib, handle = calls.lib, calls.handle
    raw = calls.run("dcgmEntitiesGetLatestValues", lambda: lib.latest_values(handle, entities, fields, live=True))
    found: dict[tuple[int, int], str] = {}
    for i, (_group, entity) in enumerate(entities):
        for j, fid in enumerate(fields):
            decoded = decode(raw[i * len(fields) + j]).value
            if isinstance(decoded, str) and not isinstance(decoded, ReadError) and decoded:
                found[(entity, fid)] = decoded
    return found


def discover(calls: Calls) -> Inventory:
    """Read the inventory; raises ``EngineGone``/``DcgmError``/``CallTimedOut`` when DCGM cannot say."""
    lib, handle = calls.lib, calls.handle
    gpu_ids = calls.run("dcgmGetAllSupportedDevices", lambda: lib.supported_gpus(handle))
    names = _strings(calls, [(S.EntityGroup.GPU, g) for g in gpu_ids], _IDENTITY_FIELDS)
    hierarchy = calls.run("dcgmGetGpuInstanceHierarchy", lambda: lib.mig_hierarchy(handle)) if gpu_ids else []
    by_gpu: dict[int, list[tuple[int, int, int]]] = {}
    for entry in hierarchy:
        if entry.entity.entityGroupId == S.EntityGroup.GPU_I and entry.parent.entityGroupId == S.EntityGroup.GPU:
            by_gpu.setdefault(int(entry.parent.entityId), []).append(
                (int(entry.entity.entityId), int(entry.info.nvmlInstanceId), int(entry.info.nvmlProfileSlices))
            )
    instance_entities = [(S.EntityGroup.GPU_I, eid) for entries in by_gpu.values() for eid, _, _ in entries]
    profiles = _strings(calls, instance_entities, (S.FI_DEV_NAME, S.FI_DEV_UUID))
    gpus = []
    for gpu_id in gpu_ids:
        identity = GpuIdentity(
            index=gpu_id,
            uuid=names.get((gpu_id, S.FI_DEV_UUID), ""),
            pci_bus_id=names.get((gpu_id, S.FI_DEV_PCI_BUSID), ""),
            model_name=names.get((gpu_id, S.FI_DEV_NAME), ""),
        )
        instances = tuple(
            Instance(
                entity_id=eid,
                identity=InstanceIdentity(
                    gpu_instance_id=nvml_gi,
                    profile=_profile(profiles.get((eid, S.FI_DEV_NAME), ""), slices),
                    uuid=profiles.get((eid, S.FI_DEV_UUID), identity.uuid),
                ),
            )
            for eid, nvml_gi, slices in sorted(by_gpu.get(gpu_id, []), key=lambda e: e[1])
        )
        gpus.append(Gpu(gpu_id=gpu_id, identity=identity, instances=instances))
    system_fields = (_DRIVER_VERSION, _NVML_VERSION)
    system = _strings(calls, [(S.EntityGroup.NONE, 0)], system_fields)
    return Inventory(gpus=tuple(gpus), system={fid: system[(0, fid)] for fid in system_fields if (0, fid) in system})


def discover_fabric(calls: Calls) -> tuple[tuple[int, ...], tuple[Link, ...]]:
    """The NVSwitches and every GPU link and switch port DCGM reports a state for (NotSupported ones left out)."""
    lib, handle = calls.lib, calls.handle
    switches = tuple(calls.run("dcgmGetEntityGroupEntities", lambda: lib.switches(handle)))
    status = calls.run("dcgmGetNvLinkLinkStatus", lambda: lib.nvlink_status(handle))
    links: list[Link] = []
    for group, entries, count, width in (
        (S.EntityGroup.GPU, status.gpus, status.numGpus, S.NVLINK_MAX_LINKS_PER_GPU),
        (S.EntityGroup.SWITCH, status.nvSwitches, status.numNvSwitches, S.NVLINK_MAX_LINKS_PER_NVSWITCH),
    ):
        for entry in entries[: max(0, min(int(count), len(entries)))]:
            for index in range(width):
                state = int(entry.linkState[index])
                if state != _LINK_NOT_SUPPORTED:
                    links.append(Link(int(group), int(entry.entityId), index, state))
    return switches, tuple(links)


def _profile(name: str, slices: int) -> str:
    _, sep, suffix = name.partition(" MIG ")
    if sep:
        return suffix.strip()
    return name.strip() or f"{slices}g"
