"""The fake's MIG enumeration and GPM, the way NVML behaves.

GPM is strict like the real thing: ``nvmlGpmMetricsGet`` answers only for two samples of the same entity, the
first taken immediately before the second (so a backend that diffs the wrong pair, or reuses one buffer, fails).
Metrics a device does not have answer NOT_SUPPORTED per metric.
"""

from __future__ import annotations

import ctypes
from typing import Any

import pynvml as real

from tests.fakenvml.description import check

_EMPTY = real.NVML_ERROR_NOT_FOUND


class MigGpmCalls:
    """Mixed into ``FakeNvml``; relies on its ``_call``, ``_gpu``, ``_target``, ``_samples``, ``_seq``, ``devices``."""

    _call: Any
    _gpu: Any
    _target: Any
    _keep: list[Any]
    _samples: dict[int, Any]
    _last_sample: dict[tuple[Any, ...], int]
    _seq: Any
    devices: list[Any]
    last_metrics: list[int]

    # --- MIG -----------------------------------------------------------------------------------------------

    def nvmlDeviceGetMigMode(self, handle: Any) -> list[int]:
        self._call("nvmlDeviceGetMigMode")
        return list(check(self._gpu(handle).desc.get("mig_mode", "not_supported")))

    def nvmlDeviceGetMaxMigDeviceCount(self, handle: Any) -> int:
        self._call("nvmlDeviceGetMaxMigDeviceCount")
        dev = self._gpu(handle)
        return int(dev.desc.get("mig", {}).get("slots", 0)) if dev.desc.get("mig_mode", [0])[0] else 0

    def nvmlDeviceGetMigDeviceHandleByIndex(self, handle: Any, slot: int) -> Any:
        self._call("nvmlDeviceGetMigDeviceHandleByIndex")
        for mig in self._gpu(handle).mig:
            if mig.spec["slot"] == slot:
                return mig.handle
        raise real.NVMLError(_EMPTY)  # an empty slot

    def nvmlDeviceGetGpuInstanceId(self, handle: Any) -> int:
        self._call("nvmlDeviceGetGpuInstanceId")
        target = self._target(handle)
        if not hasattr(target, "spec"):
            raise real.NVMLError(real.NVML_ERROR_NOT_SUPPORTED)
        return int(target.spec["gi"])

    def nvmlDeviceGetComputeInstanceId(self, handle: Any) -> int:
        self._call("nvmlDeviceGetComputeInstanceId")
        target = self._target(handle)
        if not hasattr(target, "spec"):
            raise real.NVMLError(real.NVML_ERROR_NOT_SUPPORTED)
        return int(target.spec["ci"])

    # --- GPM -----------------------------------------------------------------------------------------------

    def nvmlGpmQueryDeviceSupport(self, handle: Any) -> Any:
        self._call("nvmlGpmQueryDeviceSupport")
        support = real.c_nvmlGpmSupport_t()
        support.version = real.NVML_GPM_SUPPORT_VERSION
        support.isSupportedDevice = int(bool(self._gpu(handle).desc.get("gpm", {}).get("supported")))
        return support

    def nvmlGpmSampleAlloc(self) -> Any:
        self._call("nvmlGpmSampleAlloc")
        buf = ctypes.c_uint64(len(self._keep))
        self._keep.append(buf)
        sample = ctypes.cast(ctypes.pointer(buf), real.c_nvmlGpmSample_t)
        self._samples[ctypes.addressof(buf)] = _Sample()
        return sample

    def nvmlGpmSampleFree(self, sample: Any) -> None:
        self._call("nvmlGpmSampleFree")
        if self._samples.pop(_address(sample), None) is None:
            raise real.NVMLError(real.NVML_ERROR_INVALID_ARGUMENT)

    def nvmlGpmSampleGet(self, handle: Any, sample: Any) -> Any:
        self._call("nvmlGpmSampleGet")
        target = self._target(handle)
        dev = target.parent if hasattr(target, "spec") else target
        self._gpm_allowed(dev)
        entity = ("ci", target.spec["uuid"]) if hasattr(target, "spec") else ("gpu", dev.uuid)
        self._record(sample, entity)
        return sample

    def nvmlGpmMigSampleGet(self, handle: Any, gpu_instance: int, sample: Any) -> Any:
        self._call("nvmlGpmMigSampleGet")
        dev = self._gpu(handle)
        self._gpm_allowed(dev)
        if not any(m.spec["gi"] == gpu_instance for m in dev.mig):
            raise real.NVMLError(real.NVML_ERROR_NOT_FOUND)
        self._record(sample, ("gi", dev.uuid, gpu_instance))
        return sample

    def nvmlGpmMetricsGet(self, mg: Any) -> Any:
        self._call("nvmlGpmMetricsGet")
        if mg.version != real.NVML_GPM_METRICS_GET_VERSION:
            raise real.NVMLError(real.NVML_ERROR_ARGUMENT_VERSION_MISMATCH)
        first, second = self._samples.get(_address(mg.sample1)), self._samples.get(_address(mg.sample2))
        if first is None or second is None or first.entity is None or first.entity != second.entity:
            raise real.NVMLError(real.NVML_ERROR_INVALID_ARGUMENT)
        if second.prev_seq != first.seq:  # not two consecutive samples of this entity
            raise real.NVMLError(real.NVML_ERROR_INVALID_ARGUMENT)
        table = self._metric_table(first.entity)
        self.last_metrics = [int(mg.metrics[i].metricId) for i in range(mg.numMetrics)]
        for i in range(mg.numMetrics):
            metric = mg.metrics[i]
            if metric.metricId in table:
                metric.value = table[metric.metricId]
                metric.nvmlReturn = real.NVML_SUCCESS
            else:
                metric.value = 0.0
                metric.nvmlReturn = real.NVML_ERROR_NOT_SUPPORTED
        return mg

    def _gpm_allowed(self, dev: Any) -> None:
        gpm = dev.desc.get("gpm", {})
        if not gpm.get("supported"):
            raise real.NVMLError(real.NVML_ERROR_NOT_SUPPORTED)
        if gpm.get("permission") is False:
            raise real.NVMLError(real.NVML_ERROR_NO_PERMISSION)

    def _record(self, sample: Any, entity: tuple[Any, ...]) -> None:
        state = self._samples.get(_address(sample))
        if state is None:
            raise real.NVMLError(real.NVML_ERROR_INVALID_ARGUMENT)
        state.entity, state.seq = entity, next(self._seq)
        state.prev_seq = self._last_sample.get(entity, 0)
        self._last_sample[entity] = state.seq

    def _metric_table(self, entity: tuple[Any, ...]) -> dict[int, float]:
        for dev in self._devices():
            if entity == ("gpu", dev.uuid):
                return dict(dev.gpm_metrics())
            for mig in dev.mig:
                if entity in (("gi", dev.uuid, mig.spec["gi"]), ("ci", mig.spec["uuid"])):
                    return {int(k): float(v) for k, v in mig.spec.get("gpm", {}).items()}
        return {}

    def _devices(self) -> list[Any]:
        return list(self.devices)


class _Sample:
    def __init__(self) -> None:
        self.entity: tuple[Any, ...] | None = None
        self.seq = 0
        self.prev_seq = 0


def _address(pointer: Any) -> int:
    return int(ctypes.cast(pointer, ctypes.c_void_p).value or 0)
