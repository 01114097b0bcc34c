"""Reads the attribution sources once per collection, on the collection worker thread.

The kubelet and the mapping directory are read together with the GPUs, so the snapshot's attribution always
matches its reading and a scrape never waits on the kubelet. Problems are logged once (when they start, change or
end), not every interval, and show in the self-metrics.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from gpuscope.backends.base import GpuReading
from gpuscope.exporter.workloads.hpc import read_job_dir
from gpuscope.exporter.workloads.kubelet import KubeletClient, KubeletError
from gpuscope.exporter.workloads.model import (
    DEFAULT_SOCKET,
    Attribution,
    PodDevice,
    Target,
    WorkloadLabels,
    WorkloadStatus,
    resolve,
)

log = logging.getLogger(__name__)

# Consecutive failed kubelet calls after which the last good pod list is dropped. A single failure keeps the
# attribution (no flapping joins on a kubelet hiccup); a kubelet that stays away loses it within a few intervals.
KUBELET_GRACE = 3
_MAX_REMEMBERED = 1024


@dataclass(frozen=True, slots=True)
class WorkloadSettings:
    """Where attribution comes from and how it is exposed."""

    mode: WorkloadLabels = WorkloadLabels.INFO
    kubernetes: bool = False
    socket_path: str = DEFAULT_SOCKET
    resource_names: tuple[str, ...] = ()
    hpc_dir: str = ""

    @property
    def enabled(self) -> bool:
        return self.mode is not WorkloadLabels.OFF and (self.kubernetes or bool(self.hpc_dir))


class WorkloadSource:
    """One node's attribution sources; not thread-safe (one collection at a time, as the collector runs)."""

    def __init__(
        self, settings: WorkloadSettings, kubelet: KubeletClient | None = None, timeout_s: float = 5.0
    ) -> None:
        self.settings = settings
        self.kubelet = kubelet
        if kubelet is None and settings.kubernetes:
            self.kubelet = KubeletClient(settings.socket_path, timeout_s)
        self._pods: list[PodDevice] = []
        self._failures = 0
        self._errors_total = 0
        self._kubelet_problem = ""
        self._hpc_problem: str | None = None
        self._reported_unmatched: set[str] = set()

    def read(self, gpus: Sequence[GpuReading]) -> tuple[Attribution, WorkloadStatus]:
        """Ask the kubelet, read the mapping directory, and place both on ``gpus``."""
        kubelet_up = self._read_kubelet()
        jobs, hpc_ok = self._read_jobs()
        attribution = resolve(gpus, self._pods, jobs, self.settings.resource_names)
        self._report_unmatched(attribution.unmatched)
        status = WorkloadStatus(
            kubernetes=self.kubelet is not None,
            kubelet_up=kubelet_up,
            kubelet_errors=self._errors_total,
            hpc=bool(self.settings.hpc_dir),
            hpc_dir_readable=hpc_ok,
        )
        return attribution, status

    def _read_kubelet(self) -> bool:
        if self.kubelet is None:
            return False
        try:
            self._pods = self.kubelet.list_devices()
        except KubeletError as exc:
            self._failures += 1
            self._errors_total += 1
            if str(exc) != self._kubelet_problem:
                self._kubelet_problem = str(exc)
                log.warning("no pod attribution from the kubelet: %s", exc)
            if self._failures >= KUBELET_GRACE:
                self._pods = []
            return False
        if self._kubelet_problem:
            log.info("the kubelet answers again; pod attribution resumed")
            self._kubelet_problem = ""
        self._failures = 0
        return True

    def _read_jobs(self) -> tuple[dict[Target, tuple[str, ...]], bool]:
        path = self.settings.hpc_dir
        if not path:
            return {}, False
        try:
            jobs = read_job_dir(path)
        except OSError as exc:
            problem = exc.strerror or str(exc)
            if problem != self._hpc_problem:
                self._hpc_problem = problem
                log.warning("cannot read the HPC job mapping directory %s (--hpc-job-mapping-dir): %s", path, problem)
            return {}, False
        if self._hpc_problem:
            log.info("HPC job mapping directory %s is readable again", path)
            self._hpc_problem = None
        return jobs, True

    def _report_unmatched(self, unmatched: Sequence[str]) -> None:
        for name in unmatched:
            if name not in self._reported_unmatched and len(self._reported_unmatched) < _MAX_REMEMBERED:
                self._reported_unmatched.add(name)
                log.warning("workload attribution: %r names no GPU or MIG instance on this node", name)

    def close(self) -> None:
        if self.kubelet is not None:
            self.kubelet.close()
