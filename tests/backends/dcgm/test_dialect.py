"""``--dialect 4.9 --backend dcgm``: every 4.9 field is read through the DCGM id dcgm_fields.h gives it."""

from __future__ import annotations

from gpuscope.backends.base import ReadRequest
from gpuscope.backends.dcgm import DcgmBackend
from gpuscope.exporter.collector import build_request
from gpuscope.fields.catalog import BY_ID, DCGM_SOURCES, HEADER_BY_ID, Dialect, ValueKind, dcgm_id
from gpuscope.fields.collectors import load_collectors
from tests.fakedcgm import FakeDcgm
from tests.fakedcgm.nodes import two_a100s

DIALECT_4_9 = load_collectors(None, Dialect.DCGM_4_9)


def test_every_4_9_default_field_is_served_from_a_header_id(fake: FakeDcgm) -> None:
    fake.apply(*two_a100s())
    request = build_request(DIALECT_4_9)
    sources = {dcgm_id(fid) for fid in request.field_ids}
    assert None not in sources and sources <= set(HEADER_BY_ID)  # nothing invented reaches the host engine
    for source in sources:
        assert source is not None
        kind = "d" if HEADER_BY_ID[source].type == "d" else "i"
        fake.apply(f"value gpu 0 {source} {kind} {source + 7}")
    reading = DcgmBackend(retry_initial_s=0.0, call_timeout_s=5.0).collect(ReadRequest(request.field_ids))
    values, errors = reading.gpus[0].device.values, reading.gpus[0].device.errors
    assert not errors
    for fid in request.field_ids:
        source = dcgm_id(fid)
        assert source is not None
        factor = DCGM_SOURCES[fid][1] if fid in DCGM_SOURCES else 1.0
        expected = (source + 7) * factor
        assert values[fid] == (round(expected) if BY_ID[fid].value is ValueKind.INT else expected), BY_ID[fid].name
    # the framebuffer in bytes is DCGM's MiB field x 2^20, at DCGM's id 252
    used = next(m.field.field_id for m in DIALECT_4_9.metrics if m.name == "DCGM_FI_DEV_FB_USED_BYTES")
    assert (dcgm_id(used), values[used]) == (252, 259 * 1048576)
