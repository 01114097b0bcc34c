"""Loopback address blocks for simulated fleets, unique per test process so parallel tests never collide."""

from __future__ import annotations

import os
import random

_rng = random.Random(os.getpid())


def loopback_base() -> str:
    """A fresh 127.A.B.1 base address; nodes count up from there."""
    return f"127.{_rng.randint(2, 250)}.{_rng.randint(0, 250)}.1"
