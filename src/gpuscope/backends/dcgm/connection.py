"""Reaching a host engine: embedded in this process, or a standalone ``nv-hostengine`` over TCP or a unix socket.

``-r/--remote-hostengine-info`` (``DCGM_REMOTE_HOSTENGINE_INFO``) is dcgm-exporter's flag: empty means embedded,
``HOST:PORT`` (port 5555 when left out) or a socket path (``/run/...`` or ``unix:///run/...``) a standalone
engine. Every call goes through ``Calls``, which applies the deadline and turns "the host engine is gone" into
``EngineGone`` so the backend reconnects instead of reading further.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from gpuscope.backends.dcgm import structs as S
from gpuscope.backends.dcgm.deadline import Deadline
from gpuscope.backends.dcgm.library import DcgmError, Library
from gpuscope.errors import UsageError

T = TypeVar("T")

# Codes meaning the engine (or our connection to it) is gone, not that one GPU or field failed.
ENGINE_GONE_CODES = frozenset(
    {S.Return.CONNECTION_NOT_VALID, S.Return.UNINITIALIZED, S.Return.INIT_ERROR, S.Return.NVML_NOT_LOADED}
)


class EngineGone(Exception):
    """The host engine cannot be reached (died, restarted, refused us); the session is over."""


@dataclass(frozen=True, slots=True)
class Target:
    """Where the host engine is; ``address`` None means embedded."""

    address: str | None = None
    unix_socket: bool = False

    @property
    def describe(self) -> str:
        if self.address is None:
            return "the embedded host engine"
        return f"the host engine at {'unix://' if self.unix_socket else ''}{self.address}"


def parse_target(text: str, flag: str = "-r/--remote-hostengine-info") -> Target:
    """dcgm-exporter's remote host-engine flag; a bad value is a usage error naming the flag."""
    text = text.strip()
    if not text:
        return Target()
    if text.startswith("unix://"):
        text = text[len("unix://") :]
        if not text.startswith("/"):
            raise UsageError(f"{flag}: unix socket {text!r} must be an absolute path, e.g. unix:///run/dcgm.sock")
    if text.startswith("/"):
        return Target(address=text, unix_socket=True)
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = text, str(S.HE_PORT_NUMBER)
    if not host or not port.isdigit() or not 0 < int(port) < 65536 or any(c.isspace() for c in host):
        raise UsageError(f"{flag}: {text!r} is not HOST:PORT or a unix socket path (e.g. localhost:5555)")
    return Target(address=f"{host}:{port}")


class Calls:
    """The library's calls on one handle, each under the deadline."""

    def __init__(self, lib: Library, deadline: Deadline) -> None:
        self.lib = lib
        self.deadline = deadline
        self.handle = 0

    def run(self, what: str, function: Callable[[], T]) -> T:
        """Run one call; ``EngineGone`` if the engine is gone, ``DcgmError``/``CallTimedOut`` otherwise."""
        try:
            return self.deadline.call(function, what)
        except DcgmError as exc:
            if exc.code in ENGINE_GONE_CODES:
                raise EngineGone(f"{what} failed: {S.return_name(exc.code)}") from exc
            raise

    def connect(self, target: Target) -> None:
        lib = self.lib
        try:
            if target.address is None:
                self.handle = self.deadline.call(lib.start_embedded, "dcgmStartEmbedded")
            else:
                address, unix = target.address, target.unix_socket
                timeout_ms = int(self.deadline.timeout_s * 1000)
                self.handle = self.deadline.call(
                    lambda: lib.connect(address, unix_socket=unix, timeout_ms=timeout_ms), "dcgmConnect_v2"
                )
        except DcgmError as exc:
            if exc.code == S.Return.VER_MISMATCH:
                raise EngineGone(
                    f"{target.describe} refused this libdcgm ({lib.client_version()}): DCGM_ST_VER_MISMATCH; "
                    "run a libdcgm at least as new as the host engine"
                ) from exc
            raise EngineGone(f"cannot reach {target.describe}: {S.return_name(exc.code)}") from exc

    def disconnect(self, target: Target) -> None:
        """Best effort and never blocking past the deadline: the engine may be why we disconnect."""
        handle = self.handle
        self.handle = 0
        if not handle or self.deadline.blocked:
            return
        stop = self.lib.stop_embedded if target.address is None else self.lib.disconnect
        try:
            self.deadline.call(lambda: stop(handle), "disconnect")
        except Exception:  # a failed goodbye changes nothing
            return
