"""Fuzzing the HTTP guard: random and hostile raw request bytes over a loopback socket never produce a traceback in
the log, a hang, or a connection (and its memory) that outlives its client. Deterministic (derandomized) and bounded
in examples, so it runs in a few seconds."""

from __future__ import annotations

import contextlib
import logging
import socket

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from gpuscope.httpd.guard import HttpLimits
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e
LIMITS = HttpLimits(request_timeout_s=0.5, write_timeout_s=1.0, max_connections=16)
READ_CAP = 4 * 1024 * 1024  # more than any answer to a 1 KiB request should be

_METHODS = st.sampled_from([b"GET", b"HEAD", b"POST", b"DELETE", b"PUT", b"OPTIONS", b"G\x00T", b"", b"PRI", b"get"])
_PATHS = st.one_of(
    st.sampled_from([b"/metrics", b"/health", b"/", b"/sim/faults", b"/%00", b"/../../etc/passwd", b"*", b"//x"]),
    st.binary(max_size=40),
)
_VERSIONS = st.sampled_from([b"HTTP/1.1", b"HTTP/1.0", b"HTTP/2.0", b"HTTP/9.9", b"", b"http/1.1"])
_NAMES = st.one_of(
    st.sampled_from(
        [
            *(b"Host", b"Content-Length", b"Transfer-Encoding", b"Accept-Encoding", b"Authorization"),
            *(b"Connection", b"Expect", b"Content-Type", b"Upgrade"),
        ]
    ),
    st.binary(max_size=20),
)
_VALUES = st.one_of(
    st.sampled_from(
        [
            *(b"chunked", b"gzip;q=0", b"gzip;q=nan, *", b"-1", b"99999999999999999999", b"close", b"100-continue"),
            *(b"Basic !!!", b"Basic " + b"QQ==" * 20, b"application/json", b"websocket", b"0", b"5"),
        ]
    ),
    st.binary(max_size=60),
)
_REQUEST = st.builds(
    lambda method, path, version, headers, body: (
        method + b" " + path + b" " + version + b"\r\n" + b"".join(k + b": " + v + b"\r\n" for k, v in headers)
        + b"\r\n" + body
    ),
    _METHODS,
    _PATHS,
    _VERSIONS,
    st.lists(st.tuples(_NAMES, _VALUES), max_size=8),
    st.one_of(st.binary(max_size=200), st.sampled_from([b'{"fault": "thermal"}', b"\xff\xfe", b"[" * 300])),
)  # fmt: skip
_PAYLOAD = st.one_of(st.binary(max_size=512), st.lists(_REQUEST, min_size=1, max_size=3).map(b"".join))


def _exchange(port: int, payload: bytes) -> bytes:
    """Send ``payload``, close our side, read what comes back until the server closes (a hang fails the test)."""
    reply = bytearray()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(payload)
            sock.shutdown(socket.SHUT_WR)
        with contextlib.suppress(ConnectionResetError):
            while len(reply) < READ_CAP and (chunk := sock.recv(65536)):
                reply += chunk
    return bytes(reply)


def test_raw_request_bytes_never_traceback_hang_or_leak(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    sim = SimNode(SimNodeConfig("node-a", model_by_key("h100"), 1))
    runtime = make_runtime(sim, ExporterSettings(collectors=load_collectors(None), interval_s=0.5), "node-a")
    lst = Listener("127.0.0.1", free_port(), runtime)
    with serving([lst], 0.5, limits=LIMITS):
        wait_for(lambda: httpx.get(f"{lst.url}/health").status_code == 200, what="healthy")
        stats = runtime.connections
        assert stats is not None

        @settings(
            max_examples=100,
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(payload=_PAYLOAD)
        def probe(payload: bytes) -> None:
            reply = _exchange(lst.port, payload)
            assert not reply or reply.startswith(b"HTTP/1."), reply[:80]

        probe()
        # Every connection was released, and the exporter still serves.
        wait_for(lambda: stats.open == 0, timeout=30, what="every fuzzed connection to be released")
        assert httpx.get(f"{lst.url}/metrics").status_code == 200
        assert stats.rejected == 0  # one at a time: the cap was never the reason a connection closed
    noisy = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not noisy, [f"{r.name}: {r.getMessage()}" for r in noisy[:3]]
