"""gpuscope's HTTP/1.1 server on asyncio's own protocols and h11: requests, responses, routes, connections.

It serves the exporter, `gpuscope up`'s simulated nodes and control API, the console and the remediator (aiohttp's
web server, which some of them ran on before, cost ~14 MiB of a ~47 MiB exporter for three GET routes). What they
need: routes by path and method (GET answers HEAD too; another method is a 405 with ``Allow``; an unknown path a
404), keep-alive and pipelined requests answered in order, ``Expect: 100-continue``, a keep-alive
idle timeout, and request checks (``before``, the web config's auth) and response headers (``after``) around every
route. The HTTP/1.1 state machine is h11's (the parser under uvicorn and httpcore, pure Python, ~0.3 MiB): it
parses each request and frames each response, and a malformed request is one 4xx and a rate-limited log line
(``requestlog``). Connection limits, deadlines and TLS are ``httpd.guard``'s, which wraps each ``HttpConnection``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote

import h11

from gpuscope.httpd.requestlog import REQUEST_LOG, BadRequest

log = logging.getLogger(__name__)


class Headers(dict[str, str]):
    """Request headers: lower-case names; ``get`` and ``[]`` take any case."""

    def get(self, key: str, default: Any = None) -> Any:  # any case, as aiohttp's
        return super().get(key.lower(), default)

    def __getitem__(self, key: str) -> str:
        return super().__getitem__(key.lower())

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and super().__contains__(key.lower())


@dataclass(slots=True)
class Request:
    """One request as the routes see it (the attributes aiohttp's handlers here used, by the same names)."""

    method: str
    path: str
    query_string: str
    headers: Headers
    body: bytes
    transport: asyncio.Transport | None
    app: App
    match_info: dict[str, str] = field(default_factory=dict)  # a pattern route's ``{name}`` segments

    @property
    def remote(self) -> str | None:
        peer = self.transport.get_extra_info("peername") if self.transport is not None else None
        return str(peer[0]) if peer else None

    async def read(self) -> bytes:
        return self.body

    async def json(self) -> Any:
        """The body as JSON (UTF-8): ``json.JSONDecodeError``, ``UnicodeDecodeError`` or ``RecursionError`` (JSON
        nested thousands deep) for a body that is not; the route words the 400."""
        return json.loads(self.body.decode("utf-8"))

    @property
    def query(self) -> dict[str, str]:
        """The query string's parameters (the first of repeated ones), percent-decoded."""
        found: dict[str, str] = {}
        for name, value in parse_qsl(self.query_string, keep_blank_values=True):
            found.setdefault(name, value)
        return found

    @property
    def scheme(self) -> str:
        tls = self.transport.get_extra_info("sslcontext") if self.transport is not None else None
        return "https" if tls is not None else "http"

    @property
    def host(self) -> str:
        """The ``Host`` header; without one (HTTP/1.0), the address the request arrived at."""
        given = self.headers.get("Host")
        if given:
            return str(given)
        local = self.transport.get_extra_info("sockname") if self.transport is not None else None
        if not local:
            return ""
        return f"[{local[0]}]:{local[1]}" if ":" in str(local[0]) else f"{local[0]}:{local[1]}"

    @property
    def host_name(self) -> str:
        """``host`` without its port or an IPv6 literal's brackets, lower-case."""
        host = self.host.strip().lower()
        if host.startswith("["):
            return host[1 : host.find("]")] if "]" in host else host[1:]
        return host.rpartition(":")[0] if host.count(":") == 1 else host


@dataclass(slots=True)
class Response:
    """A complete response; ``headers`` keep the case they are given in (Content-Length is added on the wire)."""

    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def text(cls, text: str, *, status: int = 200, content_type: str = "text/plain", **headers: str) -> Response:
        return cls(status, text.encode(), {"Content-Type": f"{content_type}; charset=utf-8", **headers})


class HttpError(Exception):
    """Raised by a route or a check: answered as ``response``."""

    def __init__(self, status: int, text: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(text)
        self.response = Response.text(text, status=status, **dict(headers or {}))


Handler = Callable[[Request], Awaitable[Response]]
Check = Callable[[Request], Awaitable[Response | None]]  # a response refuses the request


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    path: str
    handler: Handler


def get(path: str, handler: Handler) -> Route:
    return Route("GET", path, handler)


class App:
    """Routes, the checks before them and the headers after; ``state`` holds what routes look up (the resolver)."""

    def __init__(self, max_body_bytes: int) -> None:
        self.max_body_bytes = max_body_bytes
        self.routes: dict[str, dict[str, Handler]] = {}  # exact paths
        self.patterns: dict[PathPattern, dict[str, Handler]] = {}  # paths with ``{name}`` segments, in order added
        self.before: list[Check] = []
        self.after: list[Callable[[Response], None]] = []
        self.on_cleanup: list[Callable[[], None]] = []
        self.state: dict[str, Any] = {}
        self.connections: set[HttpConnection] = set()  # open ones, closed at shutdown

    def add(self, routes: Iterable[Route]) -> None:
        for route in routes:
            if "{" in route.path:
                methods = self.patterns.setdefault(PathPattern.of(route.path), {})
            else:
                methods = self.routes.setdefault(route.path, {})
            methods[route.method] = route.handler
            if route.method == "GET":
                methods.setdefault("HEAD", route.handler)

    async def respond(self, request: Request) -> Response:
        try:
            for check in self.before:  # first, as aiohttp's middlewares: unknown paths are no oracle either
                refused = await check(request)
                if refused is not None:
                    return self._finish(refused)
            methods = self.routes.get(request.path)
            if methods is None:
                methods = self._match(request)
            if methods is None:
                raise HttpError(404, "404: Not Found")
            handler = methods.get(request.method)
            if handler is None:
                raise HttpError(405, "405: Method Not Allowed", {"Allow": ",".join(sorted(methods))})
            response = await handler(request)
        except HttpError as exc:
            response = exc.response
        return self._finish(response)

    def _match(self, request: Request) -> dict[str, Handler] | None:
        """The first pattern route the path matches; its ``{name}`` segments go to ``request.match_info``."""
        for pattern, methods in self.patterns.items():
            found = pattern.match(request.path)
            if found is not None:
                request.match_info = found
                return methods
        return None

    def _finish(self, response: Response) -> Response:
        for hook in self.after:
            hook(response)
        return response

    def close_connections(self) -> None:
        for connection in list(self.connections):
            connection.close()

    def cleanup(self) -> None:
        for hook in self.on_cleanup:
            hook()


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class _Date:
    """The ``Date`` header (RFC 9110's IMF-fixdate, English names whatever the locale), formatted once a second."""

    def __init__(self) -> None:
        self._second = -1
        self._value = ""

    def __call__(self) -> str:
        now = int(time.time())
        if now != self._second:
            t = time.gmtime(now)
            self._second = now
            self._value = (
                f"{_DAYS[t.tm_wday]}, {t.tm_mday:02d} {_MONTHS[t.tm_mon - 1]} {t.tm_year} "
                f"{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d} GMT"
            )
        return self._value


_date = _Date()


def _reason(status: int) -> bytes:
    try:
        return HTTPStatus(status).phrase.encode("ascii")
    except ValueError:
        return b"Unknown"


_CONTINUE = h11.InformationalResponse(status_code=100, headers=[], reason=b"Continue")
_MAX_HEADERS = 100
# No method is longer (the longest registered, UPDATEREDIRECTREF, has 17 bytes): a longer first word is no request.
_MAX_METHOD = 32
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]*")
_VERSION_SO_FAR = re.compile(rb"(H(T(T(P(/([0-9](\.([0-9]\r?)?)?)?)?)?)?)?)?")
_REQUEST_LINE = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+ [\x21-\x7e]+ HTTP/[0-9]\.[0-9]\r?")

# h11's reasons (before the bytes it quotes) in the words the server has always answered with.
_H11_REASONS = {
    "illegal header line": "invalid header field",
    "continuation line at start of headers": "invalid header field",
    "Illegal header name": "invalid header field",
    "Illegal header value": "invalid character in a header value",
    "illegal request line": "the request line is not METHOD TARGET VERSION",
    "Illegal method characters": "invalid method",
    "Illegal target characters": "invalid request target",
    "bad Content-Length": "invalid Content-Length",
    "conflicting Content-Length headers": "invalid Content-Length",
    "Only Transfer-Encoding: chunked is supported": "unsupported Transfer-Encoding",
    "multiple Transfer-Encoding headers": "unsupported Transfer-Encoding",
    "Missing mandatory Host: header": "missing required Host header",
    "Found multiple Host: headers": "too many Host headers",
    "peer unexpectedly closed connection": "the request ended before it was complete",
    "Receive buffer too long": "request header fields too large",
}


def _refusal(exc: h11.RemoteProtocolError) -> BadRequest:
    """h11's refusal as ours: its status, and its reason in our words (else its own, without the bytes it quotes)."""
    text = str(exc)
    reason = next((ours for theirs, ours in _H11_REASONS.items() if text.startswith(theirs)), None)
    return BadRequest(reason or re.split(r":? (?:bytearray\()?b['\"]", text, maxsplit=1)[0], exc.error_status_hint)


def check_request_line(partial: bytes) -> None:
    """Refuse the start of a request that cannot become one while h11 waits for the rest of its head: a first word
    no method has (a byte outside a token, or longer than any method), a third word that cannot become
    ``HTTP/x.y``, or a first line that has ended and is not ``METHOD TARGET HTTP/x.y``. Garbage is answered 400 at
    once, not with a silent close at the request deadline."""
    line, ended, _ = partial.partition(b"\n")
    words = line.split(b" ", 2)
    if not _TOKEN.fullmatch(words[0]) or (len(words) == 1 and len(words[0]) > _MAX_METHOD):
        raise BadRequest("invalid method")
    if (len(words) == 3 and not _VERSION_SO_FAR.fullmatch(words[2])) or (ended and not _REQUEST_LINE.fullmatch(line)):
        raise BadRequest("the request line is not METHOD TARGET VERSION")


def check_head(head: h11.Request, max_body_bytes: int) -> None:
    """What h11 accepts but this server does not: another HTTP version than 1.0 and 1.1, more than ``_MAX_HEADERS``
    fields, a body framed two ways (h11 lets chunked win; a request smuggler means the other), a declared body over
    the limit."""
    if head.http_version not in (b"1.0", b"1.1"):
        raise BadRequest("unsupported HTTP version", 505)
    if len(head.headers) > _MAX_HEADERS:
        raise BadRequest("too many header fields", 431)
    names = {name for name, _ in head.headers}
    if b"content-length" in names and b"transfer-encoding" in names:
        raise BadRequest("both Content-Length and Transfer-Encoding")
    declared = next((value for name, value in head.headers if name == b"content-length"), b"0")
    if len(declared) > 18 or int(declared) > max_body_bytes:
        raise BadRequest("request body too large", 413)


def _target(raw: bytes) -> tuple[str, str]:
    """The path (percent-decoded) and query of a request target; the absolute form's path is what follows its
    authority."""
    path, _, query = raw.decode("ascii").partition("?")
    if path.startswith(("http://", "https://")):
        path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
    return unquote(path, errors="replace"), query


def _headers(fields: Iterable[tuple[bytes, bytes]]) -> Headers:
    """h11's fields (names lower case) as ``Headers``; a repeated name's values joined with ``, ``."""
    headers = Headers()
    for name, value in fields:
        key, text = name.decode("ascii"), value.decode("latin-1")
        headers[key] = f"{headers[key]}, {text}" if key in headers else text
    return headers


class HttpConnection(asyncio.Protocol):
    """One client connection: h11 parses requests off it; they are answered one at a time and in order."""

    def __init__(self, app: App, keepalive_timeout_s: float, loop: asyncio.AbstractEventLoop) -> None:
        self._app = app
        self._keepalive_s = keepalive_timeout_s
        self._loop = loop
        self._transport: asyncio.Transport | None = None
        # Bytes not handed to h11 yet: they wait here while a request is answered (h11 keeps what it was handed
        # but has not parsed, a pipelined request, until the answer is sent).
        self._buffer = bytearray()
        self._h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=app.max_body_bytes + 64 * 1024)
        self._head: h11.Request | None = None  # parsed, its body still arriving
        self._body = bytearray()
        self._task: asyncio.Task[None] | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._eof = False
        self._eof_fed = False
        self._drained: asyncio.Future[None] | None = None  # set while the transport's buffer is full
        self._reading = True
        # Pipelined requests beyond this wait in the kernel (reading paused): one request's worth, at most.
        self._read_cap = app.max_body_bytes + 64 * 1024

    @property
    def idle(self) -> bool:
        """No request in progress: none buffered or partly received, none being answered, none waiting to be
        written. At the connection cap, ``httpd.guard`` may close an idle connection to admit a new one."""
        return (
            self._task is None
            and self._head is None
            and not self._buffer
            and self._drained is None
            and not self._h11.trailing_data[0]
        )

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        self._app.connections.add(self)

    def data_received(self, data: bytes) -> None:
        self._cancel_idle()
        self._buffer += data
        if self._reading and len(self._buffer) > self._read_cap and self._transport is not None:
            self._reading = False
            self._transport.pause_reading()
        if self._task is None:
            self._advance()

    def pause_writing(self) -> None:
        # A client that does not read its responses gets no more of them until it does (the guard's write
        # timeout ends it), rather than every pipelined answer piling up in memory and the kernel's buffers.
        if self._drained is None:
            self._drained = self._loop.create_future()

    def resume_writing(self) -> None:
        if self._drained is not None:
            if not self._drained.done():
                self._drained.set_result(None)
            self._drained = None

    def eof_received(self) -> bool:
        self._eof = True
        if self._task is None:
            self._advance()
        return True  # half-closed: answer what arrived, then close (``_advance``)

    def connection_lost(self, exc: Exception | None) -> None:
        self._app.connections.discard(self)
        self._cancel_idle()
        if self._task is not None:
            self._task.cancel()
        self._transport = None

    def _advance(self) -> None:
        """Take the next complete request off the connection and start answering it; close or idle when none is
        left."""
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        try:
            request = self._next_request(transport)
        except h11.RemoteProtocolError as exc:
            self._refuse(transport, _refusal(exc))
            return
        except BadRequest as exc:
            self._refuse(transport, exc)
            return
        if not self._reading and len(self._buffer) <= self._read_cap:
            self._reading = True
            transport.resume_reading()
        if request is not None:
            self._task = self._loop.create_task(self._answer(request))
        elif self._h11.their_state is h11.CLOSED:
            transport.close()
        elif self._head is None and not self._h11.trailing_data[0]:
            self._idle = self._loop.call_later(self._keepalive_s, self._expire)

    def _next_request(self, transport: asyncio.Transport) -> Request | None:
        """h11's events up to the end of the next request (None while more bytes are needed)."""
        limit = self._app.max_body_bytes
        while True:
            event = self._h11.next_event()
            if event is h11.NEED_DATA and (self._buffer or (self._eof and not self._eof_fed)):
                # h11 is handed bytes only when it has parsed all it holds, so what it holds stays bounded: a
                # pipelining client's requests wait here, under the read cap, not in h11's buffer.
                if self._buffer:
                    self._h11.receive_data(bytes(self._buffer))
                    self._buffer.clear()
                if self._eof and not self._eof_fed:
                    self._eof_fed = True
                    self._h11.receive_data(b"")  # the client is done sending: h11 knows it after its last bytes
                continue
            if event is h11.NEED_DATA:
                if self._head is None:
                    check_request_line(self._h11.trailing_data[0])
                elif self._h11.they_are_waiting_for_100_continue:
                    transport.write(self._h11.send(_CONTINUE))
                return None
            if isinstance(event, h11.Request):
                check_head(event, limit)
                self._head = event
                self._body.clear()
            elif isinstance(event, h11.Data):
                self._body += event.data
                if len(self._body) > limit:
                    raise BadRequest("request body too large", 413)
            elif isinstance(event, h11.EndOfMessage):
                head, self._head = self._head, None
                assert head is not None
                path, query = _target(head.target)
                body, self._body = bytes(self._body), bytearray()
                return Request(
                    method=head.method.decode("ascii"),
                    path=path,
                    query_string=query,
                    headers=_headers(head.headers),
                    body=body,
                    transport=transport,
                    app=self._app,
                )
            else:  # ConnectionClosed (the client is done) or PAUSED (never: a request is answered before the next)
                return None

    async def _answer(self, request: Request) -> None:
        try:
            try:
                response = await self._app.respond(request)
            except Exception:
                log.exception("Error handling request %s %s", request.method, request.path)
                response = Response.text("500 Internal Server Error\n\nServer got itself in trouble", status=500)
            transport = self._transport
            if transport is None or transport.is_closing():
                return
            # A client that has half-closed with nothing more to ask is told the connection ends with this answer.
            close = self._eof and not self._buffer and not self._h11.trailing_data[0]
            transport.write(self._encode(response, head_only=request.method == "HEAD", close=close))
            if self._h11.our_state is not h11.DONE:
                transport.close()  # the client asked to close (or speaks HTTP/1.0): h11 says MUST_CLOSE
                return
            self._h11.start_next_cycle()
            if self._drained is not None:
                await self._drained
        finally:
            self._task = None
        self._advance()

    def _encode(self, response: Response, *, head_only: bool, close: bool) -> bytes:
        """The response's bytes as h11 frames them: our headers, then Content-Length and Date (and Connection:
        close where the connection ends); h11 sends no body for HEAD."""
        headers = [*response.headers.items(), ("Content-Length", str(len(response.body))), ("Date", _date())]
        if close:
            headers.append(("Connection", "close"))
        out = self._h11.send(
            h11.Response(status_code=response.status, headers=headers, reason=_reason(response.status))
        )
        if not head_only and response.body:
            out += self._h11.send(h11.Data(data=response.body))
        return out + self._h11.send(h11.EndOfMessage())

    def _refuse(self, transport: asyncio.Transport, exc: BadRequest) -> None:
        peer = transport.get_extra_info("peername")
        REQUEST_LOG.error("Error handling request from %s", peer[0] if peer else "?", exc_info=(type(exc), exc, None))
        reply = Response.text(f"{exc}\n", status=exc.status)
        # h11 cannot frame an answer where one is being sent already: the close says it then.
        with contextlib.suppress(h11.LocalProtocolError):
            transport.write(self._encode(reply, head_only=False, close=True))
        transport.close()

    def _cancel_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def _expire(self) -> None:
        self._idle = None
        self.close()

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._transport is not None:
            self._transport.close()


# -- Routes beyond exact GET paths (the console, the remediator, the stack's control API, the simulator's) --------


def post(path: str, handler: Handler) -> Route:
    return Route("POST", path, handler)


def delete(path: str, handler: Handler) -> Route:
    return Route("DELETE", path, handler)


@dataclass(frozen=True, slots=True)
class PathPattern:
    """A route path with ``{name}`` segments, each matching one non-empty segment (never a ``/``), and at most one
    ``{name*}``, last: the rest of the path, one non-empty segment or more. Matched against the percent-decoded
    path, so a ``%2F`` is a ``/`` here too (``/runbooks/..%2Fx`` is two segments, not a name)."""

    segments: tuple[str, ...]

    @classmethod
    def of(cls, path: str) -> PathPattern:
        if not path.startswith("/"):
            raise ValueError(f"route path {path!r} must start with /")
        segments = tuple(path[1:].split("/"))
        for i, segment in enumerate(segments):
            if segment.endswith("*}") and i != len(segments) - 1:
                raise ValueError(f"route path {path!r}: a {{name*}} segment can only be the last")
        return cls(segments)

    def match(self, path: str) -> dict[str, str] | None:
        if not path.startswith("/"):
            return None
        parts = path[1:].split("/")
        found: dict[str, str] = {}
        for i, segment in enumerate(self.segments):
            if segment.startswith("{") and segment.endswith("*}"):
                rest = parts[i:]
                if not rest or not all(rest):
                    return None
                found[segment[1:-2]] = "/".join(rest)
                return found
            if i >= len(parts):
                return None
            if segment.startswith("{") and segment.endswith("}"):
                if not parts[i]:
                    return None
                found[segment[1:-1]] = parts[i]
            elif segment != parts[i]:
                return None
        return found if len(parts) == len(self.segments) else None


def json_response(data: Any, *, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """``data`` as a JSON answer (``application/json; charset=utf-8``)."""
    body = json.dumps(data).encode()
    return Response(status, body, {"Content-Type": "application/json; charset=utf-8", **dict(headers or {})})


_NOT_FOUND = "404: Not Found"


def static(prefix: str, directory: Path) -> Route:
    """GET ``prefix/<path>``: the regular files under ``directory``, subfolders included. Nothing outside it is
    served: a ``..`` or ``.`` segment, an empty one, a NUL or a backslash is a 404, as is a file that resolves
    (through a link) outside ``directory``, or a folder."""
    root = directory.resolve()

    async def handler(request: Request) -> Response:
        parts = request.match_info["path"].split("/")
        if any(part in (".", "..") or "\0" in part or "\\" in part for part in parts):
            raise HttpError(404, _NOT_FOUND)
        found = await asyncio.to_thread(_static_file, root, parts)
        if found is None:
            raise HttpError(404, _NOT_FOUND)
        name, body = found
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if content_type.startswith("text/") or content_type in ("application/javascript", "application/json"):
            content_type += "; charset=utf-8"
        return Response(200, body, {"Content-Type": content_type})

    return Route("GET", f"{prefix.rstrip('/')}/{{path*}}", handler)


def _static_file(root: Path, parts: list[str]) -> tuple[str, bytes] | None:
    try:
        resolved = root.joinpath(*parts).resolve(strict=True)
        if not resolved.is_relative_to(root) or not resolved.is_file():
            return None
        return resolved.name, resolved.read_bytes()
    except (OSError, RuntimeError, ValueError):  # RuntimeError: a link loop; ValueError: a NUL (checked already)
        return None
