"""The console's real HTTP server in this process (for settings the CLI has no flag for, and no subprocess)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from gpuscope.console.server import ConsoleSettings, serve
from tests.support.net import free_port, wait_for


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
