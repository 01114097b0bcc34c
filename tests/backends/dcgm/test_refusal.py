"""What DCGM refuses, the fake refuses; what the host engine refuses, the backend leaves out and serves the rest."""

from __future__ import annotations

import ctypes
import logging

import pytest

from gpuscope.backends.base import ReadError, ReadRequest
from gpuscope.backends.dcgm import DcgmBackend
from gpuscope.backends.dcgm import structs as S
from gpuscope.backends.dcgm.library import DcgmError, Library, load
from gpuscope.fields.catalog import HEADER_BY_ID, HEADER_IDS
from gpuscope.fields.ids import FieldId
from tests.fakedcgm import FakeDcgm
from tests.fakedcgm.nodes import two_a100s

TEMP = FieldId.DCGM_FI_DEV_GPU_TEMP
NVLINK5_RX = FieldId.DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS  # 1206
C2C = FieldId.DCGM_FI_DEV_C2C_LINK_ERROR_INTR  # 1400


@pytest.fixture
def library(fake: FakeDcgm) -> tuple[Library, int]:
    fake.apply(*two_a100s())
    lib = Library(load(str(fake.path)))
    lib.init()
    return lib, lib.start_embedded()


def test_the_fake_knows_exactly_the_fields_dcgm_registers(library: tuple[Library, int]) -> None:
    lib, _ = library
    for field_id in range(1, 1600):
        meta = HEADER_BY_ID.get(field_id)
        expected = (meta.type, meta.entity_level) if meta is not None and meta.type else None
        assert lib.field_meta(field_id) == expected, field_id


def test_one_unknown_id_refuses_the_whole_field_group(library: tuple[Library, int]) -> None:
    lib, handle = library
    assert 1613 not in HEADER_BY_ID  # the id an earlier catalog invented for DCGM_FI_DEV_GPU_UTIL_RATIO
    with pytest.raises(DcgmError) as refused:
        lib.field_group_create(handle, "mixed", (TEMP, 1613))
    assert refused.value.code == S.Return.BADPARAM
    assert lib.field_group_create(handle, "known", (TEMP, HEADER_IDS["DCGM_FI_DEV_GPU_UTIL_RATIO"])) > 0


def test_a_wrong_struct_version_is_a_version_mismatch(fake: FakeDcgm) -> None:
    raw = load(str(fake.path))
    raw.dcgmInit()
    info = S.VersionInfo(version=S.make_version(S.VersionInfo, 1))  # the header's is version 2
    assert raw.dcgmVersionInfo(ctypes.byref(info)) == S.Return.VER_MISMATCH


def test_ids_an_older_host_engine_refuses_are_left_out_and_the_rest_served(
    fake: FakeDcgm, caplog: pytest.LogCaptureFixture
) -> None:
    fake.apply(*two_a100s(), "engine-fields 1200")  # an engine that predates the NVLink5 and C2C counters
    for field_id, value in ((TEMP, 41), (NVLINK5_RX, 3), (C2C, 4)):
        fake.apply(f"value gpu 0 {field_id} i {value}")
    backend = DcgmBackend(retry_initial_s=0.0, call_timeout_s=5.0)
    with caplog.at_level(logging.WARNING, logger="gpuscope.backends.dcgm"):
        first = backend.collect(ReadRequest(frozenset({TEMP, NVLINK5_RX, C2C})))
        again = backend.collect(ReadRequest(frozenset({TEMP, NVLINK5_RX, C2C})))
    for reading in (first, again):
        device = reading.gpus[0].device
        assert device.values[TEMP] == 41
        assert (device.errors[NVLINK5_RX], device.errors[C2C]) == (ReadError.NOT_SUPPORTED, ReadError.NOT_SUPPORTED)
    refusals = [r.getMessage() for r in caplog.records if "refuses field ids" in r.getMessage()]
    assert refusals == [
        f"the DCGM host engine refuses field ids [{int(NVLINK5_RX)}, {int(C2C)}] (older than the library?): left out"
    ]
    backend.close()


def test_ids_the_library_does_not_know_are_never_sent(fake: FakeDcgm, caplog: pytest.LogCaptureFixture) -> None:
    fake.apply(*two_a100s(), "library-fields 1300", f"value gpu 0 {TEMP} i 40")
    backend = DcgmBackend(retry_initial_s=0.0, call_timeout_s=5.0)
    with caplog.at_level(logging.WARNING, logger="gpuscope.backends.dcgm"):
        device = backend.collect(ReadRequest(frozenset({TEMP, C2C}))).gpus[0].device
    assert device.values[TEMP] == 40 and device.errors[C2C] is ReadError.NOT_SUPPORTED
    assert fake.calls("dcgmFieldGroupCreate") == 1  # asked first: no refused group to split
    lines = [r.getMessage() for r in caplog.records if "does not know field ids" in r.getMessage()]
    assert lines == [f"the DCGM library does not know field ids [{int(C2C)}]: left out (reported unsupported)"]
    backend.close()
