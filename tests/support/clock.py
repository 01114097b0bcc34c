"""The one fake clock: a time a test sets and moves, so nothing under test reads the wall or really sleeps."""

from __future__ import annotations

EPOCH = 1_800_000_000.0
"""The default start, a wall time in 2027: far from 0, so a code path that treats 0 as "never" is not hit."""


class FakeClock:
    """A settable clock: ``clock()`` reads ``clock.t``; a test moves it with ``clock.t += dt`` or ``clock.sleep(dt)``.

    It stands in for ``time.time`` and ``time.monotonic`` alike (both are ``() -> float``) and, with ``sleep``,
    for ``time.sleep``: sleeping moves the clock at once and records how long was asked for in ``slept``.
    """

    def __init__(self, t: float = EPOCH) -> None:
        self.t = t
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds
