"""What to ask NVML for one GPU, from the request and what is known about the GPU (pure).

A plan maps each target — a field of the GPU itself, of one of its NVLinks, or of a MIG GPU instance — to its
source, or to the reason it cannot be read without asking NVML at all (utilization of a MIG-enabled GPU, lane 15
of a GPU with 12 NVLinks). The reader then makes one batched call for all ``Batched`` sources, one call per
distinct ``Call`` key and one GPM computation per entity.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from gpuscope.backends.base import ReadError
from gpuscope.backends.nvml import constants as C
from gpuscope.backends.nvml.batch import Entry
from gpuscope.backends.nvml.fieldmap import (
    DEVICE_SOURCES,
    LINK_FIELDS,
    Batched,
    Call,
    CallKey,
    Gpm,
    NvlinkRate,
    Source,
    lane_of,
    link_source,
)
from gpuscope.fields.catalog import BY_ID, Entity, MigScope

DEVICE = -1  # the "link" of a GPU-level target

Target = tuple[int, int]  # (link, or DEVICE; DCGM field id)


@dataclass(frozen=True, slots=True)
class Plan:
    """Sources of one entity's targets (a GPU and its links, or one MIG GPU instance)."""

    sources: Mapping[Target, Source]
    errors: Mapping[Target, ReadError]

    def entries(self) -> tuple[Entry, ...]:
        """The distinct field-value entries the batched call needs, in a stable order."""
        out: dict[Entry, None] = {}
        for source in self.sources.values():
            if isinstance(source, Batched):
                out[(source.field_id, source.scope)] = None
            elif isinstance(source, NvlinkRate):
                out[(C.FI_NVLINK_THROUGHPUT_DATA_TX, source.scope)] = None
                out[(C.FI_NVLINK_THROUGHPUT_DATA_RX, source.scope)] = None
        return tuple(out)

    def calls(self) -> tuple[CallKey, ...]:
        return tuple(dict.fromkeys(s.key for s in self.sources.values() if isinstance(s, Call)))

    def gpm_metrics(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(s.metric for s in self.sources.values() if isinstance(s, Gpm)))

    def rate_scopes(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(s.scope for s in self.sources.values() if isinstance(s, NvlinkRate)))

    def users(self, call: CallKey | None = None, entry: Entry | None = None) -> str:
        """The catalog names of the fields that need a call or a field-value entry (for log lines)."""
        fids: dict[int, None] = {}
        for (_link, fid), source in self.sources.items():
            if (isinstance(source, Call) and source.key == call) or (entry is not None and _needs_entry(source, entry)):
                fids[fid] = None
        return ", ".join(BY_ID[fid].name for fid in fids) or "an unrequested field"


def _needs_entry(source: Source, entry: Entry) -> bool:
    if isinstance(source, Batched):
        return (source.field_id, source.scope) == entry
    if isinstance(source, NvlinkRate):
        return entry[1] == source.scope and entry[0] in (C.FI_NVLINK_THROUGHPUT_DATA_TX, C.FI_NVLINK_THROUGHPUT_DATA_RX)
    return False


def _beyond_links(source: Source, field_id: int, links: int) -> bool:
    if isinstance(source, NvlinkRate):
        return source.scope != C.SCOPE_ALL_LINKS and source.scope >= links
    lane = lane_of(field_id)
    return isinstance(source, Gpm) and lane is not None and lane >= links


def plan_gpu(field_ids: Iterable[int], links: int, mig_enabled: bool) -> Plan:
    """The GPU-level and per-link targets of a request."""
    sources: dict[Target, Source] = {}
    errors: dict[Target, ReadError] = {}
    for fid in sorted(field_ids):
        field = BY_ID.get(fid)
        if field is None:
            continue
        if fid in LINK_FIELDS:
            for link in range(links):
                source = link_source(fid, link)
                if source is None or (mig_enabled and isinstance(source, Gpm)):
                    errors[(link, fid)] = ReadError.NOT_SUPPORTED
                else:
                    sources[(link, fid)] = source
            continue
        device_source = DEVICE_SOURCES.get(fid)
        if device_source is None or field.entity is not Entity.GPU:
            continue
        if mig_enabled and field.mig is MigScope.INSTANCE:
            continue  # read per GPU instance instead
        if (mig_enabled and field.mig is MigScope.UNAVAILABLE) or _beyond_links(device_source, fid, links):
            errors[(DEVICE, fid)] = ReadError.NOT_SUPPORTED  # NVML has no such value: don't even ask
            continue
        sources[(DEVICE, fid)] = device_source
    return Plan(MappingProxyType(sources), MappingProxyType(errors))


def plan_instance(field_ids: Iterable[int], links: int) -> Plan:
    """The targets of one MIG GPU instance: its framebuffer and its PROF metrics."""
    sources: dict[Target, Source] = {}
    errors: dict[Target, ReadError] = {}
    for fid in sorted(field_ids):
        field = BY_ID.get(fid)
        source = DEVICE_SOURCES.get(fid)
        if field is None or source is None or field.entity is not Entity.GPU or field.mig is not MigScope.INSTANCE:
            continue
        if _beyond_links(source, fid, links):
            errors[(DEVICE, fid)] = ReadError.NOT_SUPPORTED
        else:
            sources[(DEVICE, fid)] = source
    return Plan(MappingProxyType(sources), MappingProxyType(errors))


def wants_profiling(field_ids: Iterable[int]) -> bool:
    return any(BY_ID[fid].prof for fid in field_ids if fid in BY_ID)
