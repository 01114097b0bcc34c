"""One application served on one address, every connection through the guard (limits, deadlines, TLS): the
console, the remediator's API and the local stack's control API. The exporter's listeners (one per node) are
``server.start_listeners``; both stop the same way (``stop_serving``)."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Sequence

from gpuscope.httpd.guard import HttpLimits, listen
from gpuscope.httpd.server import App, HttpConnection
from gpuscope.httpd.stats import ConnectionStats


async def stop_serving(app: App, servers: Sequence[asyncio.Server], limits: HttpLimits) -> None:
    """Stop listening, close every open connection of ``app`` (keep-alive ones included: nothing is served after
    this, as after a crash), wait for the servers to close (at most the write timeout), then run its cleanups."""
    for server in servers:
        server.close()
    app.close_connections()
    for server in servers:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.wait_closed(), limits.write_timeout_s)
    app.cleanup()


class Site:
    """``app`` on one address; ``stats`` counts its connections."""

    def __init__(self, app: App, limits: HttpLimits, *, ssl_context: ssl.SSLContext | None = None) -> None:
        self.app = app
        self.limits = limits
        self.ssl_context = ssl_context
        self.stats = ConnectionStats(limit=limits.max_connections)
        self._server: asyncio.Server | None = None

    async def start(self, host: str | None, port: int) -> None:
        """Listen on ``host:port`` (None: every interface); an address taken or missing is an ``OSError`` the caller
        words with its flag."""
        loop = asyncio.get_running_loop()
        self._server = await listen(
            lambda: HttpConnection(self.app, self.limits.keepalive_timeout_s, loop),
            host,
            port,
            limits=self.limits,
            stats=self.stats,
            ssl_context=self.ssl_context,
        )

    @property
    def port(self) -> int:
        """The port listened on (the one the system picked for port 0)."""
        assert self._server is not None, "not started"
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """``stop_serving``; the app's cleanups run even when it never started listening."""
        server, self._server = self._server, None
        await stop_serving(self.app, [server] if server is not None else [], self.limits)
