"""The fleet at the report's end survives a failed last scrape: Prometheus writes a staleness marker for every series
of a target whose scrape fails, and an instant selector stops at a marker, so the GPUs of a node whose exporter
answered late once (a loaded host, the --fast stack's 1 s scrape timeout) vanished from ``capacity_by_model`` while
the ranged figures still held them: GPU-hours held over a fleet of no GPU. A real Prometheus scrapes a real HTTP
target that starts failing; the report must still count the GPUs seen in the 5 minutes before its end. The store is
seconds old: the scrape interval is detected from it all the same."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.report.store import report
from tests.support.net import wait_for
from tests.support.prom import Prometheus, run_prometheus

pytestmark = pytest.mark.e2e

MODEL = "NVIDIA H100 80GB HBM3"
GPUS = 2


def exposition() -> bytes:
    lines = []
    for name, value in (("DCGM_FI_DEV_GPU_TEMP", 40), ("DCGM_FI_PROF_SM_ACTIVE", 0.5)):
        lines.append(f"# TYPE {name} gauge")
        lines += [
            f'{name}{{gpu="{i}",UUID="GPU-{i:08d}-0000-0000-0000-000000000000",modelName="{MODEL}",Hostname="n0"}} '
            f"{value}"
            for i in range(GPUS)
        ]
    return ("\n".join(lines) + "\n").encode()


@contextmanager
def target() -> Iterator[tuple[str, threading.Event]]:
    """A metrics endpoint that answers 500 once ``failing`` is set."""
    failing = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"down\n" if failing.is_set() else exposition()
            self.send_response(500 if failing.is_set() else 200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}", failing
    finally:
        server.shutdown()
        server.server_close()


def _count(prom: Prometheus, expr: str) -> float:
    return sum(float(r["value"][1]) for r in prom.query(expr))


def test_a_failed_last_scrape_is_no_gpu_gone(tmp_path: Path) -> None:
    with target() as (address, failing):
        config = {
            "global": {"scrape_interval": "1s", "scrape_timeout": "1s"},
            "scrape_configs": [{"job_name": "dcgm-exporter", "static_configs": [{"targets": [address]}]}],
        }
        with run_prometheus(config, tmp_path / "prom") as prom:
            # a whole 5 s step of samples, then the target fails: Prometheus marks its series stale
            wait_for(lambda: _count(prom, "count_over_time(DCGM_FI_DEV_GPU_TEMP[1m])") >= GPUS * 8, what="8 scrapes")
            failing.set()
            wait_for(lambda: _count(prom, 'count(up{job="dcgm-exporter"} == 0)') == 1, what="a failed scrape")
            assert _count(prom, "DCGM_FI_DEV_GPU_TEMP") == 0  # the marker: an instant selector sees no GPU now
            body = report(prom, tmp_path, "--from", "now-1m", "--step", "5", "--tier", "raw")
    assert body["capacity_by_model"] == {MODEL: GPUS}
    # a store younger than the 10-minute probe window: the samples' own spacing, not the window over their count
    assert (body["range"]["scrape_interval_seconds"], body["range"]["scrape_interval_source"]) == (1, "detected")
    assert body["activity_source"]["profiling"] == GPUS
