"""What every answer of the console's server carries.

The page is plain ES modules and uPlot, all from ``/static``, with no inline script or style element (styles are
set through the DOM's ``style`` objects, which a CSP does not govern), so the policy allows this origin only;
``data:`` images are the page's empty favicon. ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY`` (for
browsers without CSP level 2) stop another site from framing the page and clickjacking its fault buttons;
``nosniff`` stops a browser from reading a JSON or text answer (which may echo what a request carried) as HTML
or script.
"""

from __future__ import annotations

from gpuscope.httpd.server import Response

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


def add_security_headers(response: Response) -> None:
    """After every route: every answer, static files and the server's own 404/405 included."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
