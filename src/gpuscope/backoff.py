"""Waiting before trying again: capped exponential backoff, the one schedule every retry in gpuscope follows.

A wait starts at ``initial_s`` and doubles per failure up to ``max_s`` (an ``initial_s`` over the cap is the cap);
``reset`` after a success starts the schedule over. Jitter spreads a fleet's retries (a DaemonSet's nodes after an
API server restart, a job array after a Pushgateway restart) so they do not arrive in step: each wait is the step
times ``1 + jitter * random()``, where ``random`` gives a number in [0, 1) (``random.random``, the default) or in
[-1, 1) for jitter both ways. Standard library only: the API server watch, the backends, the jobs library and the
runner all use it.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable


class Backoff:
    """Capped exponential waits: ``initial_s`` doubling to ``max_s``, each stretched by up to ``jitter``.

    ``random`` gives the jitter's draw per wait (a constant makes the schedule exact, as tests need)."""

    def __init__(
        self,
        initial_s: float,
        max_s: float,
        *,
        jitter: float = 0.0,
        random: Callable[[], float] = _random.random,
    ) -> None:
        if initial_s < 0 or max_s < 0:  # 0 is fine: try again at once (the backends' tests)
            raise ValueError(f"backoff from {initial_s!r} s to {max_s!r} s: a wait is never negative")
        self.initial_s = min(initial_s, max_s)  # the cap caps every wait, the first one too
        self.max_s = max_s
        self.jitter = jitter
        self._random = random
        self._step = self.initial_s

    def next(self) -> float:
        """The wait before the next attempt; the step after it is twice as long (up to the cap)."""
        step = self._step
        self._step = min(step * 2, self.max_s)
        return step * (1 + self.jitter * self._random()) if self.jitter else step

    def reset(self) -> None:
        """A success: the next failure waits ``initial_s`` again."""
        self._step = self.initial_s
