"""Request checks from the web config: basic auth (bcrypt), client-certificate SANs, rate limit, response headers.

bcrypt is slow on purpose (~70 ms at cost 10), and Prometheus sends the same credentials every scrape. So, as
exporter-toolkit does, a check's result is remembered under a SHA-256 of (user, hash, password): successes in one
cache, failures in another, so that a flood of distinct wrong passwords cannot push a valid credential out and
a client repeating one wrong password costs a lookup. A valid credential seen before is answered from its cache
before anything else, so a flood of wrong passwords never delays a scraper that has logged in once.

The checks that do need bcrypt run one at a time on one worker thread (a flood takes one core, never the event
loop), from a bounded queue: at most ``MAX_PENDING`` checks wait, at most ``PER_CLIENT`` from one client address,
and concurrent checks of the same credential share one run. A client over those bounds is answered 429 at once,
and a queued check whose client has hung up is dropped unrun. Unknown users are checked against a dummy hash of
the configured hashes' cost, so response times do not reveal which user names exist.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import functools
import hashlib
import re
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

import bcrypt

from gpuscope.exporter.httpserver import App, Response
from gpuscope.exporter.webconfig import RateLimit, WebConfig, normal_san

if TYPE_CHECKING:  # aiohttp only for the servers on it (remediation's API): ``install``
    from aiohttp import web

    Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_CACHE_SIZE = 1024
_SAN_KINDS = ("DNS", "IP Address", "email", "URI")
MAX_PENDING = 64
PER_CLIENT = 2
_COST = re.compile(rb"\$2[aby]\$(\d\d)\$")


class Verdict(Enum):
    OK = "ok"
    DENIED = "denied"
    BUSY = "busy"  # too many checks waiting (overall or from this client): try again later


@dataclass(slots=True)
class _Pending:
    key: bytes
    hashed: bytes | None
    password: bytes
    clients: dict[str, Callable[[], bool]]  # client -> still connected?
    done: asyncio.Future[bool] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


def _cost(hashes: list[bytes]) -> int:
    costs = [int(m[1]) for h in hashes if (m := _COST.match(h))]
    return max(costs, default=10)


class _Lru:
    def __init__(self, size: int) -> None:
        self._size = size
        self._keys: OrderedDict[bytes, None] = OrderedDict()

    def __contains__(self, key: bytes) -> bool:
        if key in self._keys:
            self._keys.move_to_end(key)
            return True
        return False

    def add(self, key: bytes) -> None:
        self._keys[key] = None
        if len(self._keys) > self._size:
            self._keys.popitem(last=False)


class BasicAuth:
    """Checks ``Authorization: Basic`` headers against bcrypt hashes; ``check`` runs on the event loop."""

    def __init__(self, users: Mapping[str, bytes]) -> None:
        self._users = dict(users)
        self._verified = _Lru(_CACHE_SIZE)
        self._refused = _Lru(_CACHE_SIZE)
        # Made at start-up, at the configured hashes' cost: an unknown user's check costs what a known one's does.
        self.dummy_cost = _cost(list(self._users.values()))
        self._dummy = bcrypt.hashpw(b"not a password", bcrypt.gensalt(self.dummy_cost))
        self._queue: deque[_Pending] = deque()
        self._by_key: dict[bytes, _Pending] = {}
        self._per_client: dict[str, int] = {}
        self._worker: asyncio.Task[None] | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bcrypt")
        self.bcrypt_checks = 0  # how many times bcrypt actually ran (the caches' effect, for tests)
        self.dropped = 0  # queued checks not run because their client had gone
        self.busy = 0  # checks refused because the queue or the client's share of it was full

    @property
    def pending(self) -> int:
        """Checks waiting for bcrypt (the one running included)."""
        return len(self._by_key)

    async def check(self, header: str | None, client: str = "", alive: Callable[[], bool] | None = None) -> Verdict:
        credentials = parse_basic(header)
        if credentials is None:
            return Verdict.DENIED
        user, password = credentials
        hashed = self._users.get(user)
        key = hashlib.sha256(b"\0".join((user.encode(), hashed or b"", password))).digest()
        if key in self._verified:
            return Verdict.OK
        if key in self._refused:
            return Verdict.DENIED
        pending = self._by_key.get(key)
        if pending is None:
            if len(self._queue) >= MAX_PENDING or self._per_client.get(client, 0) >= PER_CLIENT:
                self.busy += 1
                return Verdict.BUSY
            pending = _Pending(key=key, hashed=hashed, password=password, clients={})
            self._queue.append(pending)
            self._by_key[key] = pending
            self._start_worker()
        elif client not in pending.clients and self._per_client.get(client, 0) >= PER_CLIENT:
            self.busy += 1
            return Verdict.BUSY
        if client not in pending.clients:
            self._per_client[client] = self._per_client.get(client, 0) + 1
        pending.clients[client] = alive or (lambda: True)
        return Verdict.OK if await asyncio.shield(pending.done) else Verdict.DENIED

    def _start_worker(self) -> None:
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work())

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            pending = self._queue.popleft()
            ok = False
            try:
                if any(alive() for alive in pending.clients.values()):
                    ok = await loop.run_in_executor(self._executor, self._compare, pending.hashed, pending.password)
                    (self._verified if ok else self._refused).add(pending.key)
                else:
                    self.dropped += 1
            finally:
                del self._by_key[pending.key]
                for client in pending.clients:
                    self._per_client[client] -= 1
                    if not self._per_client[client]:
                        del self._per_client[client]
                if not pending.done.done():
                    pending.done.set_result(ok)

    def _compare(self, hashed: bytes | None, password: bytes) -> bool:
        self.bcrypt_checks += 1
        if hashed is None:
            bcrypt.checkpw(password, self._dummy)  # the same work as a known user: no user-name oracle
            return False
        try:
            return bcrypt.checkpw(password, hashed)
        except ValueError:
            return False

    def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        for pending in self._queue:  # nothing waits for ever on a check that will not run
            if not pending.done.done():
                pending.done.set_result(False)
        self._executor.shutdown(wait=False, cancel_futures=True)


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


def _peer_sans(request: Any) -> set[str]:
    cert: Any = request.transport.get_extra_info("peercert") if request.transport else None
    sans = set()
    for kind, value in (cert or {}).get("subjectAltName", ()):
        if kind in _SAN_KINDS:
            sans.add(normal_san(str(value).strip()))
    return sans


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

    async def refusal(self, request: Any) -> Response | None:
        """The answer to a request the checks refuse, else None. ``request``: ours or aiohttp's (the attributes
        read here have the same names on both)."""
        config, auth, bucket = self.current
        if bucket is not None and not bucket.allow():
            return Response.text("too many requests\n", status=429)
        if config.allowed_sans and not (_peer_sans(request) & config.allowed_sans):
            return Response.text("client certificate has none of the allowed SANs\n", status=403)
        if auth is not None and request.path not in config.auth_excluded_paths:
            transport = request.transport
            verdict = await auth.check(
                request.headers.get("Authorization"),
                client=request.remote or "",
                alive=lambda: transport is not None and not transport.is_closing(),
            )
            if verdict is Verdict.BUSY:
                return Response.text("too many authentication checks waiting; try again\n", status=429)
            if verdict is Verdict.DENIED:
                # dcgm-exporter (exporter-toolkit) answers with this body.
                return Response.text("Unauthorized\n", status=401, **{"WWW-Authenticate": "Basic"})
        return None

    def close(self) -> None:
        auth = self.current[1]  # a replaced one is left to finish its checks and be collected
        if auth is not None:
            auth.close()


_CHECKS = "web_checks"


def install_checks(app: App, config: WebConfig) -> BasicAuth | None:
    """Add the web config's checks to ``app``: before every route, the configured headers on every response."""
    checks = _Checks(config)
    app.state[_CHECKS] = checks

    def set_headers(response: Response) -> None:
        response.headers.update(checks.current[0].headers)

    app.before.append(checks.refusal)
    app.after.append(set_headers)
    app.on_cleanup.append(checks.close)
    return checks.current[1]


def install(app: web.Application, config: WebConfig) -> BasicAuth | None:
    """The same checks on an aiohttp application (a middleware, and a hook that sets headers on every response)."""
    from aiohttp import web

    checks_state = _Checks(config)
    app[_aiohttp_key()] = checks_state

    @web.middleware
    async def checks(request: web.Request, handler: Handler) -> web.StreamResponse:
        refused = await checks_state.refusal(request)
        if refused is not None:
            return web.Response(status=refused.status, body=refused.body, headers=refused.headers)
        return await handler(request)

    async def set_headers(_request: web.Request, response: web.StreamResponse) -> None:
        for name, value in checks_state.current[0].headers.items():
            response.headers[name] = value

    async def close_auth(_app: web.Application) -> None:
        checks_state.close()

    app.middlewares.append(checks)
    app.on_response_prepare.append(set_headers)
    app.on_cleanup.append(close_auth)
    return checks_state.current[1]


@functools.cache
def _aiohttp_key() -> web.AppKey[_Checks]:
    from aiohttp import web

    return web.AppKey("web_checks", _Checks)


def reconfigure(app: App | web.Application, config: WebConfig) -> None:
    """Put a reloaded web config's checks in force (the app was built with ``install_checks`` or ``install``)."""
    checks: _Checks = app.state[_CHECKS] if isinstance(app, App) else app[_aiohttp_key()]
    checks.replace(config)
