"""MIG: which GPU instances a MIG-enabled GPU has now, with dcgm-exporter's profile and GPU-instance id labels.

NVML lists MIG devices (compute instances) in slots, some of them empty: an empty slot is skipped, never the end
of the list. Several compute instances can share one GPU instance; dcgm-exporter's series describe GPU instances,
so the first compute instance of each GPU instance stands for it (memory is per GPU instance anyway).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gpuscope.backends.base import InstanceIdentity
from gpuscope.backends.nvml import constants as C
from gpuscope.backends.nvml.errors import classify, error_code

_EMPTY_SLOT = frozenset({C.ERROR_NOT_FOUND, C.ERROR_INVALID_ARGUMENT})


@dataclass(frozen=True, slots=True)
class MigInstance:
    """One GPU instance and the NVML handle of (its first) MIG device."""

    identity: InstanceIdentity
    handle: Any


def profile_from_name(name: str) -> str:
    """``"NVIDIA H100 80GB HBM3 MIG 1g.10gb"`` -> ``"1g.10gb"`` (NVML names MIG devices after their profile)."""
    _, sep, profile = name.partition(" MIG ")
    return profile.strip() if sep else ""


def mig_enabled(nvml: Any, handle: Any) -> bool | None:
    """Whether MIG mode is on; ``None`` when the GPU (or driver) has no MIG at all, so there is no need to ask again.

    A transient failure raises (NVMLError): the caller keeps the layout it knows rather than guessing "off".
    """
    try:
        current, _pending = nvml.nvmlDeviceGetMigMode(handle)
    except nvml.NVMLError as exc:
        if classify(error_code(exc)).remember:  # NotSupported / FunctionNotFound / NoPermission
            return None
        raise
    return bool(current == C.DEVICE_MIG_ENABLE)


def enumerate_instances(nvml: Any, handle: Any) -> tuple[MigInstance, ...]:
    """The GPU instances of a MIG-enabled GPU, ordered by GPU-instance id."""
    slots = int(nvml.nvmlDeviceGetMaxMigDeviceCount(handle))
    found: dict[int, MigInstance] = {}
    for slot in range(slots):
        try:
            mig = nvml.nvmlDeviceGetMigDeviceHandleByIndex(handle, slot)
        except nvml.NVMLError as exc:
            code = error_code(exc)
            if code in _EMPTY_SLOT:
                continue
            classify(code)  # a lost GPU or dead NVML raises; anything else: skip the slot
            continue
        gi = int(nvml.nvmlDeviceGetGpuInstanceId(mig))
        if gi in found:
            continue
        uuid = str(nvml.nvmlDeviceGetUUID(mig))
        profile = profile_from_name(str(nvml.nvmlDeviceGetName(mig)))
        found[gi] = MigInstance(InstanceIdentity(gi, profile, uuid), mig)
    return tuple(found[gi] for gi in sorted(found))


def same_layout(a: tuple[MigInstance, ...], b: tuple[MigInstance, ...]) -> bool:
    return [i.identity for i in a] == [i.identity for i in b]
