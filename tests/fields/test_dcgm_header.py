"""The generated DCGM field table (``fields/dcgm_header.py``) against NVIDIA's vendored headers.

Two independent checks: the committed module is what scripts/gen-dcgm-fields writes today (nobody edited it by
hand, nobody updated the headers without regenerating), and every id and alias in it is what the C compiler
makes of dcgm_fields.h (so the generator's reading of the header is the preprocessor's, not just self-consistent).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.collector import Collector
from gpuscope.fields import dcgm_header
from gpuscope.fields.catalog import BY_ID, DCGM_SOURCES, HEADER_BY_ID, HEADER_IDS, dcgm_id
from gpuscope.fields.collectors import parse_collectors
from gpuscope.fields.ids import FieldId
from gpuscope.hardware.models import model_by_key
from tests.support.clock import FakeClock
from tests.support.dcgm_headers import c_constants

ROOT = Path(__file__).resolve().parents[2]


def test_committed_module_is_what_the_generator_writes() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen-dcgm-fields"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_every_id_and_alias_is_what_the_c_compiler_reads(tmp_path: Path) -> None:
    names = [row[0] for row in dcgm_header.FIELDS] + list(dcgm_header.ALIASES)
    printed = c_constants("dcgm_fields.h", names, tmp_path)
    by_name = {row[0]: row[1] for row in dcgm_header.FIELDS}
    expected = {**by_name, **{alias: by_name[target] for alias, target in dcgm_header.ALIASES.items()}}
    assert printed == expected


def test_rows_carry_the_metadata_dcgm_registers() -> None:
    # Only the range markers and DCGM_FI_SYSTEM_FIELD_UNKNOWN lack metadata; every type is a DCGM_FT_* letter.
    levels = set(dcgm_header.ENTITY_GROUPS.values())
    for name, field_id, kind, level, _tag, _unit in dcgm_header.FIELDS:
        if field_id == 0:
            assert (kind, level) == ("", -1), name
            continue
        assert kind in {"b", "d", "i", "s", "t"}, name
        assert level in levels, name
    assert len({row[0] for row in dcgm_header.FIELDS}) == len(dcgm_header.FIELDS)
    assert not set(dcgm_header.ALIASES) & {row[0] for row in dcgm_header.FIELDS}


def test_catalog_ids_are_the_headers() -> None:
    # No invented ids: a catalog id at or above 0 is the id dcgm_fields.h gives that name (current or deprecated),
    # and a view (below -100) is computed from a field the header defines.
    for member in FieldId:
        if member >= 0:
            assert HEADER_IDS.get(member.name) == member, member.name
    for name, member in FieldId.__members__.items():
        if member < -100:
            assert member in DCGM_SOURCES, name
            source, factor = DCGM_SOURCES[member]
            assert source in HEADER_BY_ID and factor > 0, name
    assert HEADER_IDS["DCGM_FI_DEV_GPU_UTIL_RATIO"] == 203
    assert HEADER_IDS["DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL"] == 449


def test_every_header_name_loads_from_a_csv() -> None:
    names = sorted(HEADER_IDS)
    kinds = {name: HEADER_BY_ID[HEADER_IDS[name]].type for name in names}
    text = "".join(f"{name}, {'label' if kinds[name] == 's' else 'gauge'}, help\n" for name in names)
    loaded = parse_collectors(text, "all.csv")
    served = {m.name for m in (*loaded.metrics, *loaded.labels, *loaded.header_only)}
    # A name is served, reported unsupported, or skipped with a line naming its replacement (removed in 4.7).
    removed = [w for w in loaded.warnings if "was removed in DCGM 4.7" in w]
    assert len(served) + len(removed) == len(names)
    assert {m.field.field_id for m in loaded.header_only}.isdisjoint(BY_ID)
    # Every field of the catalog a header name reaches is read by its header id.
    for metric in (*loaded.metrics, *loaded.labels):
        assert dcgm_id(metric.field.field_id) == HEADER_IDS[metric.name] or metric.field.field_id in DCGM_SOURCES


def test_a_string_declared_as_gauge_costs_only_that_field() -> None:
    text = "DCGM_FI_DEV_FABRIC_CLUSTER_UUID, gauge, uuid\nDCGM_FI_DEV_GPU_TEMP, gauge, temp\n"
    loaded = parse_collectors(text, "f.csv")
    assert [m.name for m in loaded.metrics] == ["DCGM_FI_DEV_GPU_TEMP"]
    assert [w for w in loaded.warnings if "DCGM_FI_DEV_FABRIC_CLUSTER_UUID" in w] == [loaded.warnings[0]]
    assert loaded.warnings[0].startswith("f.csv:1: ") and len(loaded.warnings) == 1


def test_a_header_only_field_is_accepted_with_one_line() -> None:
    loaded = parse_collectors("DCGM_FI_DEV_BAR1_USED, gauge, BAR1\nDCGM_FI_DEV_GPU_TEMP, gauge, t\n", "b.csv")
    assert [m.name for m in loaded.header_only] == ["DCGM_FI_DEV_BAR1_USED"]
    assert loaded.header_only[0].field.field_id == HEADER_IDS["DCGM_FI_DEV_BAR1_USED"]
    assert [w for w in loaded.warnings if "DCGM_FI_DEV_BAR1_USED (line 1)" in w] == list(loaded.warnings)


def test_backends_that_read_no_dcgm_id_report_header_only_fields_unsupported() -> None:
    clock = FakeClock()
    sim = SimNode(SimNodeConfig("n", model_by_key("h100"), 2), clock=clock)
    csv = "DCGM_FI_DEV_BAR1_USED, gauge, BAR1\nDCGM_FI_DEV_GPU_TEMP, gauge, t\n"
    collector = Collector(sim, parse_collectors(csv, "b.csv"), clock=clock)
    assert HEADER_IDS["DCGM_FI_DEV_BAR1_USED"] not in collector.request.field_ids  # never sent to the simulator
    snapshot = collector.collect()
    assert snapshot.backend_up
    assert {(idx, name) for idx, _, name in snapshot.unsupported} == {
        (0, "DCGM_FI_DEV_BAR1_USED"),
        (1, "DCGM_FI_DEV_BAR1_USED"),
    }
