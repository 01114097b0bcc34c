"""A host's ``/proc`` and ``/var/log/pods`` as files, for process attribution tests (real formats)."""

from __future__ import annotations

import shutil
from pathlib import Path

CID = "4f1b3c2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a"


def pod_cgroup(uid: str, container_id: str = CID) -> str:
    """A containerd container of a Burstable pod under the systemd driver, cgroup v2."""
    u = uid.replace("-", "_")
    slices = f"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod{u}.slice"
    return f"0::{slices}/cri-containerd-{container_id}.scope\n"


class ProcTree:
    def __init__(self, root: Path) -> None:
        self.proc = root / "proc"
        self.pods = root / "pods"
        self.proc.mkdir(parents=True)
        self.pods.mkdir()

    def process(self, pid: int, cgroup: str, comm: str = "python3", uid: int = 0) -> None:
        d = self.proc / str(pid)
        d.mkdir()
        (d / "cgroup").write_text(cgroup)
        (d / "comm").write_text(comm + "\n")
        (d / "status").write_text(f"Name:\t{comm}\nUid:\t{uid}\t{uid}\t{uid}\t{uid}\nGid:\t0\t0\t0\t0\n")

    def exit(self, pid: int) -> None:
        shutil.rmtree(self.proc / str(pid))

    def pod(self, namespace: str, name: str, uid: str, *containers: str) -> None:
        d = self.pods / f"{namespace}_{name}_{uid}"
        for container in containers or ("main",):
            (d / container).mkdir(parents=True)
            (d / container / "0.log").write_text("")

    def delete_pod(self, namespace: str, name: str, uid: str) -> None:
        shutil.rmtree(self.pods / f"{namespace}_{name}_{uid}")
