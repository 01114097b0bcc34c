"""The background thread that talks to the Pushgateway, so the training loop never does.

It calls ``tick`` at once, then every ``interval_s``; after a failure it waits longer each time (doubling, with
jitter so a fleet of jobs does not retry in lockstep after a gateway restart, up to ``max_backoff_s``). The first
failure is logged as one warning, later ones at debug level, a recovery at info level. ``stop`` asks for one last
call (``final``: the completion push) and waits for it at most until its deadline: a gateway that is down or
hangs costs the job at most ``close_timeout_s`` at exit. The thread is a daemon, so a request still hanging when
the process ends does not keep it alive.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from gpuscope.backoff import Backoff
from gpuscope.jobs.labels import InvalidJobInput

log = logging.getLogger("gpuscope.jobs")

Call = Callable[[float], None]  # one push with this timeout (seconds); raises on failure


@dataclass(frozen=True, slots=True)
class PushPolicy:
    """How often and how patiently to push."""

    interval_s: float = 15.0
    timeout_s: float = 5.0
    max_backoff_s: float = 120.0
    close_timeout_s: float = 5.0

    def __post_init__(self) -> None:
        for name in ("interval_s", "timeout_s", "max_backoff_s", "close_timeout_s"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not 0 < value <= 86400:
                raise InvalidJobInput(f"{name} must be a number of seconds > 0, got {value!r}")
        if self.interval_s < 0.05:
            raise InvalidJobInput(f"interval_s {self.interval_s!r} is below 0.05 s: pushes must stay bounded")


@dataclass(frozen=True, slots=True)
class PushStats:
    ok: int
    failed: int
    last_error: str


class Pusher:
    """Runs ``tick`` periodically and ``final`` once at ``stop``, on a daemon thread."""

    def __init__(
        self,
        name: str,
        tick: Call,
        final: Call,
        policy: PushPolicy,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._name = name
        self._tick = tick
        self._final = final
        self._policy = policy
        self._monotonic = monotonic
        self._wake = threading.Event()
        self._done = threading.Event()
        self._deadline = 0.0
        rng = random.Random()
        # After a failure the next push waits the interval, then twice that, up to max_backoff_s, +-10 %.
        self._backoff = Backoff(policy.interval_s, policy.max_backoff_s, jitter=0.1, random=lambda: rng.uniform(-1, 1))
        self._lock = threading.Lock()
        self._ok = self._failed = 0
        self._failures_in_row = 0
        self._warned = False
        self._last_error = ""
        self._flushed = False
        self._thread = threading.Thread(target=self._run, name=f"gpuscope-job-pusher[{name}]", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> bool:
        """Ask for the final push and wait for it until the close deadline; ``True`` when it was delivered."""
        if self._thread.ident is None:  # never started: nothing to deliver
            return False
        self._deadline = self._monotonic() + self._policy.close_timeout_s
        self._wake.set()
        self._thread.join(self._policy.close_timeout_s)
        if not self._done.is_set():
            log.warning(
                "job metrics (%s): the Pushgateway did not take the final push within %gs; not waiting longer",
                self._name,
                self._policy.close_timeout_s,
            )
        return self._flushed

    @property
    def stats(self) -> PushStats:
        with self._lock:
            return PushStats(self._ok, self._failed, self._last_error)

    @property
    def thread(self) -> threading.Thread:
        return self._thread

    def _run(self) -> None:
        delay = 0.0
        while not self._wake.wait(delay):
            self._attempt(self._tick, self._policy.timeout_s)
            delay = self._backoff.next() if self._failures_in_row else self._policy.interval_s
        remaining = self._deadline - self._monotonic()
        self._flushed = self._attempt(self._final, min(self._policy.timeout_s, max(remaining, 0.25)))
        self._done.set()

    def _attempt(self, call: Call, timeout_s: float) -> bool:
        try:
            call(timeout_s)
        except Exception as exc:  # any failure of telemetry stays in this thread
            self._failed_once(exc)
            return False
        with self._lock:
            self._ok += 1
        if self._failures_in_row:
            log.info("job metrics (%s): Pushgateway push succeeded again after %d failures", self._name, self._failed)
        self._failures_in_row = 0
        self._backoff.reset()
        return True

    def _failed_once(self, exc: Exception) -> None:
        with self._lock:
            self._failed += 1
            self._last_error = str(exc) or type(exc).__name__
        self._failures_in_row += 1
        if not self._warned:
            self._warned = True
            log.warning(
                "job metrics (%s): push failed: %s. The job goes on; pushes are retried with backoff (up to %gs) "
                "and only the latest values are kept. Not repeated.",
                self._name,
                self._last_error,
                self._policy.max_backoff_s,
                exc_info=log.isEnabledFor(logging.DEBUG),
            )
        else:
            log.debug("job metrics (%s): push failed again: %s", self._name, self._last_error)
