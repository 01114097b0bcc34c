"""DCGM health-check incidents -> ``DCGM_EXP_GPU_HEALTH_STATUS`` rows per GPU (pure).

As dcgm-exporter: one row per health watch (PCIE ... DRIVER) carrying the worst incident of that system for the
GPU, and an ``ALL`` row that only incidents reported for the watch-all system itself fill; a GPU without
incidents passes every watch. An incident on a GPU instance counts for its parent GPU.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from gpuscope.backends.base import HEALTH_PASS, HEALTH_WATCHES, HealthCheck
from gpuscope.backends.dcgm import structs as S
from gpuscope.fields.health_codes import error_code_label

_SYSTEM_NAMES: Mapping[int, str] = {int(system): system.name or "" for system in S.HealthSystem}


@dataclass(frozen=True, slots=True)
class Incident:
    gpu: int
    system: int
    health: int
    code: int
    message: str


def incidents(response: S.HealthResponseV5, gpu_of_instance: Mapping[int, int]) -> list[Incident]:
    """The incidents of one ``dcgmHealthCheck`` answer, each attributed to its physical GPU."""
    found: list[Incident] = []
    for i in range(min(int(response.incidentCount), S.GROUP_MAX_ENTITIES_V2)):
        item = response.incidents[i]
        group, entity = int(item.entityInfo.entityGroupId), int(item.entityInfo.entityId)
        if group == S.EntityGroup.GPU:
            gpu = entity
        elif group == S.EntityGroup.GPU_I and entity in gpu_of_instance:
            gpu = gpu_of_instance[entity]
        else:
            continue
        message = bytes(item.error.msg).split(b"\0", 1)[0].decode(errors="replace")
        found.append(
            Incident(
                gpu=gpu, system=int(item.system), health=int(item.health), code=int(item.error.code), message=message
            )
        )
    return found


def checks_for(gpu: int, found: Iterable[Incident]) -> tuple[HealthCheck, ...]:
    """The health rows of one GPU."""
    worst: dict[str, tuple[int, int]] = {}
    for incident in found:
        if incident.gpu != gpu:
            continue
        watch = _SYSTEM_NAMES.get(incident.system)
        if watch is None or watch not in HEALTH_WATCHES:
            continue
        if incident.health > worst.get(watch, (HEALTH_PASS, 0))[0]:
            worst[watch] = (incident.health, incident.code)
    return tuple(
        HealthCheck(
            watch=w, status=worst.get(w, (HEALTH_PASS, 0))[0], error_code=error_code_label(worst.get(w, (0, 0))[1])
        )
        for w in HEALTH_WATCHES
    )
