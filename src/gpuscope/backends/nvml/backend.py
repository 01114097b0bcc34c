"""The NVML backend: one long-lived ``nvmlInit``, retried with backoff while NVML cannot be used.

Nothing happens at construction, so ``gpuscope exporter --backend nvml`` always starts and serves ``/metrics``.
When the driver or library is missing (or NVML dies later: driver unloaded, version mismatch after an upgrade)
``collect`` raises ``BackendUnavailable`` with one line saying what is missing; the exporter then reports
``gpuscope_exporter_backend_up 0`` and ``/health`` 503 with that reason, and the next collection after the
backoff tries ``nvmlInit`` again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from gpuscope.backends.base import NodeReading, ReadRequest
from gpuscope.backends.nvml.device import Context
from gpuscope.backends.nvml.errors import NvmlGone, error_code, init_failure_reason
from gpuscope.backends.nvml.events import EventWatcher
from gpuscope.backends.nvml.library import load_pynvml, shutdown
from gpuscope.backends.nvml.session import Session, Timing, describe_gpus
from gpuscope.backends.retry import RetryGate
from gpuscope.fields.ids import FieldId

log = logging.getLogger("gpuscope.backends.nvml")

_CLOSE_WAIT_S = 2.0


class NvmlBackend:
    """Real GPUs through NVML. ``nvml`` is the ``pynvml`` module, or a stand-in with its API (tests)."""

    name = "nvml"

    def __init__(
        self,
        nvml: Any = None,
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
        timing: Timing | None = None,
        retry_initial_s: float = 5.0,
        retry_max_s: float = 120.0,
        event_timeout_ms: int = 500,
        watch_events: bool = True,
    ) -> None:
        self._nvml = nvml
        self._clock = clock
        self._monotonic = monotonic
        self._timing = timing or Timing()
        self._event_timeout_ms = event_timeout_ms
        self._watch_events = watch_events
        self._lock = threading.Lock()
        self._session: Session | None = None
        self._backoff = RetryGate(
            what="NVML", log=log, initial_s=retry_initial_s, max_s=retry_max_s, monotonic=monotonic
        )

    def collect(self, request: ReadRequest) -> NodeReading:
        with self._lock:
            session = self._ensure_session()
            try:
                return session.read(request)
            except NvmlGone as exc:
                self._teardown()
                raise self._backoff.failed(str(exc)) from None

    def close(self) -> None:
        # A collection wedged inside the driver holds the lock forever; exit without nvmlShutdown then.
        if not self._lock.acquire(timeout=_CLOSE_WAIT_S):
            log.warning("an NVML call is still blocked; exiting without nvmlShutdown")
            return
        try:
            self._teardown()
        finally:
            self._lock.release()

    # --- lifecycle ------------------------------------------------------------------------------------------

    def _ensure_session(self) -> Session:
        if self._session is not None:
            return self._session
        self._backoff.check()
        try:
            nvml = self._nvml if self._nvml is not None else load_pynvml()
        except ImportError:
            raise self._backoff.failed("the nvidia-ml-py package is not installed (pip install nvidia-ml-py)") from None
        self._nvml = nvml
        try:
            nvml.nvmlInit()
        except nvml.NVMLError as exc:
            raise self._backoff.failed(init_failure_reason(error_code(exc))) from None
        session = self._open_session(nvml)
        self._session = session
        self._backoff.succeeded()
        log.info(
            "NVML ready: driver %s, %s",
            session.system.get(FieldId.DCGM_FI_DRIVER_VERSION, "unknown"),
            describe_gpus(session.readers) if session.readers else "no GPU opened yet",
        )
        return session

    def _open_session(self, nvml: Any) -> Session:
        ctx = Context(nvml, monotonic=self._monotonic, clock=self._clock)
        events = EventWatcher(nvml, self._clock, self._event_timeout_ms) if self._watch_events else None
        session = Session(ctx, events, self._timing)
        try:
            if events is not None:
                try:
                    events.start()
                except nvml.NVMLError as exc:
                    log.warning("XID events unavailable: %s", init_failure_reason(error_code(exc)))
                    session.events = None
            session.open()
            if not session.readers and not session.unopened:
                raise NvmlGone("NVML reports no GPU on this machine")
        except NvmlGone as exc:
            session.close()
            shutdown(nvml)
            raise self._backoff.failed(str(exc)) from None
        return session

    def _teardown(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None
            shutdown(self._nvml)
