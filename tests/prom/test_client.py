"""``gpuscope.prom`` against a real Prometheus (every call, both transports), and against real HTTP servers that
misbehave on purpose (tests/support/hostile_http.py) for the deadline, the body cap and the error mapping.

Every failure is one line in the ``errors.py`` tree that begins with the flag and URL it came from.
"""

from __future__ import annotations

import asyncio
import json
import re
import socketserver
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gpuscope.errors import ApiError, ApiUnusable, EndpointDown, GpuscopeError, QueryFailed, UsageError
from gpuscope.flagnames import flag_names
from gpuscope.prom import AsyncClient, Client, Deadline, Endpoint, Limits, Sample, Series
from tests.support.hostile_http import Answer, Handler, declared_huge, drip, endless, hostile, redirect_loop, send
from tests.support.net import free_port, wait_for
from tests.support.prom import Prometheus, run_prometheus

pytestmark = pytest.mark.timeout(180)
e2e = pytest.mark.e2e  # the tests that start a Prometheus

RULES = """groups:
- name: client-test
  rules:
  - record: job:up:sum
    expr: sum by (job) (up)
  - alert: AlwaysFiring
    expr: vector(1)
"""


@pytest.fixture(scope="module")
def prom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    workdir = tmp_path_factory.mktemp("prom-client")
    port = free_port()
    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s", "external_labels": {"cluster": "c1"}},
        "rule_files": ["rules.yml"],
        "scrape_configs": [{"job_name": "prometheus", "static_configs": [{"targets": [f"127.0.0.1:{port}"]}]}],
    }
    with run_prometheus(config, workdir, files={"rules.yml": RULES}, port=port) as p:
        client = Client(Endpoint(p.url))
        wait_for(lambda: client.query('job:up:sum{job="prometheus"} == 1'), timeout=60, what="the self-scrape")
        client.close()
        yield p


@pytest.fixture
def client(prom: Prometheus) -> Iterator[Client]:
    with Client(Endpoint(prom.url)) as c:
        yield c


def aio(make: Callable[[AsyncClient], Awaitable[Any]], url: str, **kwargs: Any) -> Any:
    """Run ``make(client)`` on a fresh event loop with an ``AsyncClient`` for ``url``, closing it after."""

    async def run() -> Any:
        c = AsyncClient(Endpoint(url), **kwargs)
        try:
            return await make(c)
        finally:
            await c.close()

    return asyncio.run(run())


# --- a real Prometheus ---------------------------------------------------------------------------------------------


@e2e
def test_instant_queries_are_sorted_vectors_and_a_scalar_is_one_sample(client: Client) -> None:
    expr = 'label_replace(vector(2), "k", "b", "", "") or label_replace(vector(1), "k", "a", "", "")'
    assert client.query(expr, at=1000) == (Sample({"k": "a"}, 1.0), Sample({"k": "b"}, 2.0))
    assert client.query("scalar(vector(7))") == (Sample({}, 7.0),)
    assert client.query("time()", at=1234.5) == (Sample({}, 1234.5),)  # evaluated at the time asked
    with pytest.raises(QueryFailed, match="expected an instant vector, got string"):
        client.query('"text"')


@e2e
def test_a_refused_query_names_the_endpoint_and_says_why(client: Client, prom: Prometheus) -> None:
    with pytest.raises(QueryFailed) as caught:
        client.query("sum(")
    error = caught.value
    assert error.where == f"--prometheus {prom.url}" and str(error).startswith(
        f"--prometheus {prom.url}: query refused"
    )
    assert "parse error" in error.reason and isinstance(error, GpuscopeError) and error.exit_code == 3


@e2e
def test_range_queries_and_a_long_expression_sent_as_a_form(client: Client) -> None:
    assert client.query_range("vector(3)", 1000, 1010, 5) == (
        Series({}, ((1000.0, 3.0), (1005.0, 3.0), (1010.0, 3.0))),
    )
    long = " + ".join(["vector(1)"] * 1000)  # about 11 KB: past what a proxy lets through in a URL
    assert client.query(long, at=1000) == (Sample({}, 1000.0),)
    assert client.query_range(long, 1000, 1001, 1) == (Series({}, ((1000.0, 1000.0), (1001.0, 1000.0))),)


@e2e
def test_targets_rules_alertmanagers_and_status(client: Client, prom: Prometheus) -> None:
    (target,) = client.targets()
    assert (target.job, target.health, target.last_error, target.scrape_timeout_s) == ("prometheus", "up", "", 1.0)
    rules = {r.name: r for r in client.rules()}
    assert set(rules) == {"job:up:sum", "AlwaysFiring"} and {r.group for r in rules.values()} == {"client-test"}
    assert rules["job:up:sum"].query == "sum by (job) (up)" and rules["job:up:sum"].health == "ok"
    assert client.alertmanagers() == ()
    assert "cluster: c1" in client.config() and re.match(r"[0-9]+\.[0-9]+\.[0-9]+", client.buildinfo())
    assert client.runtime_info().corruption_count == 0 and client.tsdb_status().head_series > 0
    assert client.flags()["storage.tsdb.path"].endswith("data")
    assert client.requests >= 8 and client.bytes_read > 0


@e2e
def test_series_labels_and_label_values(client: Client) -> None:
    (series,) = client.series(['up{job="prometheus"}'])
    assert series["__name__"] == "up" and series["job"] == "prometheus"
    assert {"__name__", "instance", "job"} <= set(client.labels(["up"]))
    assert client.label_values("job", ["up"]) == ("prometheus",)
    assert client.label_values("job", ['up{job="none"}']) == ()


@e2e
def test_the_async_transport_answers_the_same_and_bounds_what_is_in_flight(client: Client, prom: Prometheus) -> None:
    async def both(c: AsyncClient) -> tuple[Any, ...]:
        answers = await asyncio.gather(*(c.query(f"vector({i})", at=1000) for i in range(20)))
        return (answers, await c.targets(), await c.rules(), await c.label_values("job", ["up"]), c)

    answers, targets, rules, jobs, used = aio(both, prom.url, max_in_flight=3)
    assert answers == [(Sample({}, float(i)),) for i in range(20)]
    assert (targets, rules, jobs) == (client.targets(), client.rules(), ("prometheus",))
    assert used.requests == 23 and 0 < used.peak_in_flight <= 3 and used.in_flight == 0


# --- servers that misbehave ----------------------------------------------------------------------------------------


def answering(status: str, body: bytes, content_type: str = "application/json") -> Answer:
    def answer(path: str, handler: socketserver.StreamRequestHandler) -> None:
        head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\nConnection: close"
        send(handler, head, body)

    return answer


def failure(answer: Answer, call: Callable[[Client], Any], **limits: Any) -> ApiError:
    """What ``call`` raises against a server answering ``answer``, from the blocking transport."""
    with hostile(answer) as url, Client(Endpoint(url), limits=Limits(**limits)) as c, pytest.raises(ApiError) as caught:
        call(c)
    error = caught.value
    assert str(error).startswith(f"--prometheus {url}: ") and len(str(error).splitlines()) == 1
    return error


def async_failure(answer: Answer, **limits: Any) -> ApiError:
    async def ask(c: AsyncClient) -> ApiError:
        with pytest.raises(ApiError) as caught:
            await c.query("up")
        return caught.value

    with hostile(answer) as url:
        error: ApiError = aio(ask, url, limits=Limits(**limits))
    assert str(error).startswith(f"--prometheus {url}: ")
    return error


def query(c: Client) -> Any:
    return c.query("up")


def test_a_dripping_body_ends_at_the_deadline() -> None:
    # httpx's own timeouts are per read: a byte every half second would keep them happy for ever.
    error = failure(drip, query, timeout_s=1, timeout_flag="--query-timeout")
    assert isinstance(error, EndpointDown) and error.reason == "no answer within --query-timeout 1s"
    error = async_failure(drip, timeout_s=1)
    assert isinstance(error, EndpointDown) and error.reason == "no answer within --timeout 1s"


def test_a_shared_deadline_that_has_passed_sends_nothing() -> None:
    now = [0.0]
    deadline = Deadline(10, clock=lambda: now[0])
    asked: list[str] = []

    def count(path: str, handler: Handler) -> None:
        asked.append(path)
        answering("200 OK", json.dumps({"status": "success", "data": {"version": "3.0.0"}}).encode())(path, handler)

    with hostile(count) as url, Client(Endpoint(url), limits=Limits(timeout_s=10), deadline=deadline) as c:
        assert c.buildinfo() == "3.0.0"
        now[0] = 10.0
        with pytest.raises(EndpointDown, match="no answer within --timeout 10s"):
            c.buildinfo()
    assert len(asked) == 1


@pytest.mark.parametrize("answer", [endless, declared_huge], ids=["endless", "declared-huge"])
def test_a_huge_body_is_refused_at_the_cap(answer: Answer) -> None:
    error = failure(answer, query, max_body_bytes=1024 * 1024)
    assert isinstance(error, ApiUnusable) and "GET /api/v1/query answered more than 1 MiB" in error.reason
    error = async_failure(answer, max_body_bytes=1000)
    assert isinstance(error, ApiUnusable) and "answered more than 1000 bytes" in error.reason


def test_each_failure_is_sorted_by_what_the_user_can_do() -> None:
    envelope = {"status": "success", "data": {"resultType": "vector", "result": [{"metric": 1, "value": 2}]}}
    cases: list[tuple[Answer, type[ApiError], str]] = [
        (answering("503 Service Unavailable", b"overloaded\n", "text/plain"), EndpointDown, "answered 503"),
        (answering("401 Unauthorized", b"", "text/plain"), ApiUnusable, "401 Unauthorized: pass basic_auth_user"),
        (answering("403 Forbidden", b""), ApiUnusable, "403 Forbidden: these credentials may not read /api/v1/query"),
        (answering("200 OK", b"<html>Grafana</html>", "text/html"), ApiUnusable, "not a Prometheus API: GET"),
        (answering("200 OK", b'{"hello": 1}'), ApiUnusable, 'did not answer {"status": "success"'),
        (answering("200 OK", json.dumps(envelope).encode()), QueryFailed, "not a query result (AttributeError"),
        (answering("200 OK", b"[" * 100_000 + b"]" * 100_000), ApiUnusable, "not a Prometheus API"),
        (
            answering("503 Service Unavailable", b'{"status":"error","errorType":"timeout","error":"query timed out"}'),
            QueryFailed,
            "the query timed out (query timed out); raise --timeout or ask for less",
        ),
        (
            answering("422 Unprocessable Entity", b'{"status":"error","errorType":"execution","error":"too many"}'),
            QueryFailed,
            "query refused: too many",
        ),
        (redirect_loop, ApiUnusable, "GET /api/v1/query redirects to '/api/v1/query?"),
    ]
    for answer, kind, fragment in cases:
        error = failure(answer, query)
        assert type(error) is kind and fragment in str(error), (kind, fragment, error)
        error = async_failure(answer)
        assert type(error) is kind and fragment in str(error), (kind, fragment, error)
    # The library names the access options by parameter (the console has no flags); the doctor's CLI by its flags.
    unauthorized = failure(answering("401 Unauthorized", b"", "text/plain"), query)
    assert unauthorized.worded(flag_names("doctor")).endswith(
        "answered 401 Unauthorized: pass --basic-auth-user and --basic-auth-password-file, or --bearer-token-file"
    )


def test_a_refused_connection_and_a_bad_url(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    with Client(Endpoint(url, flag="--replica-b")) as c, pytest.raises(EndpointDown) as caught:
        c.query("up")
    assert str(caught.value).startswith(f"--replica-b {url}: cannot connect")
    logged: list[ApiError] = []

    async def ask(c: AsyncClient) -> None:
        with pytest.raises(EndpointDown, match="cannot connect"):
            await c.query("up")

    aio(ask, url, on_failure=logged.append)
    assert [type(e) for e in logged] == [EndpointDown]
    with pytest.raises(UsageError, match=r"--global 'prometheus:9090' is not an http:// or https:// URL"):
        Endpoint("prometheus:9090", flag="--global")
    for url, problem in (
        ("http://am\n:9093", "holds white space or a control character"),
        ("http://a b", "holds white space or a control character"),
        ("http://", "names no host"),
        ("http://[::1", "is not a URL"),
        ("http://" + "a" * 5000, "is longer than 2048 characters"),
    ):
        with pytest.raises(UsageError) as refused:
            Endpoint(url, flag="--alertmanager", kind="Alertmanager")
        said = str(refused.value)  # one line, of bounded length, the URL quoted with its line break escaped
        assert problem in said and "pass e.g. http://alertmanager:9093" in said
        assert len(said) < 400 and "\n" not in said
