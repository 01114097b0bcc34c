"""A deadline on every DCGM call: calls run on one worker thread, and the caller waits at most ``timeout_s``.

A DCGM call can block for as long as the host engine or the driver does (a wedged engine, a GPU reset). The
collection must not: ``Deadline.call`` raises ``CallTimedOut`` when the worker has not returned in time, and the
session marks what that call would have read as failed (``timeout``). The worker is then still inside the C call;
until it returns every further call fails fast with ``CallTimedOut`` instead of queueing behind it, so a hung
engine costs one thread, never one per collection.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class CallTimedOut(Exception):
    """A DCGM call did not return within its deadline (or an earlier one is still blocked)."""


class _Job:
    __slots__ = ("done", "error", "function", "result")

    def __init__(self, function: Callable[[], object]) -> None:
        self.function = function
        self.done = threading.Event()
        self.result: object = None
        self.error: BaseException | None = None


class Deadline:
    """Runs callables on a dedicated daemon thread with a per-call timeout."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._busy: _Job | None = None
        self._worker = threading.Thread(target=self._run, name="gpuscope-dcgm-calls", daemon=True)
        self._worker.start()

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job.result = job.function()
            except BaseException as exc:  # handed to the caller, who decides
                job.error = exc
            job.done.set()

    @property
    def blocked(self) -> bool:
        """True while a call that overran its deadline is still running."""
        return self._busy is not None and not self._busy.done.is_set()

    def call(self, function: Callable[[], T], what: str) -> T:
        if self.blocked:
            raise CallTimedOut(f"{what}: an earlier DCGM call is still blocked")
        job = _Job(function)
        self._jobs.put(job)
        if not job.done.wait(self.timeout_s):
            self._busy = job
            raise CallTimedOut(f"{what}: no answer within {self.timeout_s:g}s")
        self._busy = None
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[return-value]

    def close(self) -> None:
        self._jobs.put(None)
