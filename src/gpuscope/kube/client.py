"""The one client of the Kubernetes API server: where it is, who we are to it, and one bounded request.

Every request (the exporter's lists and watches, ``-m``'s ConfigMap, the remediator's reads, patches and Events)
has a total deadline: a watchdog shuts the socket down when it passes, so a server dripping a byte a second cannot
hold a caller (a per-read timeout never fires on it). No redirect is followed (``http.client`` never does: the
bearer token goes to the API server only), and the answer is read under a cap. The service account's token is
re-read for each request (projected tokens rotate), non-blocking and regular-file only, and so is its CA.
A list is read in pages (``limit``/``continue``, ``pages``) so no caller holds a large cluster's list whole.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import ssl
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from gpuscope.inputs.files import read_head

SERVICEACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
ERROR_ANSWER_BYTES = 64 * 1024  # of an error's answer only its message is used

# Reasons a request failed, as the self-metrics label them (a fixed set: bounded cardinality).
REASONS = ("unreachable", "unauthorized", "forbidden", "expired", "timeout", "server_error", "bad_response", "full")


class WatchError(Exception):
    """One failed request to the API server; ``reason`` is one of ``REASONS``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ApiServer:
    """Where the API server is and how to authenticate to it (in-cluster: the pod's service account)."""

    host: str
    port: int
    sa_dir: str = SERVICEACCOUNT_DIR

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ApiServer | None:
        """``KUBERNETES_SERVICE_HOST``/``_PORT``; ``GPUSCOPE_SERVICEACCOUNT_DIR`` overrides the token directory."""
        env = os.environ if env is None else env
        host, port = env.get("KUBERNETES_SERVICE_HOST", ""), env.get("KUBERNETES_SERVICE_PORT", "")
        if not host or not port.isdigit():
            return None
        return cls(host, int(port), env.get("GPUSCOPE_SERVICEACCOUNT_DIR") or SERVICEACCOUNT_DIR)

    @property
    def where(self) -> str:
        """``host:port`` as a log line names it."""
        return f"{self.host}:{self.port}"

    def connect(self, timeout_s: float) -> tuple[http.client.HTTPSConnection, str]:
        """A connection and the bearer token; raises ``WatchError`` when the service account cannot be read."""
        try:
            # Both read non-blocking, regular files only: a FIFO in the mounted directory never holds a request.
            token = read_head(os.path.join(self.sa_dir, "token"), 64 * 1024).decode("utf-8", "replace").strip()
            ca = read_head(os.path.join(self.sa_dir, "ca.crt"), 1024 * 1024).decode("ascii", "replace")
            if "-----BEGIN CERTIFICATE-----" not in ca:
                raise ssl.SSLError(f"{os.path.join(self.sa_dir, 'ca.crt')} holds no PEM certificate")
            context = ssl.create_default_context(cadata=ca)
        except (OSError, ssl.SSLError) as exc:
            raise WatchError("unauthorized", f"cannot read the service account in {self.sa_dir}: {exc}") from None
        return http.client.HTTPSConnection(self.host, self.port, timeout=timeout_s, context=context), token


class Watchdog:
    """Ends a request at its deadline whatever the server does: shuts the connection's socket down, so a blocked
    read returns at once (a per-read timeout never fires on a server that sends a byte a second)."""

    def __init__(self, conn: http.client.HTTPConnection, seconds: float) -> None:
        self.conn = conn
        self.fired = False
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        self.fired = True
        sock = self.conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> Watchdog:
        self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._timer.cancel()


def fetch(
    server: ApiServer,
    url: str,
    *,
    deadline_s: float,
    max_bytes: int,
    on_connect: Callable[[http.client.HTTPSConnection], None] | None = None,
    method: str = "GET",
    body: bytes | None = None,
    content_type: str = "application/json",
) -> tuple[int, bytes]:
    """One request to the API server (a GET, or ``method`` with ``body``): (HTTP status, answer), the whole of it
    within ``deadline_s``. Every client of the API server goes through here (the reflectors' lists, ``-m``, the
    remediator's patches and Events).

    No redirect is followed (a 3xx is returned as it is: the token never goes to another host). ``WatchError``:
    ``timeout`` past the deadline, ``unreachable``, ``bad_response`` for an answer over ``max_bytes`` (an error's
    answer is read up to 64 KiB: its message is all a caller uses)."""
    conn, token = server.connect(deadline_s)
    if on_connect is not None:
        on_connect(conn)
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = content_type
    try:
        with Watchdog(conn, deadline_s) as watchdog:
            try:
                conn.request(method, url, body=body, headers=headers)
                response = conn.getresponse()
                answer = response.read((max_bytes if 200 <= response.status < 300 else ERROR_ANSWER_BYTES) + 1)
            except (OSError, http.client.HTTPException) as exc:
                if watchdog.fired or isinstance(exc, TimeoutError):
                    raise WatchError("timeout", f"no whole answer from {server.where} within {deadline_s:g}s") from None
                raise WatchError("unreachable", f"{server.where}: {exc}") from None
            if watchdog.fired:  # the shutdown may end a body early without an error: never use a cut answer
                raise WatchError("timeout", f"no whole answer from {server.where} within {deadline_s:g}s")
    finally:
        conn.close()
    if len(answer) > max_bytes:
        raise WatchError("bad_response", f"an answer over {max_bytes} bytes from {server.where}; not read")
    return response.status, answer


def pages(
    read: Callable[[Mapping[str, str]], Mapping[str, Any]], *, limit: int, max_pages: int, what: str
) -> Iterator[Mapping[str, Any]]:
    """Every page of a list, in order: ``read`` gets one page's query parameters (``limit``, and ``continue``
    after the first) and returns its answer. A server that never ends the list is refused after ``max_pages``
    (``WatchError`` ``bad_response``), so paging is bounded however the server answers."""
    token = ""
    for _ in range(max_pages):
        page = read({"limit": str(limit), **({"continue": token} if token else {})})
        yield page
        metadata = page.get("metadata")
        more = metadata.get("continue") if isinstance(metadata, dict) else None
        token = more if isinstance(more, str) else ""
        if not token:
            return
    raise WatchError("bad_response", f"a list of more than {max_pages} pages of {limit} {what}")


def json_object(raw: bytes) -> dict[str, Any]:
    """An API server's answer as a JSON object; anything else (not JSON, nested past the parser's depth, not an
    object) is one ``bad_response`` line."""
    try:
        value = json.loads(raw)
    except RecursionError:  # a nesting bomb: one line, no traceback, on every retry
        raise WatchError("bad_response", "the API server's answer nests deeper than any Kubernetes object") from None
    except ValueError:
        raise WatchError("bad_response", "the API server's answer is not JSON") from None
    if not isinstance(value, dict):
        raise WatchError("bad_response", "the API server's answer is not a JSON object")
    return value
