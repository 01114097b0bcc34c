"""The HTTP side: ``/metrics``, ``/health``, ``/`` and, for simulated nodes, ``/sim/faults``.

Handlers only read the runtime's last published render; they never touch a backend. One application can serve
many simulated nodes: each node listens on its own address and the handler finds it by the socket's local
address. Every connection goes through the slow-client guard (``httpguard``); a web config adds TLS to the
sites and basic auth, SAN checks, rate limit and headers to the application (``auth``).
"""

from __future__ import annotations

import asyncio
import errno
import html
import json
import logging
import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from aiohttp import web

from gpuscope import __version__
from gpuscope.backends.sim.faults import parse_fault_request
from gpuscope.errors import EnvironmentProblem, UsageError
from gpuscope.exporter.auth import install
from gpuscope.exporter.httpguard import GuardedSite, HttpLimits
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.exporter.webconfig import WebConfig

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
NODE_KEY = web.AppKey("resolve_node", object)


@dataclass(frozen=True, slots=True)
class Listener:
    """Where one node listens."""

    host: str | None  # None: every interface
    port: int
    runtime: NodeRuntime

    @property
    def url(self) -> str:
        host = self.host or "127.0.0.1"
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"


Resolver = Callable[[web.Request], NodeRuntime | None]


def _node(request: web.Request) -> NodeRuntime:
    resolve: Resolver = request.app[NODE_KEY]  # type: ignore[assignment]
    node = resolve(request)
    if node is None:
        raise web.HTTPNotFound(text="no node listens on this address\n")
    return node


async def _metrics(request: web.Request) -> web.Response:
    node = _node(request)
    gzip = "gzip" in request.headers.get("Accept-Encoding", "")
    body = node.body(time.time(), gzip=gzip)
    headers = {"Content-Type": CONTENT_TYPE, "X-Content-Type-Options": "nosniff"}
    if gzip:
        headers["Content-Encoding"] = "gzip"
    return web.Response(body=body, headers=headers)


async def _health(request: web.Request) -> web.Response:
    status, body = _node(request).health(time.time())
    return web.Response(status=status, text=body + "\n", content_type="application/json")


async def _index(request: web.Request) -> web.Response:
    node = _node(request)
    faults = '<li><a href="/sim/faults">/sim/faults</a> (simulator fault injection)</li>' if node.sim else ""
    page = (
        f"<html><head><title>gpuscope exporter</title></head><body><h1>gpuscope exporter {html.escape(__version__)}"
        f"</h1><p>backend: {html.escape(node.backend.name)}</p><ul>"
        '<li><a href="/metrics">/metrics</a></li><li><a href="/health">/health</a></li>'
        f"{faults}</ul></body></html>\n"
    )
    return web.Response(text=page, content_type="text/html")


def _sim_node(request: web.Request) -> NodeRuntime:
    node = _node(request)
    if node.sim is None:
        raise web.HTTPNotFound(text="fault injection needs the sim backend\n")
    return node


def _faults_response(node: NodeRuntime) -> web.Response:
    assert node.sim is not None
    return web.json_response({"active": node.sim.active_faults()})


async def _faults_get(request: web.Request) -> web.Response:
    return _faults_response(_sim_node(request))


async def _faults_post(request: web.Request) -> web.Response:
    node = _sim_node(request)
    try:
        body = await request.json()
        if not isinstance(body, dict):
            raise UsageError('the body must be a JSON object, e.g. {"fault": "thermal", "gpu": 0}')
        node.apply_fault(parse_fault_request(body))
    except json.JSONDecodeError as exc:
        return web.json_response({"error": f"invalid JSON: {exc}"}, status=400)
    except UsageError as exc:
        return web.json_response({"error": str(exc)}, status=400)
    return _faults_response(node)


async def _faults_delete(request: web.Request) -> web.Response:
    node = _sim_node(request)
    assert node.sim is not None
    node.sim.clear()
    return _faults_response(node)


def build_app(
    resolve: Resolver, web_config: WebConfig | None = None, limits: HttpLimits | None = None
) -> web.Application:
    """The routes: GET/HEAD only on /metrics, /health and / (405 otherwise), 404 elsewhere."""
    app = web.Application(client_max_size=(limits or HttpLimits()).max_body_bytes)
    app[NODE_KEY] = resolve
    if web_config is not None:
        install(app, web_config)
    app.router.add_get("/metrics", _metrics)
    app.router.add_get("/health", _health)
    app.router.add_get("/", _index)
    app.router.add_get("/sim/faults", _faults_get)
    app.router.add_post("/sim/faults", _faults_post)
    app.router.add_delete("/sim/faults", _faults_delete)
    return app


def resolver_for(listeners: Sequence[Listener]) -> Resolver:
    """Find the node by the local address the request arrived on (one node: always that one)."""
    if len(listeners) == 1:
        only = listeners[0].runtime
        return lambda _request: only
    by_addr = {(lst.host, lst.port): lst.runtime for lst in listeners}

    def resolve(request: web.Request) -> NodeRuntime | None:
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        if not sockname:
            return None
        return by_addr.get((sockname[0], sockname[1]))

    return resolve


def make_runner(app: web.Application, limits: HttpLimits) -> web.AppRunner:
    """aiohttp's own limits set to the guard's, so an oversized head is always the guard's 431."""
    return web.AppRunner(
        app,
        access_log=None,
        handle_signals=False,
        keepalive_timeout=limits.keepalive_timeout_s,
        max_line_size=limits.max_head_bytes,
        max_field_size=limits.max_head_bytes,
    )


async def start_sites(
    runner: web.AppRunner,
    listeners: Sequence[Listener],
    flag: str,
    *,
    limits: HttpLimits | None = None,
    ssl_context: ssl.SSLContext | None = None,
) -> list[web.BaseSite]:
    """Bind every listener (returned in order, so one can be stopped later); a taken address is one clear error."""
    sites: list[web.BaseSite] = []
    for lst in listeners:
        sites.append(await start_site(runner, lst, flag, limits=limits, ssl_context=ssl_context))
    return sites


async def start_site(
    runner: web.AppRunner,
    lst: Listener,
    flag: str,
    *,
    limits: HttpLimits | None = None,
    ssl_context: ssl.SSLContext | None = None,
) -> web.BaseSite:
    """Bind one listener."""
    site = GuardedSite(runner, lst.host, lst.port, limits=limits or HttpLimits(), ssl_context=ssl_context)
    try:
        await site.start()
    except OSError as exc:
        where = f"{lst.host or '*'}:{lst.port}"
        if exc.errno == errno.EADDRINUSE:
            raise EnvironmentProblem(
                f"address {where} is already in use ({flag}): stop the other process or pick another port"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise EnvironmentProblem(f"cannot listen on {where} ({flag}): no such local address") from None
        raise EnvironmentProblem(f"cannot listen on {where} ({flag}): {exc.strerror or exc}") from None
    return site


async def wait_for_stop(stop: asyncio.Event) -> None:
    await stop.wait()
