"""The HTTP side: ``/metrics``, ``/health``, ``/`` and whatever routes the caller mounts beside them.

Handlers only read the runtime's last published render; they never touch a backend. One application can serve
many simulated nodes: each node listens on its own address and the handler finds it by the socket's local
address. The exporter serves on its own HTTP server (``httpd.server``, stdlib only); every connection goes through
the slow-client guard (``httpd.guard``); a web config adds TLS to the listeners and basic auth, SAN checks, rate
limit and headers to the application (``auth``). ``gpuscope up``'s simulated nodes serve the same way
(``start_listeners``), so its stack tests exercise the server production runs.

The exporter knows nothing of the simulator: whoever starts a simulated node (``gpuscope sim``, ``gpuscope
exporter --backend sim``, ``gpuscope up``) mounts its ``/sim/faults`` routes as an ``Extension``.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpuscope import __version__
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.httpd.guard import HttpLimits, listen
from gpuscope.httpd.listen import bind
from gpuscope.httpd.server import App, HttpConnection, HttpError, Request, Response, Route, get
from gpuscope.httpd.stats import ConnectionStats

if TYPE_CHECKING:  # TLS and auth (bcrypt, YAML, ssl contexts) load only with a web config
    from gpuscope.httpd.webconfig import WebConfig

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
_RESOLVE = "resolve_node"
_LINKS = "index_links"


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


Resolver = Callable[[Request], NodeRuntime | None]


@dataclass(frozen=True, slots=True)
class Extension:
    """Routes mounted beside the exporter's own (behind the same auth and limits), and their index-page links.

    Handlers find their node with ``node_for(request)``.
    """

    routes: tuple[Route, ...]
    links: tuple[tuple[str, str], ...] = ()  # (path, what it is)


def node_for(request: Request) -> NodeRuntime:
    """The node the request arrived at (404 when no node listens on that address)."""
    resolve: Resolver = request.app.state[_RESOLVE]
    node = resolve(request)
    if node is None:
        raise HttpError(404, "no node listens on this address\n")
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


async def _metrics(request: Request) -> Response:
    node = node_for(request)
    gzip = accepts_gzip(request.headers.get("Accept-Encoding"))
    body = node.body(time.time(), gzip=gzip)
    headers = {"Content-Type": CONTENT_TYPE, "X-Content-Type-Options": "nosniff"}
    if gzip:
        headers["Content-Encoding"] = "gzip"
    return Response(200, body, headers)


async def _health(request: Request) -> Response:
    status, body = node_for(request).health(time.time())
    return Response.text(body + "\n", status=status, content_type="application/json")


_HTML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})


def _escape(text: str) -> str:
    """``html.escape``'s five characters (the ``html`` module loads its 2,000-entry entity table: 0.5 MiB)."""
    return text.translate(_HTML)


async def _index(request: Request) -> Response:
    node = node_for(request)
    links: tuple[tuple[str, str], ...] = request.app.state[_LINKS]
    extra = "".join(f'<li><a href="{_escape(path)}">{_escape(path)}</a> ({_escape(what)})</li>' for path, what in links)
    page = (
        f"<html><head><title>gpuscope exporter</title></head><body><h1>gpuscope exporter {_escape(__version__)}"
        f"</h1><p>backend: {_escape(node.backend.name)}</p><ul>"
        '<li><a href="/metrics">/metrics</a></li><li><a href="/health">/health</a></li>'
        f"{extra}</ul></body></html>\n"
    )
    return Response.text(page, content_type="text/html")


def build_routes(
    resolve: Resolver,
    web_config: WebConfig | None = None,
    limits: HttpLimits | None = None,
    extensions: Sequence[Extension] = (),
) -> App:
    """The routes: GET/HEAD only on /metrics, /health and / (405 otherwise), the extensions' routes, 404 elsewhere."""
    app = App(max_body_bytes=(limits or HttpLimits()).max_body_bytes)
    app.state[_RESOLVE] = resolve
    app.state[_LINKS] = tuple(link for ext in extensions for link in ext.links)
    if web_config is not None:
        from gpuscope.httpd.auth import install_checks

        install_checks(app, web_config)
    app.add([get("/metrics", _metrics), get("/health", _health), get("/", _index)])
    for ext in extensions:
        app.add(ext.routes)
    return app


def resolver_for(listeners: Sequence[Listener]) -> Resolver:
    """Find the node by the local address the request arrived on (one node: always that one)."""
    if len(listeners) == 1:
        only = listeners[0].runtime
        return lambda _request: only
    by_addr = {(lst.host, lst.port): lst.runtime for lst in listeners}

    def resolve(request: Request) -> NodeRuntime | None:
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        if not sockname:
            return None
        return by_addr.get((sockname[0], sockname[1]))

    return resolve


async def start_listeners(
    app: App,
    listeners: Sequence[Listener],
    flag: str,
    *,
    limits: HttpLimits,
    ssl_context: ssl.SSLContext | None = None,
) -> list[asyncio.Server]:
    """Serve ``app`` on every listener (returned in order); each node's scrapes export its listener's connections."""
    loop = asyncio.get_running_loop()
    servers = []
    for lst in listeners:
        stats = ConnectionStats(limit=limits.max_connections)
        server = await bind(
            listen(
                lambda: HttpConnection(app, limits.keepalive_timeout_s, loop),
                lst.host,
                lst.port,
                limits=limits,
                stats=stats,
                ssl_context=ssl_context,
                sock=lst.sock,
            ),
            lst.host,
            lst.port,
            flag,
        )
        servers.append(server)
        lst.runtime.export_connections(stats)
        auth_stats = app.state.get("auth_stats")  # auth.AUTH_STATS, with a web config (auth is imported only then)
        if auth_stats is not None:
            lst.runtime.export_auth(auth_stats)
    return servers
