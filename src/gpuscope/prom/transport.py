"""What both transports share: how a ``Call`` becomes an httpx request, how an answer's head is checked (no
redirect is followed) and its body read under the cap, and what each httpx failure means for the user."""

from __future__ import annotations

from typing import Any

import httpx

from gpuscope.errors import ApiError, ApiUnusable, EndpointDown
from gpuscope.prom.access import ssl_error, tls_reason
from gpuscope.prom.api import Call, Endpoint, Limits, late, too_big


def request(endpoint: Endpoint, call: Call[Any], left: float) -> dict[str, Any]:
    """Keyword arguments of ``client.stream`` for ``call`` with ``left`` seconds to go."""
    params = list(call.params)
    if call.query:  # the server gives up when we do, instead of computing an answer nobody reads
        params.append(("timeout", f"{max(left, 0.001):g}"))
    url = f"{endpoint.url}{call.path}"
    if call.json_body is not None:
        headers = {"Content-Type": "application/json"}
        return {
            "method": "POST",
            "url": url,
            "params": params,
            "content": call.json_body,
            "headers": headers,
            "timeout": left,
        }
    if call.form:
        return {"method": "POST", "url": url, "data": dict(_grouped(params)), "timeout": left}
    return {"method": "GET", "url": url, "params": params, "timeout": left}


def _grouped(params: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, value in params:
        out.setdefault(key, []).append(value)
    return out


class Body:
    """A body being read: chunks (decompressed, so a gzip bomb meets the same cap) up to ``max_body_bytes``, once
    the head says it is an answer at all (not a redirect, not declared over the cap)."""

    def __init__(self, endpoint: Endpoint, call: Call[Any], limits: Limits, response: httpx.Response) -> None:
        self.endpoint, self.call, self.limits = endpoint, call, limits
        if response.is_redirect:
            raise redirected(endpoint, call, response.headers.get("location", ""))
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limits.max_body_bytes:
            raise too_big(endpoint, call, limits)
        self.buffer = bytearray()  # one growing buffer: thousands of small chunk objects fragment the heap
        self.size = 0

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size > self.limits.max_body_bytes:
            raise too_big(self.endpoint, self.call, self.limits)
        self.buffer += chunk

    def content(self) -> bytes:
        return bytes(self.buffer)


def redirected(endpoint: Endpoint, call: Call[Any], location: str) -> ApiUnusable:
    """A 3xx: never followed, since the request's headers (``--header``, credentials) would go wherever it points."""
    shown = repr(location[:200])  # a server's text in one line: quoted, control characters escaped
    return ApiUnusable(
        endpoint.where(),
        f"{call.method} {call.path} redirects to {shown}, which gpuscope does not follow (its headers and credentials "
        f"would go there too); pass the URL the {endpoint.kind} API answers on",
    )


def failure(endpoint: Endpoint, call: Call[Any], limits: Limits, exc: httpx.HTTPError) -> ApiError:
    """The error tree's word for an httpx failure."""
    where = endpoint.where()
    if isinstance(exc, httpx.TimeoutException):
        return late(endpoint, limits)
    if isinstance(exc, httpx.InvalidURL | httpx.UnsupportedProtocol):
        return ApiUnusable(where, f"not a valid URL ({exc}); pass e.g. http://prometheus:9090")
    if isinstance(exc, httpx.DecodingError):
        return ApiUnusable(where, f"GET {call.path} sent a body that cannot be decoded ({exc})")
    if isinstance(exc, httpx.TransportError):
        tls = ssl_error(exc)
        if tls is not None:
            return ApiUnusable(where, tls_reason(tls))
        return EndpointDown(where, f"cannot connect ({exc or type(exc).__name__})")
    return EndpointDown(where, f"request failed ({exc})")
