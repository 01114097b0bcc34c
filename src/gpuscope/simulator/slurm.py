"""Simulated Slurm jobs on the nodes of a Slurm cluster, attributed as dcgm-exporter attributes them on HPC nodes.

A Slurm prolog writes one file per GPU of a starting job into the node's job-mapping directory, named for the GPU
index and holding the job id; the epilog removes it (``--hpc-job-mapping-dir``; ``exporter/attribution/hpc.py`` reads
it). ``SlurmSim`` keeps each node's directory equal to the jobs running on it now, and reports the jobs that push
metrics (``gpuscope.jobs``) to the Pushgateway while they run, finishing them when they end.

Jobs are a deterministic function of the node and the time. Each node runs three job slots: a 4-GPU training job
(GPUs 0-3, 20 minutes, pushing its progress), a 2-GPU job (GPUs 4-5, 10 minutes) and a 1-GPU job (GPU 6, 5
minutes); GPU 7 stays free for whoever queues next. A job ends and the next one of its slot starts at once.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gpuscope.jobs.reporter import JobReporter

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Slot:
    gpus: tuple[int, ...]
    seconds: float
    name: str  # the job's name (Pushgateway ``job``)
    user: str
    pushes: bool  # reports progress through the Pushgateway


SLOTS = (
    Slot((0, 1, 2, 3), 1200.0, "pretrain", "alice", True),
    Slot((4, 5), 600.0, "finetune", "bob", False),
    Slot((6,), 300.0, "eval", "carol", True),
)


@dataclass(frozen=True, slots=True)
class SimJob:
    job_id: str
    slot: Slot
    gpus: tuple[int, ...]  # of this node
    started: float


def _job_id(host: str, slot: int, generation: int) -> str:
    # Slurm job ids are integers; keep them 6 digits and distinct per node, slot and generation
    digest = hashlib.sha256(f"{host}/{slot}/{generation}".encode()).digest()
    return str(100_000 + int.from_bytes(digest[:4], "big") % 900_000)


def jobs_at(host: str, gpus: int, now: float) -> list[SimJob]:
    """The jobs running on ``host`` (with ``gpus`` GPUs) at ``now``: every slot whose GPUs the node has."""
    out = []
    for n, slot in enumerate(SLOTS):
        held = tuple(g for g in slot.gpus if g < gpus)
        if not held:
            continue
        generation = int(now // slot.seconds)
        out.append(SimJob(_job_id(host, n, generation), slot, held, generation * slot.seconds))
    return out


def mapping(jobs: Sequence[SimJob]) -> dict[str, str]:
    """Mapping file name (the GPU index) -> its content (the job id, one per line)."""
    return {str(g): f"{job.job_id}\n" for job in jobs for g in job.gpus}


def sync_job_dir(directory: Path, files: Mapping[str, str]) -> None:
    """Make ``directory`` hold exactly ``files``: the epilog's removals, then the prolog's writes (each atomic)."""
    directory.mkdir(parents=True, exist_ok=True)
    for entry in directory.iterdir():
        if entry.name not in files:
            entry.unlink(missing_ok=True)
    for name, text in files.items():
        path = directory / name
        try:
            if path.read_text(encoding="utf-8") == text:
                continue
        except OSError:
            pass
        tmp = directory / f".{name}.tmp"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)


@dataclass(frozen=True, slots=True)
class SlurmNode:
    hostname: str
    gpus: int
    uuids: tuple[str, ...]  # by GPU index, for the jobs' info series
    job_dir: Path


class SlurmSim:
    """Keeps the Slurm nodes' mapping directories and the pushing jobs' reporters in step with the time."""

    def __init__(self, nodes: Sequence[SlurmNode], gateway: str, push_interval_s: float = 15.0) -> None:
        self.nodes = list(nodes)
        self.gateway = gateway
        self.push_interval_s = push_interval_s
        self._lock = threading.Lock()
        self._reporters: dict[tuple[str, str], JobReporter] = {}

    def _reporter(self, job: SimJob, node: SlurmNode) -> JobReporter:
        return JobReporter(
            job.job_id,
            gateway=self.gateway,
            gpus=[node.uuids[g] for g in job.gpus],
            job=job.slot.name,
            user=job.slot.user,
            hostname=node.hostname,
            push_interval_s=self.push_interval_s,
            close_timeout_s=2.0,
        ).start()

    def tick(self, now: float) -> None:
        """Write the mapping files of the jobs running at ``now``; start, advance and finish the reporters."""
        with self._lock:
            running: set[tuple[str, str]] = set()
            for node in self.nodes:
                jobs = jobs_at(node.hostname, node.gpus, now)
                try:
                    sync_job_dir(node.job_dir, mapping(jobs))
                except OSError as exc:  # the stack's own directory: say so, keep the rest going
                    log.warning("cannot write the Slurm job mapping directory %s: %s", node.job_dir, exc)
                for job in jobs:
                    if not job.slot.pushes:
                        continue
                    key = (node.hostname, job.job_id)
                    running.add(key)
                    reporter = self._reporters.get(key)
                    if reporter is None:
                        reporter = self._reporters[key] = self._reporter(job, node)
                    # a steady step of 0.25 s, 512 samples: the progress L5's batch-jobs row shows
                    reporter.step(0.25, samples=512, tokens=65_536)
            for key in [k for k in self._reporters if k not in running]:
                self._reporters.pop(key).finish(0)

    def close(self) -> None:
        """Finish every running job's reporter (the stack is going away; the jobs end with it)."""
        with self._lock:
            for reporter in self._reporters.values():
                reporter.finish(0)
            self._reporters.clear()
