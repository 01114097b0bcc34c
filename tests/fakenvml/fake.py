"""A fake ``pynvml`` module for tests: the hardware stand-in, and nothing else.

Pure Python, built from device descriptions (``devices/*.yaml``, ``nodes/*.yaml``). It returns the *real*
ctypes structures of nvidia-ml-py (``c_nvmlFieldValue_t`` arrays, ``c_nvmlMemory_v2_t``, ``c_nvmlEventData_t``,
``c_nvmlGpmMetricsGet_t`` filled in place...) and raises the *real* ``NVMLError_*`` classes; constants and types
come from the real module, which imports without a driver. Functions it does not implement raise
AttributeError, so the backend cannot silently call something the fake does not model.

It counts every call by function name (``calls``), so tests can assert how many NVML calls a collection makes,
and it can run processes on GPUs (``processes.py``), lose GPUs, block a function (a hung driver call), deliver
XIDs through event sets, change a MIG layout, fail ``nvmlInit``, and play an old driver that lacks newer symbols.
"""

from __future__ import annotations

import ctypes
import itertools
import threading
from collections import Counter, deque
from typing import Any

import pynvml as real

from tests.fakenvml import description
from tests.fakenvml.calls import DeviceCalls
from tests.fakenvml.description import NO_PERMISSION, NOT_SUPPORTED, check
from tests.fakenvml.events import EventCalls
from tests.fakenvml.gpmmig import MigGpmCalls
from tests.fakenvml.processes import FakeProcess, ProcessCalls

ALL_LINKS = 0xFFFFFFFF
_BUSES = (0x18, 0x2A, 0x3A, 0x5D, 0x9A, 0xAB, 0xBA, 0xDB)
# value type -> (nvmlValueType_t, union member); "u_as_d" is NVML r545's memory temperature: typed double, in uiVal
_TYPES = {"d": (0, "dVal"), "u": (1, "uiVal"), "ull": (3, "ullVal"), "sll": (4, "sllVal"), "u_as_d": (0, "uiVal")}
_COUNTER_NAMES = {"crc_flit": "CRC_FLIT", "crc_data": "CRC_DATA", "replay": "REPLAY", "recovery": "RECOVERY"}
# NVLink error counters by lane (field ids exist for lanes 0-11) and their totals, named as nvidia-ml-py names them
_LANES = {
    key: tuple(getattr(real, f"NVML_FI_DEV_NVLINK_{name}_ERROR_COUNT_L{lane}") for lane in range(12))
    for key, name in _COUNTER_NAMES.items()
}
_TOTALS = {getattr(real, f"NVML_FI_DEV_NVLINK_{name}_ERROR_COUNT_TOTAL"): key for key, name in _COUNTER_NAMES.items()}
BACKGROUND = frozenset({"nvmlEventSetWait_v2"})  # called by the event thread, not by a collection


def _err(code: int) -> real.NVMLError:
    return real.NVMLError(code)


def _pointer(kind: Any, keep: list[Any]) -> Any:
    buf = ctypes.c_uint64(len(keep))  # a distinct address per object: ctypes handles compare by address
    keep.append(buf)
    return ctypes.cast(ctypes.pointer(buf), kind)


def address(pointer: Any) -> int:
    return int(ctypes.cast(pointer, ctypes.c_void_p).value or 0)


class MigDevice:
    def __init__(self, parent: Device, spec: dict[str, Any], keep: list[Any]) -> None:
        self.parent = parent
        self.spec = spec
        self.handle = _pointer(real.c_nvmlDevice_t, keep)

    @property
    def lost(self) -> bool:
        return self.parent.lost


class Device:
    """One physical GPU: its description (tests may change it) and its fake state."""

    def __init__(self, index: int, desc: dict[str, Any], keep: list[Any]) -> None:
        self.index = index
        self.desc = desc
        self.uuid = f"GPU-5e1f{index:04x}-7a2b-4c3d-8e9f-{0xA0B0C0D00000 + index:012x}"
        self.bus_id = f"00000000:{_BUSES[index % len(_BUSES)]:02X}:00.0"
        self.handle = _pointer(real.c_nvmlDevice_t, keep)
        self.lost = False
        self.mig: list[MigDevice] = [MigDevice(self, d, keep) for d in desc.get("mig", {}).get("devices", [])]
        self.processes: list[FakeProcess] = []  # what the per-process calls report (tests set them)

    @property
    def links(self) -> int:
        return int(self.desc.get("nvlink", {}).get("links", 0))

    def field(self, fid: int, scope: int) -> tuple[str, int | float] | int:
        """(type, value) of an NVML field, or its per-entry error code."""
        nvlink = self.desc.get("nvlink", {})
        if fid == 91:
            return ("u", self.links) if self.links else int(real.NVML_ERROR_NOT_SUPPORTED)
        if fid in (138, 139):
            if not self.links:
                return int(real.NVML_ERROR_NOT_SUPPORTED)
            counters = nvlink["tx_kib" if fid == 138 else "rx_kib"]
            if scope == ALL_LINKS:
                return "ull", sum(counters)
            return ("ull", counters[scope]) if scope < self.links else int(real.NVML_ERROR_INVALID_ARGUMENT)
        if fid == 165:
            return self._link_state(scope)
        for name, lanes in _LANES.items():
            if fid in lanes:
                lane = lanes.index(fid)
                return ("ull", nvlink[name][lane]) if lane < self.links else int(real.NVML_ERROR_NOT_SUPPORTED)
        if fid in _TOTALS:
            return ("ull", sum(nvlink[_TOTALS[fid]])) if self.links else int(real.NVML_ERROR_NOT_SUPPORTED)
        spec = self.desc.get("fields", {}).get(fid, NOT_SUPPORTED)
        if spec == NOT_SUPPORTED:
            return int(real.NVML_ERROR_NOT_SUPPORTED)
        if spec == NO_PERMISSION:
            return int(real.NVML_ERROR_NO_PERMISSION)
        ((kind, value),) = spec.items()
        if kind == "error":
            return int(value)
        return kind, value

    def _link_state(self, link: int) -> tuple[str, int] | int:
        """NVML_FI_DEV_NVLINK_GET_STATE of one link (scopeId): 1 active, 0 inactive (``nvlink.down`` lists those)."""
        if link >= self.links:
            return int(real.NVML_ERROR_INVALID_ARGUMENT)
        return "u", int(link not in self.desc.get("nvlink", {}).get("down", []))

    def gpm_metrics(self) -> dict[int, float]:
        gpm = self.desc.get("gpm", {})
        metrics = {int(k): float(v) for k, v in gpm.get("metrics", {}).items()}
        for direction in ("RX", "TX"):
            for link, value in enumerate(gpm.get(f"nvlink_{direction.lower()}_mib_s", [])):
                metrics[getattr(real, f"NVML_GPM_METRIC_NVLINK_L{link}_{direction}_PER_SEC")] = float(value)
        return metrics


class FakeNvml(DeviceCalls, MigGpmCalls, EventCalls, ProcessCalls):
    """Stands in for the ``pynvml`` module: pass it to ``NvmlBackend(nvml=...)``."""

    def __init__(self, node: str = "hgx-h100") -> None:
        spec = description.node(node)
        self.driver_version: str = spec["driver"]
        self.nvml_version: str = spec["nvml"]
        self.missing: set[str] = set(spec["missing"])  # C symbols this "driver" lacks
        self._keep: list[Any] = []
        self.devices = [Device(i, d, self._keep) for i, d in enumerate(spec["devices"])]
        self.calls: Counter[str] = Counter()
        self.init_error: int | None = None
        self.initialized = False
        self.now_us = 1_800_000_000_000_000
        self._gates: dict[str, threading.Event] = {}
        self._samples: dict[int, Any] = {}
        self._last_sample: dict[tuple[Any, ...], int] = {}
        self._seq = itertools.count(1)
        self._sets: dict[int, deque[tuple[Device, int, int]]] = {}
        self._registered: dict[tuple[int, int], int] = {}  # (set, device index) -> event mask
        self._cond = threading.Condition()
        self._lock = threading.Lock()

    # --- the stand-in's own controls ---------------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        value = getattr(real, name)
        if name.startswith("nvml") and callable(value) and not isinstance(value, type):
            raise AttributeError(f"the fake NVML does not implement {name}")
        return value

    def collection_calls(self) -> Counter[str]:
        """Calls made so far, without the event thread's waits."""
        with self._lock:
            return Counter({k: v for k, v in self.calls.items() if k not in BACKGROUND})

    def block(self, function: str) -> threading.Event:
        """Make ``function`` hang until the returned event is set (a wedged driver call)."""
        gate = threading.Event()
        self._gates[function] = gate
        return gate

    def lose(self, index: int) -> None:
        """GPU ``index`` falls off the bus: XID 79, then GPU_IS_LOST from every call on it."""
        self.xid(index, 79)
        self.devices[index].lost = True

    def restore(self, index: int) -> None:
        self.devices[index].lost = False

    def xid(self, index: int, code: int) -> None:
        self._event(self.devices[index], real.nvmlEventTypeXidCriticalError, code)

    def set_mig_devices(self, index: int, devices: list[dict[str, Any]]) -> None:
        """Reconfigure MIG on GPU ``index``: old MIG handles go stale, a MIG-change event fires."""
        dev = self.devices[index]
        dev.desc.setdefault("mig", {"slots": 7})["devices"] = devices
        dev.mig = [MigDevice(dev, d, self._keep) for d in devices]
        self._event(dev, real.nvmlEventMigConfigChange, 0)

    def _event(self, dev: Device, kind: int, data: int) -> None:
        with self._cond:
            for (event_set, index), mask in self._registered.items():
                if index == dev.index and mask & kind:
                    self._sets[event_set].append((dev, kind, data))
            self._cond.notify_all()

    # --- plumbing ------------------------------------------------------------------------------------------

    def _call(self, name: str, symbol: str | None = None) -> None:
        with self._lock:
            self.calls[name] += 1
        gate = self._gates.get(name)
        if gate is not None:
            gate.wait()
        if not self.initialized and name not in ("nvmlInit", "nvmlInitWithFlags"):
            raise _err(real.NVML_ERROR_UNINITIALIZED)
        if (symbol or name) in self.missing:
            raise _err(real.NVML_ERROR_FUNCTION_NOT_FOUND)

    def _target(self, handle: Any) -> Device | MigDevice:
        key = address(handle)
        for dev in self.devices:
            if address(dev.handle) == key:
                found: Device | MigDevice = dev
                break
            mig = next((m for m in dev.mig if address(m.handle) == key), None)
            if mig is not None:
                found = mig
                break
        else:
            raise _err(real.NVML_ERROR_INVALID_ARGUMENT)  # unknown or stale (MIG reconfigured) handle
        if found.lost:
            raise _err(real.NVML_ERROR_GPU_IS_LOST)
        return found

    def _gpu(self, handle: Any) -> Device:
        target = self._target(handle)
        if not isinstance(target, Device):
            raise _err(real.NVML_ERROR_NOT_SUPPORTED)  # a GPU-level call on a MIG device
        return target

    def _desc(self, handle: Any, key: str) -> Any:
        return check(self._gpu(handle).desc[key])

    # --- init and system ------------------------------------------------------------------------------------

    def nvmlInit(self) -> None:
        self._call("nvmlInit")
        if self.init_error is not None:
            raise _err(self.init_error)
        self.initialized = True

    def nvmlShutdown(self) -> None:
        self._call("nvmlShutdown")
        self.initialized = False

    def nvmlSystemGetDriverVersion(self) -> str:
        self._call("nvmlSystemGetDriverVersion")
        return self.driver_version

    def nvmlSystemGetNVMLVersion(self) -> str:
        self._call("nvmlSystemGetNVMLVersion")
        return self.nvml_version

    # --- identity ------------------------------------------------------------------------------------------

    def nvmlDeviceGetCount(self) -> int:
        self._call("nvmlDeviceGetCount")
        return len(self.devices)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> Any:
        self._call("nvmlDeviceGetHandleByIndex")
        if not 0 <= index < len(self.devices):
            raise _err(real.NVML_ERROR_INVALID_ARGUMENT)
        if self.devices[index].lost:
            raise _err(real.NVML_ERROR_GPU_IS_LOST)
        return self.devices[index].handle

    def nvmlDeviceGetHandleByUUID(self, uuid: str) -> Any:
        self._call("nvmlDeviceGetHandleByUUID")
        for dev in self.devices:
            if dev.uuid == uuid:
                if dev.lost:
                    raise _err(real.NVML_ERROR_GPU_IS_LOST)
                return dev.handle
        raise _err(real.NVML_ERROR_NOT_FOUND)

    def nvmlDeviceGetUUID(self, handle: Any) -> str:
        self._call("nvmlDeviceGetUUID")
        target = self._target(handle)
        return target.uuid if isinstance(target, Device) else str(target.spec["uuid"])

    def nvmlDeviceGetName(self, handle: Any) -> str:
        self._call("nvmlDeviceGetName")
        target = self._target(handle)
        if isinstance(target, Device):
            return str(target.desc["name"])
        return f"{target.parent.desc['name']} MIG {target.spec['profile']}"

    def nvmlDeviceGetPciInfo(self, handle: Any) -> Any:
        self._call("nvmlDeviceGetPciInfo", "nvmlDeviceGetPciInfo_v3")
        info = real.nvmlPciInfo_t()
        info.busId = self._gpu(handle).bus_id.encode()
        return info

    # --- batched field values -------------------------------------------------------------------------------

    def nvmlDeviceGetFieldValues(self, handle: Any, field_ids: list[Any]) -> Any:
        self._call("nvmlDeviceGetFieldValues")
        dev = self._gpu(handle)
        if not field_ids:
            raise _err(real.NVML_ERROR_INVALID_ARGUMENT)
        values = (real.c_nvmlFieldValue_t * len(field_ids))()
        for fv, requested in zip(values, field_ids, strict=True):
            fid, scope = requested if isinstance(requested, tuple) else (requested, 0)
            fv.fieldId, fv.scopeId, fv.timestamp, fv.latencyUsec = fid, scope, self.now_us, 7
            got = dev.field(fid, scope)
            if isinstance(got, int):
                fv.nvmlReturn = got
                continue
            kind, value = got
            value_type, member = _TYPES[kind]
            fv.valueType = value_type
            setattr(fv.value, member, value)
            fv.nvmlReturn = real.NVML_SUCCESS
        return values
