"""The exporter's routes on aiohttp, for the servers that run on aiohttp anyway (the stack's simulated nodes beside
its console, remediation's API), and aiohttp routes (the simulator's) mounted on the exporter's own server.

``gpuscope exporter`` serves on ``httpd.server`` and never imports this module unless an extension written for aiohttp
is mounted (``--backend sim``). Both directions adapt whole requests and responses, so the routes, checks and
headers are the same code on either server.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from typing import Any

from aiohttp import web

from gpuscope.httpd.guard import HttpLimits, listen
from gpuscope.httpd.requestlog import REQUEST_LOG
from gpuscope.httpd.server import App, Headers, Request, Response, Route
from gpuscope.httpd.stats import ConnectionStats

NATIVE_KEY: web.AppKey[App] = web.AppKey("gpuscope_app", App)


def from_aiohttp(route: web.RouteDef) -> Route:
    """An aiohttp route as one of ours: its handler gets our ``Request`` (``node_for``, ``read``, ``headers`` and
    ``transport`` are what such handlers use) and its response, or raised HTTP exception, becomes ours."""
    aio_handler: Any = route.handler

    async def handler(request: Request) -> Response:
        try:
            reply = await aio_handler(request)
        except web.HTTPException as exc:
            reply = exc
        body = reply.body if isinstance(reply.body, bytes) else b""
        headers = {k: v for k, v in reply.headers.items() if k.lower() not in ("content-length", "date")}
        return Response(reply.status, body, headers)

    return Route(route.method, route.path, handler)


async def _to_native(request: web.Request) -> web.Response:
    app = request.app[NATIVE_KEY]
    native = Request(
        method=request.method,
        path=request.path,
        query_string=request.query_string,
        headers=Headers((k.lower(), v) for k, v in request.headers.items()),
        body=await request.read(),
        transport=request.transport if isinstance(request.transport, asyncio.Transport) else None,
        app=app,
    )
    response = await app.respond(native)
    return web.Response(status=response.status, body=response.body, headers=response.headers)


def wrap(app: App) -> web.Application:
    """An aiohttp application that answers every request with ``app`` (its routes, checks and headers)."""
    aio = web.Application(client_max_size=app.max_body_bytes)
    aio[NATIVE_KEY] = app
    aio.router.add_route("*", "/{tail:.*}", _to_native)

    async def cleanup(_aio: web.Application) -> None:
        app.cleanup()

    aio.on_cleanup.append(cleanup)
    return aio


def _aiohttp_idle(protocol: asyncio.Protocol) -> bool:
    """Whether aiohttp's request handler waits for the next request with none queued (the guard may then evict its
    connection at the cap). These are aiohttp 3's private attributes: without them, never idle (never evicted)."""
    waiter = getattr(protocol, "_waiter", None)
    return isinstance(waiter, asyncio.Future) and not waiter.done() and not getattr(protocol, "_messages", True)


def make_runner(app: web.Application, limits: HttpLimits) -> web.AppRunner:
    """aiohttp's own limits set to the guard's, so an oversized head is always the guard's 431; malformed requests
    are logged as one rate-limited line (``REQUEST_LOG``)."""
    return web.AppRunner(
        app,
        logger=REQUEST_LOG,
        access_log=None,
        handle_signals=False,
        keepalive_timeout=limits.keepalive_timeout_s,
        max_line_size=limits.max_head_bytes,
        max_field_size=limits.max_head_bytes,
    )


class GuardedSite(web.BaseSite):
    """A TCP site whose connections go through the guard (aiohttp's ``TCPSite`` plus the protocol wrapper).

    ``stats`` counts its connections (the exporter exports them); the site terminates TLS itself.
    """

    def __init__(
        self,
        runner: web.BaseRunner,
        host: str | None,
        port: int,
        *,
        limits: HttpLimits,
        ssl_context: ssl.SSLContext | None = None,
        backlog: int = 512,
        sock: socket.socket | None = None,
    ) -> None:
        super().__init__(runner, ssl_context=ssl_context, backlog=backlog)
        self._host = host
        self._port = port
        self._limits = limits
        self._sock = sock  # an inherited listening socket (systemd socket activation): host and port unused
        self.stats = ConnectionStats(limit=limits.max_connections)

    @property
    def name(self) -> str:
        scheme = "https" if self._ssl_context else "http"
        return f"{scheme}://{self._host or '0.0.0.0'}:{self._port}"

    async def start(self) -> None:
        await super().start()
        factory = self._runner.server
        assert factory is not None
        self._server = await listen(
            factory,
            self._host,
            self._port,
            limits=self._limits,
            stats=self.stats,
            ssl_context=self._ssl_context,
            backlog=self._backlog,
            sock=self._sock,
            idle_of=_aiohttp_idle,
        )
