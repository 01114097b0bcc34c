"""Plain HTTP sent to the TLS port gets a 400 that says so, as Go's server answers, instead of a dropped connection.

The TLS layer is asyncio's own (``SSLProtocol``, what ``create_server(ssl=...)`` builds per connection), subclassed here
so that a failed handshake can be looked at first: OpenSSL names the case of HTTP bytes where a ClientHello should
be (reason ``HTTP_REQUEST``), and the person who pointed a scrape at ``http://`` learns what to fix. Everything
else (real TLS clients, other handshake failures) goes exactly the way asyncio's path goes.
"""

from __future__ import annotations

import ssl
from asyncio import sslproto
from typing import Any

PLAIN_HTTP_REPLY = (
    b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"
    b"Client sent an HTTP request to an HTTPS server.\n"
)


class TlsOrTellHttp(sslproto.SSLProtocol):
    """asyncio's server-side TLS protocol that answers plain HTTP with a 400 (the guard adds the connection cap)."""

    def _on_handshake_complete(self, handshake_exc: BaseException | None) -> None:
        raw: Any = self._transport
        if isinstance(handshake_exc, ssl.SSLError) and handshake_exc.reason == "HTTP_REQUEST" and raw is not None:
            raw.write(PLAIN_HTTP_REPLY)  # a short reply to an empty buffer is sent at once, before the close
        super()._on_handshake_complete(handshake_exc)
