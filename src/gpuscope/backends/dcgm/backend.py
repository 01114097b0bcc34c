"""The DCGM backend: a session with a host engine, rebuilt with backoff whenever the engine goes away.

Nothing happens at construction, so ``gpuscope exporter --backend dcgm`` always starts and serves ``/metrics``.
While libdcgm is missing, the host engine does not answer, refuses us (version mismatch) or has just
restarted, ``collect`` raises ``BackendUnavailable`` with the reason: ``gpuscope_exporter_backend_up`` 0 and
``/health`` 503 say so, and the next collection after the backoff connects again, re-creating groups and
watches on the new engine.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable

from gpuscope.backends.base import NodeReading, ReadRequest
from gpuscope.backends.dcgm import structs as S
from gpuscope.backends.dcgm.connection import Calls, EngineGone, Target
from gpuscope.backends.dcgm.deadline import CallTimedOut, Deadline
from gpuscope.backends.dcgm.library import DcgmError, Library, LibraryMissing, library_path, load
from gpuscope.backends.dcgm.session import Session
from gpuscope.backends.dcgm.watches import Timing
from gpuscope.backends.retry import RetryGate

log = logging.getLogger("gpuscope.backends.dcgm")


class DcgmBackend:
    """GPUs through DCGM. ``library_path`` None: ``$GPUSCOPE_LIBDCGM_PATH``, else ``libdcgm.so.4`` in
    ``$LD_LIBRARY_PATH`` or the loader's search (``library.library_path``)."""

    name = "dcgm"
    reads_header_fields = True  # any field dcgm_fields.h describes, by its id (values.plan_fields says where)

    def __init__(
        self,
        target: Target | None = None,
        *,
        library_path: str | None = None,
        timing: Timing | None = None,
        call_timeout_s: float = 10.0,
        retry_initial_s: float = 5.0,
        retry_max_s: float = 120.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.target = target or Target()
        self._library_path = library_path
        self._timing = timing or Timing()
        self._call_timeout_s = call_timeout_s
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._calls: Calls | None = None
        self._session: Session | None = None
        self._backoff = RetryGate(
            what="DCGM", log=log, initial_s=retry_initial_s, max_s=retry_max_s, monotonic=monotonic
        )

    def collect(self, request: ReadRequest) -> NodeReading:
        with self._lock:
            session = self._ensure_session()
            try:
                return session.read(request)
            except EngineGone as exc:
                self._teardown()
                raise self._backoff.failed(f"lost {self.target.describe}: {exc}") from None
            except (CallTimedOut, DcgmError) as exc:
                # Setting up watches failed for a reason that is not the engine's absence: start afresh.
                self._teardown()
                raise self._backoff.failed(f"{self.target.describe} failed: {exc}") from None

    def close(self) -> None:
        with self._lock:
            self._teardown()
            if self._calls is not None and not self._calls.deadline.blocked:
                with contextlib.suppress(Exception):  # shutting down anyway
                    self._calls.deadline.call(self._calls.lib.shutdown, "dcgmShutdown")
            if self._calls is not None:
                self._calls.deadline.close()

    # --- lifecycle ------------------------------------------------------------------------------------------

    def _ensure_calls(self) -> Calls:
        if self._calls is None:
            where = self._library_path or library_path()
            try:
                lib = Library(load(where))
            except LibraryMissing as exc:
                raise self._backoff.failed(str(exc)) from None
            log.debug("DCGM library %s loaded", where)
            calls = Calls(lib, Deadline(self._call_timeout_s))
            try:
                calls.run("dcgmInit", lib.init)
            except (EngineGone, CallTimedOut, DcgmError) as exc:
                calls.deadline.close()
                raise self._backoff.failed(f"dcgmInit failed: {exc}") from None
            self._calls = calls
        return self._calls

    def _ensure_session(self) -> Session:
        if self._session is not None:
            return self._session
        self._backoff.check()
        calls = self._ensure_calls()
        session = Session(calls, self.target, self._timing)
        try:
            session.open()
        except (EngineGone, CallTimedOut, DcgmError) as exc:
            session.close()
            raise self._backoff.failed(_reason(exc, self.target)) from None
        self._session = session
        self._backoff.succeeded()
        return session

    def _teardown(self) -> None:
        if self._session is not None:
            self._session.close()
            self._session = None


def _reason(exc: Exception, target: Target) -> str:
    if isinstance(exc, EngineGone):
        return str(exc)
    if isinstance(exc, CallTimedOut):
        return f"{target.describe} did not answer: {exc}"
    if isinstance(exc, DcgmError):
        return f"{target.describe}: {exc.function} returned {S.return_name(exc.code)}"
    return str(exc)
