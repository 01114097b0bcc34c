"""When a backend that could not reach its GPUs may try again: one warning per new reason, the wait between tries
``gpuscope.backoff``'s schedule.

A driver that is not loaded yet or a host engine that is restarting must not be hammered on every collection,
and must not fill the log with the same line; both the NVML and the DCGM backend share this gate.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from gpuscope.backends.base import BackendUnavailable
from gpuscope.backoff import Backoff


class RetryGate:
    """The next time a backend may try to (re)connect: the wait doubles from ``initial_s`` up to ``max_s`` per
    failure (``Backoff``), and the library is not touched until it has passed."""

    def __init__(
        self, *, what: str, log: logging.Logger, initial_s: float, max_s: float, monotonic: Callable[[], float]
    ) -> None:
        self._what = what
        self._log = log
        self._backoff = Backoff(initial_s, max_s)
        self._monotonic = monotonic
        self._next_attempt = float("-inf")
        self.reason = ""

    def check(self) -> None:
        """Raise the last failure again while its back-off runs, without touching the library."""
        if self._monotonic() < self._next_attempt:
            raise BackendUnavailable(self.reason)

    def failed(self, reason: str) -> BackendUnavailable:
        """Schedule the next attempt and return the exception that says why the backend cannot be used."""
        delay = self._backoff.next()
        self._next_attempt = self._monotonic() + delay
        level = logging.WARNING if reason != self.reason else logging.DEBUG
        self._log.log(level, "%s unavailable: %s; retrying in %gs", self._what, reason, delay)
        self.reason = reason
        return BackendUnavailable(reason)

    def succeeded(self) -> None:
        """Connected: the next failure starts the schedule from the beginning."""
        self._backoff.reset()
        self.reason = ""
