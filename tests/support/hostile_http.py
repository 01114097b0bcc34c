"""A real HTTP/1.1 server on loopback whose handler misbehaves on purpose: a body dripping one byte at a time, an
endless or a declared-huge body, a redirect loop, or whatever answer a test writes (seeing the request's method,
headers and body). What clients of HTTP APIs (the doctor, ``gpuscope.prom``, the remediator's pager) are tested
against for their deadline, body cap, redirects and error mapping."""

from __future__ import annotations

import socketserver
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress


class Handler(socketserver.StreamRequestHandler):
    """One request: its line, headers and body read (a POST's body too, so closing never resets the client)."""

    method = ""
    headers: dict[str, str]
    body = b""


Answer = Callable[[str, Handler], None]


def send(handler: socketserver.StreamRequestHandler, head: str, body: bytes = b"") -> None:
    handler.wfile.write(head.encode() + b"\r\n\r\n" + body)


@contextmanager
def hostile(answer: Answer) -> Iterator[str]:
    class Answering(Handler):
        def handle(self) -> None:
            request = self.rfile.readline().decode("latin-1")
            self.headers = {}
            while (line := self.rfile.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                self.headers[name.strip().lower()] = value.strip()
            length = self.headers.get("content-length", "0")
            self.body = self.rfile.read(int(length)) if length.isdigit() else b""
            self.method = request.split(" ")[0]
            path = request.split(" ")[1] if " " in request else "/"
            with suppress(OSError):  # the client gave up: what a deadline is for
                answer(path, self)

    class Server(socketserver.ThreadingTCPServer):
        daemon_threads = True
        allow_reuse_address = True

    with Server(("127.0.0.1", 0), Answering) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}"
        finally:
            server.shutdown()


def drip(path: str, handler: socketserver.StreamRequestHandler) -> None:
    send(handler, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close", b"{")
    while True:  # one byte a second for ever: only the client's deadline ends this
        handler.wfile.write(b" ")
        handler.wfile.flush()
        time.sleep(0.5)


def drip_headers(path: str, handler: socketserver.StreamRequestHandler) -> None:
    handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
    while True:  # a header that never ends: each byte resets a per-read timeout
        handler.wfile.write(b"X")
        handler.wfile.flush()
        time.sleep(0.5)


def endless(path: str, handler: socketserver.StreamRequestHandler) -> None:
    send(handler, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close", b"[")
    chunk = b"0," * 32768
    while True:
        handler.wfile.write(chunk)


def declared_huge(path: str, handler: socketserver.StreamRequestHandler) -> None:
    send(handler, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 300000000", b"[")


def redirect_loop(path: str, handler: socketserver.StreamRequestHandler) -> None:
    send(handler, f"HTTP/1.1 302 Found\r\nLocation: {path}\r\nContent-Length: 0\r\nConnection: close")
