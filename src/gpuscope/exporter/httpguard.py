"""Connection-level limits for the exporter's HTTP server: slow clients, oversized requests, stuck readers.

aiohttp bounds single header lines and idle keep-alive, but not how long a client may take to send a request
(a slowloris client trickling header bytes keeps a connection, a file descriptor and a handler alive for as long
as it likes) nor how long a client may leave a response unread. dcgm-exporter's Go server has 10 s read and write
timeouts; this guard gives the same protection. It wraps aiohttp's protocol object and only watches bytes go by:

- a request (head and declared body) must arrive within ``request_timeout_s`` of its first byte (for the first
  request: of the connection being accepted), else the connection is closed;
- a request head larger than ``max_head_bytes`` is answered 431, a declared body larger than ``max_body_bytes``
  413, and the connection closed before aiohttp sees the request;
- a response the client stops reading (the transport's buffer stays full) for ``write_timeout_s`` is abandoned.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

from gpuscope.exporter.plainhttp import tls_protocol_factory

log = logging.getLogger(__name__)

_END_OF_HEAD = b"\r\n\r\n"


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """Connection limits; the defaults suit a metrics endpoint (Prometheus sends ~300-byte heads, no bodies)."""

    request_timeout_s: float = 10.0
    write_timeout_s: float = 10.0
    keepalive_timeout_s: float = 120.0  # idle keep-alive; longer than any sane scrape interval's gap is not needed
    max_head_bytes: int = 16 * 1024
    max_body_bytes: int = 64 * 1024


class _Guard(asyncio.Protocol):
    """Wraps one connection's aiohttp protocol; forwards every event, closes the connection when a limit is hit."""

    def __init__(self, inner: asyncio.Protocol, limits: HttpLimits, loop: asyncio.AbstractEventLoop) -> None:
        self._inner = inner
        self._limits = limits
        self._loop = loop
        self._transport: asyncio.Transport | None = None
        self._read_timer: asyncio.TimerHandle | None = None
        self._write_timer: asyncio.TimerHandle | None = None
        self._head = bytearray()
        self._body_left = 0
        self._opaque = False  # a chunked body: its end is not tracked, the request deadline simply stays armed

    # -- asyncio.Protocol, forwarded ------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._arm_read()
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._transport is None or self._transport.is_closing():
            return
        if self._opaque or self._scan(data):
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        if self._write_timer is None:
            self._write_timer = self._loop.call_later(self._limits.write_timeout_s, self._expire, "write")
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._cancel_write()
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_read()
        self._cancel_write()
        self._transport = None
        self._inner.connection_lost(exc)

    # -- request tracking -----------------------------------------------------------------------------------------

    def _scan(self, data: bytes) -> bool:
        """Follow request boundaries through ``data``; False when the connection was refused."""
        view = memoryview(data)
        while view:
            if self._body_left:
                taken = min(self._body_left, len(view))
                self._body_left -= taken
                view = view[taken:]
                if not self._body_left:
                    self._disarm_read()  # the request is complete: aiohttp's keep-alive timer takes over
                continue
            self._arm_read()
            start = max(0, len(self._head) - len(_END_OF_HEAD) + 1)
            self._head += view
            end = self._head.find(_END_OF_HEAD, start)
            if end < 0:
                return self._check_head_size(len(self._head))
            if not self._check_head_size(end):
                return False
            head, rest = bytes(self._head[:end]), len(self._head) - end - len(_END_OF_HEAD)
            self._head.clear()
            view = view[len(view) - rest :]
            if not self._start_body(head):
                return False
            if not self._body_left and not self._opaque:
                self._disarm_read()
            if self._opaque:
                break
        return True

    def _check_head_size(self, size: int) -> bool:
        if size <= self._limits.max_head_bytes:
            return True
        self._refuse(431, "Request Header Fields Too Large")
        return False

    def _start_body(self, head: bytes) -> bool:
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            key = name.strip().lower()
            if key == b"content-length" and value.strip().isdigit():
                length = int(value.strip())
            elif key == b"transfer-encoding" and b"chunked" in value.lower():
                self._opaque = True
        if length > self._limits.max_body_bytes:
            self._refuse(413, "Content Too Large")
            return False
        self._body_left = length
        return True

    # -- timers and refusals --------------------------------------------------------------------------------------

    def _arm_read(self) -> None:
        if self._read_timer is None:
            self._read_timer = self._loop.call_later(self._limits.request_timeout_s, self._expire, "request")

    def _disarm_read(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _cancel_write(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None

    def _expire(self, what: str) -> None:
        self._read_timer = self._write_timer = None
        if self._transport is not None and not self._transport.is_closing():
            peer = self._transport.get_extra_info("peername")
            log.debug("closing the connection from %s: %s timeout", peer, what)
            self._transport.abort()

    def _refuse(self, status: int, reason: str) -> None:
        self._disarm_read()
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(
                f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {len(reason) + 1}\r\n"
                f"Connection: close\r\n\r\n{reason}\n".encode()
            )
            self._transport.close()


class GuardedSite(web.BaseSite):
    """A TCP site whose connections go through the guard (aiohttp's ``TCPSite`` plus the protocol wrapper)."""

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

    @property
    def name(self) -> str:
        scheme = "https" if self._ssl_context else "http"
        return f"{scheme}://{self._host or '0.0.0.0'}:{self._port}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        factory = self._runner.server
        assert factory is not None
        limits = self._limits

        def protocol() -> asyncio.Protocol:
            return _Guard(factory(), limits, loop)

        # A TLS client that never finishes its handshake is a slow client too.
        handshake = limits.request_timeout_s if self._ssl_context else None
        factory_for_socket: Callable[[], asyncio.BaseProtocol] = protocol
        if self._ssl_context is not None:  # TLS layered here, so plain HTTP on this port gets a 400 that says so
            factory_for_socket = tls_protocol_factory(protocol, self._ssl_context, loop, handshake)
        if self._sock is not None:
            self._server = await loop.create_server(factory_for_socket, sock=self._sock, backlog=self._backlog)
            return
        self._server = await loop.create_server(
            factory_for_socket, self._host, self._port, backlog=self._backlog, reuse_address=True
        )
