"""A strict HTTP/1.x request parser for the exporter (stdlib only): one request head and its body out of a buffer.

Hostile input is normal input on a port open to the cluster, so everything is bounded and anything unusual is one
clear 4xx (``BadRequest``), never a guess: a request line of exactly three parts, HTTP/1.0 or HTTP/1.1 only, header
names that are tokens, header values without control characters, no obsolete line folding, one ``Content-Length``
of digits only (never beside ``Transfer-Encoding``), ``chunked`` as the only transfer coding, and a body no larger
than the limit. The caller (``httpd.server``) owns the buffer; the head size, the request deadline and the declared
body size are also enforced as bytes arrive by ``httpd.guard``, before parsing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

END_OF_HEAD = b"\r\n\r\n"
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_BAD_VALUE = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")
_TARGET = re.compile(rb"[\x21-\x7e]+")
_HEX = re.compile(rb"[0-9A-Fa-f]{1,8}")
_MAX_HEADERS = 100


class BadRequest(Exception):
    """A request that cannot be served; ``status`` is the 4xx (or 505) to answer, ``str()`` the reason."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True, slots=True)
class Head:
    """A parsed request head: names in ``headers`` are lower case; repeated ones are joined with ``, ``."""

    method: str
    path: str  # percent-decoded, without the query
    query: str
    version: tuple[int, int]
    headers: dict[str, str]
    content_length: int | None
    chunked: bool

    @property
    def keep_alive(self) -> bool:
        tokens = {t.strip().lower() for t in self.headers.get("connection", "").split(",")}
        if self.version >= (1, 1):
            return "close" not in tokens
        return "keep-alive" in tokens


def parse_head(raw: bytes) -> Head:
    """Parse a request head (without the blank line that ends it)."""
    line, _, rest = raw.partition(b"\r\n")
    method, target, version = _request_line(line)
    headers, lengths = _fields(rest.split(b"\r\n") if rest else [])
    content_length = None
    if lengths:
        if len(lengths) > 1 or not all(v.isdigit() and len(v) <= 18 for v in lengths):
            raise BadRequest("invalid Content-Length")
        content_length = int(lengths.pop())
    chunked = "transfer-encoding" in headers
    if chunked:
        if content_length is not None:
            raise BadRequest("both Content-Length and Transfer-Encoding")
        if headers["transfer-encoding"].strip().lower() != "chunked" or version == (1, 0):
            raise BadRequest("unsupported Transfer-Encoding", 501)
    path, _, query = target.partition("?")
    if path.startswith(("http://", "https://")):  # absolute form: the path is what follows the authority
        path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
    return Head(
        method=method,
        path=unquote(path, errors="replace"),
        query=query,
        version=version,
        headers=headers,
        content_length=content_length,
        chunked=chunked,
    )


def check_partial_head(buffer: bytes | bytearray) -> None:
    """Refuse a request head that is still arriving but already cannot be one: a request line that has ended and is
    malformed (a bare LF ends it too), or a method with a byte no method has. Random bytes are answered at once,
    not after the request deadline with a silent close."""
    end = buffer.find(b"\n")
    if end < 0:
        space = buffer.find(b" ")
        method = buffer if space < 0 else buffer[:space]
        if method and not _TOKEN.fullmatch(method):
            raise BadRequest("invalid method")
        return
    if end == 0 or buffer[end - 1] != 0x0D:
        raise BadRequest("the request line does not end with CRLF")
    _request_line(bytes(buffer[: end - 1]))


def _request_line(line: bytes) -> tuple[str, str, tuple[int, int]]:
    parts = line.split(b" ")
    if len(parts) != 3:
        raise BadRequest("the request line is not METHOD TARGET VERSION")
    method, target, version = parts
    if not _TOKEN.fullmatch(method):
        raise BadRequest("invalid method")
    if not _TARGET.fullmatch(target):
        raise BadRequest("invalid request target")
    if version not in (b"HTTP/1.1", b"HTTP/1.0"):
        if version.startswith(b"HTTP/") and version[5:6].isdigit():
            raise BadRequest("unsupported HTTP version", 505)
        raise BadRequest("invalid HTTP version")
    return method.decode("ascii"), target.decode("ascii"), (1, int(version[7:8]))


def _fields(lines: list[bytes]) -> tuple[dict[str, str], set[bytes]]:
    """Header fields (lower-case names, repeats joined) and the distinct Content-Length values."""
    if len(lines) > _MAX_HEADERS:
        raise BadRequest("too many header fields", 431)
    headers: dict[str, str] = {}
    lengths: set[bytes] = set()
    for field in lines:
        name, sep, value = field.partition(b":")
        if not sep or not _TOKEN.fullmatch(name):
            raise BadRequest("invalid header field")  # includes obsolete line folding (a leading space)
        value = value.strip(b" \t")
        if _BAD_VALUE.search(value):
            raise BadRequest("invalid character in a header value")
        key = name.decode("ascii").lower()
        text = value.decode("latin-1")
        if key == "content-length":
            lengths.add(value)
        headers[key] = f"{headers[key]}, {text}" if key in headers else text
    return headers, lengths


def take_chunked(buffer: bytearray, limit: int) -> tuple[bytes, int] | None:
    """A chunked body at the start of ``buffer``: (body, bytes it took), or None while incomplete. Trailers are
    read and dropped; a body over ``limit`` is a 413."""
    body = bytearray()
    pos = 0
    while True:
        found = _line(buffer, pos)
        if found is None:
            return None
        size_text = bytes(buffer[pos:found]).split(b";", 1)[0].strip()
        if not _HEX.fullmatch(size_text):
            raise BadRequest("invalid chunk size")
        size = int(size_text, 16)
        if len(body) + size > limit:
            raise BadRequest("request body too large", 413)
        pos = found + 2
        if size == 0:
            break
        if len(buffer) < pos + size + 2:
            return None
        if buffer[pos + size : pos + size + 2] != b"\r\n":
            raise BadRequest("a chunk does not end with CRLF")
        body += buffer[pos : pos + size]
        pos += size + 2
    while (found := _line(buffer, pos)) is not None:  # trailer fields, up to the empty line
        if found == pos:
            return bytes(body), found + 2
        pos = found + 2
    return None


def _line(buffer: bytearray, pos: int) -> int | None:
    """Where the line starting at ``pos`` ends (its CR), None while it has not arrived; a long one is refused."""
    end = buffer.find(b"\r\n", pos, pos + 4096)
    if end >= 0:
        return end
    if len(buffer) - pos > 4096:
        raise BadRequest("invalid chunk line")
    return None
