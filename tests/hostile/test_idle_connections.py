"""Round one left this: an attacker holding the connection cap's worth (512) of idle keep-alive connections made the
real exporter answer Prometheus's scrape with a 503. Now, at the cap, the least recently active idle connection is
closed to admit the new one: the scrape gets through, the evicted sockets are closed, and the exporter's
connections and file descriptors stay at the cap however many more arrive. (Mid-request connections are kept and
keep their request deadline: tests/exporter/test_hostile_network.py.)
"""

from __future__ import annotations

import os
import resource
import socket
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from gpuscope.httpd.guard import HttpLimits
from tests.support.exporter_process import GPUSCOPE, ExporterProcess, exporter_process, http_self_metrics
from tests.support.net import free_port, wait_for
from tests.support.rawhttp import closed_by_peer, keepalive_get, turned_away

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]
CAP = HttpLimits().max_connections  # what `gpuscope exporter` runs with


@pytest.fixture
def exporter(tmp_path: Path) -> Iterator[tuple[ExporterProcess, int]]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 4 * CAP  # this process holds two waves of connections; the exporter (a child) inherits the limit too
    if soft < want and (hard == resource.RLIM_INFINITY or hard >= want):
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    port = free_port()
    argv = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-gpus", "1", "-a", f"127.0.0.1:{port}"]
    try:
        with exporter_process(argv, f"http://127.0.0.1:{port}", tmp_path) as running:
            yield running, port
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def _wave(held: ExitStack, port: int) -> list[socket.socket]:
    """The cap's worth of keep-alive connections, each idle after one answered request."""
    wave = []
    for _ in range(CAP):
        sock = held.enter_context(socket.create_connection(("127.0.0.1", port), timeout=30))
        assert keepalive_get(sock).startswith(b"HTTP/1.1 200 ")
        wave.append(sock)
    return wave


def test_idle_keepalive_connections_at_the_cap_do_not_lock_a_scrape_out(exporter: tuple[ExporterProcess, int]) -> None:
    running, port = exporter
    pid = running.proc.pid
    # Before the attack: only the readiness probe's connection, gone once the exporter has read its close.
    wait_for(lambda: http_self_metrics(running.get("/metrics").text)["gpuscope_exporter_http_connections_idle"] == 0)
    base_fds = _fds(pid)
    with ExitStack() as held:
        first = _wave(held, port)
        scrape = running.get("/metrics")  # Prometheus, at the cap
        assert scrape.status_code == 200 and "DCGM_FI_DEV_GPU_TEMP{" in scrape.text
        metrics = http_self_metrics(scrape.text)
        assert metrics["gpuscope_exporter_http_connection_limit"] == CAP
        assert metrics["gpuscope_exporter_http_connections{established}"] == CAP  # 511 idle ones and the scrape
        assert metrics["gpuscope_exporter_http_connections_idle"] == CAP - 1
        assert metrics["gpuscope_exporter_http_connections_evicted_total"] == 1
        assert metrics["gpuscope_exporter_http_connections_rejected_total"] == 0
        assert turned_away(first[0], timeout=30)  # the least recently active one made room, told with a 503
        assert not any(closed_by_peer(sock) for sock in first[1:])
        rss_at_cap = _rss_bytes(pid)

        # Another cap's worth, and another: each connection takes an older one's place; the exporter closes every
        # evicted socket, and its connections, descriptors and memory stay where the first wave left them.
        second = _wave(held, port)
        assert all(turned_away(sock, timeout=30) for sock in first[1:])
        for sock in first:
            sock.close()
        third = _wave(held, port)
        assert all(turned_away(sock, timeout=30) for sock in second)
        assert not any(closed_by_peer(sock) for sock in third)
        wait_for(lambda: _fds(pid) <= base_fds + CAP, what=f"the exporter to hold at most {CAP} connections' fds")
        growth = _rss_bytes(pid) - rss_at_cap
        assert growth < 8 * 1024 * 1024, f"RSS grew {growth / 2**20:.1f} MiB over two more waves of {CAP}"
        metrics = http_self_metrics(running.get("/metrics").text)
        assert metrics["gpuscope_exporter_http_connections{established}"] == CAP
        # 1 by the first scrape; the second wave: 511 (the first scrape's place was free); the third: 512; this one.
        assert metrics["gpuscope_exporter_http_connections_evicted_total"] == 1 + (CAP - 1) + CAP + 1
        assert metrics["gpuscope_exporter_http_connections_rejected_total"] == 0
    assert "Traceback" not in running.log()
