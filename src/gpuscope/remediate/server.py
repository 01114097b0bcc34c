"""The webhook receiver: Alertmanager's notifications in, through a bounded queue, to one planning worker.

- ``POST /webhook``: authenticated by ``Authorization: Bearer <token>`` (``--bearer-token-file``, as Alertmanager's
  ``http_config.authorization`` sends it) and/or a client certificate (``--web-config-file``, exporter-toolkit's
  format, the same code as the exporter's: TLS, ``client_auth_type: RequireAndVerifyClientCert``,
  ``client_allowed_sans``). A payload that is not Alertmanager's is answered 400 and logged as one line (rate
  limited); a full queue, or a process that is not the leader, answers 503 so Alertmanager retries.
- ``GET /metrics``, ``GET /-/healthy``; ``GET /-/ready``: 503 while the planning worker is dead or stuck (it is
  restarted; after ``MAX_RESTARTS`` in a row the process exits non-zero, so systemd or Kubernetes restarts it);
  ``GET /api/v1/decisions``: the recent decisions (the local
  stack's live view shows them).

A notification is read whole (up to ``MAX_BODY_BYTES``) before it is parsed. The answer is given once it is queued,
never after acting: Alertmanager's webhook timeout must not depend on ``scontrol`` or the API server. One worker
plans everything in order, so two deliveries of one alert (both Alertmanagers of a pair) are seen one after the
other, never at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from gpuscope.errors import EnvironmentProblem
from gpuscope.httpd.auth import install_checks
from gpuscope.httpd.guard import HttpLimits
from gpuscope.httpd.server import App, Request, Response, get, json_response, post
from gpuscope.httpd.site import Site
from gpuscope.httpd.webconfig import WebConfig
from gpuscope.remediate.audit import AuditLog, Metrics
from gpuscope.remediate.decision import Decision
from gpuscope.remediate.engine import Engine
from gpuscope.remediate.payload import MAX_BODY_BYTES, Delivery, PayloadError, parse_delivery

log = logging.getLogger("gpuscope.remediate")

STUCK_S = 300.0  # a worker that has not come round its loop for this long is not ready
MAX_RESTARTS = 3


@dataclass
class Service:
    engine: Engine
    audit: AuditLog
    metrics: Metrics
    queue: asyncio.Queue[Delivery]
    token: str | None
    leader: Callable[[], bool]
    tick_s: float = 1.0
    is_leader: bool = True
    beat: float = field(default_factory=time.monotonic)  # the worker's last sign of life
    worker: asyncio.Task[None] | None = None

    def alive(self) -> bool:
        """The worker runs and has come round its loop lately (a scheduler call is bounded: scontrol 30 s)."""
        running = self.worker is not None and not self.worker.done()
        return running and time.monotonic() - self.beat < max(STUCK_S, 10 * self.tick_s)

    def record(self, decisions: list[Decision]) -> None:
        for decision in decisions:
            self.audit.write(decision)
            self.metrics.count(decision)
            level = logging.INFO if decision.result in ("done", "would", "resolved") else logging.DEBUG
            if decision.result in ("failed", "over_budget", "persons"):
                level = logging.WARNING
            log.log(level, "%s", decision.line)

    async def work(self, stop: asyncio.Event) -> None:
        """Plan each notification in arrival order; between them, every ``tick_s``, let time pass. The first tick
        (which reconciles with the scheduler when acting: the holds marked on the nodes are adopted) comes before
        the first notification is planned, so a lost state file never frees the budget for it."""
        next_tick = 0.0
        while not stop.is_set():
            self.beat = time.monotonic()
            try:
                next_tick = await self._turn(stop, next_tick)
            except Exception as exc:  # one turn's failure is a log line, never a silent end
                log.error("the planning worker's turn failed (%s: %s); going on", type(exc).__name__, exc)
                log.debug("the failure's traceback", exc_info=True)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=self.tick_s)

    async def _turn(self, stop: asyncio.Event, next_tick: float) -> float:
        self.is_leader = await asyncio.to_thread(self.leader)
        if not self.is_leader:  # what is queued waits for the lease; new notifications are answered 503
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=self.tick_s)
            return next_tick
        if time.monotonic() >= next_tick:
            next_tick = time.monotonic() + self.tick_s
            self.record(await asyncio.to_thread(self.engine.tick))
        delivery: Delivery | None = None
        with contextlib.suppress(TimeoutError):
            delivery = await asyncio.wait_for(self.queue.get(), timeout=self.tick_s)
        if delivery is not None:
            self.record(await asyncio.to_thread(self.engine.handle, delivery))
        return next_tick


_SERVICE = "remediate"


def _service(request: Request) -> Service:
    service: Service = request.app.state[_SERVICE]
    return service


class _Throttle:
    """At most ``burst`` lines, then one a second: a flood of hostile requests cannot flood the log."""

    def __init__(self, burst: int = 5, per_s: float = 1.0) -> None:
        self.burst, self.per_s = float(burst), per_s
        self.tokens, self.last, self.suppressed = float(burst), time.monotonic(), 0

    def allow(self) -> str | None:
        """None when this line must be left out, else the note to append (how many were left out)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_s)
        self.last = now
        if self.tokens < 1.0:
            self.suppressed += 1
            return None
        self.tokens -= 1.0
        note = f" ({self.suppressed} more since the last such line)" if self.suppressed else ""
        self.suppressed = 0
        return note


_REFUSED = _Throttle()


def _refuse(request: Request, status: int, why: str) -> Response:
    service = _service(request)
    service.metrics.requests[str(status)] += 1
    note = _REFUSED.allow() if status in (400, 401) else None
    if note is not None:
        log.warning("refused a notification from %s (HTTP %d): %s%s", request.remote or "?", status, why, note)
    return json_response({"status": "error", "error": why}, status=status)


async def _webhook(request: Request) -> Response:
    service = _service(request)
    if service.token is not None:
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {service.token}".encode()):
            return _refuse(request, 401, "missing or wrong bearer token")
    if not service.is_leader:
        return _refuse(request, 503, "not the leader: another remediator acts (retry)")
    try:
        body = await request.read()  # whole: a large notification arrives in many chunks (over it: 413)
        delivery = parse_delivery(body)
    except PayloadError as exc:
        return _refuse(request, 400, str(exc))
    try:
        service.queue.put_nowait(delivery)
    except asyncio.QueueFull:
        return _refuse(request, 503, f"queue full ({service.queue.maxsize} notifications waiting): retry")
    service.metrics.requests["200"] += 1
    return json_response({"status": "queued", "alerts": len(delivery.alerts)})


async def _metrics(request: Request) -> Response:
    service = _service(request)
    text = service.metrics.render(
        budgets=await asyncio.to_thread(service.engine.budgets),
        queued=service.queue.qsize(),
        queue_size=service.queue.maxsize,
        dry_run=not service.engine.apply,
        leader=service.is_leader,
    )
    return Response.text(text)


async def _decisions(request: Request) -> Response:
    service = _service(request)
    return json_response([d.record() for d in service.metrics.recent])


async def _ok(_request: Request) -> Response:
    return Response.text("OK\n")


async def _ready(request: Request) -> Response:
    if not _service(request).alive():
        return Response.text("the planning worker is not running: notifications are not planned\n", status=503)
    return Response.text("OK\n")


def build_app(service: Service, web_config: WebConfig | None) -> App:
    app = App(max_body_bytes=MAX_BODY_BYTES)
    app.state[_SERVICE] = service
    if web_config is not None:
        install_checks(app, web_config)
    app.add(
        [
            post("/webhook", _webhook),
            get("/metrics", _metrics),
            get("/api/v1/decisions", _decisions),
            get("/-/ready", _ready),
            get("/-/healthy", _ok),
        ]
    )
    return app


async def serve(
    service: Service,
    host: str,
    port: int,
    web_config: WebConfig | None,
    stop: asyncio.Event,
    on_ready: Callable[[], None],
) -> None:
    limits = HttpLimits(max_body_bytes=MAX_BODY_BYTES, max_connections=256)
    tls = web_config.tls.context if web_config is not None and web_config.tls is not None else None
    site = Site(build_app(service, web_config), limits, ssl_context=tls)
    try:
        await site.start(host, port)
    except OSError as exc:
        await site.stop()
        raise EnvironmentProblem(f"cannot listen on {host}:{port} ({{listen}}): {exc.strerror or exc}").naming(
            "listen"
        ) from None
    service.worker = asyncio.create_task(service.work(stop))
    on_ready()
    try:
        await _supervise(service, stop)
    finally:
        worker = service.worker
        if not worker.done():
            worker.cancel()
            await asyncio.wait({worker})  # never re-raises what ended it: the supervisor said that already
        await site.stop()


async def _supervise(service: Service, stop: asyncio.Event) -> None:
    """Until ``stop``: a worker that ended (it should not: its turns catch their errors) is restarted with a log
    line; after ``MAX_RESTARTS`` in a row without a minute of life in between, the process exits non-zero."""
    restarts, started = 0, time.monotonic()
    stopping = asyncio.create_task(stop.wait())
    try:
        while not stop.is_set():
            assert service.worker is not None
            await asyncio.wait({service.worker, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if stop.is_set():
                return
            exc = service.worker.exception() if not service.worker.cancelled() else None
            why = f"{type(exc).__name__}: {exc}" if exc is not None else "it ended"
            restarts = 1 if time.monotonic() - started > STUCK_S else restarts + 1
            if restarts > MAX_RESTARTS:
                raise EnvironmentProblem(f"the planning worker died {restarts} times in a row ({why}): exiting")
            log.error("the planning worker died (%s): restarted", why)
            started = time.monotonic()
            service.worker = asyncio.create_task(service.work(stop))
    finally:
        stopping.cancel()
