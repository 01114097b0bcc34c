"""Reads what process attribution needs once per collection, on the collection thread: ``/proc`` for each PID the
backend listed, the live pods (a ``PodLookup``), and the kubelet's view the workload source already read.

Problems are logged when they start or change, not every interval; counts go to the self-metrics.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from gpuscope.backends.base import GpuReading
from gpuscope.exporter.attribution.resolve import Attribution
from gpuscope.exporter.processes.pods import DEFAULT_POD_LOG_DIR, PodLogDirectory, PodLookup

# ProcessSettings is every exporter's settings; the /proc reader and the attribution load only when a
# ProcessSource is made (--process-metrics on): tests/exporter/test_import_weight.py.
if TYPE_CHECKING:
    from gpuscope.exporter.processes.attribute import ProcessView
    from gpuscope.exporter.processes.procfs import ProcInfo, Unattributed

log = logging.getLogger(__name__)

MAX_PROCESSES = 4096  # per node and collection: beyond it the rest is unattributed (a runaway fork bomb)


@dataclass(frozen=True, slots=True)
class ProcessSettings:
    """``--process-metrics`` and where the host's processes and pods are seen from."""

    enabled: bool = False  # --process-metrics: the per-process families (and, in labels mode, the split)
    proc_root: str = "/proc"
    pod_log_dir: str = DEFAULT_POD_LOG_DIR  # "": no pod directory (the kubelet's device list only)
    # The per-pod split of -k --kubernetes-virtual-gpus (info or labels mode), with or without --process-metrics:
    # the processes are read for it as dcgm-exporter reads them (NVML's process lists, /proc/<pid>/cgroup's pod UID).
    split: bool = False

    @property
    def reads(self) -> bool:
        """Whether each collection reads the GPUs' processes."""
        return self.enabled or self.split


class ProcessSource:
    """Per-process attribution state of one node: counts since start, the last problem logged."""

    def __init__(self, settings: ProcessSettings, lookup: PodLookup | None = None) -> None:
        self.settings = settings
        # The seam for a pod-UID source (an API-server pod watch): anything with ``pods()``; else the kubelet's
        # pod log directory when one is configured.
        self.lookup = (
            lookup if lookup is not None else (PodLogDirectory(settings.pod_log_dir) if settings.pod_log_dir else None)
        )
        from gpuscope.exporter.processes.procfs import Unattributed

        self._reasons: Counter[Unattributed] = Counter(dict.fromkeys(Unattributed, 0))
        self._failures = 0
        self._problem = ""

    def read(self, gpus: Sequence[GpuReading], kubelet: Attribution, kubelet_on: bool) -> ProcessView:
        from gpuscope.exporter.processes.attribute import ProcessView, attribute
        from gpuscope.exporter.processes.procfs import read_process

        infos: dict[int, ProcInfo] = {}
        for gpu in gpus:
            self._failures += len(gpu.process_errors)
            for process in gpu.processes:
                if process.pid not in infos and len(infos) < MAX_PROCESSES:
                    infos[process.pid] = read_process(self.settings.proc_root, process.pid)
        pods = self.lookup.pods() if self.lookup is not None else None
        self._report(getattr(self.lookup, "problem", ""))
        usage = attribute(gpus, infos, pods, kubelet, kubelet_on)
        self._reasons.update(usage.reasons)
        return ProcessView(
            families=self.settings.enabled,
            split=self.settings.split,
            usage=usage,
            unattributed_total=MappingProxyType(dict(sorted(self._reasons.items()))),
            read_failures_total=self._failures,
        )

    def _report(self, problem: str) -> None:
        if problem != self._problem:
            if problem:
                log.warning("process attribution: %s; pod processes go to unattributed", problem)
            else:
                log.info("process attribution: the pod directory is readable again")
            self._problem = problem
