"""Every collected field of one GPU, grouped into panels by family: the table behind the L4 dashboard.

A field lands in the first family whose pattern matches its classic name (a test checks that every catalog
field has a family). Within a panel, fields shown the same way (same unit, scaling, MIG scope and entity) share
one query: the names go into a ``__name__`` regex and ``label_replace`` puts the short field name in a
``field`` label for the legend, so 36 NVLink lanes are one target, not 36. Counters shown as rates (energy,
throttle time) are one query each, because ``rate`` drops the metric name the legend would need.

MIG: fields with a value per GPU instance are shown per instance (``$mig``); fields DCGM repeats on every
instance (the parent's value) are reduced to one series per GPU; NVLink-entity fields are keyed by ``gpu_uuid``
and shown per link.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import KW_ONLY, dataclass

from gpuscope.dashboards import styles
from gpuscope.dashboards.facts import Options
from gpuscope.dashboards.model import Panel, Query, Steps, ValueText
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.units import shown_as_rate, shown_unit
from gpuscope.fields.catalog import BY_NAME, Entity, Field, MigScope

# Labels some exporter-owned fields add, which the legend must show.
EXTRA_LABEL = {
    "DCGM_FI_DEV_XID_ERRORS": "err_msg",
    "DCGM_EXP_XID_ERRORS_COUNT": "xid",
    "DCGM_EXP_XID_ERRORS_TOTAL": "xid",
    "DCGM_EXP_CLOCK_EVENTS_COUNT": "clock_event",
    "DCGM_EXP_CLOCK_EVENTS_TOTAL": "clock_event",
    "DCGM_EXP_GPU_HEALTH_STATUS": "health_watch",
    "DCGM_EXP_P2P_STATUS": "peer_gpu",
}
_SHORT = r"DCGM_(?:FI|EXP)_(?:DEV_|PROF_)?(.+)"


@dataclass(frozen=True)
class Family:
    title: str
    row: str
    pattern: str
    _: KW_ONLY
    steps: Callable[[Options], Steps] | None = None
    mappings: tuple[ValueText, ...] = ()
    width: int = 12
    empty: str = ""  # when the panel is rightly empty, for its description

    def matches(self, name: str) -> bool:
        return re.fullmatch(self.pattern, name) is not None


THERMAL, ACTIVITY, MEMORY_ERRORS, XID, INTERCONNECT, HEALTH = (
    "Thermal, power and clocks",
    "Utilization, memory and profiling",
    "ECC, retired pages and row remapping",
    "XID",
    "PCIe and NVLink",
    "Health",
)
ROWS = (THERMAL, ACTIVITY, MEMORY_ERRORS, XID, INTERCONNECT, HEALTH)

FAMILIES: tuple[Family, ...] = (
    Family("Temperature", THERMAL, r"DCGM_FI_DEV_(GPU|MEMORY|SLOWDOWN|SHUTDOWN)_TEMP", steps=styles.temperature),
    Family(
        "Power and energy",
        THERMAL,
        r"DCGM_FI_DEV_(POWER_USAGE(_INSTANT)?|POWER_MGMT_LIMIT(_MIN|_MAX|_DEF)?|ENFORCED_POWER_LIMIT"
        r"|TOTAL_ENERGY_CONSUMPTION)",
    ),
    Family("Clocks", THERMAL, r"DCGM_FI_DEV_(MAX_)?(SM|MEM|VIDEO)_CLOCK"),
    Family("Clock event reasons (bitmask)", THERMAL, r"DCGM_FI_DEV_CLOCKS_EVENT_REASONS"),
    Family("Clock events", THERMAL, r"DCGM_EXP_CLOCK_EVENTS_(COUNT|TOTAL)"),
    Family("Throttled time", THERMAL, r"DCGM_FI_DEV_[A-Z_]+_VIOLATION", steps=styles.throttled_share),
    Family("Performance state and fan", THERMAL, r"DCGM_FI_DEV_(PSTATE|FAN_SPEED)"),
    Family(
        "Utilization (NVML)",
        ACTIVITY,
        r"DCGM_FI_DEV_(GPU|MEM_COPY|ENC|DEC)_UTIL",
        empty="Empty on a MIG GPU: NVML reports no utilization in MIG mode (dcgm-exporter neither).",
    ),
    Family("Framebuffer", ACTIVITY, r"DCGM_FI_DEV_FB_(TOTAL|FREE|USED|RESERVED|USED_PERCENT|CAPACITY_BYTES)"),
    Family(
        "Profiling: engines and pipes",
        ACTIVITY,
        r"DCGM_FI_PROF_(GR_ENGINE_ACTIVE|SM_ACTIVE|SM_OCCUPANCY|DRAM_ACTIVE|PIPE_[A-Z0-9_]+_ACTIVE)",
    ),
    Family("Media engines", ACTIVITY, r"DCGM_FI_PROF_NV(DEC|JPG|OFA)[0-9]_ACTIVE"),
    Family("ECC errors (totals)", MEMORY_ERRORS, r"DCGM_FI_DEV_ECC_[A-Z_]+"),
    Family(
        "Retired pages and row remapping",
        MEMORY_ERRORS,
        r"DCGM_FI_DEV_(RETIRED_[A-Z]+|(UN)?CORRECTABLE_REMAPPED_ROWS|ROW_REMAP_(FAILURE|PENDING))",
        mappings=styles.YES_NO_BAD,
    ),
    Family("XID", XID, r"DCGM_FI_DEV_XID_ERRORS|DCGM_EXP_XID_ERRORS_(COUNT|TOTAL)"),
    Family("PCIe", INTERCONNECT, r"DCGM_FI_DEV_PCIE_[A-Z_]+|DCGM_FI_PROF_PCIE_[TR]X_BYTES"),
    Family(
        "NVLink throughput",
        INTERCONNECT,
        r"DCGM_FI_DEV_NVLINK_BANDWIDTH_[A-Z0-9]+|DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK"
        r"|DCGM_FI_PROF_NVLINK_(L[0-9]+_)?[TR]X_BYTES(_PER_LINK)?",
    ),
    Family("NVLink errors (totals)", INTERCONNECT, r"DCGM_FI_DEV_NVLINK_[A-Z_]+_TOTAL"),
    Family("NVLink5 errors and bit-error rates", INTERCONNECT, r"DCGM_FI_DEV_NVLINK_COUNT_[A-Z_]+"),
    Family("NVLink fabric and C2C", INTERCONNECT, r"DCGM_FI_DEV_(FABRIC|C2C)_[A-Z0-9_]+"),
    Family(
        "Health",
        HEALTH,
        r"DCGM_EXP_(GPU_HEALTH|P2P)_STATUS|DCGM_FI_DEV_VGPU_LICENSE_STATUS",
        mappings=styles.HEALTH,
        empty="Empty where the exporter reports none of these for the GPU (the simulator: on a MIG GPU).",
    ),
    Family("Recovery the driver asks for", HEALTH, r"DCGM_FI_DEV_GPU_RECOVERY_ACTION", mappings=styles.RECOVERY_ACTION),
)


def family_of(name: str) -> Family | None:
    return next((f for f in FAMILIES if f.matches(name)), None)


@dataclass(frozen=True, kw_only=True)
class _Shown:
    """How a field is queried: the grouping key of fields that can share one query."""

    unit: str
    rate: bool
    scaling: str  # the base-unit factor, as ``Promql.base`` writes it (a grouping key only)
    per_instance: bool
    per_link: bool
    extra: str


def _shown(q: Q, field: Field) -> _Shown:
    resolved = q.p.field(field.name)
    return _Shown(
        unit=shown_unit(resolved),
        rate=shown_as_rate(resolved),
        scaling=q.p.base(field.name, ""),
        per_instance=field.mig is MigScope.INSTANCE and field.entity is Entity.GPU,
        per_link=field.entity is Entity.NVLINK,
        extra=EXTRA_LABEL.get(field.name, ""),
    )


def _matchers(q: Q, how: _Shown) -> str:
    if how.per_link:
        return 'gpu_uuid="$gpu"'
    return q.on_mig if how.per_instance else q.on_gpu


def _legend(how: _Shown, name: str = "{{field}}") -> str:
    suffix = " {{GPU_I_PROFILE}} {{GPU_I_ID}}" if how.per_instance else ""
    suffix += " link {{nvlink}}" if how.per_link else ""
    suffix += f" {{{{{how.extra}}}}}" if how.extra else ""
    return f"{name}{suffix}"


def _by(how: _Shown) -> str:
    keys = ["field"]
    keys += ["GPU_I_ID", "GPU_I_PROFILE"] if how.per_instance else []
    keys += ["nvlink"] if how.per_link else []
    keys += [how.extra] if how.extra else []
    return ", ".join(keys)


def _rate_query(q: Q, field: Field, how: _Shown) -> Query:
    sel = q.dcgm(field.name, _matchers(q, how))
    short = re.sub(_SHORT, r"\1", field.name)
    by = _by(how).replace("field", "").strip(", ")
    inner = f"rate({sel}[$__rate_interval])"
    agg = f"max by ({by}) ({inner})" if by else f"max({inner})"
    return Query(q.p.base(field.name, agg), _legend(how, short), fields=(field.name,))


def _group_query(q: Q, fields: list[Field], how: _Shown) -> Query:
    names = "|".join(re.escape(q.p.name(f.name)) for f in fields)
    matchers = ",".join(m for m in (q.c.exporter_selector, _matchers(q, how)) if m)
    sel = f'{{__name__=~"{names}",{matchers}}}'
    labelled = f'label_replace({sel}, "field", "$1", "__name__", "{_SHORT}")'
    return Query(
        q.p.base(fields[0].name, f"max by ({_by(how)}) ({labelled})"),
        _legend(how),
        fields=tuple(f.name for f in fields),
    )


def family_panels(q: Q, family: Family, fields: Iterable[Field]) -> tuple[Panel, ...]:
    """The panels of one family: one per shown unit, each with as few queries as the fields allow."""
    by_unit: dict[str, dict[_Shown, list[Field]]] = {}
    for field in fields:
        how = _shown(q, field)
        by_unit.setdefault(how.unit, {}).setdefault(how, []).append(field)
    panels = []
    for unit, groups in by_unit.items():
        queries: list[Query] = []
        for how, members in groups.items():
            if how.rate:
                queries += [_rate_query(q, f, how) for f in members]
            else:
                queries.append(_group_query(q, members, how))
        title = family.title if len(by_unit) == 1 else f"{family.title} ({_unit_words(unit)})"
        panels.append(
            Panel(
                title,
                "timeseries",
                tuple(queries),
                unit=unit,
                steps=family.steps(q.options) if family.steps and unit != "short" else None,
                mappings=family.mappings if unit in ("none", "bool_yes_no") else (),
                width=family.width,
                description=family.empty,
            )
        )
    return tuple(panels)


def _unit_words(unit: str) -> str:
    return {
        "short": "totals",
        "percentunit": "share",
        "watt": "power",
        "Bps": "throughput",
        "bool_yes_no": "flags",
        "none": "state",
    }.get(unit, unit)


def collected_by_family(q: Q) -> list[tuple[Family, list[Field]]]:
    """The collected numeric fields, each in its (first matching) family, in family order."""
    fields = [BY_NAME[n] for n in sorted(q.options.fields) if n in BY_NAME and not BY_NAME[n].is_label]
    members: dict[str, list[Field]] = {}
    for field in fields:
        family = family_of(field.name)
        if family is not None:
            members.setdefault(family.title, []).append(field)
    return [(f, members[f.title]) for f in FAMILIES if f.title in members]
