"""``gpuscope job start|step|finish|gc`` as a Slurm prolog, job script and epilog use it, against a real
Pushgateway; and the expiry of old groups."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

from gpuscope.jobs import Gateway
from gpuscope.jobs.expiry import expire
from tests.support.cli import assert_one_line_error
from tests.support.jobs import Pushgateway
from tests.support.net import free_port

U0 = "GPU-5e1f0000-7a2b-4c3d-8e9f-a0b0c0d00000"
U1 = "GPU-5e1f0001-7a2b-4c3d-8e9f-a0b0c0d00001"


def job(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "GPUSCOPE_", "CUDA_", "NVIDIA_"))}
    return subprocess.run(
        [sys.executable, "-m", "gpuscope", "job", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**clean, **(env or {})},
    )


def slurm(gw: Pushgateway, **extra: str) -> dict[str, str]:
    return {"SLURM_JOB_ID": "4242", "SLURM_JOB_USER": "sam", "GPUSCOPE_PUSHGATEWAY": gw.url, **extra}


@pytest.mark.e2e
def test_prolog_steps_and_epilog(pushgateway: Pushgateway) -> None:
    env = slurm(pushgateway, CUDA_VISIBLE_DEVICES=f"{U0},{U1}")
    started = job("start", "--label", "partition=gpu", "--hostname", "node-a", env=env)
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == f"job 4242: started, GPUs: {U0}, {U1}"
    info = pushgateway.group("4242")["gpuscope_job_info"]
    key = {"job": "gpuscope-job", "job_id": "4242", "instance": "node-a"}
    assert sorted((s.labels for s in info), key=lambda labels: labels["UUID"]) == [
        {**key, "user": "sam", "Hostname": "node-a", "UUID": U0, "partition": "gpu"},
        {**key, "user": "sam", "Hostname": "node-a", "UUID": U1, "partition": "gpu"},
    ]
    assert "gpuscope_job_steps_total" not in pushgateway.group("4242")  # a prolog reports no steps

    step = job(
        "step", "--hostname", "node-a", "--steps", "120", "--step-duration", "0.5", "--gauge", "loss=2.5", env=env
    )
    assert step.returncode == 0, step.stderr
    finish = job("finish", "--hostname", "node-a", "--exit-code", "3", env=env)
    assert finish.returncode == 0, finish.stderr
    group = {name: series[0].value for name, series in pushgateway.group("4242").items()}
    assert group["gpuscope_job_steps_total"] == 120
    assert group["gpuscope_job_step_duration_seconds"] == 0.5
    assert group["gpuscope_job_loss"] == 2.5
    assert group["gpuscope_job_exit_code"] == 3
    assert group["gpuscope_job_end_time_seconds"] >= group["gpuscope_job_start_time_seconds"]
    assert len(pushgateway.group("4242")["gpuscope_job_info"]) == 2  # step and finish left the info series

    deleted = job("finish", "--hostname", "node-a", "--delete", env=env)
    assert deleted.returncode == 0, deleted.stderr
    assert pushgateway.group("4242") == {}


def test_an_unreachable_gateway_warns_and_exits_0_unless_strict() -> None:
    env = {"SLURM_JOB_ID": "1", "GPUSCOPE_PUSHGATEWAY": f"127.0.0.1:{free_port()}"}
    lenient = job("start", "--gpus", "none", "--timeout", "0.5", env=env)
    assert lenient.returncode == 0
    assert lenient.stderr.startswith("gpuscope: warning: could not push the job start")
    assert "Connection refused" in lenient.stderr
    strict = job("finish", "--strict", "--timeout", "0.5", env=env)
    assert_one_line_error(strict, "could not push the job's end", "Connection refused")


@pytest.mark.e2e
def test_bad_input_is_a_one_line_error(pushgateway: Pushgateway) -> None:
    env = {"GPUSCOPE_PUSHGATEWAY": pushgateway.url}
    assert_one_line_error(job("start", env=env), "Missing option '--job-id'")
    assert_one_line_error(job("start", "--job-id", "a\tb", env=env), "job id 'a\\tb' contains the control character")
    assert_one_line_error(job("start", "--job-id", "x", "--label", "UUID=GPU-1", env=env), "label 'UUID' is set by")
    assert_one_line_error(job("start", "--job-id", "x", "--label", "team", env=env), "invalid --label 'team'")
    assert_one_line_error(job("start", "--job-id", "x", "--gpus", "eth0", env=env), "'eth0' is not a GPU index")
    assert_one_line_error(job("step", "--job-id", "x", "--gauge", "loss=high", env=env), "must be a number")
    assert_one_line_error(job("step", "--job-id", "x", "--gauge", "steps_total=1", env=env), "built-in job metric")
    assert_one_line_error(job("step", "--job-id", "x", "--gateway", "ftp://pg", env=env), "not an http(s) URL")
    assert_one_line_error(job("gc", "--finished-for", "soon", env=env), "invalid duration 'soon' for --finished-for")
    assert pushgateway.samples() == []  # nothing was pushed by any of them


@pytest.mark.e2e
def test_gc_deletes_old_finished_and_abandoned_groups_only(pushgateway: Pushgateway) -> None:
    gw = Gateway(pushgateway.url)
    key = (("job", "train"), ("instance", "node-a"))
    now = time.time()

    def push(job_id: str, body: str) -> None:
        gw.put((key[0], ("job_id", job_id), key[1]), body.encode())

    push("done-long-ago", f"gpuscope_job_steps_total 5\ngpuscope_job_end_time_seconds {now - 7200}\n")
    push("done-just-now", f"gpuscope_job_steps_total 5\ngpuscope_job_end_time_seconds {now}\n")
    push("running", "gpuscope_job_steps_total 5\n")
    httpx.put(f"{pushgateway.url}/metrics/job/backup", content=b"backup_last_success 1\n").raise_for_status()

    dry = job("gc", "--gateway", pushgateway.url, "--finished-for", "1h", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.startswith("would delete job=train,instance=node-a,job_id=done-long-ago (finished 72")
    assert len(dry.stdout.splitlines()) == 1 and "done-long-ago" in {s.labels["job_id"] for s in pushgateway.samples()}

    ran = job("gc", "--gateway", pushgateway.url, "--finished-for", "1h")
    assert ran.returncode == 0 and ran.stdout.startswith("deleted job=train,instance=node-a,job_id=done-long-ago")
    left = {s.labels.get("job_id") for s in pushgateway.samples("")} - {None}
    assert left == {"done-just-now", "running"}

    # Abandoned (killed) groups go only when asked, and the other gateway users' groups never.
    try:
        expired = expire(gw, now + 3600, finished_for_s=86400, stale_for_s=1800)
    finally:
        gw.close()
    assert [e.group.describe() for e in expired] == ["job=train,instance=node-a,job_id=running"]
    left = {s.labels.get("job_id", s.labels["job"]) for s in pushgateway.samples("") if "job" in s.labels}
    assert left == {"done-just-now", "backup"}


def test_gc_against_an_unreachable_gateway_is_an_error() -> None:
    assert_one_line_error(job("gc", "--gateway", f"127.0.0.1:{free_port()}", "--timeout", "0.5"), "job gc: GET")
