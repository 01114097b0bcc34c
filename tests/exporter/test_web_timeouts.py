"""``--web-read-timeout`` and ``--web-write-timeout`` (dcgm-exporter 4.8.3), through the real CLI: the read timeout
is the connection's request deadline, and a value that does not parse keeps the default with a warning, as
dcgm-exporter's ``parseDuration`` does (an exporter that a typo would stop crash-loops)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.support.exporter_process import GPUSCOPE, exporter_process
from tests.support.net import free_port

pytestmark = pytest.mark.e2e


def test_the_read_timeout_closes_a_half_sent_request(tmp_path: Path) -> None:
    port = free_port()
    command = [*GPUSCOPE, "exporter", "--backend", "sim", "-a", f"127.0.0.1:{port}", "--web-read-timeout", "1s"]
    with exporter_process(command, f"http://127.0.0.1:{port}", tmp_path):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
            conn.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")  # the head never ends
            conn.settimeout(8)  # well under the 10 s default: only the 1 s setting closes it before recv times out
            answer = b""
            while chunk := conn.recv(4096):
                answer += chunk
        assert answer == b"" or answer.startswith(b"HTTP/1.1 408")


def test_an_unparsable_timeout_keeps_the_default_with_a_warning(tmp_path: Path) -> None:
    port = free_port()
    command = [*GPUSCOPE, "exporter", "--backend", "sim", "-a", f"127.0.0.1:{port}"]
    command += ["--web-read-timeout", "soon", "--web-write-timeout", "0s"]
    with exporter_process(command, f"http://127.0.0.1:{port}", tmp_path) as exporter:
        assert exporter.get("/metrics").status_code == 200
        log = exporter.log()
    assert "--web-read-timeout 'soon': invalid duration" in log and "using the default 10s" in log
    assert "--web-write-timeout '0s': a connection needs a deadline; using the default 30s" in log
