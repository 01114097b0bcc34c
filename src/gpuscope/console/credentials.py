"""Credentials in ``--prometheus``/``--alertmanager`` URLs (``http://user:password@host``): used, never shown.

The user and password become basic auth on the client and the URL loses them before it is stored anywhere an
answer, an error message or the log could carry it (``GET /api/dashboards`` is open to anyone who can reach the
console).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit, urlunsplit


@dataclass(frozen=True, slots=True)
class SplitUrl:
    url: str  # without user information
    user: str | None = None
    password: str | None = None


def split_credentials(url: str) -> SplitUrl:
    """``url`` without its ``user:password@``, and what that held (percent-decoded, as a browser sends it)."""
    parts = urlsplit(url)
    userinfo, at, host = parts.netloc.rpartition("@")
    if not at:
        return SplitUrl(url=url)
    user, colon, password = userinfo.partition(":")
    bare = urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))
    return SplitUrl(url=bare, user=unquote(user), password=unquote(password) if colon else None)


def shown(url: str | None) -> str | None:
    """``url`` as it may be shown: its credentials removed."""
    return None if url is None else split_credentials(url).url
