"""Real Prometheus processes on loopback, and the HTTP API calls the tests make against them."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml

from tests.support.net import free_port, wait_for


def binary(*names: str) -> str:
    """The first of ``names`` on PATH; the Debian packages are installed by `make test`."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise AssertionError(f"none of {names} is on PATH: run scripts/ensure-binaries (make test does)")


@dataclass(frozen=True)
class Prometheus:
    url: str
    workdir: Path

    def query(self, expr: str) -> list[dict[str, Any]]:
        response = httpx.get(f"{self.url}/api/v1/query", params={"query": expr}, timeout=10)
        response.raise_for_status()
        body = response.json()
        assert body["status"] == "success", body
        result: list[dict[str, Any]] = body["data"]["result"]
        return result

    def get(self, path: str) -> Any:
        response = httpx.get(f"{self.url}{path}", timeout=10)
        response.raise_for_status()
        return response.json()["data"]

    def targets(self) -> list[dict[str, Any]]:
        response = httpx.get(f"{self.url}/api/v1/targets", timeout=10)
        response.raise_for_status()
        active: list[dict[str, Any]] = response.json()["data"]["activeTargets"]
        return active


@contextmanager
def run_prometheus(
    config: dict[str, Any], workdir: Path, extra_args: tuple[str, ...] = (), files: dict[str, str] | None = None
) -> Iterator[Prometheus]:
    """Start Prometheus with ``config`` (and extra files next to it); stop it afterwards."""
    workdir.mkdir(parents=True, exist_ok=True)
    for name, text in (files or {}).items():
        (workdir / name).write_text(text)
    config_path = workdir / "prometheus.yml"
    config_path.write_text(yaml.safe_dump(config, sort_keys=True))
    with run_prometheus_file(config_path, workdir, free_port(), extra_args) as prom:
        yield prom


@contextmanager
def run_prometheus_file(
    config_path: Path, workdir: Path, port: int, extra_args: tuple[str, ...] = ()
) -> Iterator[Prometheus]:
    """Start Prometheus on an existing config file (relative rule/target paths resolve next to it)."""
    workdir.mkdir(parents=True, exist_ok=True)
    log = (workdir / "prometheus.log").open("w")
    proc = subprocess.Popen(
        [
            binary("prometheus"),
            f"--config.file={config_path}",
            f"--storage.tsdb.path={workdir / 'data'}",
            f"--web.listen-address=127.0.0.1:{port}",
            "--web.enable-lifecycle",
            *extra_args,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    prom = Prometheus(f"http://127.0.0.1:{port}", workdir)
    try:
        wait_for(
            lambda: proc.poll() is None and httpx.get(f"{prom.url}/-/ready", timeout=2).status_code == 200,
            timeout=60,
            what=f"prometheus ready (log: {workdir / 'prometheus.log'})",
        )
        yield prom
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()
