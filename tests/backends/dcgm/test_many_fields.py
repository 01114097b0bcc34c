"""More than 128 DCGM fields (dcgm-exporter 4.8.4: batched reads, split field groups), through the real CLI.

DCGM takes at most ``DCGM_MAX_FIELD_IDS_PER_FIELD_GROUP`` (128) ids in a field group and in one
``dcgmEntitiesGetLatestValues`` request; the fake refuses more as DCGM does (``DCGM_ST_BADPARAM``), so a
collectors file of 150 header fields is served only if the exporter splits both its field groups and its reads.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuscope.backends.dcgm import structs as S
from gpuscope.fields.catalog import ALL_FIELDS, HEADER_BY_ID
from gpuscope.fields.collectors import parse_collectors
from tests.fakedcgm.nodes import two_a100s
from tests.support.exporter_process import fake_dcgm_exporter, scrape_until

pytestmark = pytest.mark.e2e

_CATALOG = {f.field_id for f in ALL_FIELDS}
# GPU-level numeric fields only dcgm_fields.h describes (read by id, served as written), less those a collectors
# file skips (removed in DCGM 4.7): 150 of them.
_CANDIDATES = [
    h
    for h in sorted(HEADER_BY_ID.values(), key=lambda h: h.field_id)
    if h.entity_level == 1 and h.type in ("i", "d") and h.field_id < 1000 and h.field_id not in _CATALOG
]
_KEPT = {m.name for m in parse_collectors("".join(f"{h.name}, gauge, x\n" for h in _CANDIDATES), "x").header_only}
MANY = [h for h in _CANDIDATES if h.name in _KEPT][:150]


def test_more_than_128_fields_are_all_served(fake_library: Path, tmp_path: Path) -> None:
    assert len(MANY) == 150 > S.MAX_FIELD_IDS_PER_FIELD_GROUP
    model = [*two_a100s()[:2]]
    for h in MANY:
        for gpu in (0, 1):
            value = f"d {h.field_id + gpu / 4}" if h.type == "d" else f"i {h.field_id * 10 + gpu}"
            model.append(f"value gpu {gpu} {h.field_id} {value}")
    command, env, url = fake_dcgm_exporter(
        tmp_path, fake_library, model, "".join(f"{h.name}, gauge, header field {h.field_id}\n" for h in MANY)
    )
    names = {h.name for h in MANY}

    def complete(text: str) -> str | None:
        present = {line.split("{", 1)[0] for line in text.splitlines() if not line.startswith("#")}
        return text if names <= present else None

    got, stderr = scrape_until(command, env, url, complete, "all 150 fields from the fake libdcgm")
    assert got is not None, stderr
    text = got
    last = MANY[-1]  # a field of the second batch: its own value, on each GPU
    expected = f"{last.field_id + 0.25:.6f}" if last.type == "d" else str(last.field_id * 10 + 1)
    line = next(line for line in text.splitlines() if line.startswith(last.name + "{") and 'gpu="1"' in line)
    assert line.endswith(" " + expected)
    assert "reading DCGM field values failed" not in stderr
