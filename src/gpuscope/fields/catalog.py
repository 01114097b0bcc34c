"""The field catalog: every GPU field gpuscope can serve, looked up by name or id, and its naming dialects.

The rows are in ``fields/rows.py``, their ids in ``fields/ids.py`` (``FieldId``), their types in
``fields/schema.py``; this module indexes them and resolves the names a collectors CSV may use.

Dialects. dcgm-exporter <= 4.8 ("classic") emits the CSV's first column verbatim; 4.9.0 renamed the 23 fields of
its default and profiling presets. A rename is a link from the classic row to its 4.9 row. DCGM itself defines no
new ids for them (DCGM 4.6.0's dcgm_fields.h renamed its fields and keeps the old names as aliases): a same-unit
rename shares the classic id, and a rename to a base unit is a view computed from the DCGM field
(``DCGM_SOURCES``: ``DCGM_FI_DEV_SM_CLOCK_HERTZ`` is ``DCGM_FI_DEV_SM_CLOCK`` 100 x 1e6). The NVML backend and the
simulator read framebuffer bytes and NVLink bytes/s natively (exact); the DCGM backend computes them.

Beyond the catalog rows, every name NVIDIA's dcgm_fields.h defines (``fields/dcgm_header.py``: current names and
deprecated aliases) resolves: to the catalog row of its id when there is one, else to a header-only field that a
collectors CSV may list and that is reported as unsupported (``header_field``).
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from gpuscope.fields.ids import FieldId
from gpuscope.fields.rows import DEVICE_FIELDS, LATER_FIELDS
from gpuscope.fields.rows_dcgm4 import DCGM4_FIELDS
from gpuscope.fields.rows_fabric import FABRIC_FIELDS
from gpuscope.fields.schema import Dialect, Entity, Field, MetricType, MigScope, ValueKind

ALL_FIELDS: tuple[Field, ...] = (*DEVICE_FIELDS, *DCGM4_FIELDS, *LATER_FIELDS)

__all__ = [
    "ALL_FIELDS",
    "BY_ID",
    "BY_NAME",
    "DCGM_SOURCES",
    "DERIVED",
    "FABRIC_FIELDS",
    "HEADER_BY_ID",
    "HEADER_IDS",
    "LEGACY_NAMES",
    "REMOVED_FIELDS",
    "RENAMED_IN_4_9",
    "RENAMED_IN_4_10",
    "Dialect",
    "Entity",
    "Field",
    "FieldId",
    "HeaderField",
    "HeaderTables",
    "MetricType",
    "MigScope",
    "ResolvedName",
    "ValueKind",
    "dcgm_id",
    "field_name",
    "header_field",
    "header_tables",
    "resolve",
    "suggest",
]

# classic name -> 4.9.0 name, for the 23 fields dcgm-exporter 4.9.0 renamed.
RENAMED_IN_4_9: Mapping[str, str] = MappingProxyType(
    {
        "DCGM_FI_DRIVER_VERSION": "DCGM_FI_SYSTEM_DRIVER_VERSION",
        "DCGM_FI_DEV_SM_CLOCK": "DCGM_FI_DEV_SM_CLOCK_HERTZ",
        "DCGM_FI_DEV_MEM_CLOCK": "DCGM_FI_DEV_MEMORY_CLOCK_HERTZ",
        "DCGM_FI_DEV_MEMORY_TEMP": "DCGM_FI_DEV_MEMORY_TEMP_CELSIUS",
        "DCGM_FI_DEV_GPU_TEMP": "DCGM_FI_DEV_GPU_TEMP_CELSIUS",
        "DCGM_FI_DEV_POWER_USAGE": "DCGM_FI_DEV_BOARD_POWER_WATTS",
        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": "DCGM_FI_DEV_GPU_ENERGY_JOULES_TOTAL",
        "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": "DCGM_FI_DEV_PCIE_REPLAY_TOTAL",
        "DCGM_FI_DEV_GPU_UTIL": "DCGM_FI_DEV_GPU_UTIL_RATIO",
        "DCGM_FI_DEV_MEM_COPY_UTIL": "DCGM_FI_DEV_MEMORY_UTIL_RATIO",
        "DCGM_FI_DEV_ENC_UTIL": "DCGM_FI_DEV_ENC_UTIL_RATIO",
        "DCGM_FI_DEV_DEC_UTIL": "DCGM_FI_DEV_DEC_UTIL_RATIO",
        "DCGM_FI_DEV_XID_ERRORS": "DCGM_FI_DEV_XID_ERROR",
        "DCGM_FI_DEV_FB_FREE": "DCGM_FI_DEV_FB_FREE_BYTES",
        "DCGM_FI_DEV_FB_USED": "DCGM_FI_DEV_FB_USED_BYTES",
        "DCGM_FI_DEV_FB_RESERVED": "DCGM_FI_DEV_FB_RESERVED_BYTES",
        "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": "DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL",
        "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS": "DCGM_FI_DEV_ROW_REMAP_UNCORRECTABLE_TOTAL",
        "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS": "DCGM_FI_DEV_ROW_REMAP_CORRECTABLE_TOTAL",
        "DCGM_FI_DEV_ROW_REMAP_FAILURE": "DCGM_FI_DEV_ROW_REMAP_FAILED",
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE": "DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO",
        "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": "DCGM_FI_PROF_TENSOR_UTIL_RATIO",
        "DCGM_FI_PROF_DRAM_ACTIVE": "DCGM_FI_PROF_DRAM_UTIL_RATIO",
    }
)

# classic name -> 4.10.0 name: the PROF byte rates dcgm-exporter 4.10.0's shipped collectors rename (release notes
# of 4.10.0; the unit is still bytes per second). Unlike 4.9's renames, a custom CSV that lists the old name is
# still served under that name: only the built-in collectors use the new ones (``load_collectors``).
RENAMED_IN_4_10: Mapping[str, str] = MappingProxyType(
    {
        "DCGM_FI_PROF_PCIE_TX_BYTES": "DCGM_FI_PROF_PCIE_TX_BYTES_PER_SECOND",
        "DCGM_FI_PROF_PCIE_RX_BYTES": "DCGM_FI_PROF_PCIE_RX_BYTES_PER_SECOND",
        "DCGM_FI_PROF_NVLINK_TX_BYTES": "DCGM_FI_PROF_NVLINK_TX_BYTES_PER_SECOND",
        "DCGM_FI_PROF_NVLINK_RX_BYTES": "DCGM_FI_PROF_NVLINK_RX_BYTES_PER_SECOND",
    }
)
_CLASSIC_OF_4_10 = {new: classic for classic, new in RENAMED_IN_4_10.items()}

# DCGM 1.x names (dcgm-exporter's 1.x-compatibility-metrics.csv); emitted verbatim when written.
LEGACY_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "dcgm_sm_clock": "DCGM_FI_DEV_SM_CLOCK",
        "dcgm_memory_clock": "DCGM_FI_DEV_MEM_CLOCK",
        "dcgm_memory_temp": "DCGM_FI_DEV_MEMORY_TEMP",
        "dcgm_gpu_temp": "DCGM_FI_DEV_GPU_TEMP",
        "dcgm_power_usage": "DCGM_FI_DEV_POWER_USAGE",
        "dcgm_total_energy_consumption": "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
        "dcgm_fi_prof_pcie_tx_bytes": "DCGM_FI_PROF_PCIE_TX_BYTES",
        "dcgm_fi_prof_pcie_rx_bytes": "DCGM_FI_PROF_PCIE_RX_BYTES",
        "dcgm_pcie_replay_counter": "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
        "dcgm_gpu_utilization": "DCGM_FI_DEV_GPU_UTIL",
        "dcgm_mem_copy_utilization": "DCGM_FI_DEV_MEM_COPY_UTIL",
        "dcgm_enc_utilization": "DCGM_FI_DEV_ENC_UTIL",
        "dcgm_dec_utilization": "DCGM_FI_DEV_DEC_UTIL",
        "dcgm_xid_errors": "DCGM_FI_DEV_XID_ERRORS",
        "dcgm_fb_free": "DCGM_FI_DEV_FB_FREE",
        "dcgm_fb_used": "DCGM_FI_DEV_FB_USED",
        "dcgm_nvlink_bandwidth_total": "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
        "dcgm_fi_prof_gr_engine_active": "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        "dcgm_fi_prof_pipe_tensor_active": "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
        "dcgm_fi_prof_dram_active": "DCGM_FI_PROF_DRAM_ACTIVE",
        "dcgm_fi_prof_sm_active": "DCGM_FI_PROF_SM_ACTIVE",
        "dcgm_fi_prof_sm_occupancy": "DCGM_FI_PROF_SM_OCCUPANCY",
        "dcgm_power_violation": "DCGM_FI_DEV_POWER_VIOLATION",
        "dcgm_thermal_violation": "DCGM_FI_DEV_THERMAL_VIOLATION",
        "dcgm_sync_boost_violation": "DCGM_FI_DEV_SYNC_BOOST_VIOLATION",
        "dcgm_board_limit_violation": "DCGM_FI_DEV_BOARD_LIMIT_VIOLATION",
        "dcgm_low_util_violation": "DCGM_FI_DEV_LOW_UTIL_VIOLATION",
        "dcgm_reliability_violation": "DCGM_FI_DEV_RELIABILITY_VIOLATION",
        "dcgm_ecc_sbe_volatile_total": "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
        "dcgm_ecc_dbe_volatile_total": "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
        "dcgm_ecc_sbe_aggregate_total": "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL",
        "dcgm_ecc_dbe_aggregate_total": "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL",
        "dcgm_retired_pages_sbe": "DCGM_FI_DEV_RETIRED_SBE",
        "dcgm_retired_pages_dbe": "DCGM_FI_DEV_RETIRED_DBE",
        "dcgm_retired_pages_pending": "DCGM_FI_DEV_RETIRED_PENDING",
        "dcgm_nvlink_flit_crc_error_count_total": "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
        "dcgm_nvlink_data_crc_error_count_total": "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
        "dcgm_nvlink_replay_error_count_total": "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL",
        "dcgm_nvlink_recovery_error_count_total": "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
    }
)


# Fields DCGM 4.7 removed, by every name a collectors CSV may use -> the field that replaces them. A CSV that lists
# one still loads (the row is skipped with a deprecation line): dcgm-exporter 4.8.4 refuses to start instead.
REMOVED_FIELDS: Mapping[str, str] = MappingProxyType(
    {
        "DCGM_FI_DEV_PCIE_TX_THROUGHPUT": "DCGM_FI_PROF_PCIE_TX_BYTES",
        "DCGM_FI_DEV_PCIE_RX_THROUGHPUT": "DCGM_FI_PROF_PCIE_RX_BYTES",
        "dcgm_pcie_tx_throughput": "DCGM_FI_PROF_PCIE_TX_BYTES",
        "dcgm_pcie_rx_throughput": "DCGM_FI_PROF_PCIE_RX_BYTES",
    }
)


def _index(fields: Iterable[Field]) -> Mapping[str, Field]:
    by_name: dict[str, Field] = {}
    for field in fields:
        if field.name in by_name:
            raise ValueError(f"duplicate catalog name {field.name}")
        by_name[field.name] = field
    return MappingProxyType(by_name)


BY_NAME: Mapping[str, Field] = _index((*ALL_FIELDS, *FABRIC_FIELDS))


def _field_by_id(fields: Iterable[Field]) -> Mapping[int, Field]:
    # Several names can share an id (same-unit 4.9 renames); the classic row comes first and wins.
    by_id: dict[int, Field] = {}
    for field in fields:
        by_id.setdefault(field.field_id, field)
    return MappingProxyType(by_id)


BY_ID: Mapping[int, Field] = _field_by_id((*ALL_FIELDS, *FABRIC_FIELDS))


@dataclass(frozen=True, slots=True)
class ResolvedName:
    """A CSV name resolved against the catalog: the field to read and the name to emit."""

    field: Field
    emitted_name: str


def resolve(name: str, dialect: Dialect = Dialect.CLASSIC) -> ResolvedName | None:
    """Resolve a CSV column-1 name; ``None`` if the catalog does not know it.

    Classic emits names as written (dcgm-exporter <= 4.8). 4.9 and 4.10 rewrite the 23 renamed classic names to
    their 4.9 names and units; 4.10 also knows its four ``*_BYTES_PER_SECOND`` names (``RENAMED_IN_4_10``), and
    serves the old ones as written. DCGM 1.x lowercase names are always emitted as written.
    """
    if name in LEGACY_NAMES:
        return ResolvedName(BY_NAME[LEGACY_NAMES[name]], name)
    if dialect is Dialect.DCGM_4_10 and name in _CLASSIC_OF_4_10:
        return ResolvedName(BY_NAME[_CLASSIC_OF_4_10[name]], name)
    field = BY_NAME.get(name)
    if field is None:
        # A name only dcgm_fields.h knows (a current name or a deprecated alias): the catalog row of its id.
        header_id = header_tables().ids.get(name)
        field = BY_ID.get(header_id) if header_id is not None else None
        return None if field is None else ResolvedName(field, name)
    if dialect is not Dialect.CLASSIC and name in RENAMED_IN_4_9:
        renamed = BY_NAME[RENAMED_IN_4_9[name]]
        return ResolvedName(renamed, renamed.name)
    return ResolvedName(field, name)


def suggest(name: str) -> str | None:
    """The closest known name, for "did you mean" hints."""
    if name.upper() in BY_NAME:
        return name.upper()
    candidates = [*BY_NAME, *LEGACY_NAMES, *header_tables().ids]
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    if not close and name.upper() != name:
        close = difflib.get_close_matches(name.upper(), candidates, n=1, cutoff=0.6)
    return close[0] if close else None


# 4.9 base-unit fields computed exactly from a classic field: field -> (source field, factor).
# Framebuffer bytes and NVLink bytes/s are not here: scaling MiB or MB/s back up would invent precision, so
# backends read those natively.
DERIVED: Mapping[int, tuple[FieldId, float]] = MappingProxyType(
    {
        FieldId.DCGM_FI_DEV_SM_CLOCK_HERTZ: (FieldId.DCGM_FI_DEV_SM_CLOCK, 1e6),
        FieldId.DCGM_FI_DEV_MEMORY_CLOCK_HERTZ: (FieldId.DCGM_FI_DEV_MEM_CLOCK, 1e6),
        FieldId.DCGM_FI_DEV_GPU_ENERGY_JOULES_TOTAL: (FieldId.DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION, 1e-3),
        FieldId.DCGM_FI_DEV_GPU_UTIL_RATIO: (FieldId.DCGM_FI_DEV_GPU_UTIL, 0.01),
        FieldId.DCGM_FI_DEV_MEMORY_UTIL_RATIO: (FieldId.DCGM_FI_DEV_MEM_COPY_UTIL, 0.01),
        FieldId.DCGM_FI_DEV_ENC_UTIL_RATIO: (FieldId.DCGM_FI_DEV_ENC_UTIL, 0.01),
        FieldId.DCGM_FI_DEV_DEC_UTIL_RATIO: (FieldId.DCGM_FI_DEV_DEC_UTIL, 0.01),
    }
)


# The views of ``DERIVED`` plus those the NVML backend and the simulator read natively but DCGM cannot serve (DCGM
# has framebuffer sizes in MiB and NVLink throughput in MB/s, i.e. KiB/s / 1000): view -> (DCGM field, factor).
DCGM_SOURCES: Mapping[int, tuple[FieldId, float]] = MappingProxyType(
    {
        **DERIVED,
        FieldId.DCGM_FI_DEV_FB_CAPACITY_BYTES: (FieldId.DCGM_FI_DEV_FB_TOTAL, 1048576.0),
        FieldId.DCGM_FI_DEV_FB_FREE_BYTES: (FieldId.DCGM_FI_DEV_FB_FREE, 1048576.0),
        FieldId.DCGM_FI_DEV_FB_USED_BYTES: (FieldId.DCGM_FI_DEV_FB_USED, 1048576.0),
        FieldId.DCGM_FI_DEV_FB_RESERVED_BYTES: (FieldId.DCGM_FI_DEV_FB_RESERVED, 1048576.0),
        FieldId.DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL: (FieldId.DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL, 1024000.0),
    }
)


def dcgm_id(field_id: int) -> int | None:
    """The DCGM field a catalog field's value comes from (its own id, or a view's source); ``None``: exporter's."""
    if field_id in DCGM_SOURCES:
        return int(DCGM_SOURCES[field_id][0])
    return field_id if field_id >= 0 else None


@dataclass(frozen=True, slots=True)
class HeaderField:
    """One field of dcgm_fields.h, with the metadata DCGM registers for it (``DcgmFieldGetById``)."""

    name: str  # DCGM's current name
    field_id: int
    type: str  # DCGM_FT_* letter: i, d, s, t, b; "" if DCGM registers no metadata
    entity_level: int  # DCGM_FE_*; -1 without metadata
    tag: str
    unit: str


@dataclass(frozen=True, slots=True)
class HeaderTables:
    by_id: Mapping[int, HeaderField]
    ids: Mapping[str, int]  # every name dcgm_fields.h defines, current or deprecated -> its id
    instance_levels: frozenset[int]  # DCGM_FE_GPU_I, DCGM_FE_GPU_CI


@functools.cache
def header_tables() -> HeaderTables:
    """dcgm_fields.h's fields, indexed: built on first use (a collectors CSV naming a field the catalog has no row
    for, the DCGM backend), not at import. An NVML exporter with catalog fields never needs them, and the 640 rows
    and their indexes are about 0.6 MiB of its memory."""
    from gpuscope.fields import dcgm_header

    current = {row[0]: row[1] for row in dcgm_header.FIELDS}
    groups = dcgm_header.ENTITY_GROUPS
    return HeaderTables(
        by_id=MappingProxyType({row[1]: HeaderField(*row) for row in dcgm_header.FIELDS}),
        ids=MappingProxyType({**current, **{alias: current[name] for alias, name in dcgm_header.ALIASES.items()}}),
        instance_levels=frozenset((groups["DCGM_FE_GPU_I"], groups["DCGM_FE_GPU_CI"])),
    )


if TYPE_CHECKING:
    HEADER_BY_ID: Mapping[int, HeaderField]
    HEADER_IDS: Mapping[str, int]


def __getattr__(name: str) -> Any:
    """``HEADER_BY_ID`` and ``HEADER_IDS``, built on first use (``header_tables``)."""
    if name == "HEADER_BY_ID":
        return header_tables().by_id
    if name == "HEADER_IDS":
        return header_tables().ids
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_HEADER_VALUES = {"i": ValueKind.INT, "t": ValueKind.INT, "d": ValueKind.DOUBLE, "s": ValueKind.STRING}


def header_field(name: str, kind: MetricType, help_text: str) -> Field | None:
    """A field dcgm_fields.h defines and the catalog has no row for, as a CSV row declares it; ``None`` if the
    header does not define ``name``. No backend here reads such a field yet: the CSV loader reports it unsupported."""
    tables = header_tables()
    field_id = tables.ids.get(name)
    if field_id is None:
        return None
    meta = tables.by_id[field_id]
    return Field(
        name=name,
        field_id=field_id,
        type=kind,
        unit=meta.unit.strip(),
        help=help_text,
        value=_HEADER_VALUES.get(meta.type, ValueKind.INT),
        mig=MigScope.INSTANCE if meta.entity_level in tables.instance_levels else MigScope.PARENT,
        prof=meta.name.startswith("DCGM_FI_PROF_"),
    )


def field_name(field_id: int) -> str:
    """The name to report a field id by: the catalog's, else DCGM's current name, else the number."""
    if field_id in BY_ID:
        return BY_ID[field_id].name
    meta = header_tables().by_id.get(field_id)
    return meta.name if meta is not None else str(field_id)
