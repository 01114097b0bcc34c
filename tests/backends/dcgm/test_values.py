"""Values through the real binding: every default field in its catalog type, blanks, statuses, MIG, call counts."""

from __future__ import annotations

import pytest

from gpuscope.backends.base import ProfilingState, ReadError, ReadRequest
from gpuscope.backends.dcgm import DcgmBackend
from gpuscope.exporter.collector import build_request
from gpuscope.fields.catalog import BY_ID, BY_NAME, MigScope, ValueKind
from gpuscope.fields.collectors import load_collectors
from tests.fakedcgm import FakeDcgm
from tests.fakedcgm.nodes import A100, two_a100s

DEFAULT = build_request(load_collectors(None))
PROF = ("DCGM_FI_PROF_SM_ACTIVE", "DCGM_FI_PROF_SM_OCCUPANCY", "DCGM_FI_PROF_PIPE_FP64_ACTIVE")


def fid(name: str) -> int:
    return BY_NAME[name].field_id


def model_value(field_id: int, entity: int) -> str:
    """A distinct value per field and entity, written as the fake's model line takes it."""
    if BY_ID[field_id].value is ValueKind.DOUBLE:
        return f"d {field_id / 4096 + entity / 8:.6f}"
    return f"i {field_id * 10 + entity}"


@pytest.fixture
def backend(fake: FakeDcgm) -> DcgmBackend:
    fake.apply(*two_a100s())
    return DcgmBackend(retry_initial_s=0.0, call_timeout_s=5.0)


def test_every_default_field_arrives_in_its_catalog_type_and_value(fake: FakeDcgm, backend: DcgmBackend) -> None:
    request = ReadRequest(DEFAULT.field_ids | {fid(n) for n in PROF}, health=True)
    for field_id in request.field_ids:
        fake.apply(f"value gpu 0 {field_id} {model_value(field_id, 0)}")
        if BY_ID[field_id].mig is MigScope.INSTANCE:
            fake.apply(f"value gi 0 {field_id} {model_value(field_id, 10)}")
    reading = backend.collect(request)
    gpu0, gpu1 = reading.gpus
    assert gpu0.identity.uuid == "GPU-0aaa0000-0000-0000-0000-000000000000"
    assert (gpu0.identity.pci_bus_id, gpu0.identity.model_name) == ("00000000:07:00.0", A100)
    assert reading.system[fid("DCGM_FI_DRIVER_VERSION")] == "550.54.15"
    assert not gpu0.device.errors
    for field_id in request.field_ids:
        value = gpu0.device.values[field_id]
        kind = BY_ID[field_id].value
        assert type(value) is (float if kind is ValueKind.DOUBLE else int), BY_ID[field_id].name
        assert model_value(field_id, 0).split()[1] == (f"{value:.6f}" if isinstance(value, float) else str(value))
    # MIG: GPU 1's instances carry the per-instance fields, labelled as dcgm-exporter labels them
    first, second = gpu1.instances
    assert (first.identity.gpu_instance_id, first.identity.profile) == (1, "1g.10gb")
    assert (second.identity.gpu_instance_id, second.identity.profile) == (2, "3g.40gb")
    assert first.identity.uuid == "MIG-1bbb0000-0000-0000-0000-00000000000a"
    fb_used = fid("DCGM_FI_DEV_FB_USED")
    assert first.reading.values[fb_used] == fb_used * 10 + 10
    assert set(first.reading.values) | set(first.reading.errors) == {
        f for f in request.field_ids if BY_ID[f].mig is MigScope.INSTANCE or BY_ID[f].prof
    }
    assert gpu0.profiling is ProfilingState.AVAILABLE
    assert [c.watch for c in gpu0.health][-1] == "ALL" and all(c.status == 0 for c in gpu0.health)


def test_a_collection_costs_one_values_call_per_entity_kind_and_one_health_check(
    fake: FakeDcgm, backend: DcgmBackend
) -> None:
    request = ReadRequest(DEFAULT.field_ids, health=True)
    backend.collect(request)  # connects, discovers, watches
    before = {f: fake.calls(f) for f in ("dcgmEntitiesGetLatestValues", "dcgmHealthCheck", "dcgmWatchFields")}
    for _ in range(3):
        backend.collect(request)
    assert fake.calls("dcgmEntitiesGetLatestValues") - before["dcgmEntitiesGetLatestValues"] == 3 * 2  # GPUs, GIs
    assert fake.calls("dcgmHealthCheck") - before["dcgmHealthCheck"] == 3
    assert fake.calls("dcgmWatchFields") == before["dcgmWatchFields"]  # watches are set up once
    assert fake.calls("dcgmConnect_v2") == 0 and fake.calls("dcgmStartEmbedded") == 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("i blank", ReadError.NO_DATA),
        ("i blank-notfound", ReadError.NO_DATA),
        ("i blank-unsupported", ReadError.NOT_SUPPORTED),
        ("i blank-noperm", ReadError.NO_PERMISSION),
        ("d blank-unsupported", ReadError.NOT_SUPPORTED),
        ("d blank-noperm", ReadError.NO_PERMISSION),
    ],
)
def test_blank_sentinels_are_read_errors_not_values(
    fake: FakeDcgm, backend: DcgmBackend, line: str, expected: ReadError
) -> None:
    temp = fid("DCGM_FI_DEV_GPU_TEMP")
    fake.apply(f"value gpu 0 {temp} {line}", f"value gpu 1 {temp} i 61")
    gpu0, gpu1 = backend.collect(ReadRequest(frozenset({temp}))).gpus
    assert gpu0.device.errors == {temp: expected} and temp not in gpu0.device.values
    assert gpu1.device.values == {temp: 61}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<<<NULL>>>", ReadError.NO_DATA),
        ("<<<NOT_FOUND>>>", ReadError.NO_DATA),
        ("<<<NOT_SUPPORTED>>>", ReadError.NOT_SUPPORTED),
        ("<<<NOT_PERM>>>", ReadError.NO_PERMISSION),
    ],
)
def test_string_blanks_and_per_value_status(
    fake: FakeDcgm, backend: DcgmBackend, text: str, expected: ReadError
) -> None:
    serial, temp, power = fid("DCGM_FI_DEV_SERIAL"), fid("DCGM_FI_DEV_GPU_TEMP"), fid("DCGM_FI_DEV_POWER_USAGE")
    fake.apply(
        f"value gpu 0 {serial} s {text}",
        f"value gpu 1 {serial} s 1564720004631",
        f"value gpu 0 {temp} i 50",
        f"status gpu 0 {temp} -17",  # DCGM_ST_NO_PERMISSION
        f"value gpu 0 {power} d 300.25",
    )
    gpu0, gpu1 = backend.collect(ReadRequest(frozenset({serial, temp, power}))).gpus
    assert gpu0.device.errors == {serial: expected, temp: ReadError.NO_PERMISSION}
    assert gpu0.device.values == {power: 300.25}
    assert gpu1.device.values[serial] == "1564720004631"


def test_a_lost_gpu_is_marked_lost_and_the_other_reads_on(fake: FakeDcgm, backend: DcgmBackend) -> None:
    temp = fid("DCGM_FI_DEV_GPU_TEMP")
    fake.apply(f"value gpu 0 {temp} i 40", f"status gpu 0 {temp} -18", f"value gpu 1 {temp} i 41")
    gpu0, gpu1 = backend.collect(ReadRequest(frozenset({temp}))).gpus
    assert gpu0.lost and not gpu0.device.values
    assert not gpu1.lost and gpu1.device.values == {temp: 41}


def test_xid_events_come_from_new_timestamps_of_the_xid_field(fake: FakeDcgm, backend: DcgmBackend) -> None:
    temp, xid = fid("DCGM_FI_DEV_GPU_TEMP"), fid("DCGM_FI_DEV_XID_ERRORS")
    request = ReadRequest(frozenset({temp}))
    fake.apply(f"value gpu 1 {xid} i 13 1000")  # an XID from long before the exporter started
    assert all(not g.xid_events for g in backend.collect(request).gpus)
    fake.apply(f"value gpu 1 {xid} i 79 99999999999999999")
    gpus = backend.collect(request).gpus
    assert [e.code for e in gpus[1].xid_events] == [79] and not gpus[0].xid_events
    assert not backend.collect(request).gpus[1].xid_events  # the same XID is not counted twice


def test_health_rows_follow_incidents_and_all_only_for_watch_all(fake: FakeDcgm, backend: DcgmBackend) -> None:
    fake.apply(
        "incident gpu 1 0x10 20 4 double-bit ECC error",
        "incident gpu 1 0x10 10 5 single-bit storm",
        "incident gpu 1 0x80 10 10 thermal",
        "incident gpu 1 0x2 10 13 nvlink errors",
    )
    gpu0, gpu1 = backend.collect(ReadRequest(frozenset(), health=True)).gpus
    rows = {c.watch: (c.status, c.error_code) for c in gpu1.health}
    # named as dcgm-exporter names them; a code its table lacks is DCGM_FR_UNKNOWN(<code>), as it writes it
    assert rows["MEM"] == (20, "DCGM_FR_VOLATILE_DBE_DETECTED") and rows["THERMAL"] == (
        10,
        "DCGM_FR_CLOCK_THROTTLE_THERMAL",
    )
    assert rows["NVLINK"] == (10, "DCGM_FR_UNKNOWN(13)")
    assert rows["ALL"] == (0, "DCGM_FR_OK") and rows["PCIE"] == (0, "DCGM_FR_OK")
    assert all(c.status == 0 for c in gpu0.health)


def test_fields_dcgm_does_not_serve_here_are_unsupported(fake: FakeDcgm, backend: DcgmBackend) -> None:
    per_link = fid("DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK")
    temp = fid("DCGM_FI_DEV_GPU_TEMP")
    fake.apply(f"value gpu 0 {temp} i 33")
    gpu0 = backend.collect(ReadRequest(frozenset({per_link, temp}))).gpus[0]
    assert gpu0.device.values == {temp: 33} and gpu0.device.errors == {per_link: ReadError.NOT_SUPPORTED}
