"""HTTP hygiene: methods, sizes, and clients that are slow on purpose (slowloris) or never read."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from gpuscope.httpd.guard import HttpLimits
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for
from tests.support.rawhttp import closed_by_peer, keepalive_get

LIMITS = HttpLimits(request_timeout_s=1.0, write_timeout_s=1.0, keepalive_timeout_s=1.0)


@pytest.fixture
def served() -> Iterator[Listener]:
    sim = SimNode(SimNodeConfig("node-a", model_by_key("h100"), 2))
    runtime = make_runtime(sim, ExporterSettings(collectors=load_collectors(None), interval_s=0.5), "node-a")
    lst = Listener("127.0.0.1", free_port(), runtime)
    with serving([lst], 0.5, limits=LIMITS):
        wait_for(lambda: httpx.get(f"{lst.url}/health").status_code == 200, what="healthy")
        yield lst


@pytest.fixture
def url(served: Listener) -> str:
    return served.url


def raw_request(url: str, data: bytes) -> bytes:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        return read_all(sock)


def read_all(sock: socket.socket) -> bytes:
    chunks = []
    try:
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    except ConnectionResetError:
        pass
    return b"".join(chunks)


@pytest.mark.parametrize("path", ["/metrics", "/health"])
def test_only_get_and_head(url: str, path: str) -> None:
    assert httpx.get(url + path).status_code == 200
    head = httpx.head(url + path)
    assert head.status_code == 200 and head.content == b""
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        response = httpx.request(method, url + path)
        assert response.status_code == 405, method
        assert set(response.headers["Allow"].split(",")) == {"GET", "HEAD"}
    assert httpx.get(url + "/metrics/extra").status_code == 404
    assert httpx.get(url + "/debug/pprof").status_code == 404


def test_oversized_heads_and_bodies_are_refused(url: str) -> None:
    many = "".join(f"X-Filler-{i}: {'a' * 1000}\r\n" for i in range(40))  # 40 KB of head, small lines
    reply = raw_request(url, f"GET /metrics HTTP/1.1\r\nHost: x\r\n{many}\r\n".encode())
    assert reply.startswith(b"HTTP/1.1 431 ")
    long_line = raw_request(url, f"GET /metrics HTTP/1.1\r\nHost: x\r\nCookie: {'c' * 40000}\r\n\r\n".encode())
    assert long_line.startswith(b"HTTP/1.1 431 ")
    body = httpx.post(f"{url}/sim/faults", content=b"{" + b" " * 200_000 + b"}")
    assert body.status_code == 413
    # Within the limits, the same endpoint works.
    assert httpx.post(f"{url}/sim/faults", json={"fault": "thermal", "gpu": 0}).status_code == 200
    assert httpx.get(f"{url}/metrics", headers={"X-Small": "a" * 2000}).status_code == 200


def test_slowloris_client_is_cut_off_while_others_are_served(served: Listener) -> None:
    url = served.url
    host, port = url.removeprefix("http://").split(":")
    head = b"GET /metrics HTTP/1.1\r\nHost: x\r\nUser-Agent: slow\r\n" + b"X-Pad: " + b"p" * 200 + b"\r\n"
    with socket.create_connection((host, int(port)), timeout=10) as slow:
        sent, cut_off = 0, False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                slow.sendall(head[sent % len(head) : sent % len(head) + 1])  # one byte at a time, never the end
            except (BrokenPipeError, ConnectionResetError):
                cut_off = True
                break
            sent += 1
            assert httpx.get(f"{url}/metrics").status_code == 200  # other scrapes are not held up
            slow.settimeout(0.05)
            try:
                if slow.recv(1024) == b"":
                    cut_off = True
                    break
            except TimeoutError:
                pass
            except ConnectionResetError:
                cut_off = True
                break
        assert cut_off, f"the slow client was still connected after sending {sent} bytes"
        assert sent < len(head)  # cut off before its request head was complete
    assert served.runtime.connections is not None
    assert served.runtime.connections.timed_out == {"request": 1}
    timed_out = httpx.get(f"{url}/metrics").text
    assert 'gpuscope_exporter_http_connections_timed_out_total{timeout="request"} 1\n' in timed_out
    assert 'gpuscope_exporter_http_connections_timed_out_total{timeout="write"} 0\n' in timed_out


def test_idle_connection_is_closed(url: str) -> None:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as idle:
        assert read_all(idle) == b""  # the server hangs up on a connection that never sends a request


def test_idle_keepalive_connection_is_closed_after_the_keepalive_timeout(url: str) -> None:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as idle:
        assert keepalive_get(idle, "/metrics").startswith(b"HTTP/1.1 200 ")
        assert closed_by_peer(idle, timeout=30)  # the server hangs up on a keep-alive connection left idle


def test_client_that_never_reads_is_abandoned(served: Listener) -> None:
    stats = served.runtime.connections
    assert stats is not None
    wait_for(lambda: stats.open == 0, what="the readiness probes' connections to go")
    request = b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.socket() as lazy:
        # A fixed receive window: loopback autotunes it up to net.ipv4.tcp_rmem's maximum (32 MiB on some
        # machines), enough to hold all 2,000 responses before the server ever waits on this client.
        lazy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
        lazy.settimeout(30)
        lazy.connect(("127.0.0.1", served.port))
        try:
            for _ in range(2000):  # pipelined requests whose responses are never read
                lazy.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass
        # Not a byte is read until the server has given up on this client (the write timeout): then reading drains
        # what the kernels' buffers held when it did, and ends: the connection is not held. (The count of open
        # connections alone says nothing here: on a busy host it is still 0 before the server has accepted this one.)
        # The write timeout cuts it, or, if this client was starved for a second in the middle of a request head,
        # the request timeout first.
        wait_for(lambda: sum(stats.timed_out.values()) == 1, what="the server to abandon the connection")
        wait_for(lambda: stats.open == 0, what="the abandoned connection to close")
        received = read_all(lazy)
    assert received.startswith(b"HTTP/1.1 200 ")
    assert received.count(b"HTTP/1.1 200 ") < 2000
