"""The exporter's own HTTP/1.1 server: its strict request parser, and keep-alive, pipelining, ``Expect`` and chunked
bodies on a real listening exporter (raw sockets, so nothing a client library does for us hides what is sent)."""

from __future__ import annotations

import json
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
from gpuscope.httpd.http1 import BadRequest, check_partial_head, parse_head, take_chunked
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for


def test_a_head_is_parsed_into_method_path_query_and_lower_case_fields() -> None:
    head = parse_head(b"GET /me%74rics?x=1 HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\nX-A: 1\r\nx-a: 2")
    assert (head.method, head.path, head.query, head.version) == ("GET", "/metrics", "x=1", (1, 1))
    assert head.headers == {"host": "a", "accept-encoding": "gzip", "x-a": "1, 2"}
    assert head.keep_alive and head.content_length is None and not head.chunked
    assert not parse_head(b"GET / HTTP/1.0").keep_alive
    assert parse_head(b"GET / HTTP/1.0\r\nConnection: Keep-Alive").keep_alive
    assert not parse_head(b"GET / HTTP/1.1\r\nConnection: close").keep_alive
    assert parse_head(b"GET http://h:1/health HTTP/1.1").path == "/health"


@pytest.mark.parametrize(
    ("partial", "reason"),
    [
        (b"\x8f\x03GE", "invalid method"),  # no request line ends yet, but no method has such bytes
        (b"GET / HTTP/1.1\nHost: x", "the request line does not end with CRLF"),
        (b"\n", "the request line does not end with CRLF"),
        (b"GET /a b HTTP/1.1\r\n", "the request line is not METHOD TARGET VERSION"),
        (b"GET / HTTP/3\r\nHost", "unsupported HTTP version"),
    ],
)
def test_a_head_still_arriving_is_refused_once_it_cannot_be_a_request(partial: bytes, reason: str) -> None:
    with pytest.raises(BadRequest, match=f"^{re.escape(reason)}$"):
        check_partial_head(partial)


@pytest.mark.parametrize("partial", [b"", b"GE", b"GET", b"GET /metr", b"GET /metrics HTTP/1.1\r\nHost: x\r\n"])
def test_a_head_still_arriving_that_can_still_be_a_request_is_waited_for(partial: bytes) -> None:
    check_partial_head(partial)  # no exception: more bytes may make it a request


@pytest.mark.parametrize(
    ("raw", "status", "reason"),
    [
        (b"GET /", 400, "the request line is not METHOD TARGET VERSION"),
        (b"GET  / HTTP/1.1", 400, "the request line is not METHOD TARGET VERSION"),
        (b"G\x00T / HTTP/1.1", 400, "invalid method"),
        (b"GET /\x7f HTTP/1.1", 400, "invalid request target"),
        (b"GET / HTTP/2.0", 505, "unsupported HTTP version"),
        (b"GET / http/1.1", 400, "invalid HTTP version"),
        (b"GET / HTTP/1.1\r\nNo colon", 400, "invalid header field"),
        (b"GET / HTTP/1.1\r\nA: 1\r\n folded", 400, "invalid header field"),
        (b"GET / HTTP/1.1\r\nA: x\x00y", 400, "invalid character in a header value"),
        (b"GET / HTTP/1.1\r\nContent-Length: -1", 400, "invalid Content-Length"),
        (b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2", 400, "invalid Content-Length"),
        (b"GET / HTTP/1.1\r\nContent-Length: 99999999999999999999", 400, "invalid Content-Length"),
        (b"POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked", 400, "both Content-Length and"),
        (b"POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked", 501, "unsupported Transfer-Encoding"),
        (b"GET / HTTP/1.1" + b"\r\nA: b" * 101, 431, "too many header fields"),
    ],
)
def test_anything_unusual_in_a_head_is_one_clear_refusal(raw: bytes, status: int, reason: str) -> None:
    with pytest.raises(BadRequest) as refused:
        parse_head(raw)
    assert refused.value.status == status and str(refused.value).startswith(reason)


def test_chunked_bodies_are_joined_bounded_and_checked() -> None:
    buffer = bytearray(b"4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nTrailer: x\r\n\r\nNEXT")
    assert take_chunked(buffer, 64) == (b"Wikipedia", len(buffer) - 4)
    assert take_chunked(bytearray(b"4\r\nWi"), 64) is None  # not all here yet
    for raw, status in ((b"zz\r\n", 400), (b"41\r\n", 413), (b"2\r\nabc\r\n", 400)):
        with pytest.raises(BadRequest) as refused:
            take_chunked(bytearray(raw), 64)
        assert refused.value.status == status


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
        port, b"GET /health HTTP/1.1\r\nHost: a\r\n\r\nHEAD /metrics HTTP/1.1\r\n\r\nGET /nope HTTP/1.1\r\n\r\n"
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
