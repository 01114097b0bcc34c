"""Request checks from the web config: basic auth (bcrypt), client-certificate SANs, rate limit, response headers.

bcrypt is slow on purpose (~70 ms at cost 10), and Prometheus sends the same credentials every scrape. So, as
exporter-toolkit does, a check's result is remembered under a SHA-256 of (user, hash, password): successes in one
cache, failures in another, so that a flood of distinct wrong passwords cannot push a valid credential out and
a client repeating one wrong password costs a lookup. A valid credential seen before is answered from its cache
before anything else, so a flood of wrong passwords never delays a scraper that has logged in once.

The checks that do need bcrypt run one at a time on one worker thread (a flood takes one core, never the event
loop), from a bounded queue: at most ``MAX_PENDING`` checks wait, at most ``PER_CLIENT`` from one client address,
and concurrent checks of the same credential share one run. A client over those bounds is answered 429 at once,
and a queued check whose client has hung up is dropped unrun.

An unknown user takes the known users' path, step for step, so that response times do not reveal which user names
exist, on a quiet machine or a busy one: the same cache lookups and the same negative cache (a repeated wrong guess
is answered from it, whoever the user), the same queue, bounds and worker, and the same bcrypt verification, against
a dummy hash of the configured hashes' highest cost; only the verdict differs (never OK). Passwords are compared on
their first 72 bytes, as Go's bcrypt compares them (python-bcrypt 5 refuses longer ones, which would otherwise be a
fast refusal). ``AuthStats`` counts every check's outcome and every bcrypt run by its cost (self-metrics).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import re
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import bcrypt

from gpuscope.httpd.server import App, Response
from gpuscope.httpd.stats import AuthStats
from gpuscope.httpd.webconfig import RateLimit, WebConfig, normal_san

_CACHE_SIZE = 1024
_SAN_KINDS = ("DNS", "IP Address", "email", "URI")
MAX_PENDING = 64
PER_CLIENT = 2
_COST = re.compile(rb"\$2[aby]\$(\d\d)\$")
_MAX_PASSWORD = 72  # bytes bcrypt's key schedule takes; Go's bcrypt compares longer passwords on these


class Verdict(Enum):
    OK = "ok"
    DENIED = "denied"
    BUSY = "busy"  # too many checks waiting (overall or from this client): try again later


@dataclass(slots=True)
class _Pending:
    key: bytes
    hashed: bytes  # the user's hash, or the dummy for an unknown user
    known: bool
    password: bytes
    clients: dict[str, Callable[[], bool]]  # client -> still connected?
    done: asyncio.Future[str] = field(default_factory=lambda: asyncio.get_running_loop().create_future())  # outcome


def _cost(hashed: bytes) -> int | None:
    match = _COST.match(hashed)
    return int(match[1]) if match else None


def dummy_hash(cost: int) -> bytes:
    """A bcrypt hash of ``cost`` that no password matches: a fresh salt and a digest of 31 dots. ``checkpw``
    against it runs the full key schedule of ``cost`` and then compares, as against a real hash; making it costs
    nothing (``hashpw`` at a configured cost of 31 would take days at start-up)."""
    return bcrypt.gensalt(cost) + b"." * 31


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

    def __init__(self, users: Mapping[str, bytes], stats: AuthStats | None = None) -> None:
        self._users = dict(users)
        self._verified = _Lru(_CACHE_SIZE)
        self._refused = _Lru(_CACHE_SIZE)
        # Unknown users are verified against this, at the highest configured cost: never cheaper than a known one.
        self.dummy_cost = max((c for h in self._users.values() if (c := _cost(h)) is not None), default=10)
        self._dummy = dummy_hash(self.dummy_cost)
        self._queue: deque[_Pending] = deque()
        self._by_key: dict[bytes, _Pending] = {}
        self._per_client: dict[str, int] = {}
        self._worker: asyncio.Task[None] | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bcrypt")
        self.stats = stats if stats is not None else AuthStats()

    @property
    def bcrypt_checks(self) -> int:
        """How many times bcrypt actually ran (the caches' effect)."""
        return sum(self.stats.verifications.values())

    @property
    def dropped(self) -> int:
        """Queued checks not run because their client had gone."""
        return self.stats.outcomes.get("dropped", 0)

    @property
    def busy(self) -> int:
        """Checks refused because the queue or the client's share of it was full."""
        return self.stats.outcomes.get("busy", 0)

    @property
    def pending(self) -> int:
        """Checks waiting for bcrypt (the one running included)."""
        return len(self._by_key)

    async def check(self, header: str | None, client: str = "", alive: Callable[[], bool] | None = None) -> Verdict:
        credentials = parse_basic(header)
        if credentials is None:
            self.stats.count("malformed")
            return Verdict.DENIED
        user, password = credentials
        # From here on, a known and an unknown user take the same steps; only ``known`` differs.
        hashed = self._users.get(user)
        known = hashed is not None
        hashed = hashed if hashed is not None else self._dummy
        key = hashlib.sha256(b"\0".join((user.encode(), hashed, password))).digest()
        if key in self._verified:
            self.stats.count("cached_ok")
            return Verdict.OK
        if key in self._refused:
            self.stats.count("cached_denied")
            return Verdict.DENIED
        pending = self._by_key.get(key)
        if pending is None:
            if len(self._queue) >= MAX_PENDING or self._per_client.get(client, 0) >= PER_CLIENT:
                self.stats.count("busy")
                return Verdict.BUSY
            pending = _Pending(key=key, hashed=hashed, known=known, password=password, clients={})
            self._queue.append(pending)
            self._by_key[key] = pending
            self._start_worker()
        elif client not in pending.clients and self._per_client.get(client, 0) >= PER_CLIENT:
            self.stats.count("busy")
            return Verdict.BUSY
        if client not in pending.clients:
            self._per_client[client] = self._per_client.get(client, 0) + 1
        pending.clients[client] = alive or (lambda: True)
        outcome = await asyncio.shield(pending.done)
        self.stats.count(outcome)
        return Verdict.OK if outcome == "bcrypt_ok" else Verdict.DENIED

    def _start_worker(self) -> None:
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._work())

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()
        while self._queue:
            pending = self._queue.popleft()
            outcome = "dropped"
            try:
                if any(alive() for alive in pending.clients.values()):
                    matched, cost = await loop.run_in_executor(
                        self._executor, _verify, pending.hashed, pending.password, self._dummy
                    )
                    if cost is not None:  # counted here, on the event loop: a reload's two workers never race
                        self.stats.verifications[cost] = self.stats.verifications.get(cost, 0) + 1
                    ok = matched and pending.known
                    (self._verified if ok else self._refused).add(pending.key)
                    outcome = "bcrypt_ok" if ok else "bcrypt_denied"
            finally:
                del self._by_key[pending.key]
                for client in pending.clients:
                    self._per_client[client] -= 1
                    if not self._per_client[client]:
                        del self._per_client[client]
                if not pending.done.done():
                    pending.done.set_result(outcome)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        for pending in self._queue:  # nothing waits for ever on a check that will not run
            if not pending.done.done():
                pending.done.set_result("dropped")
        self._executor.shutdown(wait=False, cancel_futures=True)


def _verify(hashed: bytes, password: bytes, dummy: bytes) -> tuple[bool, int | None]:
    """(whether ``password`` matches ``hashed``, the cost bcrypt ran at). The bcrypt thread's one job, the same for
    a known user's hash and the dummy."""
    password = password[:_MAX_PASSWORD]
    try:
        return bcrypt.checkpw(password, hashed), _cost(hashed)
    except ValueError:  # a hash this bcrypt cannot read (the web config's check admits it): no faster refusal
        bcrypt.checkpw(password, dummy)
        return False, _cost(dummy)


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
        self.stats = AuthStats()  # one for the process's life: the counters go on across reloads
        self.current = self._build(config)

    def _build(self, config: WebConfig) -> tuple[WebConfig, BasicAuth | None, _TokenBucket | None]:
        auth = BasicAuth(config.users, self.stats) if config.users else None
        bucket = _TokenBucket(config.rate_limit) if config.rate_limit else None
        self.stats.configured = auth is not None
        return config, auth, bucket

    def replace(self, config: WebConfig) -> None:
        self.current = self._build(config)

    async def refusal(self, request: Any) -> Response | None:
        """The answer to a request the checks refuse, else None."""
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
AUTH_STATS = "auth_stats"  # app.state: the ``AuthStats`` the exporter's scrapes export


def install_checks(app: App, config: WebConfig) -> BasicAuth | None:
    """Add the web config's checks to ``app``: before every route, the configured headers on every response."""
    checks = _Checks(config)
    app.state[_CHECKS] = checks
    app.state[AUTH_STATS] = checks.stats

    def set_headers(response: Response) -> None:
        response.headers.update(checks.current[0].headers)

    app.before.append(checks.refusal)
    app.after.append(set_headers)
    app.on_cleanup.append(checks.close)
    return checks.current[1]


def reconfigure(app: App, config: WebConfig) -> None:
    """Put a reloaded web config's checks in force (the app was built with ``install_checks``)."""
    checks: _Checks = app.state[_CHECKS]
    checks.replace(config)
