"""The GPUs' process lists read through NVML beside a backend that reads none (the dcgm backend).

dcgm-exporter reads them so for its per-pod split (4.5.3-4.8.2, commit d5e5f51:
``internal/pkg/nvmlprovider/provider.go`` ``GetDeviceProcessMemory``/``GetDeviceProcessUtilization`` through NVML,
while the fields come from DCGM). ``ProcessLists`` asks a second backend (the NVML one, events off, no fields) for
the processes only and puts them on the main reading's GPUs, matched by UUID. It never fails a collection: when
NVML cannot be read the reading keeps no processes, said once in the log.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from gpuscope.backends.base import Backend, BackendUnavailable, NodeReading, ReadRequest

log = logging.getLogger(__name__)
_PROCESSES_ONLY = ReadRequest(frozenset(), processes=True)


class ProcessLists:
    """Fills in the processes of each GPU of a reading from ``source`` (called on the collection thread)."""

    def __init__(self, source: Backend) -> None:
        self.source = source
        self._problem = ""

    def fill(self, reading: NodeReading) -> NodeReading:
        try:
            lists = self.source.collect(_PROCESSES_ONLY)
        except BackendUnavailable as exc:
            self._report(str(exc) or "unavailable")
            return reading
        except Exception as exc:  # a bug here must not cost the GPU metrics
            log.exception("reading the process lists through %s failed", self.source.name)
            self._report(f"{type(exc).__name__}: {exc}")
            return reading
        self._report("")
        by_uuid = {g.identity.uuid: g for g in lists.gpus if not g.lost}
        gpus = tuple(
            replace(gpu, processes=found.processes, process_errors=found.process_errors)
            if not gpu.lost and (found := by_uuid.get(gpu.identity.uuid)) is not None
            else gpu
            for gpu in reading.gpus
        )
        return replace(reading, gpus=gpus)

    def _report(self, problem: str) -> None:
        if problem == self._problem:
            return
        if problem:
            log.warning("no process lists through %s (the GPUs report no processes): %s", self.source.name, problem)
        else:
            log.info("process lists are read through %s", self.source.name)
        self._problem = problem

    def close(self) -> None:
        self.source.close()
