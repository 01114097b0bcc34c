"""DCGM field values -> gpuscope values and read errors (pure), and which catalog fields DCGM serves where.

DCGM serves every catalog field in the catalog's unit already (the catalog is written in DCGM's units), so a
value passes through unchanged except for its Python type, which follows the catalog row (an INT field stays
``int``, a DOUBLE field becomes ``float``). "No value" arrives in two ways: a per-value ``status`` (not watched,
no data yet, GPU lost) or a *blank sentinel* in the value itself (at or above ``*_BLANK``, the offset says why).

A double may also be ``NaN`` or infinite (a driver's division by zero, a corrupted record): ``+Inf`` is at or above
``DCGM_FP64_BLANK``, so it is blank by DCGM's own ``DCGM_FP64_IS_BLANK``, with no offset to say why (no data); ``NaN``
and ``-Inf`` stay values of a double field (the exposition writes them as Go does) and are a failed read of an
integer field or view, which has no way to hold them. Either way only that one value is lost.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from gpuscope.backends.base import ReadError, Value
from gpuscope.backends.dcgm import structs as S
from gpuscope.fields import dcgm_header
from gpuscope.fields.catalog import BY_ID, DCGM_SOURCES, HEADER_BY_ID, Entity, Field, MigScope, ValueKind

# Entity levels a field the catalog has no row for is read at: a GPU's own, or its GPU/compute instances' too
# (the levels of dcgm_fields.cpp's registrations). NvSwitch, CPU, ConnectX, vGPU, link and global fields are not.
_GPU_LEVEL = dcgm_header.ENTITY_GROUPS["DCGM_FE_GPU"]
_INSTANCE_LEVELS = {dcgm_header.ENTITY_GROUPS["DCGM_FE_GPU_I"], dcgm_header.ENTITY_GROUPS["DCGM_FE_GPU_CI"]}

_STATUS_ERRORS = {
    S.Return.NO_DATA: ReadError.NO_DATA,
    S.Return.STALE_DATA: ReadError.NO_DATA,
    S.Return.NOT_WATCHED: ReadError.NO_DATA,
    S.Return.NOT_SUPPORTED: ReadError.NOT_SUPPORTED,
    S.Return.FIELD_UNSUPPORTED_BY_API: ReadError.NOT_SUPPORTED,
    S.Return.UNKNOWN_FIELD: ReadError.NOT_SUPPORTED,
    S.Return.GPU_NOT_SUPPORTED: ReadError.NOT_SUPPORTED,
    S.Return.NO_PERMISSION: ReadError.NO_PERMISSION,
    S.Return.REQUIRES_ROOT: ReadError.NO_PERMISSION,
    S.Return.GPU_IS_LOST: ReadError.GPU_LOST,
    S.Return.TIMEOUT: ReadError.TIMEOUT,
    S.Return.NVML_DRIVER_TIMEOUT: ReadError.TIMEOUT,
}

_BLANK_ERRORS = {
    0: ReadError.NO_DATA,
    S.BLANK_NOT_FOUND: ReadError.NO_DATA,
    S.BLANK_NOT_SUPPORTED: ReadError.NOT_SUPPORTED,
    S.BLANK_NOT_PERMISSIONED: ReadError.NO_PERMISSION,
}


@dataclass(frozen=True, slots=True)
class Decoded:
    """One decoded ``dcgmFieldValue_v2``: a value or why there is none, and DCGM's timestamp (µs)."""

    value: Value | ReadError
    timestamp_us: int


def status_error(status: int, field: Field | None) -> ReadError:
    """A per-value status as a read error; an unwatched PROF field means the profiling module did not take it."""
    if status == S.Return.NOT_WATCHED and field is not None and field.prof:
        return ReadError.PROFILING_UNAVAILABLE
    try:
        return _STATUS_ERRORS.get(S.Return(status), ReadError.FAILED)
    except ValueError:
        return ReadError.FAILED


_STR_BLANK_ERRORS = {
    S.STR_NOT_SUPPORTED: ReadError.NOT_SUPPORTED,
    S.STR_NOT_PERMISSIONED: ReadError.NO_PERMISSION,
}


def _blank_error(offset: float) -> ReadError:
    """Why a blank sentinel has no value; an offset that is no small integer (``+Inf - BLANK``) says only that."""
    if not math.isfinite(offset):
        return ReadError.NO_DATA
    return _BLANK_ERRORS.get(int(offset), ReadError.NO_DATA)


def decode(raw: S.FieldValueV2) -> Decoded:
    """The value of one field value record, typed as its catalog row says."""
    field = BY_ID.get(int(raw.fieldId))
    if raw.status != S.Return.OK:
        return Decoded(value=status_error(int(raw.status), field), timestamp_us=int(raw.ts))
    kind = int(raw.fieldType)
    value: Value | ReadError
    if kind in (S.FT_INT64, S.FT_TIMESTAMP):
        number = int(raw.value.i64)
        value = _blank_error(number - S.INT64_BLANK) if number >= S.INT64_BLANK else number
    elif kind == S.FT_DOUBLE:
        real = float(raw.value.dbl)
        value = _blank_error(real - S.FP64_BLANK) if real >= S.FP64_BLANK else real
    elif kind == S.FT_STRING:
        text = bytes(raw.value.str).split(b"\0", 1)[0].decode(errors="replace")
        blank = text.startswith("<<<") and ">>>" in text
        value = _STR_BLANK_ERRORS.get(text, ReadError.NO_DATA) if blank else text
    else:
        value = ReadError.FAILED  # binary blobs: no catalog field is one
    if isinstance(value, ReadError) or field is None or isinstance(value, str):
        return Decoded(value=value, timestamp_us=int(raw.ts))
    if field.value is ValueKind.DOUBLE:
        return Decoded(value=float(value), timestamp_us=int(raw.ts))
    if field.value is ValueKind.INT:
        if isinstance(value, float) and not math.isfinite(value):
            return Decoded(value=ReadError.FAILED, timestamp_us=int(raw.ts))  # NaN or -Inf: no integer holds it
        return Decoded(value=int(value), timestamp_us=int(raw.ts))
    return Decoded(value=str(value), timestamp_us=int(raw.ts))


@dataclass(frozen=True, slots=True)
class FieldPlan:
    """The DCGM field ids one request needs, split the way they are watched and read."""

    device: tuple[int, ...]  # read on GPU entities (not profiling)
    instance: tuple[int, ...]  # read on GPU-instance entities (not profiling)
    prof: tuple[int, ...]  # the profiling module's fields, per GPU or per GPU instance
    unserved: tuple[int, ...]  # requested, but not served by this backend
    link: tuple[int, ...] = ()  # read on NVLink entities (GPU links and switch ports, ``dcgm_link_t`` ids)
    switch: tuple[int, ...] = ()  # read on NVSwitch entities
    # base-unit views (``catalog.DCGM_SOURCES``) computed from the DCGM field they come from: (view, source, factor)
    views: tuple[tuple[int, int, float], ...] = ()


def plan_fields(requested: Iterable[int], xid_field: int) -> FieldPlan:
    """Split the requested DCGM ids; ``xid_field`` is always watched (XID events come from its timestamps)."""
    device: set[int] = {xid_field}
    instance: set[int] = set()
    prof: set[int] = set()
    unserved: set[int] = set()
    link: set[int] = set()
    switch: set[int] = set()
    views: set[tuple[int, int, float]] = set()
    for fid in requested:
        field = BY_ID.get(fid)
        if field is not None and fid in DCGM_SOURCES:
            # DCGM has no id for a base-unit view: watch the field it is computed from, where the view is read
            source, factor = DCGM_SOURCES[fid]
            views.add((fid, int(source), factor))
            device.add(source)
            if field.mig is MigScope.INSTANCE:
                instance.add(source)
            continue
        if field is None and fid in HEADER_BY_ID:
            _plan_header_field(fid, device, instance, prof, unserved)
        elif field is not None and fid > 0 and field.entity is Entity.NVLINK:
            link.add(fid)
        elif field is not None and fid > 0 and field.entity is Entity.NVSWITCH:
            switch.add(fid)
        elif field is None or fid <= 0:
            unserved.add(fid)
        elif field.prof:
            prof.add(fid)
        else:
            device.add(fid)
            if field.mig is MigScope.INSTANCE:
                instance.add(fid)
    return FieldPlan(
        device=tuple(sorted(device)),
        instance=tuple(sorted(instance)),
        prof=tuple(sorted(prof)),
        unserved=tuple(sorted(unserved)),
        views=tuple(sorted(views)),
        link=tuple(sorted(link)),
        switch=tuple(sorted(switch)),
    )


def _plan_header_field(fid: int, device: set[int], instance: set[int], prof: set[int], unserved: set[int]) -> None:
    """Where a field only dcgm_fields.h describes is read: by its registered entity level and value type."""
    meta = HEADER_BY_ID[fid]
    if meta.type not in ("i", "d", "s", "t") or (
        meta.entity_level != _GPU_LEVEL and meta.entity_level not in _INSTANCE_LEVELS
    ):
        unserved.add(fid)  # a binary blob, or an entity this backend does not watch
    elif meta.name.startswith("DCGM_FI_PROF_"):
        prof.add(fid)
    else:
        device.add(fid)
        if meta.entity_level in _INSTANCE_LEVELS:
            instance.add(fid)


def with_views(
    row: dict[int, Value | ReadError], views: tuple[tuple[int, int, float], ...]
) -> dict[int, Value | ReadError]:
    """``row`` plus each view computed from its source's value (an error stays the source's error)."""
    if not views:
        return row
    out = dict(row)
    for view, source, factor in views:
        if source not in row:
            continue
        value = row[source]
        if isinstance(value, (ReadError, str)):
            out[view] = value if isinstance(value, ReadError) else ReadError.FAILED
        elif BY_ID[view].value is ValueKind.INT:
            scaled = value * factor
            out[view] = round(scaled) if math.isfinite(scaled) else ReadError.FAILED
        else:
            out[view] = float(value) * factor
    return out


def chunks(ids: tuple[int, ...], size: int = S.MAX_FIELD_IDS_PER_FIELD_GROUP) -> list[tuple[int, ...]]:
    """Field groups hold at most 128 ids."""
    return [ids[i : i + size] for i in range(0, len(ids), size)]
