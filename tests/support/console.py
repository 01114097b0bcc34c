"""``gpuscope console`` as a subprocess on a free loopback port, for the browser tests."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.support.net import free_port, wait_for
from tests.support.upstack import GPUSCOPE


@dataclass
class RunningConsole:
    url: str
    proc: subprocess.Popen[str]
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextmanager
def running_console(tmp: Path, *args: str) -> Iterator[RunningConsole]:
    port = free_port()
    log = tmp / f"console-{port}.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [*GPUSCOPE, "console", "--listen", f"127.0.0.1:{port}", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    running = RunningConsole(url=f"http://127.0.0.1:{port}", proc=proc, log=log)
    try:
        wait_for(lambda: httpx.get(f"{running.url}/api/dashboards", timeout=5).status_code == 200, what="the console")
        yield running
    finally:
        proc.terminate()
        proc.wait(30)
