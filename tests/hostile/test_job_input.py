"""Issue 37, ``gpuscope job``: a job id (or job name, or hostname) that URL normalisation would resolve away pushes
to and deletes only the job's own group, against a real Pushgateway; a gateway dripping its answer, or answering
without end, does not outlive ``--timeout`` (one total deadline, not one per read)."""

from __future__ import annotations

import os
import socketserver
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.hostile_http import Answer, drip, drip_headers, endless, hostile, send
from tests.support.jobs import Pushgateway, run_pushgateway

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

NEIGHBOUR = "/metrics/job/gpuscope-job/instance/node-a"  # where job_id/.. lands once ".." is resolved
VICTIM = "victim_metric 1\n"


def job(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "GPUSCOPE_", "CUDA_", "NVIDIA_"))}
    return subprocess.run(
        [sys.executable, "-m", "gpuscope", "job", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**clean, "GPUSCOPE_JOB_USER": "sam"},
    )


def groups(gw: Pushgateway) -> list[dict[str, str]]:
    data = httpx.get(f"{gw.url}/api/v1/metrics", timeout=10).json()["data"]
    return sorted((g["labels"] for g in data), key=lambda labels: sorted(labels.items()))


@pytest.fixture
def gateway(tmp_path: Path) -> Iterator[Pushgateway]:
    with run_pushgateway(tmp_path / "pushgateway") as gw:
        yield gw


@pytest.mark.parametrize("job_id", ["..", ".", "...", "/", "%2e%2e", "a/../b", "../x"])
def test_a_job_id_the_url_would_normalise_pushes_and_deletes_only_its_own_group(
    gateway: Pushgateway, job_id: str
) -> None:
    put = httpx.put(gateway.url + NEIGHBOUR, content=VICTIM, timeout=10)
    assert put.status_code == 200, put.text
    before = groups(gateway)
    common = ("--gateway", gateway.url, "--job-id", job_id, "--hostname", "node-a", "--strict")

    started = job("start", *common, "--gpus", "none", "--timeout", "20")
    assert started.returncode == 0, started.stderr
    mine = {"job": "gpuscope-job", "job_id": job_id, "instance": "node-a"}
    assert groups(gateway) == sorted([*before, mine], key=lambda labels: sorted(labels.items()))
    assert gateway.group(job_id)["gpuscope_job_start_time_seconds"]

    stepped = job("step", *common, "--steps", "3", "--timeout", "20")
    assert stepped.returncode == 0, stepped.stderr
    assert [s.value for s in gateway.group(job_id)["gpuscope_job_steps_total"]] == [3.0]

    deleted = job("finish", *common, "--delete", "--timeout", "20")
    assert deleted.returncode == 0, deleted.stderr
    assert groups(gateway) == before  # the neighbour is still there, untouched
    assert "victim_metric" in httpx.get(f"{gateway.url}/metrics", timeout=10).text


def test_an_empty_job_id_is_refused_before_any_request() -> None:
    done = job("start", "--gateway", "http://127.0.0.1:1", "--job-id", "", "--gpus", "none", "--timeout", "5")
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpuscope: error: ") and "job id is empty" in lines[0], done.stderr


def refuse_with_an_endless_reason(path: str, handler: socketserver.StreamRequestHandler) -> None:
    send(handler, "HTTP/1.1 500 Internal Server Error\r\nConnection: close", b"")
    while True:
        handler.wfile.write(b"x" * 65536)


@pytest.mark.parametrize(
    ("answer", "fragment"),
    [
        (drip, "no answer within"),
        (drip_headers, "no answer within"),
        (endless, ""),  # 200 with a body for ever: the deadline or the 64 MiB cap, whichever comes first
        (refuse_with_an_endless_reason, ""),
    ],
    ids=["body-drip", "header-drip", "endless-body", "endless-error"],
)
@pytest.mark.parametrize("command", ["start", "finish", "gc"])
def test_a_hostile_gateway_ends_within_the_timeout_with_one_line(answer: Answer, fragment: str, command: str) -> None:
    extra = {
        "start": ("--job-id", "7", "--gpus", "none", "--strict"),
        "finish": ("--job-id", "7", "--delete", "--strict"),
        "gc": (),
    }[command]
    with hostile(answer) as url:
        # Without the total deadline the drips last for ever: only the subprocess limit would end them.
        done = job(command, "--gateway", url, "--timeout", "3", *extra, timeout=90)
    assert done.returncode == 2, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gpuscope: error: "), done.stderr
    assert url in lines[0] and fragment in lines[0], lines[0]
    assert "Traceback" not in done.stderr
