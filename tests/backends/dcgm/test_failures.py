"""The hop failure modes as data: engine down/restarted, version skew, profiling held, a hung call, bad errors."""

from __future__ import annotations

import logging

import pytest

from gpuscope.backends.base import BackendUnavailable, ProfilingState, ReadError, ReadRequest
from gpuscope.backends.dcgm import DcgmBackend, Target, parse_target
from gpuscope.errors import UsageError
from gpuscope.fields.catalog import BY_NAME
from tests.fakedcgm import FakeDcgm
from tests.fakedcgm.nodes import two_a100s

TEMP = BY_NAME["DCGM_FI_DEV_GPU_TEMP"].field_id
SM_ACTIVE = BY_NAME["DCGM_FI_PROF_SM_ACTIVE"].field_id
REQUEST = ReadRequest(frozenset({TEMP, SM_ACTIVE}))
REMOTE = Target(address="127.0.0.1:5555")


@pytest.fixture
def node(fake: FakeDcgm) -> FakeDcgm:
    fake.apply(
        *two_a100s(),
        "listen 127.0.0.1:5555",
        f"value gpu 0 {TEMP} i 50",
        f"value gpu 1 {TEMP} i 51",
        f"value gpu 0 {SM_ACTIVE} d 0.5",
        f"value gi 0 {SM_ACTIVE} d 0.25",
        f"value gi 1 {SM_ACTIVE} d 0.75",
    )
    return fake


def test_host_engine_down_then_back_reconnects_and_rewatches(node: FakeDcgm) -> None:
    backend = DcgmBackend(REMOTE, retry_initial_s=0.0)
    assert backend.collect(REQUEST).gpus[0].device.values[TEMP] == 50
    watches = node.watch_count()
    node.apply("engine down")
    with pytest.raises(BackendUnavailable, match=r"lost the host engine at 127\.0\.0\.1:5555.*CONNECTION_NOT_VALID"):
        backend.collect(REQUEST)
    with pytest.raises(BackendUnavailable, match=r"cannot reach the host engine at 127\.0\.0\.1:5555"):
        backend.collect(REQUEST)
    node.apply("engine up", f"value gpu 0 {TEMP} i 52")
    assert node.watch_count() == 0  # a new engine knows nothing of our watches
    assert backend.collect(REQUEST).gpus[0].device.values[TEMP] == 52
    assert node.watch_count() == watches
    assert node.calls("dcgmConnect_v2") == 3


def test_host_engine_restart_between_collections_is_one_failed_collection(node: FakeDcgm) -> None:
    backend = DcgmBackend(REMOTE, retry_initial_s=0.0)
    backend.collect(REQUEST)
    node.apply("engine restart")
    with pytest.raises(BackendUnavailable, match="CONNECTION_NOT_VALID"):
        backend.collect(REQUEST)
    reading = backend.collect(REQUEST)
    assert [g.device.values[TEMP] for g in reading.gpus] == [50, 51]
    assert reading.gpus[1].instances[1].reading.values[SM_ACTIVE] == 0.75


def test_backoff_between_reconnects(node: FakeDcgm) -> None:
    now = [100.0]
    backend = DcgmBackend(REMOTE, retry_initial_s=5.0, monotonic=lambda: now[0])
    node.apply("engine down")
    for expected_calls in (1, 1, 2):
        with pytest.raises(BackendUnavailable):
            backend.collect(REQUEST)
        assert node.calls("dcgmConnect_v2") == expected_calls
        now[0] += 3.0  # 3 s: still inside the first 5 s backoff; 6 s: past it


def test_version_skew_is_exported_and_warned_not_refused(node: FakeDcgm, caplog: pytest.LogCaptureFixture) -> None:
    node.apply("version client 4.6.0", "version engine 4.8.1")
    caplog.set_level(logging.WARNING, "gpuscope.backends.dcgm")
    reading = DcgmBackend(REMOTE).collect(REQUEST)
    assert reading.dcgm is not None
    assert (reading.dcgm.client_version, reading.dcgm.hostengine_version) == ("4.6.0", "4.8.1")
    assert reading.gpus[0].device.values[TEMP] == 50
    assert any("version skew" in r.message and "4.8.1" in r.message for r in caplog.records)


def test_a_version_dcgm_refuses_is_unavailable_with_both_sides_named(node: FakeDcgm) -> None:
    node.apply("version client 4.6.0", "version engine 3.3.9", "refuse-major 1")
    with pytest.raises(BackendUnavailable, match=r"refused this libdcgm \(4\.6\.0\): DCGM_ST_VER_MISMATCH"):
        DcgmBackend(REMOTE).collect(REQUEST)


def test_embedded_engine_reports_one_version(node: FakeDcgm) -> None:
    reading = DcgmBackend().collect(REQUEST)
    assert reading.dcgm is not None and reading.dcgm.client_version == reading.dcgm.hostengine_version == "4.6.0"
    assert node.calls("dcgmStartEmbedded") == 1 and node.calls("dcgmHostengineVersionInfo") == 0


def test_profiling_held_by_another_client_on_one_gpu(node: FakeDcgm) -> None:
    node.apply("prof 0 busy")
    backend = DcgmBackend(timing=None)
    gpu0, gpu1 = backend.collect(REQUEST).gpus
    assert gpu0.profiling is ProfilingState.LOCKED and "DCGM_ST_IN_USE" in gpu0.profiling_detail
    assert gpu0.device.values == {TEMP: 50}  # the other fields continue
    assert gpu0.device.errors == {SM_ACTIVE: ReadError.PROFILING_UNAVAILABLE}
    assert gpu1.profiling is ProfilingState.AVAILABLE
    assert [i.reading.values[SM_ACTIVE] for i in gpu1.instances] == [0.25, 0.75]


def test_profiling_watch_is_retried_once_the_other_client_lets_go(node: FakeDcgm) -> None:
    from gpuscope.backends.dcgm.watches import Timing

    node.apply("prof 0 busy")
    backend = DcgmBackend(timing=Timing(prof_retry_s=0.0))
    assert backend.collect(REQUEST).gpus[0].profiling is ProfilingState.LOCKED
    node.apply("prof 0 supported")
    gpu0 = backend.collect(REQUEST).gpus[0]
    assert gpu0.profiling is ProfilingState.AVAILABLE and gpu0.device.values[SM_ACTIVE] == 0.5


def test_a_new_mig_layout_is_found_and_watched(node: FakeDcgm) -> None:
    from gpuscope.backends.dcgm.watches import Timing

    backend = DcgmBackend(timing=Timing(rediscover_s=0.0))
    assert len(backend.collect(REQUEST).gpus[1].instances) == 2
    node.apply("gi 2 1 9 1 1g.10gb", f"value gi 2 {SM_ACTIVE} d 0.0625")
    gpu1 = backend.collect(REQUEST).gpus[1]
    assert [(i.identity.gpu_instance_id, i.identity.profile) for i in gpu1.instances] == [
        (1, "1g.10gb"),
        (2, "3g.40gb"),
        (9, "1g.10gb"),
    ]
    assert gpu1.instances[2].reading.values[SM_ACTIVE] == 0.0625


def test_unsupported_profiling_is_never_retried(node: FakeDcgm) -> None:
    from gpuscope.backends.dcgm.watches import Timing

    node.apply("prof 1 unsupported")
    backend = DcgmBackend(timing=Timing(prof_retry_s=0.0))
    backend.collect(REQUEST)
    watches = node.calls("dcgmWatchFields")
    gpu1 = backend.collect(REQUEST).gpus[1]
    assert gpu1.profiling is ProfilingState.UNSUPPORTED
    assert node.calls("dcgmWatchFields") == watches
    assert all(i.reading.errors[SM_ACTIVE] is ReadError.NOT_SUPPORTED for i in gpu1.instances)


def test_a_hung_call_marks_its_fields_timed_out_and_the_next_collection_recovers(node: FakeDcgm) -> None:
    backend = DcgmBackend(call_timeout_s=1.0)
    backend.collect(REQUEST)
    node.apply("hang dcgmEntitiesGetLatestValues 60000")
    gpu0, gpu1 = backend.collect(REQUEST).gpus
    assert gpu0.device.errors == {TEMP: ReadError.TIMEOUT, SM_ACTIVE: ReadError.TIMEOUT}
    assert gpu1.instances[0].reading.errors[SM_ACTIVE] is ReadError.TIMEOUT  # blocked behind the hung call
    node.release()
    from tests.support.net import wait_for

    wait_for(lambda: TEMP in backend.collect(REQUEST).gpus[0].device.values, what="values after the hang")


def test_a_failing_health_check_costs_the_health_rows_only(node: FakeDcgm) -> None:
    backend = DcgmBackend()
    request = ReadRequest(frozenset({TEMP}), health=True)
    backend.collect(request)
    node.apply("fail dcgmHealthCheck -3")
    gpu0 = backend.collect(request).gpus[0]
    assert gpu0.health == () and gpu0.device.values == {TEMP: 50}
    assert backend.collect(request).gpus[0].health


def test_a_refused_health_watch_costs_the_health_rows_not_the_session(node: FakeDcgm) -> None:
    node.apply("fail dcgmHealthSet -6")  # DCGM_ST_NOT_SUPPORTED
    backend = DcgmBackend()
    request = ReadRequest(frozenset({TEMP}), health=True)
    for _ in range(2):
        gpu0 = backend.collect(request).gpus[0]
        assert gpu0.health == () and gpu0.device.values == {TEMP: 50}
    assert node.calls("dcgmStartEmbedded") == 1 and node.calls("dcgmHealthSet") == 1


def test_missing_library_is_unavailable_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPUSCOPE_LIBDCGM_PATH", "/nonexistent/libdcgm.so.4")
    with pytest.raises(BackendUnavailable, match=r"cannot load /nonexistent/libdcgm\.so\.4.*GPUSCOPE_LIBDCGM_PATH"):
        DcgmBackend().collect(REQUEST)


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("", Target()),
        ("10.0.0.5", Target(address="10.0.0.5:5555")),
        ("nvidia-dcgm:5555", Target(address="nvidia-dcgm:5555")),
        ("/run/dcgm.sock", Target(address="/run/dcgm.sock", unix_socket=True)),
        ("unix:///run/dcgm.sock", Target(address="/run/dcgm.sock", unix_socket=True)),
    ],
)
def test_remote_hostengine_info(text: str, target: Target) -> None:
    assert parse_target(text) == target


@pytest.mark.parametrize("text", ["host:notaport", "host:70000", ":5555", "unix://relative.sock", "a b:1"])
def test_bad_remote_hostengine_info_names_the_flag(text: str) -> None:
    with pytest.raises(UsageError, match="-r/--remote-hostengine-info"):
        parse_target(text)
