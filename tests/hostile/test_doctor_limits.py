"""Item 7 and 13 of the hostile-input audit: doctor against hostile servers (a body dripping one byte at a time,
endless and huge bodies, redirect loops, JSON of the wrong shape or nested thousands deep) ends within its
--timeout with one line and exit 3, never a hang, a traceback or gigabytes.

The server is a real HTTP/1.1 server on loopback whose handlers misbehave on purpose.
"""

from __future__ import annotations

import json
import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress

import pytest

from tests.doctor.support import assert_cannot_audit, doctor_cli

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

BUILDINFO = json.dumps({"status": "success", "data": {"version": "2.42.0"}}).encode()
Answer = Callable[[str, socketserver.StreamRequestHandler], None]


def _send(handler: socketserver.StreamRequestHandler, head: str, body: bytes = b"") -> None:
    handler.wfile.write(head.encode() + b"\r\n\r\n" + body)


@contextmanager
def hostile(answer: Answer) -> Iterator[str]:
    class Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            request = self.rfile.readline().decode("latin-1")
            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                pass  # the request's headers
            path = request.split(" ")[1] if " " in request else "/"
            with suppress(OSError):  # the client gave up: what a deadline is for
                answer(path, self)

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    with Server(("127.0.0.1", 0), Handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()


def json_answer(body: bytes, path: str, handler: socketserver.StreamRequestHandler) -> None:
    data = BUILDINFO if path.startswith("/api/v1/status/buildinfo") else body
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close"
    _send(handler, head, data)


def drip(path: str, handler: socketserver.StreamRequestHandler) -> None:
    _send(handler, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close", b"{")
    while True:  # one byte a second for ever: only the client's deadline ends this
        handler.wfile.write(b" ")
        handler.wfile.flush()
        time.sleep(0.5)


def endless(path: str, handler: socketserver.StreamRequestHandler) -> None:
    _send(handler, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close", b"[")
    chunk = b"0," * 32768
    while True:
        handler.wfile.write(chunk)


def declared_huge(path: str, handler: socketserver.StreamRequestHandler) -> None:
    _send(handler, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300000000", b"[")


def redirect_loop(path: str, handler: socketserver.StreamRequestHandler) -> None:
    _send(handler, f"HTTP/1.1 302 Found\r\nLocation: {path}\r\nContent-Length: 0\r\nConnection: close")


def test_a_dripping_body_ends_at_the_deadline() -> None:
    with hostile(drip) as url:
        done = doctor_cli("--prometheus", url, "--timeout", "2", timeout=60)  # without the deadline: for ever
    assert_cannot_audit(done, f"--prometheus {url}: no answer within --timeout 2s")


@pytest.mark.parametrize("answer", [endless, declared_huge], ids=["endless", "declared-huge"])
def test_a_huge_body_is_refused_at_the_cap(answer: Answer) -> None:
    with hostile(answer) as url:
        done = doctor_cli("--prometheus", url, "--timeout", "60", timeout=120)
    assert_cannot_audit(done, f"--prometheus {url}: GET /api/v1/status/buildinfo answered more than 32 MiB")


def test_a_redirect_loop_is_one_line() -> None:
    with hostile(redirect_loop) as url:
        done = doctor_cli("--prometheus", url, "--timeout", "20", timeout=60)
    assert_cannot_audit(done, "GET /api/v1/status/buildinfo redirects in a loop")


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (json.dumps({"status": "success", "data": [1, 2]}).encode(), "not a query result (AttributeError"),
        (
            json.dumps(
                {"status": "success", "data": {"resultType": "vector", "result": [{"metric": 1, "value": 2}]}}
            ).encode(),
            "not a query result (AttributeError",
        ),
        (b"[" * 200_000 + b"]" * 200_000, "is not a Prometheus API"),
    ],
    ids=["list-for-object", "number-for-labels", "nested-200000-deep"],
)
def test_json_of_the_wrong_shape_is_one_line(body: bytes, fragment: str) -> None:
    with hostile(lambda path, handler: json_answer(body, path, handler)) as url:
        done = doctor_cli("--prometheus", url, "--timeout", "20", timeout=60)
    assert_cannot_audit(done, f"--prometheus {url}", fragment)


@pytest.mark.parametrize("flag", ["--ca-file", "--bearer-token-file", "--fleet"])
def test_a_device_given_as_a_file_is_refused_before_any_request(flag: str) -> None:
    done = doctor_cli("--prometheus", "http://127.0.0.1:1", flag, "/dev/zero", "--timeout", "5", timeout=60)
    assert_cannot_audit(done, flag, "/dev/zero", "not a regular file")
