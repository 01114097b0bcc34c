"""What every answer of the console's server carries, and how its server logs a request it cannot parse.

The page is plain ES modules and uPlot, all from ``/static``, with no inline script or style element (styles are
set through the DOM's ``style`` objects, which a CSP does not govern), so the policy allows this origin only;
``data:`` images are the page's empty favicon. ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` (for
browsers without CSP level 2) stop another site from framing the page and clickjacking its fault buttons;
``nosniff`` stops a browser from reading a JSON or text answer (which may echo what a request carried) as HTML
or script.
"""

from __future__ import annotations

import logging

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


async def add_security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """``on_response_prepare``: every answer, static files and aiohttp's own 404/405 included."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


class MalformedRequests(logging.Filter):
    """aiohttp's server logs a request it cannot parse (a 70 KB request line, a bad header) with a traceback at
    ERROR: it is the client's mistake, already answered 400, so it becomes one WARNING line, bounded."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            reason = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(exc.message)[:160])
            remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg, record.args = "refused a malformed request from %s (%s): %s", (remote, exc.code, reason)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_malformed_requests() -> None:
    """Install the filter on aiohttp's server log once (every aiohttp server of the process shares that log)."""
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, MalformedRequests) for f in server_log.filters):
        server_log.addFilter(MalformedRequests())
