"""The error policy: what an NVML return code means for a field, a GPU, or the backend.

- NotSupported / NoPermission (and a field id an older driver does not know): that series is left out for that
  GPU, and the source is remembered so NVML is not asked again (logged once, when remembered).
- GpuIsLost / ResetRequired: the GPU is gone; its series disappear and it is re-probed slowly.
- Uninitialized / DriverNotLoaded / LibraryNotFound / version mismatch: NVML itself is unusable; the backend
  reports itself unavailable and retries ``nvmlInit`` with backoff.
- Anything else is transient: no value this collection, try again next time.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable
from dataclasses import dataclass

from gpuscope.backends.base import ReadError
from gpuscope.backends.nvml import constants as C

log = logging.getLogger("gpuscope.backends.nvml")

_NAMES = {
    C.ERROR_UNINITIALIZED: "Uninitialized",
    C.ERROR_INVALID_ARGUMENT: "Invalid Argument",
    C.ERROR_NOT_SUPPORTED: "Not Supported",
    C.ERROR_NO_PERMISSION: "Insufficient Permissions",
    C.ERROR_NOT_FOUND: "Not Found",
    C.ERROR_DRIVER_NOT_LOADED: "Driver Not Loaded",
    C.ERROR_TIMEOUT: "Timeout",
    C.ERROR_LIBRARY_NOT_FOUND: "NVML Shared Library Not Found",
    C.ERROR_FUNCTION_NOT_FOUND: "Function Not Found",
    C.ERROR_GPU_IS_LOST: "GPU is lost",
    C.ERROR_RESET_REQUIRED: "GPU requires reset",
    C.ERROR_LIB_RM_VERSION_MISMATCH: "NVML/driver version mismatch",
    C.ERROR_IN_USE: "In Use",
    C.ERROR_NO_DATA: "No Data",
    C.ERROR_NOT_READY: "Not Ready",
    C.ERROR_GPU_NOT_FOUND: "GPU Not Found",
    C.ERROR_UNKNOWN: "Unknown Error",
}

LOST_CODES = frozenset({C.ERROR_GPU_IS_LOST, C.ERROR_RESET_REQUIRED})
FATAL_CODES = frozenset(
    {
        C.ERROR_UNINITIALIZED,
        C.ERROR_DRIVER_NOT_LOADED,
        C.ERROR_LIBRARY_NOT_FOUND,
        C.ERROR_LIB_RM_VERSION_MISMATCH,
    }
)
_TRANSIENT = {
    C.ERROR_TIMEOUT: ReadError.TIMEOUT,
    C.ERROR_NO_DATA: ReadError.NO_DATA,
    C.ERROR_NOT_READY: ReadError.NO_DATA,
    C.ERROR_NOT_FOUND: ReadError.NO_DATA,
}

_INIT_HINTS = {
    C.ERROR_LIBRARY_NOT_FOUND: (
        "libnvidia-ml.so.1 not found: the NVIDIA driver is not installed, or not visible to this process "
        "(in a container, run it with the NVIDIA container runtime)"
    ),
    C.ERROR_DRIVER_NOT_LOADED: "the NVIDIA kernel driver is not loaded (is the nvidia module loaded? see dmesg)",
    C.ERROR_LIB_RM_VERSION_MISMATCH: (
        "the NVML library and the loaded kernel driver have different versions (driver upgraded without a "
        "reboot or module reload)"
    ),
    C.ERROR_NO_PERMISSION: "no permission to open the NVIDIA devices (/dev/nvidia*)",
    C.ERROR_GPU_NOT_FOUND: "NVML found no GPU",
}


class GpuLost(Exception):
    """An NVML call said the GPU is gone (GPU_IS_LOST, RESET_REQUIRED)."""

    def __init__(self, code: int) -> None:
        super().__init__(code_name(code))
        self.code = code


class NvmlGone(Exception):
    """NVML as a whole stopped working (driver unloaded, library mismatch); the message is the reason."""


@dataclass(frozen=True, slots=True)
class Failure:
    """What a failed read means for one field."""

    error: ReadError
    remember: bool  # True: stop asking NVML for this source on this GPU


def error_code(exc: BaseException) -> int:
    """The NVML return code of an ``NVMLError`` (``Unknown`` for anything without one)."""
    value = getattr(exc, "value", C.ERROR_UNKNOWN)
    return value if isinstance(value, int) else C.ERROR_UNKNOWN


def code_name(code: int) -> str:
    return f"{_NAMES.get(code, 'NVML error')} ({code})"


def classify(code: int, *, field_entry: bool = False) -> Failure:
    """The policy for one return code. Raises ``GpuLost`` or ``NvmlGone`` when the failure is not a field's."""
    if code in LOST_CODES:
        raise GpuLost(code)
    if code in FATAL_CODES:
        raise NvmlGone(f"NVML stopped working: {init_failure_reason(code)}")
    if code in (C.ERROR_NOT_SUPPORTED, C.ERROR_FUNCTION_NOT_FOUND):
        return Failure(ReadError.NOT_SUPPORTED, remember=True)
    if code == C.ERROR_NO_PERMISSION:
        return Failure(ReadError.NO_PERMISSION, remember=True)
    if field_entry and code == C.ERROR_INVALID_ARGUMENT:
        return Failure(ReadError.NOT_SUPPORTED, remember=True)  # a field id this driver does not know
    return Failure(_TRANSIENT.get(code, ReadError.FAILED), remember=False)


def init_failure_reason(code: int) -> str:
    """One line telling the user what is missing when NVML cannot be initialised."""
    return _INIT_HINTS.get(code, f"nvmlInit failed: {code_name(code)}")


class Memo:
    """Per GPU: NVML sources that answered NotSupported/NoPermission, so they are not asked again.

    Remembering happens once per source, so this is also where the one log line per source is written.
    Forgotten when the GPU is rediscovered (reset, MIG change) or the exporter restarts.
    """

    def __init__(self, gpu_label: str) -> None:
        self.gpu_label = gpu_label
        self._known: dict[Hashable, ReadError] = {}

    def get(self, key: Hashable) -> ReadError | None:
        return self._known.get(key)

    def remember(self, key: Hashable, error: ReadError, what: str, code: int) -> None:
        if key in self._known:
            return
        self._known[key] = error
        if error is ReadError.NO_PERMISSION:
            log.warning(
                "%s: no permission to read %s (%s); leaving it out. Running privileged (and, for MIG, with "
                "NVIDIA_MIG_MONITOR_DEVICES=all) grants it.",
                self.gpu_label,
                what,
                code_name(code),
            )
        else:
            log.info("%s: %s is not supported (%s); leaving it out", self.gpu_label, what, code_name(code))

    def forget(self, scope: Hashable) -> None:
        """Forget the sources whose key starts with ``scope`` (e.g. every GPU instance's)."""
        self._known = {k: v for k, v in self._known.items() if not (isinstance(k, tuple) and k[:1] == (scope,))}

    def __len__(self) -> int:
        return len(self._known)
