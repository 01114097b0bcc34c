"""The one batched read per GPU and collection: ``nvmlDeviceGetFieldValues`` for every requested field id.

The call raises only when the whole call fails (GPU lost, bad handle); each entry carries its own return code,
and its value is meaningful only when that code is ``NVML_SUCCESS``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gpuscope.backends.nvml import constants as C

Entry = tuple[int, int]  # (NVML field id, scope id)


@dataclass(frozen=True, slots=True)
class Raw:
    """One successful entry: the value as NVML typed it, the uiVal (DCGM reads some fields so) and when."""

    value: int | float
    as_uint: int
    timestamp_us: int


def decode(fv: Any) -> int | float:
    """The value of a ``c_nvmlFieldValue_t`` by its valueType (pynvml's union member names)."""
    member = C.VALUE_UNION_MEMBER.get(int(fv.valueType))
    if member is None:
        return int(fv.value.ullVal)
    value: int | float = getattr(fv.value, member)
    return value


def read_batch(nvml: Any, handle: Any, entries: Sequence[Entry]) -> Mapping[Entry, Raw | int]:
    """Read ``entries`` in one call: each maps to its value, or to its NVML error code. NVMLError propagates."""
    if not entries:
        return {}  # NVML rejects an empty request with INVALID_ARGUMENT
    results: dict[Entry, Raw | int] = {}
    values = nvml.nvmlDeviceGetFieldValues(handle, list(entries))
    for entry, fv in zip(entries, values, strict=True):  # NVML answers in request order
        code = int(fv.nvmlReturn)
        results[entry] = Raw(decode(fv), int(fv.value.uiVal), int(fv.timestamp)) if code == C.SUCCESS else code
    return results
