"""Which GPUs a job uses, as the UUIDs (and MIG GPU-instance ids) GPU telemetry carries, so the two join.

The job says which GPUs it sees the way CUDA and the container runtime do: ``CUDA_VISIBLE_DEVICES``, else
``NVIDIA_VISIBLE_DEVICES``, else Slurm's ``SLURM_STEP_GPUS`` / ``SLURM_JOB_GPUS`` (set in prolog and epilog, where
the CUDA variables are not), as indices, UUIDs, UUID prefixes or MIG UUIDs. Full GPU UUIDs need nothing else;
indices, prefixes and MIG UUIDs are looked up in NVML when it can be used. When it cannot, the GPU is reported
honestly as unresolved (its info series carries ``device``, not a made-up ``UUID``) and the reporter warns once:
its metrics will not join GPU telemetry until CUDA_VISIBLE_DEVICES holds UUIDs.

``plan`` and ``resolve`` are pure; ``read_device_table`` is the one function that talks to NVML.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpuscope.jobs.labels import InvalidJobInput

_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
_FULL_GPU_UUID = re.compile(rf"^GPU-{_UUID}$")
_GPU_UUID_PREFIX = re.compile(r"^GPU-[0-9a-fA-F-]+$")
_MIG_UUID = re.compile(rf"^MIG-{_UUID}$")
_OLD_MIG = re.compile(rf"^MIG-(GPU-{_UUID})/(\d+)/(\d+)$")  # drivers before R470: MIG-<GPU UUID>/<gi>/<ci>
_INDEX = re.compile(r"^\d+$")
_NONE = frozenset({"", "none", "void", "-1"})


@dataclass(frozen=True, slots=True)
class JobGpu:
    """One GPU (or MIG instance) of a job, with the labels its info series gets."""

    uuid: str = ""  # the GPU's UUID as GPU telemetry labels it (a MIG instance: its parent's), "" = unresolved
    index: str = ""  # NVML index, when NVML said so
    gpu_instance_id: str = ""  # MIG GPU-instance id
    device: str = ""  # the job's own name for an unresolved GPU (an index or UUID prefix)

    def labels(self) -> tuple[tuple[str, str], ...]:
        pairs = (("UUID", self.uuid), ("gpu", self.index), ("GPU_I_ID", self.gpu_instance_id), ("device", self.device))
        return tuple((k, v) for k, v in pairs if v)


@dataclass(frozen=True, slots=True)
class Request:
    """What the job asked for: ``tokens``, or every GPU NVML sees (``all_gpus``)."""

    source: str
    tokens: tuple[str, ...] = ()
    all_gpus: bool = False
    note: str = ""  # something about the request worth a warning (e.g. an entry CUDA would ignore)


@dataclass(frozen=True, slots=True)
class NvmlGpu:
    index: int
    uuid: str
    instances: tuple[tuple[int, str], ...] = ()  # (GPU-instance id, MIG UUID)


@dataclass(frozen=True, slots=True)
class DeviceTable:
    gpus: tuple[NvmlGpu, ...]


@dataclass(frozen=True, slots=True)
class Resolution:
    gpus: tuple[JobGpu, ...]
    source: str
    problem: str = ""  # why some GPUs are unresolved (or none known): logged once as a warning

    @property
    def uuids(self) -> tuple[str, ...]:
        return tuple(g.uuid for g in self.gpus if g.uuid)


class NvmlUnavailable(Exception):
    """NVML cannot be used here; the message says why."""


def _split(value: str) -> list[str]:
    return [t.strip() for t in value.split(",")] if value.strip() else []


def _valid_token(token: str) -> bool:
    return bool(_INDEX.match(token) or _GPU_UUID_PREFIX.match(token) or _MIG_UUID.match(token) or _OLD_MIG.match(token))


def explicit(gpus: Sequence[str | int]) -> Request:
    """``gpus=[...]`` given by the caller: every entry must be an index or a (MIG) UUID."""
    tokens = tuple(str(g).strip() for g in gpus)
    bad = [t for t in tokens if not _valid_token(t)]
    if bad:
        raise InvalidJobInput(
            f"gpus: {bad[0]!r} is not a GPU index, a GPU UUID (GPU-...) or a MIG UUID (MIG-...); "
            'pass gpus="auto" to use CUDA_VISIBLE_DEVICES'
        )
    return Request("gpus argument", tokens)


def _cuda_tokens(value: str) -> tuple[tuple[str, ...], str]:
    """CUDA uses the entries up to the first one it cannot parse; so do we, and say so."""
    tokens: list[str] = []
    for token in _split(value):
        if not _valid_token(token):
            return tuple(tokens), f"CUDA_VISIBLE_DEVICES entry {token!r} is not a GPU: it and later entries ignored"
        tokens.append(token)
    return tuple(tokens), ""


def plan(env: Mapping[str, str]) -> Request:
    """The GPUs the environment gives this process, without asking NVML."""
    if "CUDA_VISIBLE_DEVICES" in env:
        value = env["CUDA_VISIBLE_DEVICES"]
        if value.strip().lower() in _NONE:
            return Request("CUDA_VISIBLE_DEVICES")
        tokens, note = _cuda_tokens(value)
        return Request("CUDA_VISIBLE_DEVICES", tokens, note=note)
    if "NVIDIA_VISIBLE_DEVICES" in env:
        value = env["NVIDIA_VISIBLE_DEVICES"].strip()
        if value.lower() in _NONE:
            return Request("NVIDIA_VISIBLE_DEVICES")
        if value.lower() == "all":
            return Request("NVIDIA_VISIBLE_DEVICES", all_gpus=True)
        return Request("NVIDIA_VISIBLE_DEVICES", tuple(t for t in _split(value) if _valid_token(t)))
    for name in ("SLURM_STEP_GPUS", "SLURM_JOB_GPUS"):
        if env.get(name, "").strip():
            return Request(name, tuple(t for t in _split(env[name]) if _INDEX.match(t)))
    return Request("every GPU of the node (no CUDA_VISIBLE_DEVICES)", all_gpus=True)


def needs_nvml(request: Request) -> bool:
    """Full GPU UUIDs (and pre-R470 MIG names) resolve without NVML: a container without NVML still joins."""
    return request.all_gpus or any(not (_FULL_GPU_UUID.match(t) or _OLD_MIG.match(t)) for t in request.tokens)


def resolve(request: Request, table: DeviceTable | None, nvml_problem: str = "") -> Resolution:
    """Tokens -> GPUs. ``table`` is what NVML sees (``None``: NVML unavailable, ``nvml_problem`` says why)."""
    if request.all_gpus:
        if table is None:
            return Resolution((), request.source, f"cannot list the node's GPUs: {nvml_problem}")
        return Resolution(tuple(JobGpu(g.uuid, str(g.index)) for g in table.gpus), request.source, request.note)
    tokens = request.tokens
    # NVIDIA_VISIBLE_DEVICES indices are the host's; inside the container NVML sees exactly those GPUs, renumbered
    # from 0. Same count as listed: we are in that container, so they are all of NVML's GPUs.
    in_container = request.source == "NVIDIA_VISIBLE_DEVICES" and all(_INDEX.match(t) for t in tokens)
    if in_container and table is not None and len(tokens) == len(table.gpus):
        return Resolution(tuple(JobGpu(g.uuid, str(g.index)) for g in table.gpus), request.source, request.note)
    gpus = tuple(_one(t, table) for t in tokens)
    unresolved = [g.device for g in gpus if not g.uuid]
    problem = request.note
    if unresolved:
        why = nvml_problem if table is None else "NVML does not list them"
        problem = f"GPU(s) {', '.join(unresolved)} from {request.source} not resolved to UUIDs ({why})"
    return Resolution(gpus, request.source, problem)


def _one(token: str, table: DeviceTable | None) -> JobGpu:
    old = _OLD_MIG.match(token)
    if old:
        return JobGpu(old.group(1), gpu_instance_id=old.group(2))
    if table is None:
        return JobGpu(token) if _FULL_GPU_UUID.match(token) else JobGpu(device=token)
    if _INDEX.match(token):
        found = next((g for g in table.gpus if g.index == int(token)), None)
        return JobGpu(found.uuid, str(found.index)) if found else JobGpu(device=token)
    if token.startswith("MIG-"):
        for gpu in table.gpus:
            for gi, mig_uuid in gpu.instances:
                if mig_uuid.lower() == token.lower():
                    return JobGpu(gpu.uuid, str(gpu.index), str(gi))
        return JobGpu(device=token)
    # A GPU UUID, or a unique prefix of one (CUDA accepts prefixes).
    matches = [g for g in table.gpus if g.uuid.lower().startswith(token.lower())]
    if len(matches) == 1:
        return JobGpu(matches[0].uuid, str(matches[0].index))
    return JobGpu(token) if _FULL_GPU_UUID.match(token) else JobGpu(device=token)


def read_device_table(nvml: Any = None) -> DeviceTable:
    """Every GPU NVML sees, with its MIG instances; raises ``NvmlUnavailable`` with the reason when it cannot.

    ``nvml`` is the ``pynvml`` module or a stand-in with its API; ``None`` imports it through the NVML backend's
    loader (``backends/nvml/library.py``, the one place gpuscope imports pynvml), only now, never when
    ``gpuscope.jobs`` is imported.
    """
    from gpuscope.backends.nvml.errors import error_code, init_failure_reason
    from gpuscope.backends.nvml.library import load_pynvml, shutdown

    if nvml is None:
        try:
            nvml = load_pynvml()
        except ImportError:
            raise NvmlUnavailable("the nvidia-ml-py package is not installed") from None
    try:
        nvml.nvmlInit()
    except nvml.NVMLError as exc:
        raise NvmlUnavailable(init_failure_reason(error_code(exc))) from None
    except OSError as exc:  # the shared library itself could not be loaded
        raise NvmlUnavailable(f"NVML could not be loaded: {exc}") from None
    try:
        return DeviceTable(tuple(g for i in range(int(nvml.nvmlDeviceGetCount())) if (g := _read_gpu(nvml, i))))
    except nvml.NVMLError as exc:
        raise NvmlUnavailable(f"NVML failed while listing GPUs: {init_failure_reason(error_code(exc))}") from None
    finally:
        shutdown(nvml)


def _read_gpu(nvml: Any, index: int) -> NvmlGpu | None:
    """One GPU, or ``None`` when it does not answer (lost, no permission): the others are still useful."""
    from gpuscope.backends.nvml.mig import enumerate_instances, mig_enabled

    try:
        handle = nvml.nvmlDeviceGetHandleByIndex(index)
        uuid = str(nvml.nvmlDeviceGetUUID(handle))
    except nvml.NVMLError:
        return None
    try:
        instances = enumerate_instances(nvml, handle) if mig_enabled(nvml, handle) else ()
    except Exception:  # a MIG listing failure leaves the whole GPU usable
        instances = ()
    return NvmlGpu(index, uuid, tuple((m.identity.gpu_instance_id, m.identity.uuid) for m in instances))
