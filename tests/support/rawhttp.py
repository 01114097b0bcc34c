"""Raw HTTP/1.1 on a socket, for tests that hold connections the way an attacker (or a keep-alive client) does."""

from __future__ import annotations

import socket
import time


def keepalive_get(sock: socket.socket, path: str = "/health") -> bytes:
    """Send one keep-alive GET on ``sock`` and read its whole response."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return read_response(sock)


def read_response(sock: socket.socket) -> bytes:
    """Read one response (head and Content-Length body) to a request already sent on ``sock``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed after {len(data)} bytes of a response head")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")),
        0,
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed in the middle of a response body")
        body += chunk
    return head + b"\r\n\r\n" + body


def closed_by_peer(sock: socket.socket, timeout: float = 0.0) -> bool:
    """Whether the server has closed ``sock`` (EOF or reset), waiting up to ``timeout`` s for it; no data is due."""
    deadline = time.monotonic() + timeout
    previous = sock.gettimeout()
    try:
        while True:
            sock.settimeout(max(0.0, min(0.2, deadline - time.monotonic())))
            try:
                if sock.recv(1, socket.MSG_PEEK) == b"":
                    return True
                raise AssertionError("unexpected bytes on an idle connection")
            except (ConnectionResetError, BrokenPipeError):
                return True
            except (TimeoutError, BlockingIOError):
                if time.monotonic() >= deadline:
                    return False
    finally:
        sock.settimeout(previous)


def turned_away(sock: socket.socket, timeout: float = 10.0) -> bool:
    """Whether the server answered ``sock`` with a 503 that says when to come back, and closed it: how a connection
    evicted or refused at the connection cap ends (no request of ours is due an answer)."""
    reply = b""
    sock.settimeout(timeout)
    try:
        while chunk := sock.recv(65536):
            reply += chunk
    except (ConnectionResetError, TimeoutError):
        pass
    return reply.startswith(b"HTTP/1.1 503 ") and b"\r\nRetry-After: " in reply
