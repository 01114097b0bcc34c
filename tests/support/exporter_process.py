"""Run ``gpuscope exporter`` (or its ``dcgm-exporter`` alias) as a real process, as a container would."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.support.net import wait_for

GPUSCOPE = [sys.executable, "-m", "gpuscope"]
T = TypeVar("T")


@dataclass
class ExporterProcess:
    proc: subprocess.Popen[bytes]
    url: str
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.get(self.url + path, timeout=10, **kwargs)

    def hup(self) -> None:
        self.proc.send_signal(signal.SIGHUP)


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This environment without any dcgm-exporter or gpuscope setting, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DCGM_", "GPUSCOPE_", "KUBERNETES_", "NVIDIA_", "LISTEN_"))
        and k not in ("NODE_NAME", "DISABLE_STARTUP_VALIDATE")
    }
    env.update(extra or {})
    return env


@contextmanager
def exporter_process(
    argv: Sequence[str],
    url: str,
    workdir: Path,
    *,
    env: Mapping[str, str] | None = None,
    ready_path: str = "/health",
    timeout: float = 60.0,
    **popen: Any,
) -> Iterator[ExporterProcess]:
    """Start ``argv``, wait until ``url + ready_path`` answers 200 (or the process exits: fail with its log)."""
    log_path = workdir / f"exporter-{len(list(workdir.glob('exporter-*.log')))}.log"
    with log_path.open("wb") as log_file:
        proc = subprocess.Popen(
            list(argv),
            stdout=log_file,
            stderr=subprocess.STDOUT,
            env=clean_env() if env is None else dict(env),
            **popen,
        )
    running = ExporterProcess(proc, url, log_path)

    def ready() -> bool:
        if proc.poll() is not None:
            return True  # reported below, at once: no point polling a dead process
        try:
            return httpx.get(url + ready_path, timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        try:
            wait_for(ready, timeout=timeout, what=f"{url}{ready_path}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{running.log()}") from None
        if proc.poll() is not None:
            raise AssertionError(f"exporter exited with {proc.returncode}:\n{running.log()}")
        yield running
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(15)


def scrape_until(
    argv: Sequence[str],
    env: Mapping[str, str],
    url: str,
    pick: Callable[[str], T | None],
    what: str,
    *,
    then: Callable[[], object] = lambda: None,
) -> tuple[T | None, str]:
    """Run the exporter ``argv`` until its ``/metrics`` text gives something through ``pick`` (or it exits), call
    ``then`` while it still runs, stop it; (what ``pick`` gave, None if it exited first; its stderr)."""
    proc = subprocess.Popen(list(argv), env=dict(env), stderr=subprocess.PIPE, text=True)

    def scraped() -> tuple[T | None] | None:
        if proc.poll() is not None:
            return (None,)  # no point waiting: the caller's assertion shows the stderr
        try:
            text = httpx.get(f"{url}/metrics", timeout=5).text
        except httpx.TransportError:
            return None
        got = pick(text)
        return None if got is None else (got,)

    try:
        (got,) = wait_for(scraped, what=what)
        if got is not None:
            then()
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=30)
    return got, stderr


def http_self_metrics(text: str) -> dict[str, float]:
    """The exporter's own HTTP self-metrics in a /metrics answer, by name (and ``{state}`` where it has one)."""
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name.startswith("gpuscope_exporter_http_"):
                state = sample.labels.get("state")
                out[sample.name + (f"{{{state}}}" if state else "")] = sample.value
    return out


def fake_dcgm_exporter(
    tmp: Path, library: Path, model: Sequence[str], collectors: str
) -> tuple[list[str], dict[str, str], str]:
    """``gpuscope exporter --backend dcgm`` against the fake libdcgm ``library`` answering from ``model`` (its
    lines), collecting the CSV text ``collectors`` every 300 ms as node n1: (command, environment, base URL)."""
    from tests.support.net import free_port

    (tmp / "model.txt").write_text("\n".join(model) + "\n")
    (tmp / "fields.csv").write_text(collectors)
    port = free_port()
    env = {**os.environ, "GPUSCOPE_LIBDCGM_PATH": str(library), "GPUSCOPE_FAKEDCGM_MODEL": str(tmp / "model.txt")}
    command = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "dcgm", "-a", f"127.0.0.1:{port}"]
    command += ["-c", "300", "-f", str(tmp / "fields.csv"), "--node-name", "n1"]
    return command, env, f"http://127.0.0.1:{port}"
