"""The Prometheus HTTP API without the HTTP: what each call asks, and what its answer means (pure functions).

A ``Call`` is a path, its parameters and the parser of its ``data``; both transports (``sync``, ``aio``) send it
the same way and hand the answer to ``decode``, which sorts every failure into the ``errors.py`` tree:

- ``EndpointDown``: refused, no answer in time, 5xx (a check may report it: replica B being down is a finding);
- ``ApiUnusable``: cannot talk to it as configured (TLS, 401/403, a URL that is not that API, a redirect, an
  answer too big or of the wrong shape), one line naming the flag and the fix;
- ``QueryFailed``: the server refused one query (bad PromQL, its own per-query timeout) or answered another type.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import quote, urlencode, urlsplit

from gpuscope.durations import prometheus_seconds
from gpuscope.errors import ApiUnusable, EndpointDown, QueryFailed, UsageError
from gpuscope.prom.records import Matrix, Rule, RuntimeInfo, Sample, Series, Target, TsdbStatus, Vector

T = TypeVar("T")

# The largest API answer read: /api/v1/targets of a 5,000-node cluster is about 10 MiB.
MAX_BODY_BYTES = 32 * 1024 * 1024
# Longer query strings go as a form POST: proxies refuse URLs past 8 KiB, and a dashboard's expression can be long.
MAX_GET_QUERY = 4096

_OK, _UNAUTHORIZED, _FORBIDDEN, _BAD_REQUEST, _UNPROCESSABLE, _SERVER_ERROR = 200, 401, 403, 400, 422, 500
# What reading a JSON answer of the wrong shape raises (a list where an object belongs, a string for a number;
# OverflowError: ``int()`` of ``Infinity``, which Python's JSON parser reads as a float, for a count).
SHAPE_ERRORS = (AttributeError, KeyError, IndexError, TypeError, ValueError, OverflowError)


MAX_URL_CHARS = 2048
_EXAMPLES = {"Prometheus": "http://prometheus:9090", "Alertmanager": "http://alertmanager:9093"}


def _url_problem(url: str) -> str:
    """Why ``url`` cannot be an API base URL ("" when it can): checked where it is given, so a URL with a line
    break or no host is the flag's one line at start, not a failure at the first request (the remediator's first
    page, minutes later)."""
    if not url.startswith(("http://", "https://")):
        return "is not an http:// or https:// URL"
    if len(url) > MAX_URL_CHARS:
        return f"is longer than {MAX_URL_CHARS} characters"
    if any(c.isspace() or not c.isprintable() for c in url):
        return "holds white space or a control character"
    try:
        host = urlsplit(url).hostname
    except ValueError as exc:  # a malformed port or IPv6 literal
        return f"is not a URL ({exc})"
    return "" if host else "names no host"


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One API base URL, named by the flag that gave it so that every error says which flag to fix."""

    url: str
    flag: str = "--prometheus"
    kind: str = "Prometheus"  # the API expected: "Prometheus", "Alertmanager", "Prometheus-compatible query"

    def __post_init__(self) -> None:
        problem = _url_problem(self.url)
        if problem:
            example = _EXAMPLES.get(self.kind, _EXAMPLES["Prometheus"])
            shown = self.url if len(self.url) <= 200 else f"{self.url[:200]}..."
            raise UsageError(f"{self.flag} {shown!r} {problem}; pass e.g. {example}")
        object.__setattr__(self, "url", self.url.rstrip("/"))

    def where(self) -> str:
        return f"{self.flag} {self.url}"

    @property
    def what(self) -> str:
        article = "an" if self.kind[0] in "AEIOU" else "a"
        return f"{article} {self.kind} API"


@dataclass(frozen=True, slots=True)
class Limits:
    """How long one request may take (body included) and how big its answer may be."""

    timeout_s: float = 30.0
    timeout_flag: str = "--timeout"  # the flag that raises ``timeout_s``, named when a request runs out of time
    max_body_bytes: int = MAX_BODY_BYTES


class Deadline:
    """A time budget several requests share (the doctor's ``--timeout`` covers the whole audit): each request gets
    what is left of it, at most ``Limits.timeout_s``."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._end = clock() + seconds

    def remaining(self) -> float:
        return self._end - self._clock()


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """One request of the API, a GET unless said otherwise: ``parse`` turns the answer's ``data`` (or, with
    ``envelope=False``, the whole JSON body, as Alertmanager's v2 API answers) into ``T``."""

    path: str
    params: tuple[tuple[str, str], ...]
    parse: Callable[[Any], T]
    envelope: bool = True
    query: bool = False  # a PromQL evaluation: told the deadline, a bad shape is that query's failure
    form: bool = False  # sent as a form POST: a long expression
    json_body: bytes | None = None  # sent as a JSON POST (Alertmanager's POST /api/v2/alerts)

    @property
    def method(self) -> str:
        return "POST" if self.form or self.json_body is not None else "GET"


def _call(path: str, params: Sequence[tuple[str, str]], parse: Callable[[Any], T], *, query: bool = False) -> Call[T]:
    flat = tuple(params)
    return Call(path, flat, parse, query=query, form=query and len(urlencode(flat)) > MAX_GET_QUERY)


def _span(start: float | None, end: float | None) -> list[tuple[str, str]]:
    out = []
    if start is not None:
        out.append(("start", f"{start:.3f}"))
    if end is not None:
        out.append(("end", f"{end:.3f}"))
    return out


def _labels(raw: Mapping[str, Any]) -> dict[str, str]:
    return {str(k): str(v) for k, v in raw.items()}


# --- the calls ----------------------------------------------------------------------------------------------------


def instant(expr: str, at: float | None = None) -> Call[Vector]:
    """An instant query (now, or at ``at``): a vector, sorted by labels; a scalar is one sample without labels."""
    params = [("query", expr)] + ([("time", f"{at:.3f}")] if at is not None else [])
    return _call("/api/v1/query", params, parse_vector, query=True)


def range_query(expr: str, start: float, end: float, step_s: float) -> Call[Matrix]:
    params = [("query", expr), *_span(start, end), ("step", f"{step_s:g}")]
    return _call("/api/v1/query_range", params, parse_matrix, query=True)


def series(
    matches: Sequence[str], start: float | None = None, end: float | None = None
) -> Call[tuple[dict[str, str], ...]]:
    params = [("match[]", m) for m in matches] + _span(start, end)
    return _call("/api/v1/series", params, lambda data: tuple(sorted((_labels(s) for s in data), key=_sorted_items)))


def labels(matches: Sequence[str] = (), start: float | None = None, end: float | None = None) -> Call[tuple[str, ...]]:
    params = [("match[]", m) for m in matches] + _span(start, end)
    return _call("/api/v1/labels", params, _strings)


def label_values(
    label: str, matches: Sequence[str] = (), start: float | None = None, end: float | None = None
) -> Call[tuple[str, ...]]:
    params = [("match[]", m) for m in matches] + _span(start, end)
    return _call(f"/api/v1/label/{quote(label, safe='')}/values", params, _strings)


def targets(state: str = "active") -> Call[tuple[Target, ...]]:
    return _call("/api/v1/targets", [("state", state)], parse_targets)


def rules() -> Call[tuple[Rule, ...]]:
    return _call("/api/v1/rules", [], parse_rules)


def alertmanagers() -> Call[tuple[str, ...]]:
    """The URLs of the Alertmanagers Prometheus has discovered and sends to, sorted."""
    return _call(
        "/api/v1/alertmanagers",
        [],
        lambda data: tuple(sorted(str(a["url"]) for a in data.get("activeAlertmanagers", []))),
    )


def config() -> Call[str]:
    """The configuration Prometheus loaded, as the YAML text it serves."""
    return _call("/api/v1/status/config", [], lambda data: str(data.get("yaml", "")))


def buildinfo() -> Call[str]:
    """The server's version: the one answer that says whether this is a Prometheus API at all."""
    return _call("/api/v1/status/buildinfo", [], lambda data: str(data["version"]))


def runtime_info() -> Call[RuntimeInfo]:
    return _call(
        "/api/v1/status/runtimeinfo", [], lambda data: RuntimeInfo(corruption_count=int(data.get("corruptionCount", 0)))
    )


def tsdb_status() -> Call[TsdbStatus]:
    return _call(
        "/api/v1/status/tsdb",
        [],
        lambda data: TsdbStatus(head_series=int((data.get("headStats") or {}).get("numSeries", 0))),
    )


def flags() -> Call[dict[str, str]]:
    return _call("/api/v1/status/flags", [], _labels)


def raw(path: str, params: Sequence[tuple[str, str]] = (), *, envelope: bool = False) -> Call[Any]:
    """Any other GET (Alertmanager's v2 API, a remediator's JSON): the decoded body, or its ``data``."""
    return Call(path, tuple(params), lambda body: body, envelope=envelope)


def post_json(path: str, document: object) -> Call[Any]:
    """A JSON POST (Alertmanager's ``POST /api/v2/alerts``): the decoded answer, ``None`` when it is empty."""
    return Call(path, (), lambda body: body, envelope=False, json_body=json.dumps(document).encode())


# --- parsing answers ----------------------------------------------------------------------------------------------


def _sorted_items(labels: Mapping[str, str]) -> list[tuple[str, str]]:
    return sorted(labels.items())


def _strings(data: Any) -> tuple[str, ...]:
    if not isinstance(data, list):
        raise TypeError(f"expected a list of strings, got {type(data).__name__}")
    return tuple(str(v) for v in data)


def parse_vector(data: Any) -> Vector:
    kind, result = data.get("resultType"), data.get("result")
    if kind == "scalar":
        return (Sample({}, float(result[1])),)
    if kind != "vector" or not isinstance(result, list):
        raise _WrongType(f"expected an instant vector, got {kind}")
    samples = [Sample(_labels(r["metric"]), float(r["value"][1])) for r in result]
    return tuple(sorted(samples, key=lambda s: _sorted_items(s.labels)))


def parse_matrix(data: Any) -> Matrix:
    kind, result = data.get("resultType"), data.get("result")
    if kind != "matrix" or not isinstance(result, list):
        raise _WrongType(f"expected a range vector, got {kind}")
    out = [Series(_labels(r["metric"]), tuple((float(t), float(v)) for t, v in r["values"])) for r in result]
    return tuple(sorted(out, key=lambda s: _sorted_items(s.labels)))


def parse_targets(data: Any) -> tuple[Target, ...]:
    out = []
    for t in data.get("activeTargets", []):
        labels = t.get("labels", {})
        timeout = t.get("scrapeTimeout") or t.get("discoveredLabels", {}).get("__scrape_timeout__", "10s")
        out.append(
            Target(
                job=str(labels.get("job", "")),
                instance=str(labels.get("instance", "")),
                health=str(t.get("health", "unknown")),
                last_error=str(t.get("lastError", "")),
                scrape_timeout_s=_timeout_s(str(timeout)),
            )
        )
    return tuple(sorted(out, key=lambda t: (t.job, t.instance)))


def parse_rules(data: Any) -> tuple[Rule, ...]:
    return tuple(
        Rule(
            group=str(g.get("name", "")),
            name=str(r.get("name", "")),
            health=str(r.get("health", "unknown")),
            last_error=str(r.get("lastError", "")),
            query=str(r.get("query", "")),
        )
        for g in data.get("groups", [])
        for r in g.get("rules", [])
    )


def _timeout_s(text: str) -> float:
    """A target's scrape timeout as the API writes it (``10s``, ``1m30s``, ``500ms``), in seconds; 0 for one that
    is no Prometheus duration (a target is still a target: only the timeout check of the doctor goes without)."""
    try:
        return prometheus_seconds(text)
    except ValueError:
        return 0.0


class _WrongType(ValueError):
    """A query answered another result type than the call asked for."""


# --- decoding an answer -------------------------------------------------------------------------------------------


def first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line[:160]


def late(endpoint: Endpoint, limits: Limits) -> EndpointDown:
    return EndpointDown(endpoint.where(), f"no answer within {limits.timeout_flag} {limits.timeout_s:g}s")


def too_big(endpoint: Endpoint, call: Call[Any], limits: Limits) -> ApiUnusable:
    size = (
        f"{limits.max_body_bytes // (1024 * 1024)} MiB"
        if limits.max_body_bytes >= 1024 * 1024
        else (f"{limits.max_body_bytes} bytes")
    )
    return ApiUnusable(
        endpoint.where(),
        f"{call.method} {call.path} answered more than {size}; is it {endpoint.what}? "
        f"Pass the base URL of the {endpoint.kind}",
    )


def declared_too_big(headers: Mapping[str, str], limits: Limits) -> bool:
    declared = headers.get("content-length", "")
    return declared.isdigit() and int(declared) > limits.max_body_bytes


def decode(endpoint: Endpoint, call: Call[T], limits: Limits, status: int, reason: str, content: bytes) -> T:
    """The answer to ``call`` as its parser makes it, or the error that says what went wrong."""
    body = _body(endpoint, call, limits, status, reason, content)
    if call.envelope:
        if not isinstance(body, dict) or body.get("status") != "success" or "data" not in body:
            raise ApiUnusable(
                endpoint.where(),
                f'not {endpoint.what}: {call.method} {call.path} did not answer {{"status": "success", "data": ...}}; '
                f"pass the base URL of the {endpoint.kind} API",
            )
        body = body["data"]
    try:
        return call.parse(body)
    except _WrongType as exc:
        raise QueryFailed(endpoint.where(), str(exc)) from None
    except SHAPE_ERRORS as exc:
        why = f"{type(exc).__name__}: {exc}"
        if call.query:
            raise QueryFailed(endpoint.where(), f"the answer is not a query result ({why})") from None
        raise ApiUnusable(
            endpoint.where(),
            f"{call.method} {call.path}: an answer has an unexpected shape ({why}); is it {endpoint.what}?",
        ) from None


def _body(endpoint: Endpoint, call: Call[Any], limits: Limits, status: int, reason: str, content: bytes) -> Any:
    where, text = endpoint.where(), content.decode("utf-8", errors="replace")
    if status == _UNAUTHORIZED:
        raise ApiUnusable(
            where,
            "answered 401 Unauthorized: pass {basic_auth_user} and {basic_auth_password_file}, or {bearer_token_file}",
        ).naming("basic_auth_user", "basic_auth_password_file", "bearer_token_file")
    if status == _FORBIDDEN:
        raise ApiUnusable(where, f"answered 403 Forbidden: these credentials may not read {call.path}")
    if status == _OK and call.json_body is not None and not content.strip():
        return None  # a POST's whole answer may be its status (Alertmanager's POST /api/v2/alerts)
    try:
        body = json.loads(content)
    except (ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        body = None
    if isinstance(body, dict) and body.get("status") == "error":
        error = first_line(str(body.get("error") or text))
        if body.get("errorType") == "timeout":  # Prometheus gave up on the query: the deadline we sent it
            raise QueryFailed(where, f"the query timed out ({error}); raise {limits.timeout_flag} or ask for less")
        if status in (_BAD_REQUEST, _UNPROCESSABLE):
            raise QueryFailed(where, f"query refused: {error}")
    if status >= _SERVER_ERROR:
        raise EndpointDown(where, f"answered {status} {reason}: {first_line(text)}")
    if status != _OK or not isinstance(body, dict | list):
        raise ApiUnusable(
            where,
            f"not {endpoint.what}: {call.method} {call.path} answered {status} {first_line(text)!r}; "
            f"pass the base URL of the {endpoint.kind}, e.g. http://host:port",
        )
    return body
