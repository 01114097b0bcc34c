"""A real Slurm on loopback: munged, slurmctld and one slurmd per node (Debian's ``slurm-wlm`` and ``munge``), as root.

Everything lives under one work directory: a fresh munge key and socket, a generated ``slurm.conf`` (no accounting,
``ProctrackType=proctrack/linuxproc``, ``TaskPlugin=task/none``, ``SchedulerType=sched/builtin``) and
``gres.conf``, state, spool and logs. Every node is a slurmd of its own on 127.0.0.1 (``slurmd -N <node>``, each
on its own port): Debian builds Slurm with multiple-slurmd support, so one machine holds a cluster of several nodes.

GPUs are ``Gres=gpu:<n>``. Slurm 22.05's ``gres/gpu`` drops a GPU without ``File=`` ("Removing file-less GPU ...
from final GRES list": a count-only GPU never registers and the node goes INVAL), so each GPU gets a stand-in device
file: a character device with /dev/null's numbers (``mknod``), or a plain file where mknod is refused (slurmd then
logs that it is no device, and counts it all the same). With ``TaskPlugin=task/none`` nothing ever opens them; what
this buys is Slurm's own GPU indices in ``SLURM_JOB_GPUS``, as a GPU node's prolog sees them.

Every wait is for a condition (the munge socket answering, ``scontrol ping``, a node's state), never a sleep.
Tear-down cancels every job, waits until none is left, stops the daemons, and kills by pid any ``slurmstepd`` or job
process left that carries this cluster's ``SLURM_CONF`` in its environment (only ever this fixture's).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from gpuscope.runner.process import ManagedProcess
from tests.support.net import free_port, wait_for

BINARIES = ("munged", "munge", "slurmctld", "slurmd", "scontrol", "sbatch", "squeue", "scancel", "sinfo")
_STATE = re.compile(r"(?:^| )State=(\S+)")
# ``Reason=<text> [<user>@<time>]``: Slurm appends who set the reason and when.
_REASON = re.compile(r"(?:^| )Reason=(.*?) \[[^\]\s]*@\d{4}-\d\d-\d\dT[\d:]+\]")


def missing_binaries() -> list[str]:
    return [b for b in BINARIES if shutil.which(b) is None]


def require_slurm() -> None:
    """Fail (never skip) without root or the binaries: CI has both, and a skipped Slurm test proves nothing."""
    missing = missing_binaries()
    assert not missing, f"Slurm tests need {', '.join(missing)}: run scripts/ensure-binaries (apt: slurm-wlm munge)"
    assert os.geteuid() == 0, "Slurm tests run slurmctld/slurmd as root: run the tests as root (CI does)"


@dataclass(frozen=True)
class SlurmNode:
    name: str
    state: str  # e.g. IDLE, MIXED+DRAIN, IDLE+DRAIN
    reason: str  # without Slurm's " [user@time]" suffix; "" when none

    @property
    def flags(self) -> set[str]:
        return set(self.state.split("+"))


@dataclass(frozen=True)
class Slurm:
    root: Path
    conf: Path
    nodes: tuple[str, ...]
    gpus: int

    @property
    def env(self) -> dict[str, str]:
        """The environment a Slurm client (scontrol, sbatch, gpuscope remediate) needs to find this cluster."""
        return {**os.environ, "SLURM_CONF": str(self.conf)}

    def run(self, *argv: str, check: bool = True) -> str:
        done = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=30, check=False)
        if check and done.returncode != 0:
            raise AssertionError(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.strip()}")
        return done.stdout

    def node(self, name: str) -> SlurmNode:
        line = self.run("scontrol", "show", "node", "-o", name).strip()
        state, reason = _STATE.search(line), _REASON.search(line)
        return SlurmNode(name, state[1] if state else "", reason[1] if reason else "")

    def sbatch(self, node: str, gpus: int, command: str = "sleep 600") -> str:
        """Submit a batch job holding ``gpus`` GPUs of ``node``; returns its job id."""
        out = self.run(
            "sbatch", "--parsable", "-w", node, f"--gres=gpu:{gpus}", "-o", str(self.root / "job-%j.out"),
            "--chdir", str(self.root), "--wrap", command,
        )  # fmt: skip
        return out.strip().split(";")[0]

    def job_state(self, job: str) -> str:
        """RUNNING, PENDING, ... or "" once the controller has forgotten it."""
        return self.run("squeue", "-h", "-j", job, "-o", "%T", check=False).strip()

    def wait_running(self, job: str) -> None:
        wait_for(lambda: self.job_state(job) == "RUNNING", timeout=60, what=f"job {job} running")

    def jobs(self) -> list[str]:
        return self.run("squeue", "-h", "-o", "%i").split()

    def cancel_all(self) -> None:
        if self.jobs():
            self.run("scancel", "--full", *self.jobs(), check=False)
        wait_for(lambda: not self.jobs(), timeout=60, what="every job gone")

    def resume_all(self) -> None:
        """Every node back to service, as after a person's ``scontrol update state=resume``."""
        for name in self.nodes:
            if "DRAIN" in self.node(name).flags:
                self.run("scontrol", "update", f"nodename={name}", "state=resume")
        wait_for(lambda: all("DRAIN" not in self.node(n).flags for n in self.nodes), what="nodes resumed")


def slurm_conf(
    root: Path,
    run: Path,
    nodes: Sequence[str],
    gpus: int,
    ports: dict[str, int],
    prolog: Path | None = None,
    epilog: Path | None = None,
    cpu_only: Sequence[str] = (),
) -> str:
    """The cluster's slurm.conf: one partition of every node, root as SlurmUser, nothing Slurm would look up;
    the nodes in ``cpu_only`` have no GPUs (no ``Gres``: a login or controller host)."""
    lines = [
        "ClusterName=gpuscope-test",
        f"SlurmctldHost={socket.gethostname()}(127.0.0.1)",
        f"SlurmctldPort={ports['slurmctld']}",
        f"SlurmdPort={ports['slurmd']}",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        f"AuthInfo=socket={run / 'munge.socket'}",
        "SlurmUser=root",
        "SlurmdUser=root",
        f"StateSaveLocation={root / 'state'}",
        f"SlurmdSpoolDir={root / 'spool' / '%n'}",
        f"SlurmctldPidFile={run / 'slurmctld.pid'}",
        f"SlurmdPidFile={run / 'slurmd-%n.pid'}",
        f"SlurmctldLogFile={root / 'log' / 'slurmctld.log'}",
        f"SlurmdLogFile={root / 'log' / 'slurmd-%n.log'}",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SchedulerType=sched/builtin",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core",
        "GresTypes=gpu",
        "ReturnToService=2",
        "MpiDefault=none",
        "JobCompType=jobcomp/none",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "KillWait=2",
        "InactiveLimit=0",
        "PrologFlags=Alloc",
    ]
    if prolog is not None:
        lines.append(f"Prolog={prolog}")
    if epilog is not None:
        lines.append(f"Epilog={epilog}")
    for name in nodes:
        lines.append(
            f"NodeName={name} NodeHostname=localhost NodeAddr=127.0.0.1 Port={ports[name]} CPUs=2 RealMemory=1000 "
            + ("" if name in cpu_only else f"Gres=gpu:{gpus} ")
            + "State=UNKNOWN"
        )
    lines.append("PartitionName=gpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES")
    return "\n".join(lines) + "\n"


def _device_files(directory: Path, gpus: int) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    for i in range(gpus):
        path = directory / f"gpu{i}"
        try:
            os.mknod(path, 0o666 | 0o020000, os.makedev(1, 3))  # a character device like /dev/null
        except PermissionError:
            path.touch()
    return f"Name=gpu File={directory}/gpu[0-{gpus - 1}]\n" if gpus > 1 else f"Name=gpu File={directory}/gpu0\n"


def _mine(conf: Path) -> list[int]:
    """Processes whose environment names this cluster's slurm.conf: its slurmstepds and job processes."""
    marker = f"SLURM_CONF={conf}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        with contextlib.suppress(OSError):
            if marker in (entry / "environ").read_bytes().split(b"\0"):
                pids.append(int(entry.name))
    return pids


def _munge_answers(run: Path) -> bool:
    sock = str(run / "munge.socket")
    done = subprocess.run(["munge", "-S", sock, "-n"], capture_output=True, timeout=10, check=False)
    return done.returncode == 0


@contextmanager
def slurm_cluster(
    workdir: Path,
    nodes: Sequence[str] = ("gpu-s-00",),
    gpus: int = 8,
    prolog: Path | None = None,
    epilog: Path | None = None,
    cpu_only: Sequence[str] = (),
) -> Iterator[Slurm]:
    """Start munged, slurmctld and a slurmd per node; yield once every node is IDLE; stop it all afterwards."""
    require_slurm()
    root = workdir.resolve()
    for sub in ("key", "state", "spool", "log"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    (root / "key").chmod(0o700)
    # munged wants every directory above its socket traversable by every user; pytest's tmp_path is private.
    run = Path(tempfile.mkdtemp(prefix="gpuscope-slurm-"))
    run.chmod(0o755)
    key = root / "key" / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    ports = {"slurmctld": free_port(), "slurmd": free_port(), **{n: free_port() for n in nodes}}
    conf = root / "slurm.conf"
    conf.write_text(slurm_conf(root, run, nodes, gpus, ports, prolog, epilog, cpu_only))
    (root / "gres.conf").write_text(_device_files(root / "dev", gpus))
    env_conf = ["env", f"SLURM_CONF={conf}"]
    munged = ManagedProcess(
        "munged",
        [
            "munged", "--foreground", f"--key-file={key}", f"--socket={run / 'munge.socket'}",
            f"--pid-file={run / 'munged.pid'}", f"--log-file={root / 'log' / 'munged.log'}",
            f"--seed-file={run / 'munged.seed'}",
        ],
        root / "log" / "munged.out",
        "",
    )  # fmt: skip
    ctld = ManagedProcess(
        "slurmctld", [*env_conf, "slurmctld", "-D", "-i", "-f", str(conf)], root / "log" / "slurmctld.out", ""
    )
    slurmds = [
        ManagedProcess(
            f"slurmd-{n}", [*env_conf, "slurmd", "-D", "-f", str(conf), "-N", n], root / "log" / f"{n}.out", ""
        )
        for n in nodes
    ]
    cluster = Slurm(root, conf, tuple(nodes), gpus)
    started: list[ManagedProcess] = []
    try:
        munged.start()
        started.append(munged)
        wait_for(lambda: _munge_answers(run), timeout=30, what="munged answering")
        ctld.start()
        started.append(ctld)
        wait_for(lambda: "UP" in cluster.run("scontrol", "ping", check=False), timeout=60, what="slurmctld UP")
        for slurmd in slurmds:
            slurmd.start()
            started.append(slurmd)
        wait_for(
            lambda: all(cluster.node(n).state == "IDLE" for n in nodes),
            timeout=60,
            what=f"nodes {', '.join(nodes)} IDLE (logs in {root / 'log'})",
        )
        yield cluster
    finally:
        with contextlib.suppress(AssertionError, subprocess.SubprocessError, OSError):
            if ctld.running():
                cluster.cancel_all()
        for child in reversed(started):
            child.stop(20)
        for pid in _mine(conf):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(run, ignore_errors=True)
