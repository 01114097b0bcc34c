"""Item 7 and 13 of the hostile-input audit: doctor against hostile servers (a body dripping one byte at a time,
endless and huge bodies, redirect loops, JSON of the wrong shape or nested thousands deep) ends within its
--timeout with one line and exit 3, never a hang, a traceback or gigabytes.

The server is a real HTTP/1.1 server on loopback whose handlers misbehave on purpose (tests/support/hostile_http.py).
"""

from __future__ import annotations

import json
import socketserver

import pytest

from tests.support.doctor import assert_cannot_audit, doctor_cli
from tests.support.hostile_http import Answer, declared_huge, drip, endless, hostile, redirect_loop, send

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

BUILDINFO = json.dumps({"status": "success", "data": {"version": "2.42.0"}}).encode()


def json_answer(body: bytes, path: str, handler: socketserver.StreamRequestHandler) -> None:
    data = BUILDINFO if path.startswith("/api/v1/status/buildinfo") else body
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close"
    send(handler, head, data)


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
        # The first answer read of the wrong shape ends the audit (the client's own tests cover each call).
        (json.dumps({"status": "success", "data": [1, 2]}).encode(), "unexpected shape (AttributeError"),
        (
            json.dumps(
                {"status": "success", "data": {"resultType": "vector", "result": [{"metric": 1, "value": 2}]}}
            ).encode(),
            "unexpected shape (TypeError",
        ),
        (b"[" * 200_000 + b"]" * 200_000, "not a Prometheus API"),
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
