"""Running exporters: listen addresses, the event loop, signals and clean shutdown (settings: ``settings``)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gpuscope.errors import UsageError
from gpuscope.exporter.reload import Reloader, WebApplier
from gpuscope.exporter.scheduler import Scheduler
from gpuscope.exporter.server import Extension, Listener, build_routes, resolver_for, start_listeners
from gpuscope.httpd.guard import HttpLimits, malloc_trim
from gpuscope.httpd.server import App

if TYPE_CHECKING:  # TLS and auth (bcrypt, YAML, ssl contexts) load only with --web-config-file
    from gpuscope.httpd.webconfig import WebConfig

log = logging.getLogger(__name__)
# At shutdown, how long a collection in progress may still run before the backend and the kubelet client close.
SHUTDOWN_COLLECTION_WAIT_S = 5.0


def web_applier(app: App, started: WebConfig | None) -> WebApplier:
    """Put a reloaded web config in force: users, headers, SANs, rate limit and certificates. Turning TLS on or
    off changes what the listening socket speaks, which only a restart can do."""

    def apply(new: WebConfig | None) -> None:
        if started is None or new is None:
            return  # no --web-config-file: nothing was read at start or now
        if (started.tls is None) != (new.tls is None):
            raise UsageError(
                f"{new.path} ({{web_config_file}}): turning TLS on or off needs a restart of the exporter"
            ).naming("web_config_file")
        if started.tls is not None and new.tls is not None:
            started.tls.adopt(new.tls)
        from gpuscope.httpd.auth import reconfigure

        reconfigure(app, new)

    return apply


def local_hostname(node_name: str | None) -> str:
    """The host label value: ``NODE_NAME`` if set, else this machine's hostname (as dcgm-exporter)."""
    return node_name or socket.gethostname()


class _MemoryRelease:
    """Hands the heap's free pages back: once after start-up, then once a minute. Start-up leaves free blocks
    (import-time garbage, the first collections' temporaries) and every collection frees some more; glibc keeps
    them, and on a node exporter that is RSS for the process's life. A trim of a few-MiB heap takes well under a
    millisecond; the full garbage collection runs only the first time."""

    EVERY_S = 60.0

    def __init__(self, loop: asyncio.AbstractEventLoop, first_s: float) -> None:
        self._loop = loop
        self._first = True
        self._handle: asyncio.TimerHandle | None = loop.call_later(first_s, self._run)

    def _run(self) -> None:
        if self._first:
            gc.collect()
            self._first = False
        trim = malloc_trim()
        if trim is None:  # not glibc
            self._handle = None
            return
        trim(0)
        self._handle = self._loop.call_later(self.EVERY_S, self._run)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


async def _watch_files(reloader: Reloader | None, stop: asyncio.Event, every_s: float) -> None:
    """Poll the reloader's watched files until ``stop``; a stat, and a reload when one was rewritten, run off the
    loop (a slow file system never holds a scrape)."""
    if reloader is None or not reloader.watches:
        return
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=every_s)
        if not stop.is_set():
            await loop.run_in_executor(None, reloader.poll_files)


async def _cancelled(task: asyncio.Future[None] | None) -> None:
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def serve(
    listeners: Sequence[Listener],
    interval_s: float,
    *,
    workers: int = 1,
    flag: str = "-a/--address",
    on_ready: Callable[[], None] | None = None,
    stop: asyncio.Event | None = None,
    web_config: WebConfig | None = None,
    limits: HttpLimits | None = None,
    extensions: Sequence[Extension] = (),
    reloader: Reloader | None = None,
    watch_s: float = 0.5,
) -> None:
    """Serve until SIGINT/SIGTERM (or ``stop``), collecting in the background; release everything on exit.

    ``web_config`` (``--web-config-file``, already checked) adds TLS and basic auth to every listener;
    ``extensions`` are mounted beside the exporter's routes (the simulator's ``/sim/faults``); with a
    ``reloader``, SIGHUP re-reads the configuration (off the event loop) and never stops the exporter, and so does
    a rewrite of one of its watched files (polled every ``watch_s``).
    """
    limits = limits or HttpLimits()
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread (tests): the caller owns ``stop``
            break
    web_app = build_routes(resolver_for(listeners), web_config, limits, extensions)

    def on_hup() -> None:
        # SIGHUP's default action ends the process; an exporter reloads (or says there is nothing to reload).
        if reloader is None:
            log.info("SIGHUP: this process has no configuration to reload")
            return
        # A daemon thread of its own, not the loop's executor: asyncio.run joins the executor's threads at exit, so a
        # reload waiting on a slow API server (-m) would hold SIGTERM until its deadline. Reloads never overlap
        # (Reloader holds a lock) and each has a total deadline, so threads cannot pile up.
        threading.Thread(target=reloader.reload, name="sighup-reload", daemon=True).start()

    if reloader is not None:
        reloader.apply_web = web_applier(web_app, web_config)
    with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread (tests)
        loop.add_signal_handler(signal.SIGHUP, on_hup)
    tls = web_config.tls if web_config is not None else None
    servers: list[asyncio.Server] = []
    release: _MemoryRelease | None = None
    watching: asyncio.Future[None] | None = None
    try:
        servers = await start_listeners(
            web_app, listeners, flag, limits=limits, ssl_context=tls.context if tls else None
        )
        scheduler = Scheduler([lst.runtime for lst in listeners], interval_s, workers=workers)
        release = _MemoryRelease(loop, first_s=max(5.0, 3 * interval_s))
        watching = asyncio.ensure_future(_watch_files(reloader, stop, watch_s))
        if on_ready is not None:
            on_ready()
        await scheduler.run(stop)
    finally:
        await _cancelled(watching)
        if release is not None:
            release.cancel()
        for server in servers:
            server.close()
        web_app.close_connections()  # keep-alive scrapers included: nothing is served after shutdown
        for server in servers:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(server.wait_closed(), limits.write_timeout_s)
        web_app.cleanup()
        # A collection still running on a worker thread reads the backend and the kubelet: let it finish (a hung
        # one for at most SHUTDOWN_COLLECTION_WAIT_S) before they are closed under it.
        deadline = loop.time() + SHUTDOWN_COLLECTION_WAIT_S
        while any(lst.runtime.busy for lst in listeners) and loop.time() < deadline:
            await asyncio.sleep(0.05)
        for lst in listeners:
            lst.runtime.close()
