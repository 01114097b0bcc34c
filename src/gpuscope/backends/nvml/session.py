"""One initialised NVML session: the node's GPUs, which of them are lost, and one collection over all of them.

GPUs are keyed by NVML index and named by UUID. A GPU that reports itself lost keeps its identity (so
``gpuscope_exporter_gpu_lost`` can say which) but is not asked anything until the slow re-probe finds it again,
by UUID; the other GPUs keep reporting. MIG layouts are re-read on a MIG-change event, when a MIG handle stops
answering, and every ``mig_check_s``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from types import MappingProxyType

from gpuscope.backends.base import EntityReading, GpuIdentity, GpuReading, NodeReading, ReadRequest, Value
from gpuscope.backends.nvml import constants as C
from gpuscope.backends.nvml.device import Context, GpuReader, gpu_label
from gpuscope.backends.nvml.errors import FATAL_CODES, GpuLost, NvmlGone, code_name, error_code, init_failure_reason
from gpuscope.backends.nvml.events import EventWatcher
from gpuscope.fields.ids import FieldId

log = logging.getLogger("gpuscope.backends.nvml")


@dataclass(frozen=True, slots=True)
class Timing:
    """How often the slow paths run, in seconds."""

    reprobe_s: float = 60.0
    mig_check_s: float = 60.0


class Session:
    """The GPUs of one ``nvmlInit``. Not thread-safe: the backend serializes calls."""

    def __init__(self, ctx: Context, events: EventWatcher | None, timing: Timing) -> None:
        self.ctx = ctx
        self.events = events
        self.timing = timing
        self.readers: dict[int, GpuReader] = {}
        self.lost: set[int] = set()
        self.unopened: set[int] = set()
        self.system: dict[int, Value] = {}
        now = ctx.monotonic()
        self._next_reprobe = now + timing.reprobe_s
        self._next_mig_check = now + timing.mig_check_s

    def _raise_if_fatal(self, exc: BaseException) -> None:
        """Raise ``NvmlGone`` when the error means NVML as a whole stopped working (no GPU can be read)."""
        code = error_code(exc)
        if code in FATAL_CODES:
            raise NvmlGone(f"NVML stopped working: {init_failure_reason(code)}") from exc

    def open(self) -> None:
        """Read the versions and open every GPU. Raises ``NvmlGone`` if NVML fails as a whole."""
        nvml = self.ctx.nvml
        system_calls = (
            (FieldId.DCGM_FI_DRIVER_VERSION, "nvmlSystemGetDriverVersion"),
            (FieldId.DCGM_FI_NVML_VERSION, "nvmlSystemGetNVMLVersion"),
        )
        for fid, function in system_calls:
            try:
                self.system[fid] = str(getattr(nvml, function)())
            except nvml.NVMLError as exc:
                self._raise_if_fatal(exc)
        try:
            count = int(nvml.nvmlDeviceGetCount())
        except nvml.NVMLError as exc:
            self._raise_if_fatal(exc)
            raise NvmlGone(f"cannot count GPUs: {code_name(error_code(exc))}") from exc
        for index in range(count):
            self._open_index(index)

    def _open_index(self, index: int) -> None:
        nvml = self.ctx.nvml
        try:
            handle = nvml.nvmlDeviceGetHandleByIndex(index)
            identity = GpuIdentity(
                index,
                str(nvml.nvmlDeviceGetUUID(handle)),
                str(nvml.nvmlDeviceGetPciInfo(handle).busId),
                str(nvml.nvmlDeviceGetName(handle)),
            )
        except nvml.NVMLError as exc:
            self._raise_if_fatal(exc)
            if index not in self.unopened:
                log.warning(
                    "GPU %d cannot be opened (%s); trying again every %gs",
                    index,
                    code_name(error_code(exc)),
                    self.timing.reprobe_s,
                )
            self.unopened.add(index)
            return
        self.unopened.discard(index)
        reader = GpuReader(self.ctx, identity, handle)
        self.readers[index] = reader
        try:
            reader.discover()
        except GpuLost:
            self._mark_lost(index)
            return
        if self.events is not None:
            self.events.register(handle, identity.uuid)

    def _mark_lost(self, index: int) -> None:
        reader = self.readers[index]
        if index not in self.lost:
            log.warning(
                "%s is lost (fallen off the bus or needs a reset): its series are dropped; re-probing every %gs",
                reader.label,
                self.timing.reprobe_s,
            )
        self.lost.add(index)
        reader.close()

    # --- one collection -----------------------------------------------------------------------------------

    def read(self, request: ReadRequest) -> NodeReading:
        now = self.ctx.monotonic()
        if now >= self._next_reprobe:
            self._next_reprobe = now + self.timing.reprobe_s
            self._reprobe()
        mig_due = now >= self._next_mig_check
        if mig_due:
            self._next_mig_check = now + self.timing.mig_check_s
        gpus = [self._read_gpu(index, request, mig_due) for index in sorted(self.readers)]
        if request.p2p:
            gpus = [replace(g, p2p=self._p2p(g.identity.index)) if not g.lost else g for g in gpus]
        return NodeReading(tuple(gpus), MappingProxyType(dict(self.system)))

    def _read_gpu(self, index: int, request: ReadRequest, mig_due: bool) -> GpuReading:
        reader = self.readers[index]
        uuid = reader.identity.uuid
        xids = self.events.drain(uuid) if self.events is not None else ()
        mig_event = self.events.take_mig_change(uuid) if self.events is not None else False
        if index in self.lost:
            return GpuReading(reader.identity, EntityReading(), lost=True, xid_events=xids)
        try:
            if reader.mig_capable and (mig_due or mig_event or reader.layout_dirty):
                reader.refresh_mig()
            reading = reader.read(request.field_ids, request.processes)
        except GpuLost:
            self._mark_lost(index)
            return GpuReading(reader.identity, EntityReading(), lost=True, xid_events=xids)
        return replace(reading, xid_events=xids)

    def _p2p(self, index: int) -> MappingProxyType[int, int]:
        nvml = self.ctx.nvml
        status: dict[int, int] = {}
        for peer in sorted(self.readers):
            if peer == index:
                continue
            if peer in self.lost:
                status[peer] = C.P2P_STATUS_UNKNOWN
                continue
            try:
                status[peer] = int(
                    nvml.nvmlDeviceGetP2PStatus(
                        self.readers[index].handle, self.readers[peer].handle, C.P2P_CAPS_INDEX_NVLINK
                    )
                )
            except nvml.NVMLError as exc:
                self._raise_if_fatal(exc)
                status[peer] = C.P2P_STATUS_UNKNOWN
        return MappingProxyType(status)

    def _reprobe(self) -> None:
        """Look for lost GPUs again (by UUID) and for GPUs that could not be opened (by index)."""
        nvml = self.ctx.nvml
        for index in sorted(self.lost):
            identity = self.readers[index].identity
            try:
                handle = nvml.nvmlDeviceGetHandleByUUID(identity.uuid)
                nvml.nvmlDeviceGetUUID(handle)  # a lost GPU fails here too; a reset one answers
            except nvml.NVMLError as exc:
                self._raise_if_fatal(exc)
                continue
            reader = GpuReader(self.ctx, identity, handle)
            try:
                reader.discover()
            except GpuLost:
                continue
            self.readers[index] = reader
            self.lost.discard(index)
            log.info("%s is back; reading it again", gpu_label(identity))
            if self.events is not None:
                self.events.register(handle, identity.uuid)
        for index in sorted(self.unopened):
            self._open_index(index)

    def close(self) -> None:
        if self.events is not None:
            self.events.stop()
        for reader in self.readers.values():
            reader.close()


def describe_gpus(readers: dict[int, GpuReader]) -> str:
    """``"8 GPUs: NVIDIA H100 80GB HBM3 x8"`` for the start-up log line."""
    models: dict[str, int] = {}
    for reader in readers.values():
        models[reader.identity.model_name] = models.get(reader.identity.model_name, 0) + 1
    kinds = ", ".join(f"{model} x{n}" for model, n in sorted(models.items()))
    return f"{len(readers)} GPU{'s' if len(readers) != 1 else ''}: {kinds}"
