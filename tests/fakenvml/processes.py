"""The fake's per-process calls: running-process lists (``_v2``/``_v3``), per-process utilization, accounting.

Tests set ``fake.devices[i].processes`` (``FakeProcess`` records) and move ``fake.now_us`` on to make new
utilization samples: a process's sample is stamped with the fake's clock, so a call passing the last-seen
timestamp gets nothing new (``NOT_FOUND``) until the clock moves, as NVML behaves. ``exit_after_list`` plays a
process that exits between the list call and the next one: it is listed, then has no sample and no accounting
record. Per-process utilization and accounting answer ``NOT_SUPPORTED`` on a MIG-enabled GPU; a driver without
the ``_v3`` lists or the R550 utilization call is a node (or test) with those symbols in ``missing``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pynvml as real

NO_INSTANCE = 0xFFFFFFFF


@dataclass(slots=True)
class FakeProcess:
    pid: int
    memory: int | None = 1 << 30  # None: the driver cannot say (NVML_VALUE_NOT_AVAILABLE)
    kinds: tuple[str, ...] = ("compute",)
    gi: int | None = None
    ci: int = 0
    sm: int = 0
    mem: int = 0
    enc: int = 0
    dec: int = 0
    exit_after_list: bool = False
    exited: bool = False


def _info(proc: FakeProcess) -> Any:
    raw = real.c_nvmlProcessInfo_v2_t(
        pid=proc.pid,
        usedGpuMemory=real.NVML_VALUE_NOT_AVAILABLE_ulonglong.value if proc.memory is None else proc.memory,
        gpuInstanceId=NO_INSTANCE if proc.gi is None else proc.gi,
        computeInstanceId=NO_INSTANCE if proc.gi is None else proc.ci,
    )
    obj = real.nvmlStructToFriendlyObject(raw)
    if obj.usedGpuMemory == real.NVML_VALUE_NOT_AVAILABLE_ulonglong.value:
        obj.usedGpuMemory = None  # what pynvml's wrapper does
    return obj


class ProcessCalls:
    """Mixed into ``FakeNvml``; relies on its ``_call``, ``_gpu`` and ``now_us``."""

    _call: Any
    _gpu: Any
    now_us: int

    def _listed(self, handle: Any, kind: str) -> list[Any]:
        dev = self._gpu(handle)
        out = []
        for proc in getattr(dev, "processes", []):
            if proc.exited or kind not in proc.kinds:
                continue
            out.append(_info(proc))
            if proc.exit_after_list:
                proc.exited = True
        return out

    def nvmlDeviceGetComputeRunningProcesses_v3(self, handle: Any) -> list[Any]:
        self._call("nvmlDeviceGetComputeRunningProcesses_v3")
        return self._listed(handle, "compute")

    def nvmlDeviceGetComputeRunningProcesses_v2(self, handle: Any) -> list[Any]:
        self._call("nvmlDeviceGetComputeRunningProcesses_v2")
        return self._listed(handle, "compute")

    def nvmlDeviceGetGraphicsRunningProcesses_v3(self, handle: Any) -> list[Any]:
        self._call("nvmlDeviceGetGraphicsRunningProcesses_v3")
        return self._listed(handle, "graphics")

    def nvmlDeviceGetGraphicsRunningProcesses_v2(self, handle: Any) -> list[Any]:
        self._call("nvmlDeviceGetGraphicsRunningProcesses_v2")
        return self._listed(handle, "graphics")

    def _process_samples(self, handle: Any, since: int) -> list[FakeProcess]:
        dev = self._gpu(handle)
        if dev.mig:
            raise real.NVMLError(real.NVML_ERROR_NOT_SUPPORTED)
        live = [p for p in getattr(dev, "processes", []) if not p.exited]
        if since >= self.now_us or not live:
            raise real.NVMLError(real.NVML_ERROR_NOT_FOUND)
        return live

    def nvmlDeviceGetProcessUtilization(self, handle: Any, since: int) -> list[Any]:
        self._call("nvmlDeviceGetProcessUtilization")
        return [
            real.c_nvmlProcessUtilizationSample_t(
                pid=p.pid, timeStamp=self.now_us, smUtil=p.sm, memUtil=p.mem, encUtil=p.enc, decUtil=p.dec
            )
            for p in self._process_samples(handle, since)
        ]

    def nvmlDeviceGetProcessesUtilizationInfo(self, handle: Any, since: int) -> list[Any]:
        self._call("nvmlDeviceGetProcessesUtilizationInfo")
        return [
            real.c_nvmlProcessUtilizationInfo_v1_t(
                timeStamp=self.now_us, pid=p.pid, smUtil=p.sm, memUtil=p.mem, encUtil=p.enc, decUtil=p.dec
            )
            for p in self._process_samples(handle, since)
        ]

    def nvmlDeviceGetAccountingMode(self, handle: Any) -> int:
        self._call("nvmlDeviceGetAccountingMode")
        dev = self._gpu(handle)
        if dev.mig:
            raise real.NVMLError(real.NVML_ERROR_NOT_SUPPORTED)
        return int(real.NVML_FEATURE_ENABLED if dev.desc.get("accounting") else real.NVML_FEATURE_DISABLED)

    def nvmlDeviceGetAccountingStats(self, handle: Any, pid: int) -> Any:
        self._call("nvmlDeviceGetAccountingStats")
        dev = self._gpu(handle)
        for proc in getattr(dev, "processes", []):
            if proc.pid == pid and not proc.exited:
                return real.c_nvmlAccountingStats_t(
                    gpuUtilization=proc.sm,
                    memoryUtilization=proc.mem,
                    maxMemoryUsage=proc.memory or 0,
                    time=0,
                    startTime=self.now_us - 60_000_000,
                    isRunning=1,
                )
        raise real.NVMLError(real.NVML_ERROR_NOT_FOUND)
