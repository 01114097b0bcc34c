"""What ``/proc`` says about one process: its cgroup owner, command name and user (the only I/O of attribution).

Every read is bounded (a few KiB) and never blocks (``inputs.files.read_head``: regular files only, so a FIFO in
place of ``cgroup`` is an unreadable file), and every failure is a reason, never an exception: a PID that exits
between NVML's list and this read, a ``/proc`` that is not the host's (a containerised exporter without
``hostPID``), an unreadable file, a cgroup path of an unknown shape.
"""

from __future__ import annotations

import pwd
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from gpuscope.exporter.processes.cgroup import CgroupOwner, parse_cgroup
from gpuscope.inputs.files import read_head

_MAX_BYTES = 16 * 1024  # a cgroup file has ~13 lines of < 200 bytes; comm is 16 bytes


class Unattributed(StrEnum):
    """Why a process's GPU use went to the ``unattributed`` series (the self-metric's ``reason`` label)."""

    PID_NOT_VISIBLE = "pid_not_visible"  # exited since NVML listed it, or /proc is not the host's (no hostPID)
    PROC_UNREADABLE = "proc_unreadable"  # /proc/<pid>/cgroup exists but cannot be read
    UNKNOWN_CGROUP = "unknown_cgroup"  # a cgroup path of no known shape
    POD_GONE = "pod_gone"  # a pod's cgroup, but no live pod has that UID (a zombie)
    POD_AMBIGUOUS = "pod_ambiguous"  # no pod-UID source and several pods share the GPU
    NO_POD_SOURCE = "no_pod_source"  # a pod's cgroup, but neither a pod directory nor the kubelet is configured


@dataclass(frozen=True, slots=True)
class ProcInfo:
    """One process as ``/proc`` shows it; ``owner`` is ``None`` exactly when ``reason`` is set."""

    pid: int
    owner: CgroupOwner | None = None
    comm: str = ""
    user: str = ""
    reason: Unattributed | None = None


def _read(path: Path) -> str:
    # Non-blocking and regular files only: a FIFO bind-mounted over /proc/<pid>/cgroup (or a /proc that is not
    # procfs) would otherwise hold the collection thread forever; it is an unreadable file instead.
    return read_head(str(path), _MAX_BYTES).decode("utf-8", "replace")


def _user(status: str) -> str:
    for line in status.splitlines():
        if line.startswith("Uid:"):
            fields = line.split()
            if len(fields) > 1 and fields[1].isdigit():
                uid = int(fields[1])
                try:
                    return pwd.getpwuid(uid).pw_name
                except KeyError:
                    return str(uid)  # a user of the host unknown inside the exporter's image
    return ""


def read_process(proc_root: str, pid: int) -> ProcInfo:
    """The owner, command and user of ``pid`` under ``proc_root`` (``/proc``, or a simulated node's tree)."""
    base = Path(proc_root) / str(pid)
    try:
        cgroup = _read(base / "cgroup")
    except (FileNotFoundError, ProcessLookupError, NotADirectoryError):
        return ProcInfo(pid, reason=Unattributed.PID_NOT_VISIBLE)
    except OSError:
        return ProcInfo(pid, reason=Unattributed.PROC_UNREADABLE)
    owner = parse_cgroup(cgroup)
    if owner is None:
        return ProcInfo(pid, reason=Unattributed.UNKNOWN_CGROUP)
    try:
        comm = _read(base / "comm").strip()
        user = _user(_read(base / "status"))
    except OSError:
        comm, user = "", ""  # exited just now: the cgroup already says who it was
    return ProcInfo(pid, owner=owner, comm=comm, user=user)
