"""The console's HTTP server: the page, its assets, and the JSON API the page draws from.

Every request is answered, whatever fails behind it: a missing bundle, an unreachable Prometheus or
Alertmanager, a query past its deadline all come back as a message the page shows (and the log records); the
server itself keeps running. Bad requests (unknown dashboard or panel, bad time range) get a 400 with one line;
a request that waited too long for a query slot a 503.

Only the page may POST: every request other than GET/HEAD must carry the token the page was served with (a
``<meta name="gpuscope-token">``, sent back as ``X-Gpuscope-Token``), and a browser's ``Origin`` and
``Sec-Fetch-Site`` must say same-origin, so a web page elsewhere cannot inject faults into a running stack (a
cross-site ``text/plain`` POST needs no preflight; it gets 403). A ``Host`` that is a DNS name other than
``localhost`` or the one given to ``--listen`` is refused (421): a rebound DNS name cannot read the token either.
Answers from the control API and Alertmanager are read up to ``MAX_ANSWER_BYTES``, Prometheus's through
``gpuscope.prom`` (its body cap and deadline).
"""

from __future__ import annotations

import asyncio
import hmac
import html
import ipaddress
import json
import logging
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import httpx

from gpuscope.console.alerts import group_alerts
from gpuscope.console.bundle import Dashboards, load_dashboards
from gpuscope.console.credentials import shown, split_credentials
from gpuscope.console.deadline import LoadDeadlines, RequestDeadline
from gpuscope.console.headers import add_security_headers
from gpuscope.console.inputs import MAX_ID, real, strings, whole
from gpuscope.console.panels import PanelRequest, dashboard_variables, panel_data
from gpuscope.console.templating import resolve
from gpuscope.console.timerange import TimeRange, opening_from, parse_range
from gpuscope.console.variables import Selection
from gpuscope.errors import ApiError, UsageError
from gpuscope.httpd.guard import HttpLimits
from gpuscope.httpd.server import App, HttpError, Request, Response, get, json_response, post, static
from gpuscope.httpd.site import Site
from gpuscope.prom import AsyncClient, Endpoint, Limits, SlotTimeout
from gpuscope.prom.access import Access
from gpuscope.prom.aio import http_client

log = logging.getLogger(__name__)

VENDOR_FILES = ("uPlot.iife.min.js", "uPlot.min.css")
# Faults of the local stack that are not the simulator's own (the stack stops a component).
STACK_FAULTS = {
    "exporter-down": "a node's exporter stops answering (needs cluster and node)",
    "prometheus-down": "one Prometheus replica of a cluster stops (needs cluster and replica)",
    "global-down": "the global store stops",
}


@dataclass(frozen=True, slots=True)
class ConsoleSettings:
    bundle: Path
    prometheus_url: str
    alertmanager_url: str | None = None
    control_url: str | None = None  # the local stack's control API: notification log and faults
    max_in_flight: int = 8
    query_timeout_s: float = 10.0
    queue_timeout_s: float = 30.0  # how long a request waits for a query slot before it is answered 503
    scrape_ms: int | None = None  # default: the bundle data source's timeInterval
    listen_host: str = "127.0.0.1"  # besides localhost and IP literals, the one Host name requests may carry
    access: Access | None = None  # credentials and TLS for --prometheus (gpuscope.prom's access options)
    since: float | None = None  # epoch seconds the data begins (the local stack's start): dashboards open there


@dataclass
class Console:
    settings: ConsoleSettings
    prom: AsyncClient
    dashboards: Dashboards
    http: httpx.AsyncClient | None = None  # Alertmanager and the control API
    token: str = ""  # the page's same-origin token, new for each console process
    failures: Callable[[ApiError], None] | None = None  # the failed-query log (once a minute at most)
    loads: LoadDeadlines | None = None  # the deadline each page load's panels share

    def scrape_ms(self) -> int:
        return self.settings.scrape_ms or self.dashboards.scrape_ms

    def client(self) -> httpx.AsyncClient:
        if self.http is None:  # no redirects followed (httpx's default); each request's total deadline: _fetch_json
            self.http = httpx.AsyncClient(timeout=self.settings.query_timeout_s)
        return self.http


_CONSOLE = "console"
# The largest request the page sends (a panel's selections): JSON of a few KiB.
CONSOLE_LIMITS = HttpLimits(max_body_bytes=1024 * 1024)
LOG_EVERY_S = 60.0
TOKEN_HEADER = "X-Gpuscope-Token"
TOKEN_META = '<meta name="gpuscope-token" content="">'
SAFE_METHODS = frozenset({"GET", "HEAD"})
# The largest answer read from Alertmanager or the control API: thousands of alerts are a few MiB.
MAX_ANSWER_BYTES = 16 * 1024 * 1024
# The largest Prometheus answer for one panel query: 1,000 series of 1,000 points is about 25 MiB of JSON, a page
# shows far less. With --max-in-flight answers read at once, this bounds what hostile answers can hold.
MAX_QUERY_BYTES = 16 * 1024 * 1024


class FailureLog:
    """Log a failed query once a minute at most: a dashboard of 30 panels against a dead Prometheus is one line."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._logged: dict[str, float] = {}  # message -> when it was last logged

    def __call__(self, error: ApiError) -> None:
        message, now = str(error), self._clock()
        if len(self._logged) > 256:  # bounded, whatever the failures say
            self._logged.clear()
        if now - self._logged.get(message, -LOG_EVERY_S) >= LOG_EVERY_S:
            self._logged[message] = now
            log.warning("%s", message)


def static_dir() -> Path:
    return Path(str(resources.files("gpuscope.console").joinpath("static")))


def assets_problem() -> str | None:
    missing = [f for f in VENDOR_FILES if not (static_dir() / "vendor" / f).is_file()]
    if missing:
        return f"the console's chart assets are not built ({', '.join(missing)} missing): run `make assets`"
    return None


def _console(request: Request) -> Console:
    console: Console = request.app.state[_CONSOLE]
    return console


def _bad(message: str) -> Response:
    return json_response({"error": message}, status=400)


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):  # RecursionError: nested thousands deep
        raise UsageError("expected a JSON object") from None
    if not isinstance(body, dict):
        raise UsageError("expected a JSON object")
    return body


def _dashboard(console: Console, uid: Any) -> dict[str, Any]:
    model = console.dashboards.by_uid.get(str(uid))
    if model is None:
        known = ", ".join(sorted(console.dashboards.by_uid)) or "none"
        raise UsageError(f"no dashboard {uid!r} in {console.settings.bundle} (dashboards: {known})")
    return model


def _requested(raw: Any) -> dict[str, list[str]]:
    if not isinstance(raw, dict):
        return {}
    return {str(k): [str(x) for x in v] if isinstance(v, list) else [str(v)] for k, v in raw.items()}


def _selections(raw: Any) -> dict[str, Selection]:
    out: dict[str, Selection] = {}
    for name, sel in (raw if isinstance(raw, dict) else {}).items():
        if isinstance(sel, dict):
            out[str(name)] = Selection(
                values=strings(sel.get("values")),
                all=bool(sel.get("all")),
                options=strings(sel.get("options")),
            )
    return out


def _handler(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    async def wrapped(request: Request) -> Response:
        try:
            return await fn(request)
        except UsageError as exc:
            return _bad(str(exc))
        except SlotTimeout as exc:  # every query slot busy for the whole deadline: try again later
            return json_response({"error": str(exc)}, status=503, headers={"Retry-After": "5"})

    return wrapped


async def _page(request: Request) -> Response:
    text = (static_dir() / "index.html").read_text(encoding="utf-8")
    page = text.replace(TOKEN_META, f'<meta name="gpuscope-token" content="{_console(request).token}">')
    response = Response.text(page, content_type="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


RUNBOOK_DIR = "runbooks"  # the bundle's copy (generate/compose.py): an alert's default runbook_url points here
_RUNBOOK_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} - gpuscope runbook</title>
<link rel="stylesheet" href="/static/console.css"></head>
<body><main class="runbook"><p><a href="/alerts">&larr; alerts</a></p><pre>{text}</pre></main></body></html>
"""


def bundle_runbooks(bundle: Path) -> dict[str, Path]:
    """The bundle's runbooks by file name: only these names are served, whatever the request's path holds."""
    folder = bundle / RUNBOOK_DIR
    if not folder.is_dir():
        return {}
    return {p.name: p for p in folder.glob("*.md") if p.is_file() and not p.is_symlink()}


async def _runbook(request: Request) -> Response:
    """An alert's runbook from the bundle, as a page: the Markdown shown as text, escaped (a runbook is the
    operator's to edit, and nothing in it may run in the console's origin)."""
    console = _console(request)
    name = request.match_info["name"]
    found = bundle_runbooks(console.settings.bundle).get(name)
    if found is None:
        raise HttpError(404, f"no runbook {name[:100]!r} in {console.settings.bundle / RUNBOOK_DIR}")
    text = found.read_text(encoding="utf-8", errors="replace")
    page = _RUNBOOK_PAGE.format(title=html.escape(found.stem), text=html.escape(text))
    response = Response.text(page, content_type="text/html")
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def _forbidden(message: str) -> Response:
    return json_response({"error": message}, status=403)


def _known_host(request: Request, listen_host: str) -> bool:
    """An IP literal, localhost, this machine's host name or the --listen host: a DNS name an attacker rebinds to
    loopback is none of them."""
    host = request.host_name
    if host in ("localhost", listen_host.strip("[]"), socket.gethostname()):  # the machine's own name is no rebind
        return True
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def cross_site(request: Request, token: str) -> str | None:
    """Why a request other than GET/HEAD is not the page's own, or None."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return f"a {site} request; only the console's own page may send {request.method} {request.path}"
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.scheme}://{request.host}":
        return f"Origin {origin[:100]!r} is not this console; only its own page may send {request.method}"
    if not hmac.compare_digest(request.headers.get(TOKEN_HEADER, "").encode(), token.encode()):
        return f"missing or wrong {TOKEN_HEADER}: reload the console page (it carries the token)"
    return None


async def _same_origin(request: Request) -> Response | None:
    """Before every route (unknown paths too): a rebound Host is a 421, a cross-site change a 403."""
    console = _console(request)
    if not _known_host(request, console.settings.listen_host):
        return json_response(
            {"error": f"Host {request.host[:100]!r} is not this console's: open it by its address"}, status=421
        )
    if request.method not in SAFE_METHODS:
        problem = cross_site(request, console.token)
        if problem is not None:
            log.warning("console: refused %s %s: %s", request.method, request.path, problem)
            return _forbidden(problem)
    return None


async def _index(request: Request) -> Response:
    console = _console(request)
    console.dashboards = load_dashboards(console.settings.bundle)
    problems = [p for p in (assets_problem(), console.dashboards.problem) if p]
    return json_response(
        {
            "dashboards": console.dashboards.index(),
            "problem": "; ".join(problems) or None,
            "prometheus": shown(console.settings.prometheus_url),
            "alertmanager": shown(console.settings.alertmanager_url),
            "local_stack": console.settings.control_url is not None,
        }
    )


async def _model(request: Request) -> Response:
    console = _console(request)
    model = _dashboard(console, request.match_info["uid"])
    since = console.settings.since
    if since is not None and isinstance(model.get("time"), dict):
        now_ms = int(time.time() * 1000)
        start = opening_from(str(model["time"].get("from", "now-1h")), int(since * 1000), now_ms)
        model = {**model, "time": {**model["time"], "from": start}}
    return json_response(model)


def _range(body: dict[str, Any]) -> TimeRange:
    return parse_range(str(body.get("from", "now-1h")), str(body.get("to", "now")), int(time.time() * 1000))


async def _variables(request: Request) -> Response:
    console, body = _console(request), await _body(request)
    model = _dashboard(console, body.get("uid"))
    rng = _range(body)
    _, variables = await resolve(
        console.prom,
        dashboard_variables(model),
        rng,
        _requested(body.get("vars")),
        scrape_ms=console.scrape_ms(),
        deadline=RequestDeadline.from_now(console.prom, console.failures),
    )
    return json_response({"variables": variables, "from_ms": rng.from_ms, "to_ms": rng.to_ms})


async def _panel(request: Request) -> Response:
    console, body = _console(request), await _body(request)
    model = _dashboard(console, body.get("uid"))
    panel_id = whole(body, "panel", -1, -1, MAX_ID)
    width = whole(body, "width", 1000, 0, MAX_ID) or 1000  # the page's width in pixels, drawn at 10 to 4000
    req = PanelRequest(
        panel_id=panel_id, time=_range(body), selections=_selections(body.get("vars")), width=max(10, min(width, 4000))
    )
    until = console.loads.until(body.get("load")) if console.loads is not None else None
    deadline = RequestDeadline(console.prom, console.failures, until)
    return json_response(await panel_data(console.prom, model, req, scrape_ms=console.scrape_ms(), deadline=deadline))


async def _read_capped(response: httpx.Response, what: str) -> Any:
    length = response.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > MAX_ANSWER_BYTES:
        raise ValueError(f"{what} answered more than {MAX_ANSWER_BYTES >> 20} MiB")
    chunks, size = [], 0
    async for chunk in response.aiter_bytes(64 * 1024):
        size += len(chunk)
        if size > MAX_ANSWER_BYTES:
            raise ValueError(f"{what} answered more than {MAX_ANSWER_BYTES >> 20} MiB")
        chunks.append(chunk)
    try:
        return json.loads(b"".join(chunks))
    except RecursionError:  # JSON nested thousands deep
        raise ValueError(f"{what} answered JSON nested too deep") from None


async def _fetch_json(console: Console, method: str, url: str, what: str, **kwargs: Any) -> tuple[Any, str | None]:
    try:
        async with (  # one deadline for the whole answer: a dripping server resets every read timeout
            asyncio.timeout(console.settings.query_timeout_s),
            console.client().stream(method, url, **kwargs) as response,
        ):
            body = await _read_capped(response, what)
            if response.status_code >= 400:
                message = body.get("error") if isinstance(body, dict) else None
                return None, f"{what} answered {response.status_code}: {message or body}"
            return body, None
    except (httpx.HTTPError, httpx.InvalidURL, httpx.StreamError, TimeoutError, ValueError) as exc:
        password = split_credentials(url).password
        reason = str(exc or type(exc).__name__)
        message = f"{what} at {shown(url)} did not answer: {reason.replace(password, '***') if password else reason}"
        log.warning("console: %s", message)
        return None, message


async def _alerts(request: Request) -> Response:
    console = _console(request)
    base = console.settings.alertmanager_url
    if base is None:
        return json_response({"groups": [], "error": "no Alertmanager configured (--alertmanager URL)"})
    body, error = await _fetch_json(
        console, "GET", f"{base.rstrip('/')}/api/v2/alerts", "Alertmanager", params={"active": "true"}
    )
    groups = group_alerts(body) if isinstance(body, list) else []
    return json_response({"groups": groups, "error": error, "alertmanager": shown(base)})


async def _notifications(request: Request) -> Response:
    console = _console(request)
    if console.settings.control_url is None:
        return json_response({"notifications": [], "error": "not a local stack: no notification log"})
    body, error = await _fetch_json(console, "GET", f"{console.settings.control_url}/notifications", "the stack")
    notes = body[-50:][::-1] if isinstance(body, list) else []
    return json_response({"notifications": notes, "error": error})


async def _fault_kinds(request: Request) -> Response:
    from gpuscope.backends.sim.faults import NODE_FAULTS, FaultKind

    simulated = {k.value: "a node's exporter" if k in NODE_FAULTS else "one GPU, or every GPU" for k in FaultKind}
    kinds = simulated | STACK_FAULTS
    return json_response({"faults": kinds, "local_stack": _console(request).settings.control_url is not None})


async def _fault(request: Request) -> Response:
    console = _console(request)
    body = await _body(request)
    # the numbers the stack's faults take, checked first: relayed as they came, inf would reach it as Infinity
    whole(body, "gpu", 0, 0, 1023)
    whole(body, "code", 0, 0, MAX_ID)
    real(body, "seconds", 0, 86_400)
    if console.settings.control_url is None:
        raise UsageError("faults can only be injected into a local stack (`gpuscope up`)")
    allowed = {"fault", "cluster", "node", "gpu", "replica", "code", "seconds", "enabled"}
    payload = {k: v for k, v in body.items() if k in allowed}
    clear = payload.get("fault") == "clear"
    method, url = (
        ("DELETE", f"{console.settings.control_url}/faults")
        if clear
        else ("POST", f"{console.settings.control_url}/faults")
    )
    answer, error = await _fetch_json(console, method, url, "the stack", **({} if clear else {"json": payload}))
    if error:
        return _bad(error)
    return json_response(answer)


async def _stats(request: Request) -> Response:
    prom = _console(request).prom
    return json_response(
        {
            "queries": prom.requests,
            "in_flight": prom.in_flight,
            "peak_in_flight": prom.peak_in_flight,
            "max_in_flight": prom.max_in_flight,
        }
    )


async def _close(console: Console) -> None:
    await console.prom.close()
    await console.prom.http.aclose()  # made here, not by the client (it carries --prometheus's credentials)
    if console.http is not None:
        await console.http.aclose()


def _prometheus(settings: ConsoleSettings, failures: FailureLog) -> AsyncClient:
    """The client for --prometheus: a ``user:password@`` in the URL is its basic auth, and gone from the URL
    (which every error names)."""
    split = split_credentials(settings.prometheus_url)
    http = http_client(settings.access, max_connections=settings.max_in_flight)
    given = settings.access is not None and (settings.access.basic_auth_user or settings.access.bearer_token_file)
    if split.user is not None and not given:  # credentials given through the access options win
        http.auth = httpx.BasicAuth(split.user, split.password or "")
    return AsyncClient(
        Endpoint(split.url),
        http,
        limits=Limits(
            timeout_s=settings.query_timeout_s, timeout_flag="--query-timeout", max_body_bytes=MAX_QUERY_BYTES
        ),
        max_in_flight=settings.max_in_flight,
        on_failure=failures,
        slot_wait_s=settings.queue_timeout_s,
    )


def console_app(settings: ConsoleSettings) -> App:
    dashboards = load_dashboards(settings.bundle)
    failures = FailureLog()
    prom = _prometheus(settings, failures)
    if problem := assets_problem():
        log.warning("console: %s", problem)
    app = App(max_body_bytes=CONSOLE_LIMITS.max_body_bytes)
    app.before.append(_same_origin)
    app.after.append(add_security_headers)
    app.state[_CONSOLE] = Console(
        settings=settings,
        prom=prom,
        dashboards=dashboards,
        token=secrets.token_urlsafe(32),
        failures=failures,
        loads=LoadDeadlines(settings.query_timeout_s),
    )
    app.add(get(path, _page) for path in ("/", "/d/{uid}", "/d/{uid}/{slug}", "/alerts"))
    app.add(
        [
            static("/static", static_dir()),
            get(f"/{RUNBOOK_DIR}/{{name}}", _runbook),
            get("/api/dashboards", _handler(_index)),
            get("/api/dashboards/{uid}", _handler(_model)),
            post("/api/variables", _handler(_variables)),
            post("/api/panel", _handler(_panel)),
            get("/api/alerts", _handler(_alerts)),
            get("/api/notifications", _handler(_notifications)),
            get("/api/faults", _handler(_fault_kinds)),
            post("/api/faults", _handler(_fault)),
            get("/api/stats", _handler(_stats)),
        ]
    )
    return app


class ConsoleSite(Site):
    """The console's app on the shared server and guard; ``stop`` also closes its clients."""

    def __init__(self, settings: ConsoleSettings) -> None:
        super().__init__(console_app(settings), CONSOLE_LIMITS)

    async def stop(self) -> None:
        try:
            await super().stop()
        finally:
            await _close(self.app.state[_CONSOLE])


async def serve(settings: ConsoleSettings, host: str, port: int, stop: asyncio.Event) -> None:
    """Run the console until ``stop`` is set (the ``gpuscope console`` command)."""
    site = ConsoleSite(settings)
    try:
        await site.start(host, port)
        log.info("console on http://%s:%d (Prometheus %s)", host, port, shown(settings.prometheus_url))
        await stop.wait()
    finally:
        await site.stop()
