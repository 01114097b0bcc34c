"""The console for the browser tests: its real HTTP server in this process (for settings the CLI has no flag for,
and no subprocess), or ``gpuscope console`` as a subprocess on a free loopback port."""

from __future__ import annotations

import asyncio
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from gpuscope.console.server import ConsoleSettings, serve
from tests.support.net import free_port, wait_for
from tests.support.upstack import GPUSCOPE


@contextmanager
def in_process_console(settings: ConsoleSettings) -> Iterator[str]:
    """The console's server in this process on its own event loop thread; its URL."""
    port = free_port()
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    thread = threading.Thread(
        target=loop.run_until_complete, args=(serve(settings, "127.0.0.1", port, stop),), daemon=True
    )
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/api/dashboards", timeout=5).status_code == 200, what="the console")
        yield url
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(30)
        loop.close()


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
