"""gpuscope's HTTP/1.1 server (h11 underneath): what it refuses and how, and keep-alive, pipelining, ``Expect`` and
chunked bodies on a real listening exporter (raw sockets, so nothing a client library does for us hides what is
sent)."""

from __future__ import annotations

import contextlib
import json
import random
import re
import socket
from collections.abc import Iterator

import httpx
import pytest

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from gpuscope.httpd.requestlog import BadRequest
from gpuscope.httpd.server import check_request_line
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for


@pytest.mark.parametrize(
    ("partial", "reason"),
    [
        (b"\x8f\x03GE", "invalid method"),  # no request line ends yet, but no method has such bytes
        (b"x" * 40, "invalid method"),  # longer than any method, and still no space
        (b"\n", "the request line is not METHOD TARGET VERSION"),
        (b"GET /a b HTTP/1.1\r\n", "the request line is not METHOD TARGET VERSION"),
        (b"GET / HTTP/3\r\nHost", "the request line is not METHOD TARGET VERSION"),
        (b"GET / FTP", "the request line is not METHOD TARGET VERSION"),  # the third word cannot become HTTP/x.y
    ],
)
def test_a_head_still_arriving_is_refused_once_it_cannot_be_a_request(partial: bytes, reason: str) -> None:
    with pytest.raises(BadRequest, match=f"^{re.escape(reason)}$"):
        check_request_line(partial)


@pytest.mark.parametrize(
    "partial", [b"", b"GE", b"GET", b"GET /metr", b"GET /metrics HT", b"GET /metrics HTTP/1.1\r\nHost: x\r\n"]
)
def test_a_head_still_arriving_that_can_still_be_a_request_is_waited_for(partial: bytes) -> None:
    check_request_line(partial)  # no exception: more bytes may make it a request


@pytest.fixture
def port() -> Iterator[int]:
    sim = SimNode(SimNodeConfig("node-a", model_by_key("h100"), 2))
    runtime = make_runtime(sim, ExporterSettings(collectors=load_collectors(None), interval_s=0.5), "node-a")
    lst = Listener("127.0.0.1", free_port(), runtime)
    with serving([lst], 0.5):
        wait_for(lambda: httpx.get(f"{lst.url}/health").status_code == 200, what="healthy")
        yield lst.port


def _exchange(port: int, data: bytes) -> bytes:
    """Send ``data``, half-close, and read until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        reply = bytearray()
        while chunk := sock.recv(65536):
            reply += chunk
    return bytes(reply)


def test_pipelined_requests_are_answered_in_order_on_one_connection(port: int) -> None:
    reply = _exchange(
        port,
        b"GET /health HTTP/1.1\r\nHost: a\r\n\r\nHEAD /metrics HTTP/1.1\r\nHost: a\r\n\r\n"
        b"GET /nope HTTP/1.1\r\nHost: a\r\n\r\n",
    )
    assert re.findall(rb"HTTP/1\.1 (\d{3}) ", reply) == [b"200", b"200", b"404"]
    assert b"DCGM_FI_DEV_GPU_TEMP" not in reply  # HEAD: the head only


def test_expect_continue_and_a_chunked_body_reach_the_fault_route(port: int) -> None:
    body = json.dumps({"fault": "thermal", "gpu": 1}).encode()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(
            b"POST /sim/faults HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        assert sock.recv(4096) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
        sock.shutdown(socket.SHUT_WR)
        reply = bytearray()
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, payload = bytes(reply).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n")
    assert json.loads(payload) == {"active": [{"fault": "thermal", "gpu": 1}]}


def test_a_malformed_request_is_a_400_that_says_why_and_closes(port: int) -> None:
    reply = _exchange(port, b"GET / HTTP/1.1\r\nBad Header\r\n\r\nGET /health HTTP/1.1\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 400 Bad Request\r\n") and reply.endswith(b"\r\n\r\ninvalid header field\n")
    assert reply.count(b"HTTP/1.1 ") == 1  # nothing after a refusal is read


@pytest.mark.parametrize(
    ("raw", "status", "reason"),
    [
        (b"GET /", 400, "the request line is not METHOD TARGET VERSION"),
        (b"GET  / HTTP/1.1", 400, "the request line is not METHOD TARGET VERSION"),
        (b"G\x00T / HTTP/1.1", 400, "the request line is not METHOD TARGET VERSION"),
        (b"GET /\x7f HTTP/1.1", 400, "the request line is not METHOD TARGET VERSION"),
        (b"GET / HTTP/2.0", 505, "unsupported HTTP version"),
        (b"GET / http/1.1", 400, "the request line is not METHOD TARGET VERSION"),
        (b"GET / HTTP/1.1", 400, "missing required Host header"),  # RFC 9112 3.2, as Go's server answers
        (b"GET / HTTP/1.1\r\nHost: a\r\nNo colon", 400, "invalid header field"),
        (b"GET / HTTP/1.1\r\nHost: a\r\nA: x\x00y", 400, "invalid header field"),
        (b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1", 400, "invalid Content-Length"),
        (b"GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2", 400, "invalid Content-Length"),
        (b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked", 400, "both Content-Length"),
        (b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked", 501, "unsupported Transfer-Encoding"),
        (b"GET / HTTP/1.1\r\nHost: a" + b"\r\nA: b" * 101, 431, "too many header fields"),
    ],
)
def test_anything_unusual_in_a_head_is_one_clear_refusal(port: int, raw: bytes, status: int, reason: str) -> None:
    reply = _exchange(port, raw + b"\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 %d " % status), reply[:80]
    assert reply.partition(b"\r\n\r\n")[2].decode().startswith(reason)


@pytest.mark.parametrize(
    "garbage",
    [
        bytes(random.Random(53).randrange(256) for _ in range(2048)),
        b"x" * 2048,  # no space, no line end: a method longer than any method
        b" ".join([b"GETX"] * 409),  # a "request line" whose third word cannot become HTTP/x.y
    ],
    ids=["random-bytes", "one-long-word", "words"],
)
def test_2_kb_of_garbage_is_answered_400_at_once(port: int, garbage: bytes) -> None:
    # Sent without closing our side: the answer must not wait for the request deadline (a silent close).
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(garbage)
        reply = bytearray()
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                reply += chunk
    assert reply.startswith(b"HTTP/1.1 400 Bad Request\r\n"), bytes(reply[:80])


def test_a_chunked_body_over_the_limit_is_a_413(port: int) -> None:
    chunk = b"x" * 4096
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(20)) + b"0\r\n\r\n"  # 80 KiB > 64 KiB
    reply = _exchange(port, b"POST /sim/faults HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + body)
    assert reply.startswith(b"HTTP/1.1 413 ")


def test_targets_are_percent_decoded_and_the_absolute_form_is_served(port: int) -> None:
    reply = _exchange(
        port,
        b"GET /he%61lth?x=1 HTTP/1.1\r\nHost: a\r\n\r\nGET http://a:1/health HTTP/1.1\r\nHost: a\r\n\r\n",
    )
    assert re.findall(rb"HTTP/1\.1 (\d{3}) ", reply) == [b"200", b"200"]


def test_a_content_length_of_5000_digits_is_a_413_not_a_traceback(port: int, caplog: pytest.LogCaptureFixture) -> None:
    reply = _exchange(port, b"POST /sim/faults HTTP/1.1\r\nHost: a\r\nContent-Length: " + b"1" * 5000 + b"\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 413 ")
    assert not [r for r in caplog.records if r.exc_info]
