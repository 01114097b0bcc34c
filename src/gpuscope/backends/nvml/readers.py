"""Individual NVML calls, for what ``nvmlDeviceGetFieldValues`` cannot serve, with fallbacks for older drivers.

Each reader makes one NVML call and returns its raw result; the field map picks fields out of it. NVML errors
propagate to the caller, which applies the error policy. When the driver lacks a newer symbol
(``FunctionNotFound``, or bindings without the wrapper) the reader falls back to the older one, once and for all.
"""

from __future__ import annotations

import ctypes
import logging
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gpuscope.backends.nvml import constants as C
from gpuscope.backends.nvml.errors import error_code
from gpuscope.backends.nvml.fieldmap import FabricInfo, MemoryInfo

log = logging.getLogger("gpuscope.backends.nvml")


@dataclass(frozen=True, slots=True)
class Attempt:
    """One way to make a call: a pynvml function with its arguments, and the C symbol it needs."""

    function: str
    args: tuple[Any, ...]
    symbol: str = ""
    kwargs: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


class Fallbacks:
    """Driver-wide memory of missing NVML symbols: try the newest way first, remember what the driver lacks."""

    def __init__(self) -> None:
        self.missing: set[str] = set()

    def run(self, nvml: Any, *attempts: Attempt) -> Any:
        last = len(attempts) - 1
        for i, attempt in enumerate(attempts):
            symbol = attempt.symbol or attempt.function
            if symbol in self.missing and i < last:
                continue
            function = getattr(nvml, attempt.function, None)
            if function is None:  # bindings older than the call: same as a driver without the symbol
                if i == last:
                    raise nvml.NVMLError(C.ERROR_FUNCTION_NOT_FOUND)
                self._note_missing(symbol, attempts[i + 1])
                continue
            try:
                return function(*attempt.args, **attempt.kwargs)
            except nvml.NVMLError as exc:
                if error_code(exc) != C.ERROR_FUNCTION_NOT_FOUND or i == last:
                    raise
                self._note_missing(symbol, attempts[i + 1])
        raise nvml.NVMLError(C.ERROR_FUNCTION_NOT_FOUND)  # every attempt was known missing

    def _note_missing(self, symbol: str, instead: Attempt) -> None:
        if symbol not in self.missing:
            self.missing.add(symbol)
            log.info("this NVIDIA driver has no %s; using %s instead", symbol, instead.symbol or instead.function)


Reader = Callable[[Any, Any, tuple[int, ...], Fallbacks], Any]


def _simple(function: str) -> Reader:
    def read(nvml: Any, handle: Any, args: tuple[int, ...], _fb: Fallbacks) -> Any:
        return getattr(nvml, function)(handle, *args)

    return read


def read_memory(nvml: Any, handle: Any, _args: tuple[int, ...], fallbacks: Fallbacks) -> MemoryInfo:
    # v2 splits out reserved memory; v1's "used" includes it (the R510 "idle GPU uses 500 MiB" confusion).
    mem = fallbacks.run(
        nvml,
        Attempt(
            "nvmlDeviceGetMemoryInfo",
            (handle,),
            "nvmlDeviceGetMemoryInfo_v2",
            MappingProxyType({"version": getattr(nvml, "nvmlMemory_v2", 0x02000028)}),
        ),
        Attempt("nvmlDeviceGetMemoryInfo", (handle,)),
    )
    reserved = getattr(mem, "reserved", None)
    return MemoryInfo(int(mem.total), None if reserved is None else int(reserved), int(mem.free), int(mem.used))


def read_fabric(nvml: Any, handle: Any, _args: tuple[int, ...], _fb: Fallbacks) -> FabricInfo:
    # The v3 struct is the first with the health summary; drivers without it answer "not supported".
    info = nvml.c_nvmlGpuFabricInfo_v3_t()
    nvml.nvmlDeviceGetGpuFabricInfoV(handle, ctypes.byref(info))
    return FabricInfo(
        # nvml.h: nvmlGpuFabricState_t is an unsigned char; pynvml declares a 4-byte int, whose upper bytes are
        # the struct's padding (whatever the driver left there). Only the low byte is the state.
        state=int(info.state) & 0xFF,
        status=int(info.status),
        clique_id=int(info.cliqueId),
        cluster_uuid=str(uuid.UUID(bytes=bytes(info.clusterUuid))),
        health_mask=int(info.healthMask),
        health_summary=int(info.healthSummary),
    )


def read_temperature(nvml: Any, handle: Any, _args: tuple[int, ...], fallbacks: Fallbacks) -> Any:
    return fallbacks.run(
        nvml,
        Attempt("nvmlDeviceGetTemperatureV", (handle, C.TEMPERATURE_GPU)),
        Attempt("nvmlDeviceGetTemperature", (handle, C.TEMPERATURE_GPU)),
    )


def read_clock_event_reasons(nvml: Any, handle: Any, _args: tuple[int, ...], fallbacks: Fallbacks) -> Any:
    return fallbacks.run(
        nvml,
        Attempt("nvmlDeviceGetCurrentClocksEventReasons", (handle,)),
        Attempt("nvmlDeviceGetCurrentClocksThrottleReasons", (handle,)),
    )


READERS: Mapping[str, Reader] = MappingProxyType(
    {
        "brand": _simple("nvmlDeviceGetBrand"),
        "serial": _simple("nvmlDeviceGetSerial"),
        "inforom": _simple("nvmlDeviceGetInforomVersion"),
        "inforom_image": _simple("nvmlDeviceGetInforomImageVersion"),
        "vbios": _simple("nvmlDeviceGetVbiosVersion"),
        "clock": _simple("nvmlDeviceGetClockInfo"),
        "max_clock": _simple("nvmlDeviceGetMaxClockInfo"),
        "clock_event_reasons": read_clock_event_reasons,
        "temperature": read_temperature,
        "temp_threshold": _simple("nvmlDeviceGetTemperatureThreshold"),
        "power_usage": _simple("nvmlDeviceGetPowerUsage"),
        "power_limit": _simple("nvmlDeviceGetPowerManagementLimit"),
        "enforced_power_limit": _simple("nvmlDeviceGetEnforcedPowerLimit"),
        "power_limit_constraints": _simple("nvmlDeviceGetPowerManagementLimitConstraints"),
        "default_power_limit": _simple("nvmlDeviceGetPowerManagementDefaultLimit"),
        "pstate": _simple("nvmlDeviceGetPerformanceState"),
        "fan_speed": _simple("nvmlDeviceGetFanSpeed"),
        "utilization": _simple("nvmlDeviceGetUtilizationRates"),
        "encoder_utilization": _simple("nvmlDeviceGetEncoderUtilization"),
        "decoder_utilization": _simple("nvmlDeviceGetDecoderUtilization"),
        "pcie_link_gen": _simple("nvmlDeviceGetCurrPcieLinkGeneration"),
        "pcie_link_width": _simple("nvmlDeviceGetCurrPcieLinkWidth"),
        "memory": read_memory,
        "fabric": read_fabric,
        "vgpu_license": _simple("nvmlDeviceGetGridLicensableFeatures"),
        "nvlink_error_counter": _simple("nvmlDeviceGetNvLinkErrorCounter"),
    }
)
