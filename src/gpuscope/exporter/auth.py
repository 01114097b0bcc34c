"""Request checks from the web config: basic auth (bcrypt), client-certificate SANs, rate limit, response headers.

bcrypt is slow on purpose (~70 ms at cost 10), and Prometheus sends the same credentials every scrape. So, as
exporter-toolkit does, a successful check is remembered under a SHA-256 of (user, hash, password) and the next
scrape costs a dictionary lookup; only successes are kept, so wrong guesses cannot fill the cache. Checks run on a
worker thread, one at a time, so a burst of bad passwords neither blocks the event loop nor takes every core.
Unknown users are checked against a dummy hash, so response times do not reveal which user names exist.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import bcrypt
from aiohttp import web

from gpuscope.exporter.webconfig import RateLimit, WebConfig, normal_san

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_CACHE_SIZE = 1024
_SAN_KINDS = ("DNS", "IP Address", "email", "URI")


class BasicAuth:
    """Checks ``Authorization: Basic`` headers against bcrypt hashes."""

    def __init__(self, users: Mapping[str, bytes]) -> None:
        self._users = dict(users)
        self._verified: OrderedDict[bytes, None] = OrderedDict()
        self._bcrypt_lock = threading.Lock()
        self._dummy: bytes | None = None
        self.bcrypt_checks = 0  # how many times bcrypt actually ran (the cache's effect, for tests)

    async def check(self, header: str | None) -> bool:
        credentials = parse_basic(header)
        if credentials is None:
            return False
        user, password = credentials
        hashed = self._users.get(user)
        key = hashlib.sha256(b"\0".join((user.encode(), hashed or b"", password))).digest()
        if hashed is not None and key in self._verified:
            self._verified.move_to_end(key)
            return True
        ok = await asyncio.get_running_loop().run_in_executor(None, self._compare, hashed, password)
        if ok and hashed is not None:
            self._verified[key] = None
            if len(self._verified) > _CACHE_SIZE:
                self._verified.popitem(last=False)
        return ok and hashed is not None

    def _compare(self, hashed: bytes | None, password: bytes) -> bool:
        with self._bcrypt_lock:
            self.bcrypt_checks += 1
            if hashed is None:
                if self._dummy is None:
                    self._dummy = bcrypt.hashpw(b"not a password", bcrypt.gensalt(10))
                bcrypt.checkpw(password, self._dummy)  # same work as a real user: no user-name oracle
                return False
            try:
                return bcrypt.checkpw(password, hashed)
            except ValueError:
                return False


def parse_basic(header: str | None) -> tuple[str, bytes] | None:
    """(user, password) from an ``Authorization`` header, or None if it is not well-formed basic auth."""
    if not header:
        return None
    scheme, _, encoded = header.strip().partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        raw = base64.b64decode(encoded.strip(), validate=True)
    except (binascii.Error, ValueError):
        return None
    user, sep, password = raw.partition(b":")
    if not sep:
        return None
    try:
        return user.decode("utf-8"), password
    except UnicodeDecodeError:
        return None


class _TokenBucket:
    """exporter-toolkit's ``rate_limit``: one request per ``interval`` with bursts of ``burst``."""

    def __init__(self, limit: RateLimit, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._rate = 1.0 / limit.interval_s
        self._burst = float(max(1, limit.burst))
        self._tokens = self._burst
        self._monotonic = monotonic
        self._last = monotonic()

    def allow(self) -> bool:
        now = self._monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


def _peer_sans(request: web.Request) -> set[str]:
    cert: Any = request.transport.get_extra_info("peercert") if request.transport else None
    sans = set()
    for kind, value in (cert or {}).get("subjectAltName", ()):
        if kind in _SAN_KINDS:
            sans.add(normal_san(str(value).strip()))
    return sans


CHECKS_KEY: web.AppKey[_Checks] = web.AppKey("web_checks")


class _Checks:
    """The checks in force; a reload swaps them whole (one attribute assignment, so a request sees old or new)."""

    def __init__(self, config: WebConfig) -> None:
        self.current = self._build(config)

    @staticmethod
    def _build(config: WebConfig) -> tuple[WebConfig, BasicAuth | None, _TokenBucket | None]:
        auth = BasicAuth(config.users) if config.users else None
        bucket = _TokenBucket(config.rate_limit) if config.rate_limit else None
        return config, auth, bucket

    def replace(self, config: WebConfig) -> None:
        self.current = self._build(config)


def install(app: web.Application, config: WebConfig) -> BasicAuth | None:
    """Add the web config's checks to ``app`` (a middleware, and a hook that sets headers on every response)."""
    checks_state = _Checks(config)
    app[CHECKS_KEY] = checks_state

    @web.middleware
    async def checks(request: web.Request, handler: Handler) -> web.StreamResponse:
        config, auth, bucket = checks_state.current
        if bucket is not None and not bucket.allow():
            raise web.HTTPTooManyRequests(text="too many requests\n")
        if config.allowed_sans and not (_peer_sans(request) & config.allowed_sans):
            raise web.HTTPForbidden(text="client certificate has none of the allowed SANs\n")
        if (
            auth is not None
            and request.path not in config.auth_excluded_paths
            and not await auth.check(request.headers.get("Authorization"))
        ):
            # dcgm-exporter (exporter-toolkit) answers with this body.
            raise web.HTTPUnauthorized(headers={"WWW-Authenticate": "Basic"}, text="Unauthorized\n")
        return await handler(request)

    async def set_headers(_request: web.Request, response: web.StreamResponse) -> None:
        for name, value in checks_state.current[0].headers.items():
            response.headers[name] = value

    app.middlewares.append(checks)
    app.on_response_prepare.append(set_headers)
    return checks_state.current[1]


def reconfigure(app: web.Application, config: WebConfig) -> None:
    """Put a reloaded web config's checks in force (the app was built with ``install``)."""
    app[CHECKS_KEY].replace(config)
