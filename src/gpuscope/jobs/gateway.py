"""The Pushgateway's HTTP API, as the job reporter, the CLI and the expiry use it.

A group is addressed by its grouping key in the URL path, ``/metrics/job/<job>{/<label>/<value>}``. A value
that is empty, holds ``/`` or anything outside a conservative URL-safe set is sent as ``<label>@base64/<value>``
(URL-safe base64), the Pushgateway's own escape — percent-encoding a ``/`` does not survive its router. ``PUT``
replaces the whole group, ``POST`` only the metric names it carries, ``DELETE`` removes the group. Every call has
a deadline; every failure is one ``GatewayError`` whose message says what happened.
"""

from __future__ import annotations

import base64
import logging
import re
import threading
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from gpuscope.jobs.labels import InvalidJobInput
from gpuscope.jobs.metrics import Labels

if TYPE_CHECKING:
    import httpx

_PLAIN = re.compile(r"^[A-Za-z0-9._~-]+$")
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


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
    if _PLAIN.match(value):
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

    def __init__(self, url: str, timeout_s: float = 5.0) -> None:
        self.url = normalize_url(url)
        self.timeout_s = timeout_s
        self._client: httpx.Client | None = None

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
        except (ValueError, KeyError, TypeError) as exc:
            raise GatewayError(f"unexpected answer from {self.url}/api/v1/metrics: {exc}") from None
        if not isinstance(data, list):
            raise GatewayError(f"unexpected answer from {self.url}/api/v1/metrics: data is not a list")
        return data

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _send(self, method: str, path: str, body: bytes | None, timeout_s: float | None) -> httpx.Response:
        import httpx  # here, not at import: ``import gpuscope.jobs`` stays light

        if self._client is None:
            self._client = httpx.Client(follow_redirects=False)
            logger = logging.getLogger("httpx")
            if _QUIET not in logger.filters:
                logger.addFilter(_QUIET)
        timeout = max(0.01, self.timeout_s if timeout_s is None else timeout_s)
        headers = {"Content-Type": CONTENT_TYPE} if body is not None else {}
        _QUIET.local.active = True
        try:
            response = self._client.request(
                method, self.url + path, content=body, headers=headers, timeout=httpx.Timeout(timeout)
            )
        except httpx.TimeoutException:
            raise GatewayError(f"{method} {self.url}: no answer within {timeout:g}s") from None
        except httpx.HTTPError as exc:
            raise GatewayError(f"{method} {self.url}: {type(exc).__name__}: {exc}") from None
        finally:
            _QUIET.local.active = False
        if response.status_code >= 300:
            detail = response.text.strip().splitlines()[0][:300] if response.text.strip() else response.reason_phrase
            raise GatewayError(f"{method} {self.url}{path}: HTTP {response.status_code}: {detail}")
        return response
