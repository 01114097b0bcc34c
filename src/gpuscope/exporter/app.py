"""Running exporters: listen addresses, the event loop, signals and clean shutdown (settings: ``settings``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from aiohttp import web

from gpuscope.errors import UsageError
from gpuscope.exporter.httpguard import HttpLimits
from gpuscope.exporter.reload import Reloader, WebApplier
from gpuscope.exporter.scheduler import Scheduler
from gpuscope.exporter.server import Extension, Listener, build_app, make_runner, resolver_for, start_sites

if TYPE_CHECKING:  # TLS and auth (bcrypt, YAML, ssl contexts) load only with --web-config-file
    from gpuscope.exporter.webconfig import WebConfig

log = logging.getLogger(__name__)


def parse_address(text: str, flag: str) -> tuple[str | None, int]:
    """``:9400``, ``127.0.0.1:9400`` or ``[::1]:9400`` -> (host or None for every interface, port)."""
    raw = text.strip()
    if raw.startswith("["):
        host, sep, port_text = raw[1:].partition("]:")
    else:
        host, sep, port_text = raw.rpartition(":")
    if not sep or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise UsageError(f"invalid address {text!r} for {flag}: write HOST:PORT, :PORT or [IPv6]:PORT, e.g. ':9400'")
    return (host or None), int(port_text)


def web_applier(app: web.Application, started: WebConfig | None) -> WebApplier:
    """Put a reloaded web config in force: users, headers, SANs, rate limit and certificates. Turning TLS on or
    off changes what the listening socket speaks, which only a restart can do."""

    def apply(new: WebConfig | None) -> None:
        if started is None or new is None:
            return  # no --web-config-file: nothing was read at start or now
        if (started.tls is None) != (new.tls is None):
            raise UsageError(f"{new.path} (--web-config-file): turning TLS on or off needs a restart of the exporter")
        if started.tls is not None and new.tls is not None:
            started.tls.adopt(new.tls)
        from gpuscope.exporter.auth import reconfigure

        reconfigure(app, new)

    return apply


def local_hostname(node_name: str | None) -> str:
    """The host label value: ``NODE_NAME`` if set, else this machine's hostname (as dcgm-exporter)."""
    return node_name or socket.gethostname()


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
) -> None:
    """Serve until SIGINT/SIGTERM (or ``stop``), collecting in the background; release everything on exit.

    ``web_config`` (``--web-config-file``, already checked) adds TLS and basic auth to every listener;
    ``extensions`` are mounted beside the exporter's routes (the simulator's ``/sim/faults``); with a
    ``reloader``, SIGHUP re-reads the configuration (off the event loop) and never stops the exporter.
    """
    limits = limits or HttpLimits()
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread (tests): the caller owns ``stop``
            break
    web_app = build_app(resolver_for(listeners), web_config, limits, extensions)
    pending: set[asyncio.Future[bool]] = set()

    def on_hup() -> None:
        # SIGHUP's default action ends the process; an exporter reloads (or says there is nothing to reload).
        if reloader is None:
            log.info("SIGHUP: this process has no configuration to reload")
            return
        future = loop.run_in_executor(None, reloader.reload)
        pending.add(future)
        future.add_done_callback(pending.discard)

    if reloader is not None:
        reloader.apply_web = web_applier(web_app, web_config)
    with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread (tests)
        loop.add_signal_handler(signal.SIGHUP, on_hup)
    runner = make_runner(web_app, limits)
    await runner.setup()
    tls = web_config.tls if web_config is not None else None
    try:
        await start_sites(runner, listeners, flag, limits=limits, ssl_context=tls.context if tls else None)
        scheduler = Scheduler([lst.runtime for lst in listeners], interval_s, workers=workers)
        if on_ready is not None:
            on_ready()
        await scheduler.run(stop)
    finally:
        await runner.cleanup()
        for lst in listeners:
            lst.runtime.close()
