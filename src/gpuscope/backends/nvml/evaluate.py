"""Turn one collection's raw NVML results into values in DCGM's units, per target (pure).

Inputs are what the reader got back: field-value entries, individual call results, NVLink rates and the GPM
result, each either a value or the ``ReadError`` the error policy assigned. A target without a value and without
an error (GPM warming up) is simply absent this time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from gpuscope.backends.base import EntityReading, ProfilingState, ReadError, Value
from gpuscope.backends.nvml.batch import Entry, Raw
from gpuscope.backends.nvml.fieldmap import Batched, Call, CallKey, Gpm, NvlinkRate, Source, gpm_value, rate_value
from gpuscope.backends.nvml.gpm import GpmResult
from gpuscope.backends.nvml.plan import Plan, Target

_GPM_STATE_ERRORS = {
    ProfilingState.UNSUPPORTED: ReadError.NOT_SUPPORTED,
    ProfilingState.NO_PERMISSION: ReadError.NO_PERMISSION,
    ProfilingState.LOCKED: ReadError.PROFILING_UNAVAILABLE,
}


@dataclass(frozen=True, slots=True)
class RawResults:
    """Everything one entity's reads returned in one collection."""

    entries: Mapping[Entry, Raw | ReadError]
    calls: Mapping[CallKey, Any]  # the call's result, or a ReadError
    rates: Mapping[int, float | ReadError]  # NVLink scope -> KiB/s
    gpm: GpmResult | None = None


def evaluate(source: Source, raw: RawResults) -> Value | ReadError | None:
    """One target's value in DCGM's unit, its error, or ``None`` when there is nothing to say yet."""
    if isinstance(source, Batched):
        got = raw.entries.get((source.field_id, source.scope), ReadError.FAILED)
        if isinstance(got, ReadError):
            return got
        return source.convert(got.as_uint if source.as_uint else got.value)
    if isinstance(source, NvlinkRate):
        rate = raw.rates.get(source.scope, ReadError.FAILED)
        return rate if isinstance(rate, ReadError) else rate_value(source, rate)
    if isinstance(source, Call):
        result = raw.calls.get(source.key, ReadError.FAILED)
        return result if isinstance(result, ReadError) else source.pick(result)
    return _evaluate_gpm(source, raw.gpm)


def _evaluate_gpm(source: Gpm, result: GpmResult | None) -> Value | ReadError | None:
    if result is None:
        return ReadError.NOT_SUPPORTED
    if result.state is not ProfilingState.AVAILABLE:
        return _GPM_STATE_ERRORS.get(result.state)  # warming up: no value, and nothing wrong
    if source.metric in result.values:
        return gpm_value(source, result.values[source.metric])
    return result.errors.get(source.metric, ReadError.NO_DATA)


def readings(plan: Plan, raw: RawResults) -> dict[int, EntityReading]:
    """The plan's targets evaluated and grouped by link (``plan.DEVICE`` for the entity itself)."""
    values: dict[int, dict[int, Value]] = {}
    errors: dict[int, dict[int, ReadError]] = {}
    for (link, fid), error in plan.errors.items():
        errors.setdefault(link, {})[fid] = error
    for target, source in plan.sources.items():
        _put(target, evaluate(source, raw), values, errors)
    return {
        link: EntityReading(MappingProxyType(values.get(link, {})), MappingProxyType(errors.get(link, {})))
        for link in sorted(set(values) | set(errors))
    }


def _put(
    target: Target,
    result: Value | ReadError | None,
    values: dict[int, dict[int, Value]],
    errors: dict[int, dict[int, ReadError]],
) -> None:
    link, fid = target
    values.setdefault(link, {})
    if isinstance(result, ReadError):
        errors.setdefault(link, {})[fid] = result
    elif result is not None:
        values[link][fid] = result
