"""``JobReporter`` against a real Pushgateway: what it pushes, how it finishes, and that a gateway which is down,
hung or restarted never crashes, stalls or loses the job's metrics."""

from __future__ import annotations

import logging
import sys
import threading
import tracemalloc
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from gpuscope.jobs import JobReporter
from tests.fakenvml import FakeNvml
from tests.support.jobs import Blackhole, Pushgateway, run_pushgateway
from tests.support.net import free_port, wait_for

U0 = "GPU-5e1f0000-7a2b-4c3d-8e9f-a0b0c0d00000"
U1 = "GPU-5e1f0001-7a2b-4c3d-8e9f-a0b0c0d00001"
FAST = {"push_interval_s": 0.1, "max_backoff_s": 0.2, "hostname": "node-a", "user": "alice"}


def reporter(job_id: str, gateway: str, **kw: Any) -> JobReporter:
    return JobReporter(job_id, gateway=gateway, **{"env": {}, **FAST, **kw})


def values(gw: Pushgateway, job_id: str) -> dict[str, float]:
    """Each series of the job's group by name (the first one for the info series)."""
    return {name: series[0].value for name, series in gw.group(job_id).items()}


@pytest.mark.e2e
def test_pushes_info_per_gpu_and_progress_then_the_end_state(pushgateway: Pushgateway) -> None:
    with reporter("run-1", pushgateway.url, gpus=[U0, U1], labels={"team": "nlp"}, job="train") as job:
        for i in range(50):
            job.step(0.02, samples=64, tokens=8192, loss=1.0 / (i + 1))
        wait_for(lambda: values(pushgateway, "run-1").get("gpuscope_job_steps_total") == 50, what="50 steps pushed")
        running = pushgateway.group("run-1")
        assert "gpuscope_job_end_time_seconds" not in running
    assert job.flushed is True
    group = pushgateway.group("run-1")
    info = sorted((s.labels for s in group["gpuscope_job_info"]), key=lambda labels: labels["UUID"])
    key = {"job": "train", "job_id": "run-1", "instance": "node-a"}
    assert info == [
        {**key, "user": "alice", "Hostname": "node-a", "UUID": U0, "team": "nlp"},
        {**key, "user": "alice", "Hostname": "node-a", "UUID": U1, "team": "nlp"},
    ]
    got = values(pushgateway, "run-1")
    assert got["gpuscope_job_steps_total"] == 50
    assert got["gpuscope_job_step_duration_seconds"] == 0.02
    assert got["gpuscope_job_samples_per_second"] == pytest.approx(3200)
    assert got["gpuscope_job_tokens_per_second"] == pytest.approx(409600)
    assert got["gpuscope_job_loss"] == 1 / 50
    assert got["gpuscope_job_exit_code"] == 0
    assert got["gpuscope_job_end_time_seconds"] >= got["gpuscope_job_start_time_seconds"] > 0
    assert got["push_time_seconds"] >= got["gpuscope_job_end_time_seconds"]


@pytest.mark.e2e
def test_gpus_are_resolved_on_the_pushers_thread_through_nvml(pushgateway: Pushgateway) -> None:
    env = {"CUDA_VISIBLE_DEVICES": "1"}
    with reporter("run-nvml", pushgateway.url, env=env, nvml=FakeNvml("hgx-h100")) as job:
        job.step(0.1)
    info = pushgateway.group("run-nvml")["gpuscope_job_info"]
    assert [(s.labels["UUID"], s.labels["gpu"]) for s in info] == [(U1, "1")]
    assert job.gpus is not None and job.gpus.source == "CUDA_VISIBLE_DEVICES"


@pytest.mark.e2e
def test_unresolved_gpus_are_pushed_honestly_and_warned_about_once(
    pushgateway: Pushgateway, caplog: pytest.LogCaptureFixture
) -> None:
    no_driver = FakeNvml("hgx-h100")
    no_driver.init_error = 9  # NVML_ERROR_DRIVER_NOT_LOADED
    env = {"CUDA_VISIBLE_DEVICES": "0,1"}
    with (
        caplog.at_level(logging.WARNING, "gpuscope.jobs"),
        reporter("run-idx", pushgateway.url, env=env, nvml=no_driver) as job,
    ):
        wait_for(lambda: job.stats.ok >= 3, what="three pushes")
    info = pushgateway.group("run-idx")["gpuscope_job_info"]
    assert sorted(s.labels["device"] for s in info) == ["0", "1"]
    assert not any("UUID" in s.labels for s in info)
    warnings = [r.getMessage() for r in caplog.records if "not resolved to UUIDs" in r.getMessage()]
    assert len(warnings) == 1 and "kernel driver is not loaded" in warnings[0]


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("raised", "code"),
    [(RuntimeError("boom"), 1), (SystemExit(3), 3), (SystemExit(None), 0), (KeyboardInterrupt(), 130)],
)
def test_the_exit_status_follows_how_the_block_ended(
    pushgateway: Pushgateway, raised: BaseException, code: int
) -> None:
    with pytest.raises(type(raised)), reporter("run-x", pushgateway.url, gpus="none"):
        raise raised
    assert values(pushgateway, "run-x")["gpuscope_job_exit_code"] == code


@pytest.mark.e2e
def test_finish_with_delete_removes_the_group(pushgateway: Pushgateway) -> None:
    job = reporter("run-del", pushgateway.url, gpus=[U0], on_finish="delete").start()
    job.step(0.1)
    wait_for(lambda: "gpuscope_job_info" in pushgateway.group("run-del"), what="the group")
    assert job.finish() is True
    assert pushgateway.group("run-del") == {}
    assert job.finish() is True  # idempotent
    job.step(0.1)  # after the end: ignored, no error


@pytest.mark.e2e
def test_a_gateway_restarted_empty_gets_the_whole_group_back(tmp_path: Path) -> None:
    port = free_port()
    with run_pushgateway(tmp_path / "a", port) as gw:
        job = reporter("run-r", gw.url, gpus=[U0]).start()
        job.step(0.1)
        wait_for(lambda: values(gw, "run-r").get("gpuscope_job_steps_total") == 1, what="first push")
    with run_pushgateway(tmp_path / "b", port) as gw:
        job.step(0.1)
        wait_for(lambda: values(gw, "run-r").get("gpuscope_job_steps_total") == 2, what="pushes after restart")
        assert [s.labels["UUID"] for s in gw.group("run-r")["gpuscope_job_info"]] == [U0]
        assert "gpuscope_job_start_time_seconds" in gw.group("run-r")
        job.finish()


class CallWatch:
    """Records, for the thread that installs it, every Python function and builtin called (``sys.setprofile``)."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.builtins: set[str] = set()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call":
            self.files.add(frame.f_code.co_filename)
        elif event == "c_call":
            self.builtins.add(f"{getattr(arg, '__module__', None)}.{getattr(arg, '__qualname__', arg)}")


@pytest.mark.e2e
def test_gateway_down_the_loop_runs_without_io_on_its_thread_then_catches_up(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()  # nothing listens here yet
    steps = 20_000
    watch = CallWatch()
    with caplog.at_level(logging.INFO, "gpuscope.jobs"):
        job = reporter("run-down", f"http://127.0.0.1:{port}", gpus=[U0]).start()
        wait_for(lambda: job.stats.failed >= 1, what="a failed push")
        sys.setprofile(watch)
        try:
            for i in range(steps):
                job.step(0.001, samples=8, loss=float(i))
        finally:
            sys.setprofile(None)
        wait_for(lambda: job.stats.failed >= 4, what="retries")
        with run_pushgateway(tmp_path / "gw", port) as gw:
            wait_for(
                lambda: values(gw, "run-down").get("gpuscope_job_steps_total") == steps,
                timeout=30,
                what="every step pushed once the gateway is up",
            )
            assert values(gw, "run-down")["gpuscope_job_loss"] == steps - 1
            assert job.finish() is True
    # The watch saw the step path (so it works) and nothing of HTTP or sockets on the caller's thread.
    assert any(f.endswith("gpuscope/jobs/progress.py") for f in watch.files)
    io = [f for f in watch.files if any(part in f for part in ("httpx", "httpcore", "socket.py", "ssl.py"))]
    assert io == [] and not any("socket" in b or "select" in b for b in watch.builtins)
    messages = [r.getMessage() for r in caplog.records if r.name == "gpuscope.jobs"]
    assert len([m for m in messages if "push failed" in m]) == 1, messages  # warned once, however many failures
    assert any("succeeded again" in m for m in messages)


def test_gateway_down_memory_does_not_grow_with_steps() -> None:
    job = reporter("run-mem", f"http://127.0.0.1:{free_port()}", gpus="none").start()
    try:
        for i in range(1000):  # warm up: every gauge name and the first allocations exist
            job.step(0.001, samples=1, loss=float(i), lr=1e-4)
        tracemalloc.start()
        try:
            steps_path = tracemalloc.Filter(True, "*gpuscope/jobs/*")
            before = tracemalloc.take_snapshot().filter_traces([steps_path])
            for i in range(100_000):
                job.step(0.001, samples=1, loss=float(i), lr=1e-4)
            after = tracemalloc.take_snapshot().filter_traces([steps_path])
        finally:
            tracemalloc.stop()
        grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
        assert grown < 16 * 1024, f"{grown} bytes held after 100,000 steps"
    finally:
        job.finish()


def test_a_hung_gateway_costs_the_job_at_most_the_close_timeout(caplog: pytest.LogCaptureFixture) -> None:
    hole = Blackhole()
    try:
        job = reporter("run-hung", hole.url, gpus="none", timeout_s=60, close_timeout_s=0.3).start()
        wait_for(lambda: hole.accepted, what="the first push hanging in the gateway")
        for _ in range(10_000):
            job.step(0.001)
        with caplog.at_level(logging.WARNING, "gpuscope.jobs"):
            assert job.finish() is False
        pushers = [t for t in threading.enumerate() if t.name == "gpuscope-job-pusher[job_id=run-hung]"]
        assert pushers and pushers[0].daemon and pushers[0].is_alive()  # still stuck in the request: not waited for
        assert any("did not take the final push" in r.getMessage() for r in caplog.records)
    finally:
        hole.close()
        # The closed gateway ends the stuck push; the thread logs that and ends. Waited for here, so it does not
        # log into a later test's closed capture stream ("I/O operation on closed file" in the run's output).
        for thread in threading.enumerate():
            if thread.name == "gpuscope-job-pusher[job_id=run-hung]":
                thread.join(timeout=30)
