"""``gpuscope up``: bring the stack up, show it, and take it all down again on Ctrl-C or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.live import Live

from gpuscope.console.server import ConsoleSettings, ConsoleSite
from gpuscope.httpd.guard import HttpLimits
from gpuscope.httpd.site import Site
from gpuscope.runner.control import MAX_BODY_BYTES, control_app
from gpuscope.runner.plan import LocalPlan
from gpuscope.runner.stack import Stack
from gpuscope.runner.view import LiveView
from gpuscope.spec.load import LoadedSpec

log = logging.getLogger(__name__)


def _spawn(coro: Coroutine[Any, Any, None], stop: asyncio.Event) -> asyncio.Task[None]:
    """A background task whose failure is logged and stops the stack, rather than vanishing silently."""
    task = asyncio.create_task(coro)

    def done(t: asyncio.Task[None]) -> None:
        if not t.cancelled() and t.exception() is not None:
            log.error("%s failed, stopping the stack", t.get_coro(), exc_info=t.exception())
            stop.set()

    task.add_done_callback(done)
    return task


# Without the live view, the status (the Phase 1 floor, the replicas' facts) is gathered this often, and whenever
# `gpuscope status` or the control API's /status asks for it.
STATUS_EVERY_S_UNWATCHED = 5.0


async def _live_view(stack: Stack, stop: asyncio.Event) -> None:
    with Live(LiveView({}), console=Console(), refresh_per_second=1, screen=False) as live:
        while not stop.is_set():
            live.update(LiveView(stack.report()))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=1.0)


async def run_up(plan: LocalPlan, loaded: LoadedSpec, data_dir: Path, *, reset: bool, tui: bool) -> None:
    stack = Stack(plan, loaded, data_dir)
    stack.prepare(reset)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    control = Site(control_app(stack), HttpLimits(max_body_bytes=MAX_BODY_BYTES))
    console: Site | None = None
    tasks: list[asyncio.Task[None]] = []
    try:
        await control.start("127.0.0.1", plan.control_port)
        stack.event(f"control API and notification recorder on {plan.urls()['control']}")
        urls = plan.urls()
        settings = ConsoleSettings(
            bundle=stack.paths["bundle"],
            prometheus_url=urls["global"],
            alertmanager_url=urls["alertmanager"],
            control_url=urls["control"],
            since=stack.started,  # a young stack's dashboards open on its whole life, not "Last 3 hours"
        )
        console = ConsoleSite(settings)
        await console.start("127.0.0.1", plan.console_port)
        stack.event(f"console (the dashboards, live) on {urls['console']}")
        scheduler = await stack.start_nodes()
        tasks.append(_spawn(scheduler.run(stop), stop))
        stack.event(f"{len(plan.nodes)} simulated nodes serving on 127.20.0.1 ... (port {plan.nodes[0].port})")
        await stack.start_children()
        stack.publish_state()
        stack.event(f"stack up; data in {data_dir}; Ctrl-C stops everything")
        stack.status_every_s = 1.0 if tui else STATUS_EVERY_S_UNWATCHED
        tasks.append(_spawn(stack.supervise(stop), stop))
        tasks.append(_spawn(stack.drive_holders(stop), stop))
        if tui:
            tasks.append(_spawn(_live_view(stack, stop), stop))
        await stop.wait()
    finally:
        stop.set()
        for task in tasks:
            with contextlib.suppress(Exception):
                await task
        await stack.shutdown()
        if console is not None:
            await console.stop()
        await control.stop()
