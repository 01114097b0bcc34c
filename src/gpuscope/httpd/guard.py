"""Connection-level limits for the exporter's HTTP server: slow clients, oversized requests, stuck readers.

An HTTP server bounds single header lines and idle keep-alive, but not how long a client may take to send a
request (a slowloris client trickling header bytes keeps a connection, a file descriptor and a handler alive for as
long as it likes) nor how long a client may leave a response unread. dcgm-exporter's Go server has 10 s read and
write timeouts; this guard gives the same protection. It wraps the HTTP server's protocol object (``httpd.server``'s,
which every gpuscope server runs on) and only watches bytes go by:

- a request (head and declared body) must arrive within ``request_timeout_s`` of its first byte (for the first
  request: of the connection being accepted), else the connection is closed;
- a request head larger than ``max_head_bytes`` is answered 431, a declared body larger than ``max_body_bytes``
  413, and the connection closed before the server sees the request;
- a response the client stops reading (the transport's buffer stays full) for ``write_timeout_s`` is abandoned;
- at most ``max_connections`` connections are open at once per listener (TLS handshakes included). When a new one
  arrives at the cap, the least recently active *idle* connection is closed to make room (counted as evicted): one
  with no request in progress (never sent a byte, between keep-alive requests, or in its TLS handshake). Only when
  every open connection is mid-request (whose request deadline bounds how long it can stay so) is the new one
  closed on arrival and counted as rejected (``ConnectionStats``, self-metrics). Over plain HTTP both get a 503
  with ``Retry-After`` and a lingering close (``_turn_away``): "idle" includes a connection whose request is still
  in the kernel, unread, and a silent close left ~half of 1,000 concurrent clients without an answer. So
  an attacker holding the cap's worth of idle keep-alive connections cannot lock Prometheus out: its scrape's
  connection takes the place of the oldest of them.

TLS is terminated here too, not by ``create_server(ssl=...)``: asyncio gives every TLS connection a 256 KiB read
buffer up front (``SSLProtocol.max_size``), which made a few thousand idle TLS connections cost hundreds of MiB.
``_TlsConnection`` is asyncio's own TLS protocol with a 16 KiB buffer (one TLS record), the same handshake
timeout, and admission against the cap before the handshake starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import logging
import socket
import ssl
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpuscope.httpd.plainhttp import TlsOrTellHttp
from gpuscope.httpd.stats import ConnectionStats

__all__ = ["HttpLimits", "InnerIdle", "inner_idle", "listen", "malloc_trim"]

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
    # Prometheus keeps one connection per target (two for an HA pair); the cap only has to bound memory.
    max_connections: int = 512


# The answer to a connection refused or evicted at the cap: a client sees why and when to come back, where a
# silent close reads as a broken server (an evicted client may have sent a request we have not read yet).
_BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 21\r\nRetry-After: 1\r\n"
    b"Connection: close\r\n\r\ntoo many connections\n"
)


_LINGER_S = 2.0  # how long a connection turned away may keep sending before it is reset


@functools.cache
def malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (None elsewhere): hands the heap's free pages back to the system."""
    with contextlib.suppress(OSError, AttributeError):
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # glibc only
        return trim
    return None


class _Slot:
    """One admitted connection's place under the cap: whether it is idle now, and how to close it to make room."""

    __slots__ = ("evict", "handshaking", "idle")

    def __init__(self, *, handshaking: bool, idle: Callable[[], bool], evict: Callable[[], None]) -> None:
        self.handshaking = handshaking
        self.idle = idle
        self.evict = evict


class _Admission:
    """One listener's connection cap and counts; evicts idle connections at the cap; hands freed memory back after a
    burst of connections has gone.

    glibc keeps the small blocks that closed connections leave behind; without a trim, an exporter that once held
    thousands of (hostile) connections would keep their memory for the rest of its life.
    """

    _BURST = 256  # connections gone since the peak before a trim is worth its cost (a walk of the heap)

    def __init__(self, stats: ConnectionStats, loop: asyncio.AbstractEventLoop) -> None:
        self.stats = stats
        self._loop = loop
        self._peak = 0
        self._trim: asyncio.TimerHandle | None = None
        self._slots: OrderedDict[_Slot, None] = OrderedDict()  # least recently active first
        self.lingering = 0  # connections turned away with a 503, still reading what their client sends (at most cap)
        stats.idle = self.idle_count

    def idle_count(self) -> int:
        """How many open connections are idle now (a scrape's figure: a walk of at most the cap's connections)."""
        return sum(1 for slot in tuple(self._slots) if slot.idle())

    def enter(self, *, tls: bool, idle: Callable[[], bool], evict: Callable[[], None]) -> _Slot | None:
        """Count a new connection in (making room by evicting an idle one at the cap); None (counted as rejected)
        when the cap is reached and every open connection is mid-request."""
        stats = self.stats
        if stats.open >= stats.limit and not self._evict_idle():
            stats.rejected += 1
            return None
        slot = _Slot(handshaking=tls, idle=idle, evict=evict)
        self._slots[slot] = None
        stats.open += 1
        stats.handshaking += tls
        self._peak = max(self._peak, stats.open)
        return slot

    def _evict_idle(self) -> bool:
        # A scan from the least recently active: at the cap only, and bounded by the cap.
        victim = next((slot for slot in self._slots if slot.idle()), None)
        if victim is None:
            return False
        self.leave(victim)  # its place is free now: the close below only has to let the socket go
        self.stats.evicted += 1
        victim.evict()
        return True

    def touch(self, slot: _Slot) -> None:
        """``slot``'s connection was active (bytes arrived): it is the last to be evicted."""
        if slot in self._slots:
            self._slots.move_to_end(slot)

    def established(self, slot: _Slot) -> None:
        if slot.handshaking and slot in self._slots:
            slot.handshaking = False
            self.stats.handshaking -= 1
        self.touch(slot)

    def leave(self, slot: _Slot) -> None:
        """``slot``'s connection is gone (or evicted); a second call for the same slot does nothing."""
        if self._slots.pop(slot, False) is False:
            return
        self.stats.open -= 1
        self.stats.handshaking -= slot.handshaking
        if self._peak - self.stats.open >= self._BURST and self._trim is None and malloc_trim() is not None:
            self._trim = self._loop.call_later(1.0, self._release)

    def _release(self) -> None:
        self._trim = None
        self._peak = self.stats.open
        trim = malloc_trim()
        if trim is not None:
            trim(0)


InnerIdle = Callable[[asyncio.Protocol], bool]  # whether an HTTP protocol has no request in progress


def inner_idle(protocol: asyncio.Protocol) -> bool:
    """``HttpConnection.idle`` (the exporter's server); a protocol that cannot tell is never idle (never evicted)."""
    return bool(getattr(protocol, "idle", False))


class _Guard(asyncio.Protocol):
    """Wraps one connection's HTTP protocol; forwards every event, closes the connection when a limit is hit."""

    def __init__(
        self,
        inner: asyncio.Protocol,
        limits: HttpLimits,
        loop: asyncio.AbstractEventLoop,
        admission: _Admission,
        *,
        idle_of: InnerIdle = inner_idle,
        on_made: Callable[[], None] | None = None,
    ) -> None:
        self._inner = inner
        self._limits = limits
        self._loop = loop
        self._admission = admission
        self._idle_of = idle_of
        # Plain HTTP: this guard takes the connection's slot under the cap; TLS: ``_TlsConnection`` does and sets it.
        self.slot: _Slot | None = None
        self._owns_slot = on_made is None
        self._on_made = on_made  # TLS: tells the TLS layer its handshake finished
        self._transport: asyncio.Transport | None = None
        self._read_timer: asyncio.TimerHandle | None = None
        self._write_timer: asyncio.TimerHandle | None = None
        self._head = bytearray()
        self._body_left = 0
        self._opaque = False  # a chunked body: its end is not tracked, the request deadline simply stays armed
        self._linger: asyncio.TimerHandle | None = None  # set once turned away with a 503 (``_turn_away``)

    def idle(self) -> bool:
        """No request in progress: none partly received, none being answered, nothing left to write. An idle
        connection may be evicted to admit a new one at the cap."""
        transport = self._transport
        return (
            transport is not None
            and not self._head
            and not self._body_left
            and not self._opaque
            and self._write_timer is None
            and transport.get_write_buffer_size() == 0
            and self._idle_of(self._inner)
        )

    def evict(self) -> None:
        transport = self._transport
        if transport is not None and not transport.is_closing():
            log.debug("closing the idle connection from %s: the connection limit was reached", _peer(transport))
            self._turn_away(transport)

    def _turn_away(self, transport: asyncio.Transport) -> None:
        """Answer 503 and close without losing the answer: closing a socket with unread bytes (the request the client
        sent before we turned it away) sends a reset that can destroy the 503 in the client's buffers, so the answer
        is followed by a FIN, what the client still sends is read and dropped, and the socket goes at the client's
        FIN or ``_LINGER_S`` later (its slot under the cap is free already)."""
        transport.write(_BUSY)  # nothing else is left to write: an evicted connection is idle
        admission = self._admission
        # Lingering sockets are outside the cap: a flood of newcomers may not turn them into a descriptor leak.
        if not transport.can_write_eof() or admission.lingering >= admission.stats.limit:
            transport.close()
            return
        transport.write_eof()
        admission.lingering += 1
        self._linger = self._loop.call_later(_LINGER_S, transport.abort)

    # -- asyncio.Protocol, forwarded ------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        if self._owns_slot:
            self.slot = self._admission.enter(tls=False, idle=self.idle, evict=self.evict)
            if self.slot is None:
                self._turn_away(transport)
                return
        if self._on_made is not None:
            self._on_made()
        self._transport = transport
        self._arm_read()
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._linger is not None:
            return  # turned away: the rest of the request is dropped
        if self._transport is None or self._transport.is_closing():
            return
        if self.slot is not None:
            self._admission.touch(self.slot)
        if self._opaque or self._scan(data):
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self._linger is not None:
            return False  # turned away and the client is done: close now
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        if self._write_timer is None:
            self._write_timer = self._loop.call_later(self._limits.write_timeout_s, self._expire, "write")
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._cancel_write()
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._linger is not None:
            self._linger.cancel()
            self._linger = None
            self._admission.lingering -= 1
        if self._owns_slot:
            if self.slot is None:
                return  # refused on arrival: the HTTP protocol never saw it
            self._admission.leave(self.slot)
            self.slot = None
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
                    self._disarm_read()  # the request is complete: the server's keep-alive timer takes over
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
                # More digits than any limit has: over it (int() refuses strings of over 4,300 digits anyway).
                length = int(value.strip()) if len(value.strip()) <= 18 else self._limits.max_body_bytes + 1
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
            timed_out = self._admission.stats.timed_out
            timed_out[what] = timed_out.get(what, 0) + 1
            log.debug("closing the connection from %s: %s timeout", _peer(self._transport), what)
            self._transport.abort()

    def _refuse(self, status: int, reason: str) -> None:
        self._disarm_read()
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(
                f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {len(reason) + 1}\r\n"
                f"Connection: close\r\n\r\n{reason}\n".encode()
            )
            self._transport.close()


def _peer(transport: asyncio.BaseTransport) -> object:
    return transport.get_extra_info("peername")


class _TlsConnection(TlsOrTellHttp):
    """asyncio's server-side TLS protocol with a small read buffer and admission against the connection cap."""

    max_size = 16 * 1024  # asyncio's default is 256 KiB, allocated for every connection

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        inner: asyncio.Protocol,
        context: ssl.SSLContext,
        limits: HttpLimits,
        admission: _Admission,
        idle_of: InnerIdle = inner_idle,
    ) -> None:
        self._gpuscope_admission = admission
        self._gpuscope_phase = "new"  # new -> handshake -> established; "refused" when over the cap
        self._gpuscope_guard = _Guard(inner, limits, loop, admission, idle_of=idle_of, on_made=self._established)
        super().__init__(
            loop,
            self._gpuscope_guard,
            context,
            None,  # type: ignore[arg-type] # no waiter: nobody awaits the handshake, failures only close
            server_side=True,
            # A TLS client that never finishes its handshake is a slow client too.
            ssl_handshake_timeout=limits.request_timeout_s,  # type: ignore[arg-type] # typeshed says int
            ssl_shutdown_timeout=limits.write_timeout_s,
        )

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        slot = self._gpuscope_admission.enter(tls=True, idle=self._gpuscope_idle, evict=self._gpuscope_evict)
        if slot is None:
            self._gpuscope_phase = "refused"
            assert isinstance(transport, asyncio.Transport)
            transport.abort()  # nothing can be said before a handshake
            super().connection_lost(None)  # tear the unused TLS state down now (its later call is ignored)
            return
        self._gpuscope_guard.slot = slot
        self._gpuscope_phase = "handshake"
        super().connection_made(transport)

    def _gpuscope_idle(self) -> bool:
        # A handshake is no request yet (its own deadline bounds it); after it, the HTTP layer says.
        return self._gpuscope_phase == "handshake" or self._gpuscope_guard.idle()

    def _gpuscope_evict(self) -> None:
        raw: Any = self._transport
        if raw is not None:
            log.debug("closing the idle TLS connection from %s: the connection limit was reached", _peer(raw))
            raw.abort()  # no TLS shutdown to wait for: the socket goes now

    def _established(self) -> None:
        if self._gpuscope_phase == "handshake":
            slot = self._gpuscope_guard.slot
            if slot is not None:
                self._gpuscope_admission.established(slot)
            self._gpuscope_phase = "established"

    def connection_lost(self, exc: BaseException | None) -> None:
        phase, self._gpuscope_phase = self._gpuscope_phase, "closed"
        if phase in ("new", "refused", "closed"):
            return
        slot = self._gpuscope_guard.slot
        if slot is not None:
            self._gpuscope_admission.leave(slot)
        super().connection_lost(exc)


async def listen(
    make_inner: Callable[[], asyncio.Protocol],
    host: str | None,
    port: int,
    *,
    limits: HttpLimits,
    stats: ConnectionStats,
    ssl_context: ssl.SSLContext | None = None,
    backlog: int = 512,
    sock: socket.socket | None = None,
    idle_of: InnerIdle = inner_idle,
) -> asyncio.Server:
    """Listen with every connection guarded: ``make_inner`` makes each connection's HTTP protocol; ``stats`` counts
    the connections; TLS is terminated in ``_TlsConnection`` (admission, small buffer; plain HTTP on this port gets
    a 400 that says so). ``sock``: an inherited listening socket (systemd socket activation), host and port unused.
    ``idle_of`` tells whether an HTTP protocol has no request in progress (such connections may be evicted)."""
    loop = asyncio.get_running_loop()
    admission = _Admission(stats, loop)

    def protocol() -> asyncio.BaseProtocol:
        if ssl_context is None:
            return _Guard(make_inner(), limits, loop, admission, idle_of=idle_of)
        return _TlsConnection(loop, make_inner(), ssl_context, limits, admission, idle_of)

    if sock is not None:
        return await loop.create_server(protocol, sock=sock, backlog=backlog)
    return await loop.create_server(protocol, host, port, backlog=backlog, reuse_address=True)
