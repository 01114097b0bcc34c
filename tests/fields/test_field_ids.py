"""Field ids by name: ``FieldId`` is the catalog's id table, and every per-field table is keyed by it."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

from gpuscope import selftest
from gpuscope.backends.nvml import fieldmap
from gpuscope.backends.sim import fieldtable as sim_fields
from gpuscope.exporter import collector, render
from gpuscope.fields.catalog import ALL_FIELDS, BY_ID, BY_NAME, DCGM_SOURCES, DERIVED, Entity
from gpuscope.fields.clock_events import CLOCK_EVENT_REASONS, ClockEventReason
from gpuscope.fields.ids import (
    NVDEC_FIELDS,
    NVJPG_FIELDS,
    NVLINK_LANE_FIELDS,
    NVLINK_PROF_LANE_FIELDS,
    NVOFA_FIELDS,
    VIOLATION_FIELDS,
    FieldId,
)
from gpuscope.fields.rows_fabric import GPU_LINK_FIELDS

SRC = Path(__file__).resolve().parents[2] / "src" / "gpuscope"

# Every table or set in src/ that is keyed by field id, by where it lives.
PER_FIELD_TABLES: dict[str, Iterable[int]] = {
    "backends.sim.fieldtable.DEVICE_GETTERS": sim_fields.DEVICE_GETTERS,
    "backends.sim.fieldtable.LINK_GETTERS": sim_fields.LINK_GETTERS,
    "backends.nvml.fieldmap.DEVICE_SOURCES": fieldmap.DEVICE_SOURCES,
    "backends.nvml.fieldmap.LINK_FIELDS": fieldmap.LINK_FIELDS,
    "backends.nvml.fieldmap.NOT_BACKEND_FIELDS": fieldmap.NOT_BACKEND_FIELDS,
    "fields.catalog.DERIVED (targets)": DERIVED,
    "fields.catalog.DERIVED (sources)": [source for source, _ in DERIVED.values()],
    "exporter.collector.SYSTEM_FIELDS": collector.SYSTEM_FIELDS,
    "exporter.render._KEPT_WHEN_LOST": render._KEPT_WHEN_LOST,
    "selftest.COMPARISONS": [check.field_id for check in selftest.COMPARISONS],
    "selftest.PROF_FIELDS": selftest.PROF_FIELDS,
    "fields.ids groups": [
        *NVLINK_LANE_FIELDS,
        *(fid for pair in NVLINK_PROF_LANE_FIELDS for fid in pair),
        *NVDEC_FIELDS,
        *NVJPG_FIELDS,
        *NVOFA_FIELDS,
        *VIOLATION_FIELDS,
    ],
}


def test_field_id_covers_the_catalog_exactly() -> None:
    assert set(FieldId.__members__) == set(BY_NAME)
    for field in ALL_FIELDS:
        assert type(field.field_id) is FieldId
        assert field.field_id == FieldId[field.name]
    # Exporter-owned fields (-1..-100) and base-unit views (below -100, computed from a DCGM field), and only
    # they, have negative ids: no DCGM id can collide with them.
    assert {f.field_id for f in ALL_FIELDS if f.exporter} == {fid for fid in FieldId if -100 <= fid < 0}
    assert {fid for fid in FieldId if fid < -100} <= set(DCGM_SOURCES)


def test_a_shared_id_is_named_after_its_classic_row() -> None:
    # Same-unit 4.9 renames share the classic id: the member, like BY_ID, answers with the classic name.
    # (looked up by name: to mypy, two member names are two members)
    assert FieldId["DCGM_FI_DEV_GPU_TEMP_CELSIUS"] is FieldId.DCGM_FI_DEV_GPU_TEMP
    for fid, field in BY_ID.items():
        assert FieldId(fid).name == field.name


@pytest.mark.parametrize("table", sorted(PER_FIELD_TABLES))
def test_every_key_of_a_per_field_table_is_a_catalog_field(table: str) -> None:
    keys = list(PER_FIELD_TABLES[table])
    assert keys, f"{table} is empty"
    not_named = [key for key in keys if type(key) is not FieldId]
    assert not not_named, f"{table}: keys written as raw numbers: {not_named}"
    assert all(key in BY_ID for key in keys)


def test_per_link_tables_are_the_nvlink_entity_fields() -> None:
    link_fields = {f.field_id for f in ALL_FIELDS if f.entity is Entity.NVLINK}
    # The simulator also serves the GPU-link fields of the fabric rows (link state, per-direction throughput);
    # the NVML backend reads the link state, not the per-direction throughput (docs/exporter.md).
    assert set(sim_fields.LINK_GETTERS) == link_fields | GPU_LINK_FIELDS
    assert link_fields | {FieldId.DCGM_FI_DEV_NVLINK_GET_STATE} == fieldmap.LINK_FIELDS


def test_lane_groups_are_in_lane_order() -> None:
    assert [f.name for f in map(BY_ID.__getitem__, NVLINK_LANE_FIELDS)] == [
        f"DCGM_FI_DEV_NVLINK_BANDWIDTH_L{lane}" for lane in range(18)
    ]
    assert [fieldmap.lane_of(fid) for fid in NVLINK_LANE_FIELDS] == list(range(18))
    for lane, (tx, rx) in enumerate(NVLINK_PROF_LANE_FIELDS):
        assert (tx.name, rx.name) == (f"DCGM_FI_PROF_NVLINK_L{lane}_TX_BYTES", f"DCGM_FI_PROF_NVLINK_L{lane}_RX_BYTES")
        assert fieldmap.lane_of(tx) == fieldmap.lane_of(rx) == lane
    assert fieldmap.lane_of(FieldId.DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL) is None


def test_clock_event_reasons_are_single_distinct_bits() -> None:
    bits = [bit for bit, _ in CLOCK_EVENT_REASONS]
    assert bits == sorted(set(bits)) and all(bit & (bit - 1) == 0 for bit in bits)
    assert dict(CLOCK_EVENT_REASONS)[ClockEventReason.SW_THERMAL] == "sw_thermal"


def _raw_id_keys(path: Path, ids: set[int]) -> list[str]:
    """Integer literals that are catalog ids used as dict keys or set members (what a by-id table looks like)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Dict):
            keys = [k for k in node.keys if k is not None]
        elif isinstance(node, ast.DictComp):
            keys = [node.key]
        elif isinstance(node, ast.Set):
            keys = node.elts
        else:
            continue
        for key in keys:
            if isinstance(key, ast.Constant) and type(key.value) is int and key.value in ids:
                found.append(f"{path.relative_to(SRC)}:{key.lineno}: {key.value}")
            elif isinstance(key, ast.BinOp):  # e.g. ``1040 + 2 * lane``: an id computed from a number
                found.append(f"{path.relative_to(SRC)}:{key.lineno}: {ast.unparse(key)}")
    return found


def test_no_raw_field_id_is_a_table_key_outside_fields_ids() -> None:
    # Ids below 50 (driver and NVML versions, 1 and 2) collide with small enums (NVML brands, MIG slice
    # counts), so the scan looks at the rest; SYSTEM_FIELDS above covers 1 and 2 by name.
    ids = {fid for fid in BY_ID if fid >= 50}
    # fields/xid.py keys its tables by XID code, a number space of its own (XID 171 is not field 171).
    skipped = {"ids.py", "xid.py"}
    found = [hit for path in sorted(SRC.rglob("*.py")) if path.name not in skipped for hit in _raw_id_keys(path, ids)]
    assert not found
