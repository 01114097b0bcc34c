"""``gpuscope console``: the bundle's dashboards, rendered live in a browser."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Annotated

import typer

from gpuscope.cli._app import app, listen_address, setup_logging
from gpuscope.errors import EnvironmentProblem, UsageError


def _url(flag: str, value: str) -> str:
    if not value.startswith(("http://", "https://")):
        raise UsageError(f"{flag} {value!r}: expected an http:// or https:// URL")
    return value.rstrip("/")


@app.command("console")
def console_command(
    prometheus: Annotated[str, typer.Option("--prometheus", help="Prometheus (or the long-term store) URL.")],
    bundle: Annotated[str, typer.Option("--bundle", help="Bundle directory made by `gpuscope generate`.")] = "bundle",
    alertmanager: Annotated[str | None, typer.Option("--alertmanager", help="Alertmanager URL.")] = None,
    listen: Annotated[
        str, typer.Option("--listen", help="HOST:PORT to serve on (:PORT: every interface; [IPv6]:PORT).")
    ] = "127.0.0.1:3300",
    max_in_flight: Annotated[int, typer.Option("--max-in-flight", min=1, max=256, help="Queries at once.")] = 8,
    query_timeout: Annotated[float, typer.Option("--query-timeout", min=0.1, max=600, help="Seconds.")] = 10.0,
    queue_timeout: Annotated[
        float,
        typer.Option("--queue-timeout", min=0.1, max=600, help="Seconds a request waits for a query slot (then 503)."),
    ] = 30.0,
) -> None:
    """Serve a web console that renders the bundle's Grafana dashboards live from Prometheus."""
    from gpuscope.console.server import ConsoleSettings, serve

    setup_logging(False, "text")
    address = listen_address(listen, "--listen")
    settings = ConsoleSettings(
        bundle=Path(bundle).resolve(),
        prometheus_url=_url("--prometheus", prometheus),
        alertmanager_url=_url("--alertmanager", alertmanager) if alertmanager else None,
        max_in_flight=max_in_flight,
        query_timeout_s=query_timeout,
        queue_timeout_s=queue_timeout,
        listen_host=address.host or "localhost",
    )
    typer.echo(f"gpuscope console: {address.url}/ (Ctrl-C stops it)")

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await serve(settings, address.host, address.port, stop)

    try:
        asyncio.run(main())
    except OSError as exc:
        raise EnvironmentProblem(f"--listen {listen}: cannot serve there ({exc.strerror or exc})") from None
