"""Snapshot -> Prometheus text exposition, byte-compatible with dcgm-exporter where it matters.

Pure functions: the same snapshot and config give the same bytes. Families follow the CSV order (dcgm-exporter's
order is random), series follow GPU then GPU-instance then link order, label order is dcgm-exporter's:
``gpu, UUID, pci_bus_id, device, modelName, [GPU_I_PROFILE, GPU_I_ID], Hostname``, then its label map byte-sorted
(label fields, a series' own labels such as ``window_size_in_ms``, a pod's labels), then its attributes
byte-sorted. Label values are escaped and numbers written by ``gpuscope.exposition``, the one place for both. A
field without a value is left out, never 0.
In ``--workload-labels labels`` mode the snapshot's attribution adds ``container``/``namespace``/``pod`` and
``hpc_job`` attributes (byte-sorted with ``err_code``/``err_msg``), one series per job, as dcgm-exporter does; the
``info`` mode series are rendered by ``workloads.exposition``. In either mode the per-pod split of shared GPUs
(``split``) gives GPU_UTIL and FB_USED one series per sharing pod beside the device's own.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from gpuscope import __version__, exposition
from gpuscope.backends.base import GpuReading, LinkReading, LinkState, NodeReading, SwitchReading, Value
from gpuscope.exporter.attribution.labels import NO_ATTRIBUTES, Pairs, attribute_variants, sections
from gpuscope.exporter.attribution.resolve import Attribution, WorkloadLabels
from gpuscope.exporter.snapshot import GpuDerived, Snapshot
from gpuscope.exposition import escape, label_suffix
from gpuscope.fields.catalog import DERIVED, Entity, MetricType, MigScope, ValueKind
from gpuscope.fields.collectors import CollectorSet, Metric
from gpuscope.fields.ids import FieldId
from gpuscope.fields.rows_fabric import LINK_STATE_FIELDS
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
    workload_labels: WorkloadLabels = WorkloadLabels.INFO
    old_namespace: bool = False  # -o: pod_name/pod_namespace/container_name
    # The nvlink label of GPU link 0: 0 as DCGM and NVML number links (dcgm-exporter <= 4.8.0), 1 as dcgm-exporter
    # >= 4.8.1 labels them (deviceinfo renumbers a GPU's links from 1). Switch ports keep DCGM's index either way.
    gpu_link_base: int = 0


def format_value(value: Value, kind: ValueKind) -> str:
    """``%d`` for DCGM integers, ``%f`` for doubles, as dcgm-exporter prints them."""
    if kind is ValueKind.DOUBLE:
        return exposition.fixed(float(value))
    return exposition.integer(int(value) if isinstance(value, str) else value)


# The per-pod split of shared GPUs (--kubernetes-virtual-gpus, or labels mode): per target, field id -> (attribute
# set, value) of each series, in order; a None value is the device's own (processes.exposition.labels_split)
SplitRows = Mapping[int, tuple[tuple[Pairs, Value | None], ...]]
Split = Mapping[tuple[int, int | None], SplitRows]
_NO_SPLIT: SplitRows = {}


@dataclass(frozen=True, slots=True)
class _Entity:
    """One series target: the label text without braces, and where its values come from.

    ``base`` is the label text before the label fields, ``fields`` the label fields (byte-sorted), ``labels`` both
    as text. ``attrs`` are the workload attribute sets of ``labels`` mode (one series per set; a single empty set
    otherwise) and ``texts`` the full label text of each series, built once per render so each series costs one
    format.
    """

    base: str
    fields: Pairs
    labels: str
    values: Mapping[int, Value]
    attrs: tuple[Pairs, ...]
    texts: tuple[str, ...]
    split: SplitRows


def _entity(
    base: str,
    fields: Pairs,
    values: Mapping[int, Value],
    attrs: tuple[Pairs, ...],
    split: SplitRows | None = None,
) -> _Entity:
    split = split if split is not None else _NO_SPLIT
    labels = base + label_suffix(fields)
    if attrs is NO_ATTRIBUTES:
        return _Entity(base, fields, labels, values, attrs, (labels,), split)
    return _Entity(base, fields, labels, values, attrs, tuple(_compose(base, fields, a) for a in attrs), split)


def _compose(base: str, fields: Pairs, attrs: Pairs, own: Pairs = (), extra: Pairs = ()) -> str:
    """One series' label text as dcgm-exporter's template writes it: ``base``, then its labels byte-sorted (the
    label fields, the series' ``own`` labels such as ``window_size_in_ms``, the pod's labels), then its attributes
    byte-sorted (``attrs``' workload ones and ``extra``: ``err_code``/``err_msg``)."""
    pod, attributes = sections(attrs)
    labels = sorted((*fields, *own, *pod)) if own or pod else fields
    return base + label_suffix(labels) + label_suffix(sorted((*attributes, *extra)) if extra else attributes)


# A lost GPU answers nothing, so its readings vanish (that absence is the signal); what the exporter learned from
# its events stays, so the XID 79 that took it down is on /metrics, as dcgm-exporter shows it.
_KEPT_WHEN_LOST = frozenset(
    {FieldId.DCGM_FI_DEV_XID_ERRORS, FieldId.DCGM_EXP_XID_ERRORS_COUNT, FieldId.DCGM_EXP_XID_ERRORS_TOTAL}
)


@dataclass(frozen=True, slots=True)
class _GpuView:
    gpu: GpuReading
    physical: _Entity  # the GPU itself, no GPU-instance labels (exporter-owned metrics)
    entities: tuple[_Entity, ...]  # what DCGM series describe: the GPU, or its MIG instances
    instance_entities: tuple[_Entity, ...]
    links: tuple[_Entity, ...]
    derived: GpuDerived
    link_readings: tuple[LinkReading, ...] = ()


def render_dcgm(snapshot: Snapshot, config: RenderConfig, split: Split | None = None) -> str:
    """The DCGM-compatible families for a snapshot (empty when there is no reading yet).

    ``split`` replaces a target's series of some fields by per-pod series (``processes.exposition``).
    """
    if snapshot.reading is None:
        return ""
    views = _views(snapshot.reading, snapshot.derived, config, snapshot.attribution, split or {})
    switches = _switch_views(snapshot.reading.switches, config)
    out: list[str] = []
    for metric in _families(config.collectors):
        series = _series(metric, views, config)
        if metric.field.entity is not Entity.GPU and switches:
            series = itertools.chain(series, _switch_series(metric, switches))
        out.append(exposition.family(metric.name, metric.type.value, metric.help, series))
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _SwitchView:
    """An NVSwitch's series targets: the switch itself and its ports (label text, values, link state)."""

    labels: str
    values: Mapping[int, Value]
    ports: tuple[tuple[str, LinkReading], ...]


def _switch_views(switches: tuple[SwitchReading, ...], config: RenderConfig) -> list[_SwitchView]:
    """dcgm-exporter's switch and switch-port label sets (rendermetrics ``switchMetricsFormat``/``linkMetricsFormat``):
    ``nvswitch="nvswitch<id>"`` with the switch's own id (the per-switch fix of NVIDIA/dcgm-exporter#729: before it,
    every switch was labelled by its parent id, ``nvswitch0``), then the host label; a port adds ``nvlink`` first."""
    host = f',{config.host_label}="{escape(config.hostname)}"' if config.hostname is not None else ""
    views = []
    for switch in sorted(switches, key=lambda s: s.switch_id):
        name = f'nvswitch="nvswitch{switch.switch_id}"'
        ports = tuple((f'nvlink="{p.link}",{name}{host}', p) for p in sorted(switch.ports, key=lambda p: p.link))
        views.append(_SwitchView(name + host, switch.reading.values, ports))
    return views


def _switch_series(metric: Metric, switches: list[_SwitchView]) -> Iterator[str]:
    fid, kind = metric.field.field_id, metric.field.value
    for switch in switches:
        if metric.field.entity is Entity.NVSWITCH:
            value = switch.values.get(fid)
            if value is not None:
                yield exposition.sample(metric.name, switch.labels, format_value(value, kind))
            continue
        for labels, port in switch.ports:
            value = port.reading.values.get(fid)
            if value is not None and _link_served(port, fid):
                yield exposition.sample(metric.name, labels, format_value(value, kind))


def _link_served(link: LinkReading, fid: int) -> bool:
    """dcgm-exporter watches links in state Up only (devicemonitoring ``monitorAll*NvLinks``); gpuscope serves the
    link-state fields of the others too, so a link that went down shows as down instead of vanishing."""
    return link.state is LinkState.UP or (fid in LINK_STATE_FIELDS and link.state is not LinkState.NOT_SUPPORTED)


def _families(collectors: CollectorSet) -> tuple[Metric, ...]:
    """The metric rows in file order, fields only dcgm_fields.h describes included (no values: no family)."""
    extra = [m for m in collectors.header_only if m.type is not MetricType.LABEL]
    if not extra:
        return collectors.metrics
    return tuple(sorted((*collectors.metrics, *extra), key=lambda m: m.line))


def _views(
    reading: NodeReading,
    derived: Mapping[str, GpuDerived],
    config: RenderConfig,
    attribution: Attribution,
    split: Split,
) -> list[_GpuView]:
    views = []
    empty = GpuDerived()
    targets = attribution.targets if config.workload_labels is WorkloadLabels.LABELS else {}

    def attrs(index: int, gi: int | None) -> tuple[Pairs, ...]:
        assignment = targets.get((index, gi)) if targets else None
        return NO_ATTRIBUTES if assignment is None else attribute_variants(assignment, config.old_namespace)

    for gpu in sorted(reading.gpus, key=lambda g: g.identity.index):
        ident = gpu.identity
        model = ident.model_name.replace(" ", "-") if config.replace_blanks_in_model_name else ident.model_name
        head = (
            f'gpu="{ident.index}",{config.uuid_label}="{escape(ident.uuid)}",pci_bus_id="{escape(ident.pci_bus_id)}"'
            f',device="nvidia{ident.index}",modelName="{escape(model)}"'
        )
        host = f',{config.host_label}="{escape(config.hostname)}"' if config.hostname is not None else ""
        fields = _label_fields(gpu, reading, config)
        whole = attrs(ident.index, None)
        physical = _entity(head + host, fields, gpu.device.values, whole, split.get((ident.index, None), _NO_SPLIT))
        instances = tuple(
            _entity(
                f'{head},GPU_I_PROFILE="{escape(i.identity.profile)}",GPU_I_ID="{i.identity.gpu_instance_id}"{host}',
                fields,
                i.reading.values,
                attrs(ident.index, i.identity.gpu_instance_id),
                split.get((ident.index, i.identity.gpu_instance_id), _NO_SPLIT),
            )
            for i in gpu.instances
        )
        links = tuple(
            _entity(
                f'nvlink="{link.link + config.gpu_link_base}",gpu="{ident.index}",gpu_uuid="{escape(ident.uuid)}"'
                f',pci_bus_id="{escape(ident.pci_bus_id)}",device="nvidia{ident.index}"'
                f',model_name="{escape(model)}"{host}',
                fields,
                link.reading.values,
                whole,
            )
            for link in gpu.links
        )
        views.append(
            _GpuView(
                gpu, physical, instances or (physical,), instances, links, derived.get(ident.uuid, empty), gpu.links
            )
        )
    return views


def _label_fields(gpu: GpuReading, reading: NodeReading, config: RenderConfig) -> Pairs:
    """The label fields' (name, value), byte-sorted by name as dcgm-exporter's label map is written."""
    parts = []
    header_labels = [m for m in config.collectors.header_only if m.type is MetricType.LABEL]
    for metric in sorted((*config.collectors.labels, *header_labels), key=lambda m: m.name):
        fid = metric.field.field_id
        value = reading.system.get(fid, gpu.device.values.get(fid))
        if value is None or value == "":
            continue  # blank label values are dropped, as dcgm-exporter does
        parts.append((metric.name, str(value)))
    return tuple(parts)


def _series(metric: Metric, views: list[_GpuView], config: RenderConfig) -> Iterator[str]:
    field = metric.field
    if field.field_id not in _KEPT_WHEN_LOST:
        views = [v for v in views if not v.gpu.lost]
    if field.exporter:
        yield from _exporter_series(metric, views, config)
        return
    name = metric.name
    kind = field.value
    fid = field.field_id
    getter = _getter(fid)
    plain = NO_ATTRIBUTES
    for view in views:
        if field.entity is Entity.NVSWITCH:
            continue  # a switch's own field: rendered per switch (_switch_series)
        if field.entity is Entity.NVLINK:
            targets: tuple[_Entity, ...] = tuple(
                e for e, r in zip(view.links, view.link_readings, strict=True) if _link_served(r, fid)
            )
        elif not view.gpu.mig_enabled or field.mig is MigScope.PARENT:
            targets = view.entities
        elif field.mig is MigScope.INSTANCE:
            targets = view.instance_entities
        else:
            continue  # not available with MIG on
        parent_values = view.gpu.device.values
        for entity in targets:
            if fid == FieldId.DCGM_FI_DEV_XID_ERRORS:
                yield from _xid_series(name, entity, view.derived.xid_last)
                continue
            # A link's fields are the link's own; a MIG instance's parent-scoped fields are its GPU's.
            parent = field.mig is MigScope.PARENT and field.entity is not Entity.NVLINK
            source = parent_values if parent else entity.values
            value = getter(source)
            if value is None:
                continue  # a field the device has no value for is split into nothing, as dcgm-exporter's
            if entity.attrs is plain and fid not in entity.split:  # the common case, kept to one format per series
                yield exposition.sample(name, entity.labels, format_value(value, kind))
                continue
            yield from _attributed_series(name, fid, kind, entity, value)


def _attributed_series(name: str, fid: int, kind: ValueKind, entity: _Entity, value: Value) -> Iterator[str]:
    """One series per attribute set, or the field's per-pod split (``processes.exposition``)."""
    rows = entity.split.get(fid)
    if rows is not None:
        for pairs, share in rows:
            text = _compose(entity.base, entity.fields, pairs)
            yield exposition.sample(name, text, format_value(value if share is None else share, kind))
        return
    text = format_value(value, kind)
    for labels in entity.texts:
        yield exposition.sample(name, labels, text)


def _xid_series(name: str, entity: _Entity, code: int) -> Iterator[str]:
    message = escape(xid_message(code))
    if entity.attrs is NO_ATTRIBUTES:
        yield exposition.sample(name, f'{entity.labels},err_code="{code}",err_msg="{message}"', str(code))
        return
    error = (("err_code", str(code)), ("err_msg", xid_message(code)))
    for pairs in entity.attrs:  # err_* are attributes too: byte-sorted with the workload ones
        yield exposition.sample(name, _compose(entity.base, entity.fields, pairs, extra=error), str(code))


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
        p = view.physical
        for own, value in _exporter_samples(fid, view, config):
            for pairs in p.attrs:
                yield exposition.sample(name, _compose(p.base, p.fields, pairs, own), str(value))


def _exporter_samples(fid: int, view: _GpuView, config: RenderConfig) -> Iterator[tuple[Pairs, int]]:
    """(the series' own labels, value) of one exporter-owned field for one GPU. dcgm-exporter keeps them in the
    series' label map with the label fields, which its template writes byte-sorted (expcollector.go,
    gpu_health_collector.go, p2p_status_collector.go; rendermetrics/render_metrics.go): ``clock_event`` before
    ``window_size_in_ms``, ``window_size_in_ms`` before ``xid``."""
    d = view.derived
    if fid in (FieldId.DCGM_EXP_XID_ERRORS_COUNT, FieldId.DCGM_EXP_CLOCK_EVENTS_COUNT):
        xid = fid == FieldId.DCGM_EXP_XID_ERRORS_COUNT
        window = config.xid_window_ms if xid else config.clock_events_window_ms
        counts: Mapping[int, int] | Mapping[str, int] = d.xid_window if xid else d.clock_window
        key = "xid" if xid else "clock_event"
        if not counts:
            yield (("window_size_in_ms", str(window)),), 0
        for item, count in sorted(counts.items(), key=lambda kv: str(kv[0])):
            yield (("window_size_in_ms", str(window)), (key, str(item))), count
    elif fid in (FieldId.DCGM_EXP_XID_ERRORS_TOTAL, FieldId.DCGM_EXP_CLOCK_EVENTS_TOTAL):
        xid = fid == FieldId.DCGM_EXP_XID_ERRORS_TOTAL
        totals: Mapping[int, int] | Mapping[str, int] = d.xid_total if xid else d.clock_total
        key = "xid" if xid else "clock_event"
        for item, count in sorted(totals.items(), key=lambda kv: str(kv[0])):
            yield ((key, str(item)),), count
    elif fid == FieldId.DCGM_EXP_GPU_HEALTH_STATUS:
        for check in view.gpu.health:
            yield (("health_error_code", check.error_code), ("health_watch", check.watch)), check.status
    elif fid == FieldId.DCGM_EXP_P2P_STATUS:
        for peer, status in sorted(view.gpu.p2p.items()):
            text = _P2P_STATUS[status] if 0 <= status < len(_P2P_STATUS) else "Unknown"
            yield (("link_status", text), ("peer_gpu", str(peer))), status


def build_info_line(backend: str, dialect: str) -> str:
    name = "gpuscope_exporter_build_info"
    pairs = (("backend", backend), ("dialect", dialect), ("version", __version__))
    return exposition.family(
        name,
        exposition.GAUGE,
        "gpuscope exporter version and settings.",
        [exposition.sample(name, exposition.labels(pairs), "1")],
    )
