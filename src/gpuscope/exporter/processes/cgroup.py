"""``/proc/<pid>/cgroup`` → who owns the process: a pod's container, a Docker container, a Slurm step, or nobody
in particular (a plain process). Pure: text in, owner out.

The file is one line per hierarchy: ``N:controllers:/path`` under cgroup v1, the single ``0::/path`` under v2
(hybrid hosts have both). The owner is read from the first path of a known shape, v1 ``memory``/``cpu`` lines
first, then ``name=systemd``, then the v2 line:

- Kubernetes, ``systemd`` driver: ``/kubepods.slice/kubepods-<qos>.slice/kubepods-<qos>-pod<uid>.slice/<rt>-<id>.scope``
  (Guaranteed pods sit directly in ``kubepods.slice``; the UID has ``_`` for ``-``); ``<rt>`` is ``cri-containerd``
  (containerd), ``crio`` (CRI-O; ``crio-conmon`` is its monitor) or ``docker`` (cri-dockerd).
- Kubernetes, ``cgroupfs`` driver: ``/kubepods/<qos>/pod<uid>/<id>`` (Guaranteed: ``/kubepods/pod<uid>/<id>``).
- Docker without Kubernetes: ``/docker/<id>`` (cgroupfs) or ``/system.slice/docker-<id>.scope`` (systemd).
- Slurm's cgroup plugin: v1 ``/slurm/uid_<uid>/job_<job>/step_<step>/task_<n>``, v2
  ``/system.slice/slurmstepd.scope/job_<job>/step_<step>/user/task_<n>``.

A path seen through a cgroup namespace may start with ``/../..``; only its shape matters. Anything mentioning
``kubepods``, ``docker`` or ``slurm`` that does not parse is *unknown* (``None``), not a plain process: guessing
would put a pod's memory on the wrong owner.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

_UID = r"[0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12}"
_POD = re.compile(rf"/(?:kubepods-(?:[a-z]+-)?)?pod({_UID})(?:\.slice)?(?:/|$)")
_CONTAINER = re.compile(r"^(?:(cri-containerd|crio|docker)-)?([0-9a-f]{64})(?:\.scope)?$")
_DOCKER = re.compile(r"(?:^|/)(?:docker/([0-9a-f]{64})|system\.slice/docker-([0-9a-f]{64})\.scope)(?:/|$)")
_SLURM = re.compile(r"(?:^|/)job_(\d+)/step_([0-9a-z_]+)(?:/|$)")
_SUSPECT = ("kubepods", "docker", "slurm")
_RUNTIMES = {"cri-containerd": "containerd", "crio": "cri-o", "docker": "docker"}
_V1_ORDER = ("memory", "cpu", "cpuacct", "cpu,cpuacct", "pids", "name=systemd")


class OwnerKind(StrEnum):
    POD = "pod"
    CONTAINER = "container"  # a container outside Kubernetes (Docker)
    SLURM = "slurm"
    PROCESS = "process"  # a plain process: named by its command and user


@dataclass(frozen=True, slots=True)
class CgroupOwner:
    """What a process's cgroup path says about it."""

    kind: OwnerKind
    pod_uid: str = ""  # with dashes, as the API server writes it
    container_id: str = ""  # 64 hex digits, "" for a pod-level or conmon cgroup
    runtime: str = ""  # containerd, cri-o, docker
    job: str = ""
    step: str = ""


def cgroup_paths(text: str) -> list[str]:
    """The paths of a ``/proc/<pid>/cgroup`` file, most telling first (v1 memory/cpu, systemd, then v2)."""
    ranked: list[tuple[int, str]] = []
    for line in text.splitlines():
        parts = line.strip().split(":", 2)
        if len(parts) != 3 or not parts[2].startswith("/"):
            continue
        hierarchy, controllers, path = parts
        if hierarchy == "0" and controllers == "":
            ranked.append((len(_V1_ORDER) + 1, path))
            continue
        names = controllers.split(",")
        rank = min((i for i, name in enumerate(_V1_ORDER) if name in names or name == controllers), default=None)
        ranked.append((len(_V1_ORDER) if rank is None else rank, path))
    return [path for _, path in sorted(ranked, key=lambda r: r[0])]


def parse_path(path: str) -> CgroupOwner | None:
    """The owner a single cgroup path names; ``None`` when it looks like a container or job but does not parse."""
    pod = _POD.search(path) if "kubepods" in path else None
    if pod is not None:
        uid = pod[1].replace("_", "-")
        last = path.rstrip("/").rsplit("/", 1)[-1]
        if last.startswith("crio-conmon-"):
            return CgroupOwner(OwnerKind.POD, pod_uid=uid, runtime="cri-o")
        container = _CONTAINER.match(last)
        if container is None:
            return CgroupOwner(OwnerKind.POD, pod_uid=uid)  # the pod's own cgroup (sandbox)
        runtime = _RUNTIMES.get(container[1] or "", "")
        return CgroupOwner(OwnerKind.POD, pod_uid=uid, container_id=container[2], runtime=runtime)
    docker = _DOCKER.search(path)
    if docker is not None:
        return CgroupOwner(OwnerKind.CONTAINER, container_id=docker[1] or docker[2], runtime="docker")
    slurm = _SLURM.search(path)
    if slurm is not None and "slurm" in path:
        return CgroupOwner(OwnerKind.SLURM, job=slurm[1], step=slurm[2])
    if any(word in path for word in _SUSPECT):
        return None
    return CgroupOwner(OwnerKind.PROCESS)


def parse_cgroup(text: str) -> CgroupOwner | None:
    """The owner of a process from its ``/proc/<pid>/cgroup`` text; ``None`` when no line parses as a known shape.

    The first path naming a pod, container or job wins; a file whose paths are all plain is a plain process.
    """
    paths = cgroup_paths(text)
    if not paths:
        return None
    plain = False
    unknown = False
    for path in paths:
        owner = parse_path(path)
        if owner is None:
            unknown = True
        elif owner.kind is OwnerKind.PROCESS:
            plain = True
        else:
            return owner
    if unknown:
        return None
    return CgroupOwner(OwnerKind.PROCESS) if plain else None
