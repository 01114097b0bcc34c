"""The JSON API's numbers, checked before use: a browser's request can carry anything JSON can say.

Python's JSON parser reads ``1e400`` as ``inf`` and accepts ``NaN`` and ``Infinity``; ``int()`` of those raises
``OverflowError``/``ValueError``, and a number 4,000 digits long is slow to convert. Every number of a request is a
finite value of the right kind within its bounds, or the request is a 400 with one line naming the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from gpuscope.errors import UsageError

MAX_ID = 2**31 - 1  # Grafana's panel ids are JSON numbers the page sends back; nothing real is larger


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:40]}..."


def whole(body: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    """``body[key]`` as an integer in [lo, hi] (a float is accepted when it is a finite whole number)."""
    value = body.get(key)
    if value is None:
        return default
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise UsageError(f"{key} must be a whole number from {lo} to {hi}, not {_shown(value)}")
    return value


def real(body: Mapping[str, Any], key: str, lo: float, hi: float) -> float | None:
    """``body[key]`` as a finite number in [lo, hi], or None when it is absent."""
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise UsageError(f"{key} must be a number from {lo:g} to {hi:g}, not {_shown(value)}")
    return float(value)


def strings(value: Any) -> tuple[str, ...]:
    """A list of strings (or one string) as a tuple: any other shape is nothing selected."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in value if isinstance(v, str | int | float) and not isinstance(v, bool))
    return ()
