"""The fake's event sets: XIDs and MIG changes reach ``nvmlEventSetWait_v2`` like a driver delivers them.

Only events that happen after a device was registered for their type are recorded (as in NVML); a wait returns
at once when one is queued and raises the real ``NVMLError_Timeout`` after ``timeout_ms`` otherwise.
"""

from __future__ import annotations

import ctypes
import threading
from collections import deque
from typing import Any

import pynvml as real


class EventCalls:
    """Mixed into ``FakeNvml``; relies on its ``_call``, ``_gpu``, ``_keep``, ``_sets``, ``_registered``."""

    _call: Any
    _gpu: Any
    _keep: list[Any]
    _sets: dict[int, deque[tuple[Any, int, int]]]
    _registered: dict[tuple[int, int], int]
    _cond: threading.Condition

    def nvmlEventSetCreate(self) -> Any:
        self._call("nvmlEventSetCreate")
        buf = ctypes.c_uint64(len(self._keep))
        self._keep.append(buf)
        with self._cond:
            self._sets[ctypes.addressof(buf)] = deque()
        return ctypes.cast(ctypes.pointer(buf), real.c_nvmlEventSet_t)

    def nvmlDeviceRegisterEvents(self, handle: Any, kinds: int, event_set: Any) -> None:
        self._call("nvmlDeviceRegisterEvents")
        dev = self._gpu(handle)
        if dev.desc.get("events") != "supported":
            raise real.NVMLError(real.NVML_ERROR_NOT_SUPPORTED)
        key = (_address(event_set), dev.index)
        with self._cond:
            self._registered[key] = self._registered.get(key, 0) | int(kinds)

    def nvmlEventSetWait_v2(self, event_set: Any, timeout_ms: int) -> Any:
        self._call("nvmlEventSetWait_v2")
        queue = self._sets.get(_address(event_set))
        if queue is None:
            raise real.NVMLError(real.NVML_ERROR_INVALID_ARGUMENT)
        with self._cond:
            if not self._cond.wait_for(lambda: bool(queue), timeout=timeout_ms / 1000.0):
                raise real.NVMLError(real.NVML_ERROR_TIMEOUT)
            dev, kind, value = queue.popleft()
        data = real.c_nvmlEventData_t()
        data.device = dev.handle
        data.eventType = kind
        data.eventData = value
        data.gpuInstanceId = data.computeInstanceId = 0xFFFFFFFF
        return data

    def nvmlEventSetFree(self, event_set: Any) -> None:
        self._call("nvmlEventSetFree")
        with self._cond:
            if self._sets.pop(_address(event_set), None) is None:
                raise real.NVMLError(real.NVML_ERROR_INVALID_ARGUMENT)
            for key in [k for k in self._registered if k[0] == _address(event_set)]:
                del self._registered[key]

    def registered_events(self, index: int) -> int:
        """The event mask GPU ``index`` is registered for, over all live event sets."""
        with self._cond:
            mask = 0
            for (_set, dev_index), kinds in self._registered.items():
                if dev_index == index:
                    mask |= kinds
            return mask


def _address(pointer: Any) -> int:
    return int(ctypes.cast(pointer, ctypes.c_void_p).value or 0)
