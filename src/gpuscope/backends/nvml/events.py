"""XID and MIG-change events: a daemon thread waiting on an NVML event set.

``nvmlEventSetWait_v2`` blocks in C with the GIL released, so waiting costs nothing; it returns at once when an
event is queued, else after the timeout (``NVMLError_Timeout``: the normal case), which is when the stop flag is
checked. XIDs are queued per GPU UUID and drained by the next collection (which turns them into
``DCGM_FI_DEV_XID_ERRORS`` and the XID counters); a MIG configuration change marks the GPU for re-enumeration.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from gpuscope.backends.base import XidEvent
from gpuscope.backends.nvml import constants as C
from gpuscope.backends.nvml.errors import FATAL_CODES, code_name, error_code

log = logging.getLogger("gpuscope.backends.nvml")

_ERROR_PAUSE_S = 1.0
_MAX_PENDING = 10_000  # per GPU, should nobody collect for a long while


def handle_key(handle: Any) -> int | None:
    """A hashable identity for a device handle (pynvml handles are unhashable ctypes pointers)."""
    return ctypes.cast(handle, ctypes.c_void_p).value


class EventWatcher:
    """Owns one NVML event set and the thread waiting on it."""

    def __init__(self, nvml: Any, clock: Callable[[], float] = time.time, timeout_ms: int = 500) -> None:
        self._nvml = nvml
        self._clock = clock
        self._timeout_ms = timeout_ms
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._uuids: dict[int | None, str] = {}
        self._xids: dict[str, list[XidEvent]] = {}
        self._mig_changed: set[str] = set()
        self._set: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._set = self._nvml.nvmlEventSetCreate()
        self._thread = threading.Thread(target=self._run, name="nvml-events", daemon=True)
        self._thread.start()

    def register(self, handle: Any, uuid: str) -> None:
        """Watch a physical GPU for critical XIDs and MIG changes; a GPU that supports neither is tolerated."""
        if self._set is None:
            return
        with self._lock:
            self._uuids[handle_key(handle)] = uuid
        for kind, what in ((C.EVENT_XID_CRITICAL_ERROR, "XID"), (C.EVENT_MIG_CONFIG_CHANGE, "MIG change")):
            try:
                self._nvml.nvmlDeviceRegisterEvents(handle, kind, self._set)
            except self._nvml.NVMLError as exc:
                level = logging.DEBUG if kind == C.EVENT_MIG_CONFIG_CHANGE else logging.WARNING
                log.log(level, "GPU %s: cannot watch %s events: %s", uuid, what, code_name(error_code(exc)))

    def drain(self, uuid: str) -> tuple[XidEvent, ...]:
        with self._lock:
            return tuple(self._xids.pop(uuid, ()))

    def take_mig_change(self, uuid: str) -> bool:
        with self._lock:
            changed = uuid in self._mig_changed
            self._mig_changed.discard(uuid)
            return changed

    def stop(self) -> None:
        """Stop the thread (within one wait timeout) and free the event set."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self._timeout_ms / 1000.0 + 2.0)
        if self._set is not None and (self._thread is None or not self._thread.is_alive()):
            with contextlib.suppress(self._nvml.NVMLError):
                self._nvml.nvmlEventSetFree(self._set)
        self._set = None

    # --- the thread ------------------------------------------------------------------------------------------

    def _run(self) -> None:
        nvml = self._nvml
        while not self._stop.is_set():
            try:
                data = nvml.nvmlEventSetWait_v2(self._set, self._timeout_ms)
            except nvml.NVMLError as exc:
                code = error_code(exc)
                if code == C.ERROR_TIMEOUT:
                    continue
                if code in FATAL_CODES:
                    log.warning("XID event watcher stopped: %s", code_name(code))
                    return
                log.debug("waiting for NVML events failed: %s", code_name(code))
                self._stop.wait(_ERROR_PAUSE_S)  # e.g. a lost GPU: don't spin
                continue
            self._deliver(data)

    def _deliver(self, data: Any) -> None:
        uuid = self._uuid_of(data.device)
        if uuid is None:
            return
        with self._lock:
            if int(data.eventType) & C.EVENT_XID_CRITICAL_ERROR:
                pending = self._xids.setdefault(uuid, [])
                if len(pending) < _MAX_PENDING:
                    pending.append(XidEvent(self._clock(), int(data.eventData)))
                log.warning("GPU %s: XID %d", uuid, int(data.eventData))
            if int(data.eventType) & C.EVENT_MIG_CONFIG_CHANGE:
                self._mig_changed.add(uuid)

    def _uuid_of(self, device: Any) -> str | None:
        with self._lock:
            uuid = self._uuids.get(handle_key(device))
        if uuid is not None:
            return uuid
        try:
            return str(self._nvml.nvmlDeviceGetUUID(device))
        except self._nvml.NVMLError:
            return None
