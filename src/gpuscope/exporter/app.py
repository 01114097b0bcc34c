"""Running exporters: settings shared by every node, the event loop, signals and clean shutdown."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from gpuscope.backends.base import Backend
from gpuscope.errors import UsageError
from gpuscope.exporter.collector import Collector
from gpuscope.exporter.httpguard import HttpLimits
from gpuscope.exporter.render import RenderConfig
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.exporter.scheduler import Scheduler
from gpuscope.exporter.server import Listener, build_app, make_runner, resolver_for, start_sites
from gpuscope.exporter.webconfig import WebConfig
from gpuscope.exporter.workloads.source import WorkloadSettings, WorkloadSource
from gpuscope.fields.catalog import Dialect
from gpuscope.fields.collectors import CollectorSet

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ExporterSettings:
    """What every exporter node shares: the field list, naming and collection timing."""

    collectors: CollectorSet
    dialect: Dialect = Dialect.CLASSIC
    interval_s: float = 15.0
    host_label: str = "Hostname"
    no_hostname: bool = False
    use_old_namespace: bool = False
    replace_blanks_in_model_name: bool = False
    xid_window_ms: int = 300000
    clock_events_window_ms: int = 300000
    workloads: WorkloadSettings = field(default_factory=WorkloadSettings)


def kubelet_timeout(interval_s: float) -> float:
    """A kubelet call may take half an interval, between 1 s and 5 s: enough for a loaded node, never a hang."""
    return max(1.0, min(5.0, interval_s / 2))


def make_runtime(
    backend: Backend,
    settings: ExporterSettings,
    hostname: str,
    *,
    process_metrics: bool = True,
    clock: Callable[[], float] = time.time,
) -> NodeRuntime:
    """Wire a backend (and the attribution sources, if any) into a collector and renderer.

    ``{hostname}`` in the kubelet socket path or the mapping directory becomes the node's host label value, so
    each simulated node of ``gpuscope sim`` can have its own sources.
    """
    wl = settings.workloads
    workloads = None
    if wl.enabled:
        wl = replace(
            wl,
            socket_path=wl.socket_path.replace("{hostname}", hostname),
            hpc_dir=wl.hpc_dir.replace("{hostname}", hostname),
        )
        workloads = WorkloadSource(wl, timeout_s=kubelet_timeout(settings.interval_s))
    collector = Collector(
        backend,
        settings.collectors,
        xid_window_s=settings.xid_window_ms / 1000.0,
        clock_events_window_s=settings.clock_events_window_ms / 1000.0,
        clock=clock,
        workloads=workloads,
    )
    render = RenderConfig(
        collectors=settings.collectors,
        hostname=None if settings.no_hostname else hostname,
        host_label=settings.host_label,
        uuid_label="uuid" if settings.use_old_namespace else "UUID",
        replace_blanks_in_model_name=settings.replace_blanks_in_model_name,
        xid_window_ms=settings.xid_window_ms,
        clock_events_window_ms=settings.clock_events_window_ms,
        workload_labels=settings.workloads.mode,
        old_namespace=settings.use_old_namespace,
    )
    return NodeRuntime(
        backend,
        collector,
        render,
        interval_s=settings.interval_s,
        dialect=settings.dialect.value,
        process_metrics=process_metrics,
    )


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
) -> None:
    """Serve until SIGINT/SIGTERM (or ``stop``), collecting in the background; release everything on exit.

    ``web_config`` (``--web-config-file``, already checked) adds TLS and basic auth to every listener.
    """
    limits = limits or HttpLimits()
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not the main thread (tests): the caller owns ``stop``
            break
    runner = make_runner(build_app(resolver_for(listeners), web_config, limits), limits)
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
