"""The HTTP side: ``/metrics``, ``/health``, ``/`` and whatever routes the caller mounts beside them.

Handlers only read the runtime's last published render; they never touch a backend. One application can serve
many simulated nodes: each node listens on its own address and the handler finds it by the socket's local
address. Every connection goes through the slow-client guard (``httpguard``); a web config adds TLS to the
sites and basic auth, SAN checks, rate limit and headers to the application (``auth``).

The exporter knows nothing of the simulator: whoever starts a simulated node (``gpuscope sim``, ``gpuscope
exporter --backend sim``, ``gpuscope up``) mounts its ``/sim/faults`` routes as an ``Extension``.
"""

from __future__ import annotations

import errno
import html
import logging
import socket
import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiohttp import web

from gpuscope import __version__
from gpuscope.errors import EnvironmentProblem
from gpuscope.exporter.httpguard import GuardedSite, HttpLimits
from gpuscope.exporter.requestlog import REQUEST_LOG
from gpuscope.exporter.runtime import NodeRuntime

if TYPE_CHECKING:  # TLS and auth (bcrypt, YAML, ssl contexts) load only with a web config
    from gpuscope.exporter.webconfig import WebConfig

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
NODE_KEY = web.AppKey("resolve_node", object)
LINKS_KEY: web.AppKey[tuple[tuple[str, str], ...]] = web.AppKey("index_links")


@dataclass(frozen=True, slots=True)
class Listener:
    """Where one node listens."""

    host: str | None  # None: every interface
    port: int
    runtime: NodeRuntime
    sock: socket.socket | None = None  # an inherited listening socket (``--web-systemd-socket``)

    @property
    def url(self) -> str:
        host = self.host or "127.0.0.1"
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"


Resolver = Callable[[web.Request], NodeRuntime | None]


@dataclass(frozen=True, slots=True)
class Extension:
    """Routes mounted beside the exporter's own (behind the same auth and limits), and their index-page links.

    Handlers find their node with ``node_for(request)``.
    """

    routes: tuple[web.RouteDef, ...]
    links: tuple[tuple[str, str], ...] = ()  # (path, what it is)


def node_for(request: web.Request) -> NodeRuntime:
    """The node the request arrived at (404 when no node listens on that address)."""
    resolve: Resolver = request.app[NODE_KEY]  # type: ignore[assignment]
    node = resolve(request)
    if node is None:
        raise web.HTTPNotFound(text="no node listens on this address\n")
    return node


def accepts_gzip(header: str | None) -> bool:
    """Whether an ``Accept-Encoding`` value allows gzip: ``gzip`` (or ``x-gzip``, or ``*`` when gzip is not named)
    with a q-value above 0. ``gzip;q=0`` refuses it; a name merely containing "gzip" is another coding."""
    if not header:
        return False
    named: float | None = None
    star: float | None = None
    for element in header.split(",")[:64]:  # a hostile header cannot make this loop long
        coding, *params = (part.strip() for part in element.split(";"))
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = -1.0  # a malformed q-value: this element is ignored
                if not 0.0 <= q <= 1.0:
                    q = -1.0
        if q < 0:
            continue
        coding = coding.lower()
        if coding in ("gzip", "x-gzip"):
            named = q if named is None else max(named, q)
        elif coding == "*":
            star = q
    if named is not None:
        return named > 0
    return star is not None and star > 0


async def _metrics(request: web.Request) -> web.Response:
    node = node_for(request)
    gzip = accepts_gzip(request.headers.get("Accept-Encoding"))
    body = node.body(time.time(), gzip=gzip)
    headers = {"Content-Type": CONTENT_TYPE, "X-Content-Type-Options": "nosniff"}
    if gzip:
        headers["Content-Encoding"] = "gzip"
    return web.Response(body=body, headers=headers)


async def _health(request: web.Request) -> web.Response:
    status, body = node_for(request).health(time.time())
    return web.Response(status=status, text=body + "\n", content_type="application/json")


async def _index(request: web.Request) -> web.Response:
    node = node_for(request)
    links = request.app[LINKS_KEY]
    extra = "".join(
        f'<li><a href="{html.escape(path)}">{html.escape(path)}</a> ({html.escape(what)})</li>' for path, what in links
    )
    page = (
        f"<html><head><title>gpuscope exporter</title></head><body><h1>gpuscope exporter {html.escape(__version__)}"
        f"</h1><p>backend: {html.escape(node.backend.name)}</p><ul>"
        '<li><a href="/metrics">/metrics</a></li><li><a href="/health">/health</a></li>'
        f"{extra}</ul></body></html>\n"
    )
    return web.Response(text=page, content_type="text/html")


def build_app(
    resolve: Resolver,
    web_config: WebConfig | None = None,
    limits: HttpLimits | None = None,
    extensions: Sequence[Extension] = (),
) -> web.Application:
    """The routes: GET/HEAD only on /metrics, /health and / (405 otherwise), the extensions' routes, 404 elsewhere."""
    app = web.Application(client_max_size=(limits or HttpLimits()).max_body_bytes)
    app[NODE_KEY] = resolve
    app[LINKS_KEY] = tuple(link for ext in extensions for link in ext.links)
    if web_config is not None:
        from gpuscope.exporter.auth import install

        install(app, web_config)
    app.router.add_get("/metrics", _metrics)
    app.router.add_get("/health", _health)
    app.router.add_get("/", _index)
    for ext in extensions:
        app.router.add_routes(ext.routes)
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
    site = GuardedSite(
        runner, lst.host, lst.port, limits=limits or HttpLimits(), ssl_context=ssl_context, sock=lst.sock
    )
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
    lst.runtime.export_connections(site.stats)  # the node's scrapes export its listener's connection counts
    return site
