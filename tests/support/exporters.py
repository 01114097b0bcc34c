"""Run gpuscope exporters in-process, on a background event loop, the way `gpuscope sim` runs them."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from gpuscope.exporter.app import serve
from gpuscope.exporter.server import Listener
from gpuscope.simulator.routes import FAULT_ROUTES


@contextmanager
def serving(
    listeners: Sequence[Listener], interval_s: float, workers: int = 2, **options: Any
) -> Iterator[Sequence[Listener]]:
    """Serve ``listeners`` until the block ends; raises if start-up fails. ``options`` go to ``serve``
    (``web_config``, ``limits``, ``extensions``: by default the simulator's ``/sim/faults``, as ``gpuscope sim``)."""
    options.setdefault("extensions", (FAULT_ROUTES,))
    ready = threading.Event()
    failure: list[BaseException] = []
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(
                serve(listeners, interval_s, workers=workers, on_ready=ready.set, stop=stop, **options)
            )
        except BaseException as exc:
            failure.append(exc)
            ready.set()
        finally:
            loop.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(30)
    if failure:
        raise failure[0]
    try:
        yield listeners
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(30)
