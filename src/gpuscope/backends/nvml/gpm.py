"""GPM (GPU Performance Monitoring, Hopper and newer): the NVML route to the DCGM_FI_PROF_* family.

Each entity (a GPU, or a MIG GPU instance) keeps two sample buffers. Every collection takes a new sample into the
older buffer and asks one ``nvmlGpmMetricsGet`` for every requested metric between the previous sample and the
new one, so the first collection has nothing to report yet (warming up). NVML needs the two samples more than
100 ms apart; a collection sooner than that reuses the last result instead of asking.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from gpuscope.backends.base import ProfilingState, ReadError
from gpuscope.backends.nvml import constants as C
from gpuscope.backends.nvml.errors import classify, code_name, error_code

log = logging.getLogger("gpuscope.backends.nvml")

MIN_SAMPLE_INTERVAL_S = 0.1


@dataclass(frozen=True, slots=True)
class GpmResult:
    """The metrics of one entity for one collection (raw GPM units: percent or MiB/s)."""

    state: ProfilingState
    detail: str = ""
    values: Mapping[int, float] = field(default_factory=lambda: MappingProxyType({}))
    errors: Mapping[int, ReadError] = field(default_factory=lambda: MappingProxyType({}))


_BLOCKED = {ReadError.NO_PERMISSION: ProfilingState.NO_PERMISSION, ReadError.NOT_SUPPORTED: ProfilingState.UNSUPPORTED}


def gpm_support(nvml: Any, handle: Any, model: str) -> tuple[bool, ProfilingState, str]:
    """Whether the GPU has GPM: (supported, state if not, why not)."""
    query = getattr(nvml, "nvmlGpmQueryDeviceSupport", None)
    if query is None:
        return False, ProfilingState.UNSUPPORTED, "the installed nvidia-ml-py has no GPM API"
    try:
        supported = bool(query(handle).isSupportedDevice)
    except nvml.NVMLError as exc:
        code = error_code(exc)
        failure = classify(code)
        if code == C.ERROR_FUNCTION_NOT_FOUND:
            return False, ProfilingState.UNSUPPORTED, "this NVIDIA driver has no GPM (R520 or newer needed)"
        state = _BLOCKED.get(failure.error, ProfilingState.UNSUPPORTED)
        return False, state, f"GPM support query failed: {code_name(code)}"
    if not supported:
        return False, ProfilingState.UNSUPPORTED, f"{model} has no GPM (NVML serves PROF metrics on Hopper and newer)"
    return True, ProfilingState.AVAILABLE, ""


class GpmSampler:
    """Two sample buffers of one entity and the metrics between them. Not thread-safe (one collector)."""

    def __init__(
        self,
        nvml: Any,
        take: Callable[[Any], object],
        label: str,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._nvml = nvml
        self._take = take
        self._label = label
        self._monotonic = monotonic
        self._samples: list[Any] = []
        self._request: Any = None
        self._prev: int | None = None
        self._prev_at = 0.0
        self._last = GpmResult(ProfilingState.WARMING_UP)
        self._blocked: GpmResult | None = None
        self._unsupported: dict[int, ReadError] = {}

    def read(self, metrics: Sequence[int]) -> GpmResult:
        """Sample now and compute ``metrics`` since the previous sample. NVML errors follow the error policy."""
        if self._blocked is not None:
            return self._blocked
        now = self._monotonic()
        if self._prev is not None and now - self._prev_at < MIN_SAMPLE_INTERVAL_S:
            return self._last
        nvml = self._nvml
        if not self._samples:
            try:
                self._samples = [nvml.nvmlGpmSampleAlloc(), nvml.nvmlGpmSampleAlloc()]
            except nvml.NVMLError as exc:
                return self._failed("allocating GPM samples", error_code(exc))
        current = 0 if self._prev is None else 1 - self._prev
        try:
            self._take(self._samples[current])
        except nvml.NVMLError as exc:
            self._prev = None
            return self._failed("taking a GPM sample", error_code(exc))
        previous, self._prev, self._prev_at = self._prev, current, now
        if previous is None:
            self._last = GpmResult(ProfilingState.WARMING_UP, "first GPM sample taken; values from the next one")
            return self._last
        wanted = [m for m in metrics if m not in self._unsupported]
        values: dict[int, float] = {}
        errors: dict[int, ReadError] = {m: self._unsupported[m] for m in metrics if m in self._unsupported}
        if wanted:
            try:
                got = self._metrics(self._samples[previous], self._samples[current], wanted)
            except nvml.NVMLError as exc:
                return self._failed("computing GPM metrics", error_code(exc))
            for metric, (code, value) in got.items():
                if code != C.SUCCESS:
                    errors[metric] = self._metric_failed(metric, code)
                elif math.isnan(value):
                    errors[metric] = ReadError.NO_DATA
                else:
                    values[metric] = value
        self._last = GpmResult(ProfilingState.AVAILABLE, "", MappingProxyType(values), MappingProxyType(errors))
        return self._last

    def _metrics(self, older: Any, newer: Any, metrics: Sequence[int]) -> dict[int, tuple[int, float]]:
        nvml = self._nvml
        if self._request is None:
            self._request = nvml.c_nvmlGpmMetricsGet_t()  # ~19 KB: allocated once per entity
        mg = self._request
        mg.version = C.GPM_METRICS_GET_VERSION
        mg.numMetrics = len(metrics)
        mg.sample1 = older
        mg.sample2 = newer
        for i, metric in enumerate(metrics):
            mg.metrics[i].metricId = metric
        nvml.nvmlGpmMetricsGet(mg)
        return {
            int(mg.metrics[i].metricId): (int(mg.metrics[i].nvmlReturn), float(mg.metrics[i].value))
            for i in range(len(metrics))
        }

    def _metric_failed(self, metric: int, code: int) -> ReadError:
        failure = classify(code, field_entry=True)
        if failure.remember:
            self._unsupported[metric] = failure.error
            log.info("%s: GPM metric %d is not available (%s); leaving it out", self._label, metric, code_name(code))
        return failure.error

    def _failed(self, what: str, code: int) -> GpmResult:
        failure = classify(code)  # raises for a lost GPU or a dead NVML
        detail = f"{what} failed: {code_name(code)}"
        if failure.remember:
            state = _BLOCKED.get(failure.error, ProfilingState.UNSUPPORTED)
            if state is ProfilingState.NO_PERMISSION:
                detail += "; GPM may need the exporter to run privileged"
            log.warning("%s: profiling metrics unavailable: %s", self._label, detail)
            self._blocked = GpmResult(state, detail)
            return self._blocked
        self._last = GpmResult(ProfilingState.WARMING_UP, detail + "; retrying next collection")
        return self._last

    def free(self) -> None:
        """Release the sample buffers (errors ignored: the GPU may already be gone)."""
        nvml = self._nvml
        for sample in self._samples:
            with contextlib.suppress(nvml.NVMLError):
                nvml.nvmlGpmSampleFree(sample)
        self._samples = []
        self._prev = None
