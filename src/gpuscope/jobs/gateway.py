"""The Pushgateway's HTTP API, as the job reporter, the CLI and the expiry use it.

A group is addressed by its grouping key in the URL path, ``/metrics/job/<job>{/<label>/<value>}``. A value
that is empty, holds ``/`` or anything outside a conservative URL-safe set is sent as ``<label>@base64/<value>``
(URL-safe base64), the Pushgateway's own escape — percent-encoding a ``/`` does not survive its router. So is a
value of dots only: HTTP clients and servers resolve ``.`` and ``..`` segments (RFC 3986), so ``job_id/..`` would
address, and a DELETE remove, another group. ``PUT`` replaces the whole group, ``POST`` only the metric names it
carries, ``DELETE`` removes the group.

Every call has a total deadline, body included (httpx's timeouts are per read, and a gateway dripping its answer
resets them): the exchange runs on a daemon thread the caller stops waiting for. At most one such thread is left
behind per ``Gateway``; while it still reads, further calls fail at once instead of piling up threads. An answer
is read up to ``MAX_ANSWER_BYTES``. Every failure is one ``GatewayError`` whose message says what happened.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from gpuscope.jobs.labels import InvalidJobInput
from gpuscope.jobs.metrics import Labels

if TYPE_CHECKING:
    import httpx

_PLAIN = re.compile(r"^[A-Za-z0-9._~-]+$")
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# The largest answer read: /api/v1/metrics lists every group with its metrics (gc reads it); ~10 kB per job group.
MAX_ANSWER_BYTES = 64 * 1024 * 1024


class GatewayError(Exception):
    """A push, delete or listing that did not succeed; ``str()`` is one line."""


class _OwnRequests(logging.Filter):
    """Drops httpx's INFO line per request for our own requests only: a push every 15 s would otherwise fill a
    training log configured at INFO. The job's other httpx traffic keeps its logging."""

    def __init__(self) -> None:
        super().__init__()
        self.local = threading.local()

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno > logging.INFO or not getattr(self.local, "active", False)


_QUIET = _OwnRequests()


def normalize_url(url: str) -> str:
    """``host:9091`` or ``http://host:9091/prefix/`` -> ``http://host:9091/prefix``."""
    text = url.strip()
    if not text:
        raise InvalidJobInput("Pushgateway URL is empty: pass gateway=... (or set GPUSCOPE_PUSHGATEWAY)")
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidJobInput(f"Pushgateway URL {url!r} is not an http(s) URL like http://pushgateway:9091")
    if parts.query or parts.fragment:
        raise InvalidJobInput(f"Pushgateway URL {url!r} must not have a query or fragment")
    return text.rstrip("/")


def segment(name: str, value: str) -> str:
    if _PLAIN.match(value) and value.strip("."):  # "." and ".." are resolved away by URL normalisation
        return f"{name}/{value}"
    encoded = base64.urlsafe_b64encode(value.encode()).decode() or "="
    return f"{name}@base64/{encoded}"


def group_path(grouping: Labels) -> str:
    """The grouping key as a URL path; the first pair must be ``job``."""
    if not grouping or grouping[0][0] != "job":
        raise ValueError("a grouping key starts with job")
    return "/metrics/" + "/".join(segment(k, v) for k, v in grouping)


class Gateway:
    """One Pushgateway. Not shared between threads: each user (pusher thread, CLI call) has its own."""

    def __init__(self, url: str, timeout_s: float = 5.0, total_s: float | None = None) -> None:
        """``timeout_s`` bounds each call; ``total_s``, when given, every call of this gateway together (a CLI
        command's ``--timeout``), counted from the first call once httpx is loaded."""
        self.url = normalize_url(url)
        self.timeout_s = timeout_s
        self.total_s = total_s
        self._end: float | None = None
        self._client: httpx.Client | None = None
        self._left_behind: threading.Thread | None = None

    def put(self, grouping: Labels, body: bytes, timeout_s: float | None = None) -> None:
        self._send("PUT", group_path(grouping), body, timeout_s)

    def post(self, grouping: Labels, body: bytes, timeout_s: float | None = None) -> None:
        self._send("POST", group_path(grouping), body, timeout_s)

    def delete(self, grouping: Labels, timeout_s: float | None = None) -> None:
        self._send("DELETE", group_path(grouping), None, timeout_s)

    def groups(self, timeout_s: float | None = None) -> list[dict[str, Any]]:
        """Every group with its metrics (``GET /api/v1/metrics``)."""
        response = self._send("GET", "/api/v1/metrics", None, timeout_s)
        try:
            data = response.json()["data"]
        except (ValueError, KeyError, TypeError, RecursionError) as exc:
            raise GatewayError(f"unexpected answer from {self.url}/api/v1/metrics: {exc}") from None
        if not isinstance(data, list):
            raise GatewayError(f"unexpected answer from {self.url}/api/v1/metrics: data is not a list")
        return data

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _http(self) -> httpx.Client:
        """The client, made on this (the caller's) thread: importing httpx takes a while on a loaded machine, and
        must not eat into the deadline of the first request."""
        import httpx  # here, not at import: ``import gpuscope.jobs`` stays light

        if self._client is None:
            self._client = httpx.Client(follow_redirects=False)
            logger = logging.getLogger("httpx")
            if _QUIET not in logger.filters:
                logger.addFilter(_QUIET)
        return self._client

    def _send(self, method: str, path: str, body: bytes | None, timeout_s: float | None) -> Answer:
        client = self._http()
        timeout = max(0.01, self.timeout_s if timeout_s is None else timeout_s)
        if self.total_s is not None and self._end is None:
            self._end = time.monotonic() + self.total_s
        if self._end is not None:
            timeout = min(timeout, self._end - time.monotonic())
            if timeout <= 0:
                raise GatewayError(f"{method} {self.url}: no time left of the {self.total_s:g}s allowed")
        if self._left_behind is not None and self._left_behind.is_alive():
            raise GatewayError(f"{method} {self.url}: an earlier request is still unanswered; not sending another")
        outcome: list[Answer | BaseException] = []
        worker = threading.Thread(
            target=self._exchange_into,
            args=(outcome, client, method, path, body, timeout),
            name="gpuscope-pushgateway",
            daemon=True,
        )
        worker.start()
        worker.join(timeout)
        if not outcome:  # still reading: left behind, it stops at its next chunk (or when the gateway gives up)
            self._left_behind = worker
            raise GatewayError(f"{method} {self.url}: no answer within {timeout:g}s")
        result = outcome.pop()
        if isinstance(result, GatewayError):
            # A new error, raised with no local naming it: re-raising the worker's own would make a reference cycle
            # (error -> traceback -> this frame -> error) per failed push, freed only when the cycle collector runs.
            message = str(result)
            del result
            raise GatewayError(message)
        if isinstance(result, BaseException):
            raise result
        if result.status >= 300:
            text = result.text().strip()
            detail = text.splitlines()[0][:300] if text else result.reason
            raise GatewayError(f"{method} {self.url}{path}: HTTP {result.status}: {detail}")
        return result

    def _exchange_into(
        self,
        outcome: list[Answer | BaseException],
        client: httpx.Client,
        method: str,
        path: str,
        body: bytes | None,
        timeout: float,
    ) -> None:
        try:
            outcome.append(self._exchange(client, method, path, body, timeout))
        except BaseException as exc:  # handed to the waiting caller, which raises it on its own thread
            outcome.append(exc)

    def _exchange(self, client: httpx.Client, method: str, path: str, body: bytes | None, timeout: float) -> Answer:
        import httpx  # loaded already by ``_http``

        headers = {"Content-Type": CONTENT_TYPE} if body is not None else {}
        until = time.monotonic() + timeout
        _QUIET.local.active = True
        try:
            with client.stream(
                method, self.url + path, content=body, headers=headers, timeout=httpx.Timeout(timeout)
            ) as response:
                chunks, size = [], 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > MAX_ANSWER_BYTES:
                        raise GatewayError(
                            f"{method} {self.url}{path}: the answer is larger than {MAX_ANSWER_BYTES >> 20} MiB; "
                            "is this a Pushgateway?"
                        )
                    if time.monotonic() > until:  # the caller has stopped waiting: stop reading too
                        raise GatewayError(f"{method} {self.url}: no answer within {timeout:g}s")
                    chunks.append(chunk)
        except httpx.TimeoutException:
            raise GatewayError(f"{method} {self.url}: no answer within {timeout:g}s") from None
        except httpx.HTTPError as exc:
            raise GatewayError(f"{method} {self.url}: {type(exc).__name__}: {exc}") from None
        finally:
            _QUIET.local.active = False
        return Answer(response.status_code, response.reason_phrase, b"".join(chunks))


@dataclass(frozen=True, slots=True)
class Answer:
    """What the gateway answered: status, reason and the body, read whole."""

    status: int
    reason: str
    content: bytes

    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.content)
