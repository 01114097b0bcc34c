"""Snapshot -> Prometheus text exposition, byte-compatible with dcgm-exporter where it matters.

Pure functions: the same snapshot and config give the same bytes. Families follow the CSV order (dcgm-exporter's
order is random), series follow GPU then GPU-instance then link order, label order is dcgm-exporter's:
``gpu, UUID, pci_bus_id, device, modelName, [GPU_I_PROFILE, GPU_I_ID], Hostname, <label fields>, <labels>,
<attributes>``. Every label value is escaped here, in one place. A field without a value is left out, never 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from gpuscope import __version__
from gpuscope.backends.base import GpuReading, NodeReading, Value
from gpuscope.exporter.snapshot import GpuDerived, Snapshot
from gpuscope.fields.catalog import (
    DERIVED,
    EXP_CLOCK_EVENTS_COUNT,
    EXP_CLOCK_EVENTS_TOTAL,
    EXP_GPU_HEALTH_STATUS,
    EXP_P2P_STATUS,
    EXP_XID_ERRORS_COUNT,
    EXP_XID_ERRORS_TOTAL,
    FI_XID_ERRORS,
    Entity,
    MigScope,
    ValueKind,
)
from gpuscope.fields.collectors import CollectorSet, Metric
from gpuscope.fields.xid import xid_message

_P2P_STATUS = (
    "OK",
    "ChipsetNotSupported",
    "GPUNotSupported",
    "TopologyNotSupported",
    "DisabledByRegKey",
    "NotSupported",
    "Unknown",
)


@dataclass(frozen=True, slots=True)
class RenderConfig:
    """How series are named and labelled; fixed for the exporter's lifetime."""

    collectors: CollectorSet
    hostname: str | None = None  # None: no host label (-n/--no-hostname)
    host_label: str = "Hostname"
    uuid_label: str = "UUID"  # "uuid" with -o/--use-old-namespace
    replace_blanks_in_model_name: bool = False
    xid_window_ms: int = 300000
    clock_events_window_ms: int = 300000


def escape(value: str) -> str:
    """Escape a label value for the text format (backslash, double quote, newline)."""
    if "\\" in value or '"' in value or "\n" in value:
        return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return value


def format_value(value: Value, kind: ValueKind) -> str:
    """``%d`` for DCGM integers, ``%f`` for doubles, as dcgm-exporter prints them."""
    if kind is ValueKind.DOUBLE:
        return f"{float(value):f}"
    return str(int(value))


@dataclass(frozen=True, slots=True)
class _Entity:
    """One series target: the label text without braces, and where its values come from."""

    labels: str
    values: Mapping[int, Value]


@dataclass(frozen=True, slots=True)
class _GpuView:
    gpu: GpuReading
    physical: _Entity  # the GPU itself, no GPU-instance labels (exporter-owned metrics)
    entities: tuple[_Entity, ...]  # what DCGM series describe: the GPU, or its MIG instances
    instance_entities: tuple[_Entity, ...]
    links: tuple[_Entity, ...]
    derived: GpuDerived


def render_dcgm(snapshot: Snapshot, config: RenderConfig) -> str:
    """The DCGM-compatible families for a snapshot (empty when there is no reading yet)."""
    if snapshot.reading is None:
        return ""
    views = _views(snapshot.reading, snapshot.derived, config)
    out: list[str] = []
    for metric in config.collectors.metrics:
        lines = list(_series(metric, views, config))
        if lines:
            out.append(f"# HELP {metric.name} {metric.help}\n# TYPE {metric.name} {metric.type.value}\n")
            out.extend(lines)
    return "".join(out)


def _views(reading: NodeReading, derived: Mapping[str, GpuDerived], config: RenderConfig) -> list[_GpuView]:
    views = []
    empty = GpuDerived()
    for gpu in sorted(reading.gpus, key=lambda g: g.identity.index):
        if gpu.lost:
            continue
        ident = gpu.identity
        model = ident.model_name.replace(" ", "-") if config.replace_blanks_in_model_name else ident.model_name
        head = (
            f'gpu="{ident.index}",{config.uuid_label}="{escape(ident.uuid)}",pci_bus_id="{escape(ident.pci_bus_id)}"'
            f',device="nvidia{ident.index}",modelName="{escape(model)}"'
        )
        host = f',{config.host_label}="{escape(config.hostname)}"' if config.hostname is not None else ""
        tail = host + _label_fields(gpu, reading, config)
        physical = _Entity(head + tail, gpu.device.values)
        instances = tuple(
            _Entity(
                f'{head},GPU_I_PROFILE="{escape(i.identity.profile)}",GPU_I_ID="{i.identity.gpu_instance_id}"{tail}',
                i.reading.values,
            )
            for i in gpu.instances
        )
        links = tuple(
            _Entity(
                f'nvlink="{link.link}",gpu="{ident.index}",gpu_uuid="{escape(ident.uuid)}"'
                f',pci_bus_id="{escape(ident.pci_bus_id)}",device="nvidia{ident.index}"'
                f',model_name="{escape(model)}"{tail}',
                link.reading.values,
            )
            for link in gpu.links
        )
        views.append(
            _GpuView(gpu, physical, instances or (physical,), instances, links, derived.get(ident.uuid, empty))
        )
    return views


def _label_fields(gpu: GpuReading, reading: NodeReading, config: RenderConfig) -> str:
    parts = []
    for metric in sorted(config.collectors.labels, key=lambda m: m.name):
        fid = metric.field.field_id
        value = reading.system.get(fid, gpu.device.values.get(fid))
        if value is None or value == "":
            continue  # blank label values are dropped, as dcgm-exporter does
        parts.append(f',{metric.name}="{escape(str(value))}"')
    return "".join(parts)


def _series(metric: Metric, views: list[_GpuView], config: RenderConfig) -> Iterator[str]:
    field = metric.field
    if field.exporter:
        yield from _exporter_series(metric, views, config)
        return
    name = metric.name
    kind = field.value
    fid = field.field_id
    getter = _getter(fid)
    for view in views:
        if field.entity is Entity.NVLINK:
            targets: tuple[_Entity, ...] = view.links
        elif not view.gpu.mig_enabled or field.mig is MigScope.PARENT:
            targets = view.entities
        elif field.mig is MigScope.INSTANCE:
            targets = view.instance_entities
        else:
            continue  # not available with MIG on
        parent_values = view.gpu.device.values
        for entity in targets:
            if fid == FI_XID_ERRORS:
                code = view.derived.xid_last
                yield f'{name}{{{entity.labels},err_code="{code}",err_msg="{escape(xid_message(code))}"}} {code}\n'
                continue
            source = parent_values if field.mig is MigScope.PARENT else entity.values
            value = getter(source)
            if value is not None:
                yield f"{name}{{{entity.labels}}} {format_value(value, kind)}\n"


def _getter(fid: int) -> Callable[[Mapping[int, Value]], Value | None]:
    if fid in DERIVED:
        source, factor = DERIVED[fid]

        def derived(values: Mapping[int, Value]) -> Value | None:
            raw = values.get(source)
            return None if raw is None or isinstance(raw, str) else raw * factor

        return derived
    return lambda values: values.get(fid)


def _exporter_series(metric: Metric, views: list[_GpuView], config: RenderConfig) -> Iterator[str]:
    fid = metric.field.field_id
    name = metric.name
    for view in views:
        labels = view.physical.labels
        d = view.derived
        if fid in (EXP_XID_ERRORS_COUNT, EXP_CLOCK_EVENTS_COUNT):
            window = config.xid_window_ms if fid == EXP_XID_ERRORS_COUNT else config.clock_events_window_ms
            counts: Mapping[int, int] | Mapping[str, int] = (
                d.xid_window if fid == EXP_XID_ERRORS_COUNT else d.clock_window
            )
            key = "xid" if fid == EXP_XID_ERRORS_COUNT else "clock_event"
            if not counts:
                yield f'{name}{{{labels},window_size_in_ms="{window}"}} 0\n'
            for item, count in sorted(counts.items(), key=lambda kv: str(kv[0])):
                yield f'{name}{{{labels},window_size_in_ms="{window}",{key}="{item}"}} {count}\n'
        elif fid in (EXP_XID_ERRORS_TOTAL, EXP_CLOCK_EVENTS_TOTAL):
            totals: Mapping[int, int] | Mapping[str, int] = (
                d.xid_total if fid == EXP_XID_ERRORS_TOTAL else d.clock_total
            )
            key = "xid" if fid == EXP_XID_ERRORS_TOTAL else "clock_event"
            for item, count in sorted(totals.items(), key=lambda kv: str(kv[0])):
                yield f'{name}{{{labels},{key}="{item}"}} {count}\n'
        elif fid == EXP_GPU_HEALTH_STATUS:
            for check in view.gpu.health:
                yield (
                    f'{name}{{{labels},health_error_code="{check.error_code}",health_watch="{check.watch}"}}'
                    f" {check.status}\n"
                )
        elif fid == EXP_P2P_STATUS:
            for peer, status in sorted(view.gpu.p2p.items()):
                text = _P2P_STATUS[status] if 0 <= status < len(_P2P_STATUS) else "Unknown"
                yield f'{name}{{{labels},link_status="{text}",peer_gpu="{peer}"}} {status}\n'


def build_info_line(backend: str, dialect: str) -> str:
    return (
        "# HELP gpuscope_exporter_build_info gpuscope exporter version and settings.\n"
        "# TYPE gpuscope_exporter_build_info gauge\n"
        f'gpuscope_exporter_build_info{{backend="{backend}",dialect="{dialect}",version="{__version__}"}} 1\n'
    )
