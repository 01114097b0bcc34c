"""A real Pushgateway on loopback, what it serves, and a gateway that accepts connections and never answers."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.support import prom
from tests.support.net import free_port


@dataclass(frozen=True)
class Sample:
    name: str
    labels: dict[str, str]
    value: float


@dataclass(frozen=True)
class Pushgateway:
    url: str
    port: int

    def samples(self, prefix: str = "gpuscope_job_") -> list[Sample]:
        """What Prometheus would scrape, limited to names starting with ``prefix``."""
        text = httpx.get(f"{self.url}/metrics", timeout=10).text
        out = []
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                if s.name.startswith(prefix):
                    out.append(Sample(s.name, dict(s.labels), s.value))
        return out

    def group(self, job_id: str) -> dict[str, list[Sample]]:
        """One job's series by metric name (push_time_seconds included)."""
        out: dict[str, list[Sample]] = {}
        for s in self.samples(""):
            if s.labels.get("job_id") == job_id:
                out.setdefault(s.name, []).append(s)
        return out


@contextmanager
def run_pushgateway(workdir: Path, port: int | None = None) -> Iterator[Pushgateway]:
    """Pushgateway 1.5 in memory only (no persistence file), on 127.0.0.1."""
    port = port or free_port()
    with prom.run_pushgateway(workdir, port) as url:
        yield Pushgateway(url, port)


class Blackhole:
    """A TCP server that accepts every connection and never sends a byte: a hung gateway."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted: list[socket.socket] = []
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted.append(conn)

    def close(self) -> None:
        # shutdown() wakes the accept() blocked in the thread (close() alone does not on Linux).
        self.sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(5)
        self.sock.close()
        for conn in self.accepted:
            conn.close()
