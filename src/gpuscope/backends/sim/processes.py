"""Simulated processes on a node's GPUs, with the ``/proc`` and pod log directory a real node would show.

Deterministic from the node, the GPU index and the time: GPU 0, 4, ... are time-shared by three inference pods,
GPU 1, 5, ... run an MPS server (a plain root process) with two client pods, the others one training pod each, and
a MIG GPU one pod per GPU instance. Inference and MPS client pods restart every ``CHURN_S`` seconds (a new pod UID,
name and PIDs: the churn the budget counts). The ``zombie`` fault leaves a process on a GPU whose pod has been
deleted: it keeps its memory, its cgroup still names the pod's UID, the pod log directory no longer lists it.
The ``teams`` mix lays the pods out as ``teams.py`` says instead (``gpuscope up``'s story).

When the node has a process directory, ``sync`` keeps ``<dir>/proc/<pid>/{cgroup,comm,status}`` and
``<dir>/pods/<namespace>_<pod>_<uid>/<container>/`` equal to the population, so the exporter attributes simulated
processes through the same files and parser as real ones (``--proc-root``, ``--pod-log-dir``).
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gpuscope.backends.base import GpuProcess
from gpuscope.backends.sim import teams

CHURN_S = 600.0
_GIB = 1 << 30
ZOMBIE_NAMESPACE, ZOMBIE_POD = "ml", "leaked-trainer"


@dataclass(frozen=True, slots=True)
class SimPod:
    namespace: str
    name: str
    uid: str
    container: str


@dataclass(frozen=True, slots=True)
class SimProcess:
    pid: int
    gpu: int
    pod: SimPod | None  # None: a plain host process (the MPS server)
    comm: str
    memory_bytes: int
    share: float  # of the GPU's SM activity
    gpu_instance_id: int | None = None
    live_pod: bool = True  # False: a zombie, its pod is gone


def _hash(*parts: object) -> bytes:
    return hashlib.sha256("/".join(map(str, parts)).encode()).digest()


def _uid(*parts: object) -> str:
    h = _hash(*parts).hex()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"


def _pid(*parts: object) -> int:
    return 10_000 + int.from_bytes(_hash("pid", *parts)[:4], "big") % 4_000_000


def _pod(host: str, namespace: str, base: str, container: str, gpu: int, slot: int, generation: int) -> SimPod:
    suffix = _hash(host, gpu, slot, generation).hex()[:5]
    return SimPod(namespace, f"{base}-{suffix}", _uid(host, gpu, slot, generation), container)


def population(
    host: str,
    gpus: int,
    instances: Sequence[Sequence[int]],
    memory_bytes: int,
    now: float,
    zombies: Sequence[int],
    *,
    mix: str = "mixed",
    grown: bool = False,
) -> list[SimProcess]:
    """The processes of a node at ``now``: ``instances[g]`` are the GPU instance ids of GPU g (empty: no MIG).

    ``mix`` ``teams`` lays the pods out as ``teams.py`` says (``grown``: the growing team has arrived)."""
    if mix == teams.TEAMS_MIX:
        out = _teams(host, gpus, instances, memory_bytes, int(now // CHURN_S), grown)
    else:
        out = _mixed(host, gpus, instances, memory_bytes, int(now // CHURN_S))
    for g in sorted(set(zombies)):
        pod = SimPod(ZOMBIE_NAMESPACE, ZOMBIE_POD, _uid(host, g, "zombie"), "trainer")
        out.append(SimProcess(_pid(host, g, "zombie"), g, pod, "python3", 8 * _GIB, 0.0, live_pod=False))
    return out


def _teams(
    host: str, gpus: int, instances: Sequence[Sequence[int]], memory_bytes: int, generation: int, grown: bool
) -> list[SimProcess]:
    out: list[SimProcess] = []
    for g in range(gpus):
        gis = instances[g] if g < len(instances) else ()
        if gis:
            w = teams.MIG_WORKER
            for n, gi in enumerate(gis[:-1] if len(gis) > 1 else gis):
                pod = _pod(host, w.namespace, w.base, w.container, g, n, 0)
                out.append(SimProcess(_pid(host, g, n, 0), g, pod, w.comm, memory_bytes // 16, 1.0, gi))
            continue
        r = teams.role(g)
        if r.grows and not grown:
            continue
        if r.sharing == "mps":
            out.append(SimProcess(_pid(host, g, "mps"), g, None, "nvidia-cuda-mps", 64 << 20, 0.0))
        shares = {"time-slicing": (0.5, 0.3, 0.2), "mps": (0.6, 0.4)}.get(r.sharing, (1.0,))
        for slot, share in enumerate(shares):
            gen = generation + slot if r.churns else 0
            pod = _pod(host, r.namespace, r.base, r.container, g, slot, gen)
            memory = int(memory_bytes * r.memory / len(shares))
            out.append(SimProcess(_pid(host, g, slot, gen), g, pod, r.comm, memory, share))
    return out


def _mixed(
    host: str, gpus: int, instances: Sequence[Sequence[int]], memory_bytes: int, generation: int
) -> list[SimProcess]:
    out: list[SimProcess] = []
    for g in range(gpus):
        gis = instances[g] if g < len(instances) else ()
        if gis:
            for n, gi in enumerate(gis):
                pod = _pod(host, "ml", "mig-worker", "worker", g, n, 0)
                out.append(SimProcess(_pid(host, g, n, 0), g, pod, "python3", memory_bytes // 16, 1.0, gi))
        elif g % 4 == 0:
            for slot, share in enumerate((0.5, 0.3, 0.2)):
                pod = _pod(host, "serving", "infer", "server", g, slot, generation + slot)
                out.append(
                    SimProcess(_pid(host, g, slot, generation + slot), g, pod, "tritonserver", memory_bytes // 8, share)
                )
        elif g % 4 == 1:
            out.append(SimProcess(_pid(host, g, "mps"), g, None, "nvidia-cuda-mps", 64 << 20, 0.0))
            for slot, share in enumerate((0.6, 0.4)):
                pod = _pod(host, "research", "mps-client", "client", g, slot, generation)
                out.append(SimProcess(_pid(host, g, slot, generation), g, pod, "python3", memory_bytes // 6, share))
        else:
            pod = _pod(host, "ml", "trainer", "trainer", g, 0, 0)
            out.append(SimProcess(_pid(host, g, 0, 0), g, pod, "python3", memory_bytes * 3 // 4, 1.0))
    return out


def readings(processes: Sequence[SimProcess], gpu: int, sm_active: float) -> tuple[GpuProcess, ...]:
    """What NVML would list for GPU ``gpu``: memory, and SM utilization as the process's share of the activity."""
    return tuple(
        GpuProcess(
            pid=p.pid,
            kinds=("compute",),
            memory_bytes=p.memory_bytes,
            gpu_instance_id=p.gpu_instance_id,
            sm_percent=None if p.gpu_instance_id is not None else round(100.0 * sm_active * p.share, 1),
            memory_percent=None if p.gpu_instance_id is not None else round(40.0 * sm_active * p.share, 1),
            encoder_percent=None if p.gpu_instance_id is not None else 0.0,
            decoder_percent=None if p.gpu_instance_id is not None else 0.0,
        )
        for p in processes
        if p.gpu == gpu
    )


def _cgroup(pod: SimPod | None, pid: int) -> str:
    if pod is None:
        return "0::/system.slice/nvidia-mps.service\n"
    uid = pod.uid.replace("-", "_")
    container = _hash("container", pod.uid, pid).hex() + _hash("container2", pod.uid).hex()
    return (
        f"0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod{uid}.slice/"
        f"cri-containerd-{container[:64]}.scope\n"
    )


def sync(directory: Path, processes: Sequence[SimProcess]) -> None:
    """Make ``directory``'s ``proc`` and ``pods`` trees describe ``processes`` (only what changed is written)."""
    proc, pods = directory / "proc", directory / "pods"
    proc.mkdir(parents=True, exist_ok=True)
    pods.mkdir(parents=True, exist_ok=True)
    want_pids = {str(p.pid): p for p in processes}
    want_pods = {f"{p.pod.namespace}_{p.pod.name}_{p.pod.uid}": p.pod for p in processes if p.pod and p.live_pod}
    for entry in proc.iterdir():
        if entry.name not in want_pids:
            shutil.rmtree(entry, ignore_errors=True)
    for entry in pods.iterdir():
        if entry.name not in want_pods:
            shutil.rmtree(entry, ignore_errors=True)
    for name, p in want_pids.items():
        d = proc / name
        if d.exists():
            continue
        tmp = proc / f".{name}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        (tmp / "cgroup").write_text(_cgroup(p.pod, p.pid))
        (tmp / "comm").write_text(p.comm + "\n")
        uid = 0 if p.pod is None else 1000
        (tmp / "status").write_text(f"Name:\t{p.comm}\nUid:\t{uid}\t{uid}\t{uid}\t{uid}\n")
        tmp.rename(d)  # a reader sees the whole process or none of it
    for name, pod in want_pods.items():
        (pods / name / pod.container).mkdir(parents=True, exist_ok=True)
