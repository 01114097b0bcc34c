"""The HTTP servers' log of requests they could not parse: one short, rate-limited line each, never a traceback."""

from __future__ import annotations

import logging
import ssl
import time
from collections.abc import Callable


class BadRequest(Exception):
    """A request that cannot be served; ``status`` is the 4xx (or 505) to answer, ``str()`` the reason."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.status = status


def _parse_errors() -> tuple[type[BaseException], ...]:
    """Our parser's error, TLS and connection errors."""
    return (BadRequest, ssl.SSLError, ConnectionError)


class MalformedRequests(logging.Filter):
    """A server logs every request it cannot parse as an ERROR (aiohttp, which gpuscope once served on, with a
    traceback: ~600 bytes of log for a 20-byte request, before any authentication). This turns each into one
    WARNING line and lets at most ``burst`` through, then one a second, saying how many were left out meanwhile.
    Handler errors (our bugs) keep their traceback.
    """

    def __init__(self, burst: int = 10, per_s: float = 1.0, monotonic: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._burst = float(burst)
        self._per_s = per_s
        self._tokens = float(burst)
        self._monotonic = monotonic
        self._last = monotonic()
        self.suppressed = 0

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, _parse_errors()):
            return True
        if not str(record.msg).startswith("Error handling request"):
            return True
        now = self._monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._per_s)
        self._last = now
        if self._tokens < 1.0:
            self.suppressed += 1
            return False
        self._tokens -= 1.0
        reason = (getattr(exc, "message", "") or str(exc) or type(exc).__name__).strip().splitlines()[0]
        peer = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
        more = f" ({self.suppressed} more since the last such line)" if self.suppressed else ""
        record.msg, record.args = "malformed request from %s: %s%s", (peer, ascii(reason.rstrip(":"))[:120], more)
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        self.suppressed = 0
        return True


REQUEST_LOG = logging.getLogger("gpuscope.exporter.http")
MALFORMED = MalformedRequests()
REQUEST_LOG.addFilter(MALFORMED)
