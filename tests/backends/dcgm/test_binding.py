"""The binding itself: struct sizes as DCGM 4.6.0 declares them, library loading, auto selection, call errors."""

from __future__ import annotations

import ctypes
import ctypes.util
import logging

import pytest

from gpuscope.backends import choose_backend, nvidia_driver_present
from gpuscope.backends.base import BackendUnavailable, ProfilingState, ReadError, ReadRequest
from gpuscope.backends.dcgm import DcgmBackend
from gpuscope.backends.dcgm import structs as S
from gpuscope.fields import FieldId
from tests.fakedcgm import FakeDcgm
from tests.fakedcgm.nodes import two_a100s

TEMP, SM_ACTIVE = FieldId.DCGM_FI_DEV_GPU_TEMP, FieldId.DCGM_FI_PROF_SM_ACTIVE


@pytest.mark.parametrize(
    ("struct", "size", "version"),
    [
        # sizeof() of the DCGM 4.6.0 structs, and the version word MAKE_DCGM_VERSION gives them
        (S.ConnectV2Params, 16, 0x02000010),
        (S.VersionInfo, 516, 0x02000204),
        (S.FieldValueV2, 4128, 0x02001020),
        (S.GroupEntityPair, 8, None),
        (S.MigEntityInfo, 148, None),
        (S.IncidentInfo, 1044, None),
        (S.ProfMetricGroupInfoV2, 136, None),
    ],
)
def test_struct_layouts_match_dcgm_4_6(struct: type[ctypes.Structure], size: int, version: int | None) -> None:
    assert ctypes.sizeof(struct) == size
    if version is not None:
        assert S.make_version(struct, version >> 24) == version


def test_field_value_offsets_match_dcgm_4_6() -> None:
    offsets = {name: getattr(S.FieldValueV2, name).offset for name in ("entityId", "fieldId", "status", "ts", "value")}
    assert offsets == {"entityId": 8, "fieldId": 12, "status": 16, "ts": 24, "value": 32}


def test_auto_picks_dcgm_when_a_host_engine_answers(fake: FakeDcgm, caplog: pytest.LogCaptureFixture) -> None:
    fake.apply(*two_a100s())
    caplog.set_level(logging.INFO, "gpuscope.backends")
    assert choose_backend("auto") == "dcgm"
    assert any("using DCGM (libdcgm 4.6.0, the embedded host engine)" in r.message for r in caplog.records)
    assert fake.calls("dcgmShutdown") == 1  # the probe leaves nothing behind


@pytest.mark.skipif(nvidia_driver_present(), reason="this machine has an NVIDIA driver: auto would pick NVML")
def test_auto_falls_back_to_sim_and_says_why(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("GPUSCOPE_LIBDCGM_PATH", "/nonexistent/libdcgm.so.4")
    assert choose_backend("auto") == "sim"
    assert any("SIMULATED" in r.message and "cannot load /nonexistent" in r.message for r in caplog.records)


def test_a_library_that_is_not_dcgm_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    libc = ctypes.util.find_library("c")
    assert libc is not None
    monkeypatch.setenv("GPUSCOPE_LIBDCGM_PATH", libc)
    with pytest.raises(BackendUnavailable, match="has no dcgmInit: not a DCGM 4 library"):
        DcgmBackend().collect(ReadRequest(frozenset({TEMP})))


def test_a_failed_values_call_fails_that_collection_only(fake: FakeDcgm) -> None:
    fake.apply(*two_a100s(), f"value gpu 0 {TEMP} i 45")
    backend = DcgmBackend()
    request = ReadRequest(frozenset({TEMP}))
    backend.collect(request)
    fake.apply("fail dcgmEntitiesGetLatestValues -3")  # DCGM_ST_GENERIC_ERROR, once
    assert backend.collect(request).gpus[0].device.errors == {TEMP: ReadError.FAILED}
    assert backend.collect(request).gpus[0].device.values == {TEMP: 45}
    assert fake.calls("dcgmStartEmbedded") == 1  # not a reason to reconnect


@pytest.mark.parametrize(
    ("status", "state", "detail"),
    [(5, ProfilingState.LOCKED, "paused"), (2, ProfilingState.UNSUPPORTED, "profiling module is failed")],
)
def test_profiling_module_status(fake: FakeDcgm, status: int, state: ProfilingState, detail: str) -> None:
    fake.apply(*two_a100s(), f"module-profiling {status}", f"value gpu 0 {TEMP} i 45")
    gpu0 = DcgmBackend().collect(ReadRequest(frozenset({TEMP, SM_ACTIVE}))).gpus[0]
    assert gpu0.profiling is state and detail in gpu0.profiling_detail
    assert gpu0.device.values == {TEMP: 45}
