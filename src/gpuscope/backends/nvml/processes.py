"""The processes using one GPU (``--process-metrics``): who holds its memory and who keeps it busy.

Per GPU and collection, at most: one compute-process list, one graphics-process list, one per-process
utilization call (the samples since the previous call, passed NVML's last-seen timestamp), one accounting-mode
query and, when accounting is on and a process has no utilization sample, one accounting-stats call for it.
Each list call takes the newest version the driver has (``_v3``, else ``_v2``; remembered driver-wide).

A reading the GPU does not offer (graphics lists on a compute-only board, per-process utilization on a MIG-enabled
GPU, accounting without the call) is asked once, then left out for this GPU; the others still come. A process that
exits between two calls simply has no sample (NVML answers "not found" for it). A lost GPU raises ``GpuLost`` and
dead NVML ``NvmlGone``, as every other read does.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from gpuscope.backends.base import GpuProcess
from gpuscope.backends.nvml import constants as C
from gpuscope.backends.nvml.errors import classify, code_name, error_code
from gpuscope.backends.nvml.readers import Attempt, Fallbacks

log = logging.getLogger("gpuscope.backends.nvml")

NO_INSTANCE = 0xFFFFFFFF  # gpuInstanceId of a process on a GPU without MIG
# (reading, the pynvml functions newest first): the list calls' versions differ only in their C symbol
_LISTS = (
    ("compute", ("nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2")),
    ("graphics", ("nvmlDeviceGetGraphicsRunningProcesses_v3", "nvmlDeviceGetGraphicsRunningProcesses_v2")),
)
# per-process utilization: the R550 struct-versioned call first, then the older sample array
_UTILIZATION = ("nvmlDeviceGetProcessesUtilizationInfo", "nvmlDeviceGetProcessUtilization")
ACCOUNTING_ENABLED = 1


@dataclass(slots=True)
class _Usage:
    kinds: list[str] = field(default_factory=list)
    memory: int | None = None
    gi: int | None = None


@dataclass(frozen=True, slots=True)
class Sample:
    """Utilization percentages of one process, averaged over the samples of one call."""

    sm: float
    memory: float
    encoder: float
    decoder: float


class ProcessReader:
    """The per-process readings of one GPU; state: NVML's last-seen sample time, what the GPU does not offer."""

    def __init__(self, nvml: Any, handle: Any, label: str, fallbacks: Fallbacks) -> None:
        self.nvml = nvml
        self.handle = handle
        self.label = label
        self.fallbacks = fallbacks
        self.last_seen_us = 0
        self.unsupported: set[str] = set()

    def read(self) -> tuple[tuple[GpuProcess, ...], tuple[str, ...]]:
        """The GPU's processes by PID, and one line per reading that failed this time."""
        problems: list[str] = []
        usage: dict[int, _Usage] = {}
        for reading, functions in _LISTS:
            listed = self._call(reading, problems, *(Attempt(f, (self.handle,)) for f in functions))
            for info in listed or ():
                pid = int(info.pid)
                entry = usage.setdefault(pid, _Usage())
                entry.kinds.append(reading)
                memory = info.usedGpuMemory
                if memory is not None:
                    entry.memory = max(entry.memory or 0, int(memory))  # a process in both lists: the same memory
                gi = int(getattr(info, "gpuInstanceId", NO_INSTANCE))
                entry.gi = None if gi == NO_INSTANCE else gi
        samples = self._utilization(problems) if usage else {}
        processes = [
            GpuProcess(
                pid=pid,
                kinds=tuple(u.kinds),
                memory_bytes=u.memory,
                gpu_instance_id=u.gi,
                **_percentages(samples.get(pid)),
            )
            for pid, u in sorted(usage.items())
        ]
        if processes and self._accounting_on(problems):
            processes = [self._with_accounting(p, problems) if p.sm_percent is None else p for p in processes]
        return tuple(processes), tuple(problems)

    def _call(self, reading: str, problems: list[str], *attempts: Attempt) -> Any:
        """One reading through the fallbacks; ``None`` when it failed (said in ``problems``) or is unsupported."""
        if reading in self.unsupported:
            return None
        try:
            return self.fallbacks.run(self.nvml, *attempts)
        except self.nvml.NVMLError as exc:
            code = error_code(exc)
            if code == C.ERROR_NOT_FOUND and reading == "utilization":
                return []  # no sample newer than the last one: every process was idle
            failure = classify(code)  # raises on a lost GPU or dead NVML
            if failure.remember:
                self.unsupported.add(reading)
                log.info(
                    "%s: per-process %s is not available (%s); leaving it out", self.label, reading, code_name(code)
                )
                return None
            problems.append(f"{reading}: {code_name(code)}")
            return None

    def _utilization(self, problems: list[str]) -> dict[int, Sample]:
        since = self.last_seen_us
        got = self._call("utilization", problems, *(Attempt(f, (self.handle, since)) for f in _UTILIZATION))
        return self._average(got or (), since)

    def _average(self, raw: Iterable[Any], since: int) -> dict[int, Sample]:
        sums: dict[int, list[float]] = {}
        for sample in raw:
            stamp = int(sample.timeStamp)
            if stamp <= since:
                continue  # NVML returns the whole buffer when it cannot filter by time
            self.last_seen_us = max(self.last_seen_us, stamp)
            acc = sums.setdefault(int(sample.pid), [0.0, 0.0, 0.0, 0.0, 0.0])
            acc[0] += int(sample.smUtil)
            acc[1] += int(sample.memUtil)
            acc[2] += int(sample.encUtil)
            acc[3] += int(sample.decUtil)
            acc[4] += 1
        return {pid: Sample(a[0] / a[4], a[1] / a[4], a[2] / a[4], a[3] / a[4]) for pid, a in sums.items()}

    def _accounting_on(self, problems: list[str]) -> bool:
        mode = self._call("accounting", problems, Attempt("nvmlDeviceGetAccountingMode", (self.handle,)))
        return mode is not None and int(mode) == ACCOUNTING_ENABLED

    def _with_accounting(self, process: GpuProcess, problems: list[str]) -> GpuProcess:
        """A process without a utilization sample: its accounting averages, while NVML still accounts it."""
        try:
            stats = self.nvml.nvmlDeviceGetAccountingStats(self.handle, process.pid)
        except self.nvml.NVMLError as exc:
            code = error_code(exc)
            if code != C.ERROR_NOT_FOUND:  # not found: it exited since the list call
                failure = classify(code)
                if failure.remember:
                    self.unsupported.add("accounting")
                else:
                    problems.append(f"accounting: {code_name(code)}")
            return process
        if not int(stats.isRunning):
            return process
        return replace(  # averages over the process's life so far: the best NVML offers without samples
            process,
            sm_percent=float(stats.gpuUtilization),
            memory_percent=float(stats.memoryUtilization),
        )


def _percentages(sample: Sample | None) -> dict[str, float | None]:
    if sample is None:
        return {"sm_percent": None, "memory_percent": None, "encoder_percent": None, "decoder_percent": None}
    return {
        "sm_percent": sample.sm,
        "memory_percent": sample.memory,
        "encoder_percent": sample.encoder,
        "decoder_percent": sample.decoder,
    }
