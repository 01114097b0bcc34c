"""Real Prometheus processes on loopback, and the HTTP API calls the tests make against them."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from gpuscope.prom import Client, Endpoint, Limits, api
from gpuscope.runner.binaries import find_binary
from gpuscope.runner.process import ManagedProcess
from tests.support.net import free_port

binary = find_binary  # the tests find every real binary through this name


@dataclass(frozen=True)
class Prometheus:
    url: str
    workdir: Path

    def client(self, timeout_s: float = 10.0) -> Client:
        """gpuscope's own client for this Prometheus (close it, or use it in ``with``)."""
        return Client(Endpoint(self.url), limits=Limits(timeout_s=timeout_s))

    def _data(self, path: str, params: list[tuple[str, str]] | None = None) -> Any:
        with self.client() as c:
            return c.run(api.raw(path, params or [], envelope=True))

    def query(self, expr: str, at: float | None = None) -> list[dict[str, Any]]:
        """An instant query, now or at ``at`` (to compare two queries at one evaluation time), as the API's JSON
        result (a failed query raises ``QueryFailed``)."""
        params = [("query", expr)] + ([("time", f"{at:.3f}")] if at is not None else [])
        result: list[dict[str, Any]] = self._data("/api/v1/query", params)["result"]
        return result

    def get(self, path: str) -> Any:
        return self._data(path)

    def targets(self) -> list[dict[str, Any]]:
        active: list[dict[str, Any]] = self._data("/api/v1/targets")["activeTargets"]
        return active


@contextmanager
def run_prometheus(
    config: dict[str, Any],
    workdir: Path,
    extra_args: tuple[str, ...] = (),
    files: dict[str, str] | None = None,
    port: int | None = None,
) -> Iterator[Prometheus]:
    """Start Prometheus with ``config`` (and extra files next to it) on ``port`` (a free one by default: pass one
    to let the config scrape Prometheus itself); stop it afterwards."""
    workdir.mkdir(parents=True, exist_ok=True)
    for name, text in (files or {}).items():
        (workdir / name).write_text(text)
    config_path = workdir / "prometheus.yml"
    config_path.write_text(yaml.safe_dump(config, sort_keys=True))
    with run_prometheus_file(config_path, workdir, port or free_port(), extra_args) as prom:
        yield prom


@contextmanager
def run_prometheus_file(
    config_path: Path, workdir: Path, port: int, extra_args: tuple[str, ...] = ()
) -> Iterator[Prometheus]:
    """Start Prometheus on an existing config file (relative rule/target paths resolve next to it)."""
    argv = [
        binary("prometheus"),
        f"--config.file={config_path}",
        f"--storage.tsdb.path={workdir / 'data'}",
        f"--web.listen-address=127.0.0.1:{port}",
        "--web.enable-lifecycle",
        *extra_args,
    ]
    prom = Prometheus(f"http://127.0.0.1:{port}", workdir)
    with serving_binary("prometheus", argv, workdir, prom.url):
        yield prom


def backfill(work: Path, lines: list[str]) -> Path:
    """``lines`` (OpenMetrics samples, however old) written as TSDB blocks into ``work/data`` by promtool."""
    work.mkdir(parents=True, exist_ok=True)
    source = work / "data.om"
    source.write_text("\n".join([*lines, "# EOF", ""]))
    subprocess.run(
        [binary("promtool"), "tsdb", "create-blocks-from", "openmetrics", str(source), str(work / "data")],
        check=True,
        capture_output=True,
    )
    source.unlink()
    return work


@contextmanager
def run_pushgateway(workdir: Path, port: int | None = None) -> Iterator[str]:
    """A real Pushgateway, in memory only (no persistence file), on loopback; yields its URL."""
    port = port or free_port()
    url = f"http://127.0.0.1:{port}"
    argv = [binary("pushgateway"), f"--web.listen-address=127.0.0.1:{port}", "--persistence.file="]
    with serving_binary("pushgateway", argv, workdir, url):
        yield url


@contextmanager
def serving_binary(name: str, argv: list[str], workdir: Path, url: str, timeout: float = 60.0) -> Iterator[None]:
    """Run a Prometheus-family binary (log in ``workdir/<name>.log``) until the block ends, once ``/-/ready``."""
    workdir.mkdir(parents=True, exist_ok=True)
    child = ManagedProcess(name, argv, workdir / f"{name}.log", f"{url}/-/ready")
    child.start()
    try:
        if not child.wait_ready(timeout):
            raise AssertionError(f"{name} did not become ready (log: {child.log_path})")
        yield
    finally:
        child.stop(20)
