"""Hostile answers to ``-m/--configmap-data``, through the real ``gpuscope exporter`` process and the fake API server.

- a 302 to another host: urllib followed it *with the service-account bearer token*; now no redirect is followed
  (one line, exit 2) and the other host never hears from the exporter;
- an answer dripping a byte at a time: the per-read timeout never fired, so start-up hung; now the whole read has
  one deadline, and a SIGHUP reload stuck on such a server does not hold SIGTERM;
- a ConfigMap that turns into a nesting bomb: a traceback and exit 1 at start, ``config_last_reload_successful``
  left at 1 on reload; now one line and exit 2, or a failed reload that keeps the old collectors.
"""

from __future__ import annotations

import os
import re
import signal
import socketserver
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.support.exporter_process import GPUSCOPE, ExporterProcess, clean_env, exporter_process
from tests.support.hostile_http import hostile
from tests.support.kubeapi import FakeKubeApi, dripping, fake_kube_api, only, raw
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

TWO_FIELDS = "DCGM_FI_DEV_GPU_TEMP, gauge, t\nDCGM_FI_DEV_POWER_USAGE, gauge, p\n"
CONFIGMAP = "/api/v1/namespaces/gpu/configmaps/metrics"
FLAG = "-m/--configmap-data (env DCGM_EXPORTER_CONFIGMAP_DATA) gpu:metrics"
BOMB = b'{"kind":"ConfigMap","data":' + b"[" * 200_000 + b"]" * 200_000 + b"}"


def argv(port: int) -> list[str]:
    return [*GPUSCOPE, "exporter", "--fake-gpus", "-a", f"127.0.0.1:{port}", "-c", "300", "-m", "gpu:metrics"]


def one_line_exit_2(api: FakeKubeApi, *fragments: str) -> str:
    done = subprocess.run(
        argv(free_port()), env=clean_env(api.env()), capture_output=True, text=True, timeout=90, check=False
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and lines[-1].startswith(f"gpuscope: error: {FLAG}: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[-1], lines[-1]
    return lines[-1]


@pytest.fixture
def api(tmp_path: Path) -> Iterator[FakeKubeApi]:
    with fake_kube_api(tmp_path) as server:
        server.configmaps[("gpu", "metrics")] = {"metrics": TWO_FIELDS}
        yield server


def test_a_redirect_is_not_followed_with_the_token(api: FakeKubeApi) -> None:
    heard: list[str] = []

    def record(path: str, handler: socketserver.StreamRequestHandler) -> None:
        heard.append(path)
        handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")

    with hostile(record) as elsewhere:

        def redirect(handler: BaseHTTPRequestHandler) -> None:
            handler.send_response(302)
            handler.send_header("Location", f"{elsewhere}/steal")
            handler.send_header("Content-Length", "0")
            handler.end_headers()

        api.answer = only(CONFIGMAP, redirect)
        one_line_exit_2(api, "redirect (HTTP 302), which is not followed")
    assert heard == []  # the token never left for the other host


def test_a_dripping_answer_ends_start_up_at_the_deadline(api: FakeKubeApi) -> None:
    started = threading.Event()
    api.answer = only(CONFIGMAP, dripping(started))
    one_line_exit_2(api, "no whole answer from 127.0.0.1", "within 10s")
    assert started.is_set()


def test_a_nesting_bomb_is_one_line_at_start_and_a_failed_reload_later(api: FakeKubeApi, tmp_path: Path) -> None:
    api.answer = only(CONFIGMAP, raw(BOMB))
    one_line_exit_2(api, "nests deeper than any ConfigMap")
    api.answer = None
    port = free_port()
    with exporter_process(argv(port), f"http://127.0.0.1:{port}", tmp_path, env=clean_env(api.env())) as running:
        assert reload_ok(running) == 1
        api.answer = only(CONFIGMAP, raw(BOMB))
        running.hup()
        wait_for(lambda: reload_ok(running) == 0, what="the failed reload")
        assert {"DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE"} <= families(running)  # the old list serves on
        wait_for(lambda: running.get("/health").status_code == 200, what="/health 200")
        lines = [ln for ln in running.log().splitlines() if "SIGHUP reload failed" in ln]
        assert len(lines) == 1 and "nests deeper than any ConfigMap" in lines[0]
        assert "Traceback" not in running.log()


def test_sigterm_during_a_reload_from_a_dripping_server_ends_the_exporter(api: FakeKubeApi, tmp_path: Path) -> None:
    port = free_port()
    with exporter_process(argv(port), f"http://127.0.0.1:{port}", tmp_path, env=clean_env(api.env())) as running:
        started = threading.Event()
        api.answer = only(CONFIGMAP, dripping(started))
        running.hup()
        assert started.wait(30), running.log()  # the reload now reads from the dripping server
        assert running.get("/metrics").status_code == 200  # and scrapes are served meanwhile
        running.proc.send_signal(signal.SIGTERM)
        assert running.proc.wait(60) == 0, running.log()
        assert "Traceback" not in running.log()


def reload_ok(running: ExporterProcess) -> int:
    found = re.search(r"^gpuscope_exporter_config_last_reload_successful (\d)$", running.get("/metrics").text, re.M)
    assert found
    return int(found[1])


def families(running: ExporterProcess) -> set[str]:
    return set(re.findall(r"^(DCGM_FI_\w+)\{", running.get("/metrics").text, re.M))


def test_a_fifo_for_the_service_account_ca_is_one_line_not_a_hang(api: FakeKubeApi) -> None:
    ca = api.sa_dir / "ca.crt"
    ca.unlink()
    os.mkfifo(ca)  # no writer ever comes: opened blocking, start-up would wait for ever
    one_line_exit_2(api, "cannot read the service-account token or CA", "not a regular file")
