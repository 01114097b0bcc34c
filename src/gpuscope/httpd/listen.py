"""Listening addresses: one meaning of ``-a``/``--listen`` for every command that listens, and binding one.

``:PORT`` is every interface (as Go's ``net.Listen``: IPv4 and IPv6 where the system has both), ``HOST:PORT`` one
address or host name, ``[IPv6]:PORT`` an IPv6 address. A command whose default is loopback only writes it out
(``127.0.0.1:3300``); ``:PORT`` is never read as loopback by one command and as every interface by another.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar

from gpuscope.errors import EnvironmentProblem, InvalidValue

T = TypeVar("T")

_FORMS = "expected host:port, :port (every interface) or [IPv6]:port"


class ListenAddressError(InvalidValue):
    """A listen address that is not one: ``listen 'x': what is wrong``; the CLI words ``listen`` as its flag
    (``-a/--address``, ``--listen``)."""

    def __init__(self, text: str, problem: str) -> None:
        super().__init__("listen", f"{text!r:.80}", problem)


@dataclass(frozen=True, slots=True)
class ListenAddress:
    host: str  # "" is every interface: asyncio's (and aiohttp's) spelling of it
    port: int

    def __str__(self) -> str:
        return f"{'[' + self.host + ']' if ':' in self.host else self.host}:{self.port}"

    @property
    def url(self) -> str:
        """``http://`` and where a client on this machine reaches it (loopback for every interface)."""
        host = self.host or "127.0.0.1"
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"


def parse_listen(text: str) -> ListenAddress:
    """``:9400``, ``0.0.0.0:9400``, ``node-1:9400`` or ``[::1]:9400`` as a ``ListenAddress``."""
    raw = text.strip()
    if raw.startswith("["):
        host, sep, port_text = raw[1:].partition("]:")
        if not sep:
            raise ListenAddressError(text, f"{_FORMS}, with a port from 1 to 65535")
        try:
            socket.inet_pton(socket.AF_INET6, host.partition("%")[0])  # not ipaddress: 0.1 MiB on the exporter
        except OSError:
            raise ListenAddressError(text, f"{_FORMS}; {host!r:.60} is not an IPv6 address") from None
    else:
        host, sep, port_text = raw.rpartition(":")
        if ":" in host:
            raise ListenAddressError(text, f"{_FORMS}; an IPv6 address goes in brackets, e.g. [::1]:9400")
    if not sep or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ListenAddressError(text, f"{_FORMS}, with a port from 1 to 65535")
    if any(c.isspace() or c in "/[]@" for c in host):
        raise ListenAddressError(text, f"{_FORMS}; {host!r:.60} is not a host name or address")
    return ListenAddress(host=host, port=int(port_text))


async def bind(starting: Awaitable[T], host: str | None, port: int, flag: str) -> T:
    """Await a listener's start on ``host:port`` (None or "": every interface); a taken or missing address is one
    clear error naming ``flag``."""
    try:
        return await starting
    except OSError as exc:
        where = f"{host or '*'}:{port}"
        if exc.errno == errno.EADDRINUSE:
            raise EnvironmentProblem(
                f"address {where} is already in use ({flag}): stop the other process or pick another port"
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise EnvironmentProblem(f"cannot listen on {where} ({flag}): no such local address") from None
        raise EnvironmentProblem(f"cannot listen on {where} ({flag}): {exc.strerror or exc}") from None
