"""Item 7 and 13 of the hostile-input audit: doctor against hostile servers (a body dripping one byte at a time,
endless and huge bodies, redirects, JSON of the wrong shape or nested thousands deep) ends within its
--timeout with one line and exit 3, never a hang, a traceback, gigabytes or a header sent to another host; a
Prometheus answering NaN or +Inf where a check needs a count is that check's "could not evaluate".

The server is a real HTTP/1.1 server on loopback whose handlers misbehave on purpose (tests/support/hostile_http.py).
"""

from __future__ import annotations

import asyncio
import json
import re
import socketserver
import urllib.parse
from pathlib import Path

import pytest

from gpuscope.prom import AsyncClient, Endpoint, aio
from gpuscope.runner.plan import plan_stack
from gpuscope.runner.status import QUERY_LABEL, StackStatus, gather
from gpuscope.spec.load import parse_fleet
from tests.support.doctor import assert_cannot_audit, doctor_cli
from tests.support.hostile_http import Answer, Handler, declared_huge, drip, endless, hostile, redirect_loop, send
from tests.support.specs import ONE, fleet

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(180)]

BUILDINFO = json.dumps({"status": "success", "data": {"version": "2.42.0"}}).encode()


def json_answer(body: bytes, path: str, handler: socketserver.StreamRequestHandler) -> None:
    data = BUILDINFO if path.startswith("/api/v1/status/buildinfo") else body
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\nConnection: close"
    send(handler, head, data)


def test_a_dripping_body_ends_at_the_deadline() -> None:
    with hostile(drip) as url:
        done = doctor_cli("--prometheus", url, "--timeout", "2", timeout=60)  # without the deadline: for ever
    assert_cannot_audit(done, f"--prometheus {url}: no answer within --timeout 2s")


@pytest.mark.parametrize("answer", [endless, declared_huge], ids=["endless", "declared-huge"])
def test_a_huge_body_is_refused_at_the_cap(answer: Answer) -> None:
    with hostile(answer) as url:
        done = doctor_cli("--prometheus", url, "--timeout", "60", timeout=120)
    assert_cannot_audit(done, f"--prometheus {url}: GET /api/v1/status/buildinfo answered more than 32 MiB")


def test_a_redirect_loop_is_one_line() -> None:
    with hostile(redirect_loop) as url:
        done = doctor_cli("--prometheus", url, "--timeout", "20", timeout=60)
    assert_cannot_audit(done, "GET /api/v1/status/buildinfo redirects to '/api/v1/status/buildinfo'")


def test_a_redirect_to_another_host_is_not_followed_with_the_headers(tmp_path: Path) -> None:
    """httpx drops Authorization on a cross-origin redirect, but followed it with every --header: the tenant header
    (or an API key passed as one) went to whatever host the Location named. Now the other host hears nothing."""
    heard: list[tuple[str, dict[str, str]]] = []

    def record(path: str, handler: Handler) -> None:
        heard.append((path, dict(handler.headers)))
        send(
            handler,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close",
            b"{}",
        )

    token = tmp_path / "token"
    token.write_text("s3cret-token\n")
    with hostile(record) as elsewhere:

        def moved(path: str, handler: Handler) -> None:
            send(
                handler, f"HTTP/1.1 302 Found\r\nLocation: {elsewhere}{path}\r\nContent-Length: 0\r\nConnection: close"
            )

        with hostile(moved) as url:
            done = doctor_cli(
                "--prometheus", url, "--header", "X-Scope-OrgID: tenant-secret", "--bearer-token-file", str(token),
                "--timeout", "20", timeout=60,
            )  # fmt: skip
    assert heard == []  # not a request, not a header
    assert_cannot_audit(done, f"GET /api/v1/status/buildinfo redirects to '{elsewhere}/api/v1/status/buildinfo'")


def every_query(value: str) -> Answer:
    """A Prometheus that answers every API call as a small healthy one would, and every query with one sample of
    ``value`` (``NaN``: 0/0 is ordinary PromQL; ``+Inf``), labelled so that detection finds an exporter job."""

    def answer(path: str, handler: Handler) -> None:
        data: object = {
            "/api/v1/status/buildinfo": {"version": "2.45.0"},
            "/api/v1/status/runtimeinfo": {"corruptionCount": 0},
            "/api/v1/status/config": {"yaml": "global:\n  external_labels: {cluster: c1, replica: a}\n"},
            "/api/v1/status/tsdb": {"headStats": {"numSeries": 10}},
            "/api/v1/rules": {"groups": []},
            "/api/v1/alertmanagers": {"activeAlertmanagers": []},
            "/api/v1/targets": {"activeTargets": []},
            "/api/v1/labels": ["DCGM_FI_DEV_GPU_TEMP", "Hostname", "UUID", "gpu"],
            "/api/v1/series": [],
        }.get(path.partition("?")[0])
        if path.startswith("/api/v1/query"):
            sample = {"metric": {"job": "gpuscope", "instance": "n1:9400"}, "value": [1.0, value]}
            data = {"resultType": "vector", "result": [sample]}
        json_answer(json.dumps({"status": "success", "data": data}).encode(), path, handler)

    return answer


@pytest.mark.parametrize("value", ["NaN", "+Inf"])
def test_a_prometheus_answering_non_finite_numbers_is_could_not_evaluate(value: str) -> None:
    """``int(NaN)`` of a count was a traceback (ValueError) that ended the audit; now each check that needs the
    number says it could not evaluate it (a WARN, exit 1 or 2 as the other checks go), and the JSON report holds
    no NaN (JSON has none)."""
    with hostile(every_query(value)) as url:
        done = doctor_cli("--prometheus", url, "--replica-b", url, "--json", "--timeout", "30", timeout=90)
    assert "Traceback" not in done.stderr and done.stderr.strip() == "", done.stderr
    report = json.loads(done.stdout, parse_constant=lambda name: pytest.fail(f"{name} in the JSON report"))
    assert done.returncode in (1, 2) and report["exit_code"] == done.returncode
    checks = {c["id"]: c for c in report["checks"]}
    for check in ("exporter-targets", "gpus-reporting", "ha-pair"):  # int() of a count, on either replica
        assert checks[check]["status"] == "WARN", checks[check]
        summary = checks[check]["summary"]
        assert summary.startswith("could not evaluate: ") and f"answered {value}, not a finite number" in summary
        assert "\n" not in summary


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        # The first answer read of the wrong shape ends the audit (the client's own tests cover each call).
        (json.dumps({"status": "success", "data": [1, 2]}).encode(), "unexpected shape (AttributeError"),
        (
            json.dumps(
                {"status": "success", "data": {"resultType": "vector", "result": [{"metric": 1, "value": 2}]}}
            ).encode(),
            "unexpected shape (TypeError",
        ),
        (b"[" * 200_000 + b"]" * 200_000, "not a Prometheus API"),
    ],
    ids=["list-for-object", "number-for-labels", "nested-200000-deep"],
)
def test_json_of_the_wrong_shape_is_one_line(body: bytes, fragment: str) -> None:
    with hostile(lambda path, handler: json_answer(body, path, handler)) as url:
        done = doctor_cli("--prometheus", url, "--timeout", "20", timeout=60)
    assert_cannot_audit(done, f"--prometheus {url}", fragment)


@pytest.mark.parametrize("flag", ["--ca-file", "--bearer-token-file", "--fleet"])
def test_a_device_given_as_a_file_is_refused_before_any_request(flag: str) -> None:
    done = doctor_cli("--prometheus", "http://127.0.0.1:1", flag, "/dev/zero", "--timeout", "5", timeout=60)
    assert_cannot_audit(done, flag, "/dev/zero", "not a regular file")


def floor_parts(value: str) -> Answer:
    """A Prometheus answering each part of the live view's combined floor query (``runner.status.combined``) with
    one sample of ``value``, and every other query (the global store's counts by cluster) likewise."""

    def answer(path: str, handler: Handler) -> None:
        asked = urllib.parse.unquote_plus(path + "&" + handler.body.decode("latin-1"))
        names = re.findall(rf'"{QUERY_LABEL}", "([^"]+)"', asked) or [""]
        samples = [
            {"metric": {QUERY_LABEL: name, "cluster": "gpu-a"} if name else {"cluster": "gpu-a"}, "value": [1.0, value]}
            for name in names
        ]
        data: object = {"resultType": "vector", "result": samples} if path.startswith("/api/v1/query") else []
        if path.startswith(("/api/v1/targets", "/api/v1/rules", "/api/v1/alertmanagers")):
            data = {"activeTargets": [], "groups": [], "activeAlertmanagers": []}
        json_answer(json.dumps({"status": "success", "data": data}).encode(), path, handler)

    return answer


@pytest.mark.parametrize("value", ["NaN", "+Inf"])
def test_the_live_view_reads_non_finite_counts_as_none(value: str) -> None:
    """The live view (``gpuscope up``, ``gpuscope status --json``) judges the same floor: a NaN count of targets up
    was ``int()``'s traceback every second; now the count is 0, the floor check says it could not evaluate, the
    global store's NaN count by cluster is skipped, and the JSON record holds no NaN."""
    plan = plan_stack(parse_fleet(fleet(ONE), "<test>", Path.cwd()).spec, fast=True)

    async def ask(url: str) -> StackStatus:
        async with aio.http_client() as http:
            names = [n for n in plan.urls() if n.startswith("prometheus-") or n in ("global", "alertmanager")]
            return await gather(plan, {n: AsyncClient(Endpoint(url, flag=n), http) for n in names}, 0)

    with hostile(floor_parts(value)) as url:
        status = asyncio.run(ask(url))
    replica = status.clusters[0].replicas["a"]
    assert (replica.reachable, replica.targets_up, replica.gpus_reporting, replica.samples_per_second) == (
        True, 0, 0, 0.0,
    )  # fmt: skip
    targets = next(c for c in replica.floor if c.name == "Exporter targets up")
    assert targets.detail.startswith("could not evaluate: ") and f"answered {value}, not a finite" in targets.detail
    assert status.global_gpus_by_cluster == {}
    json.dumps(status.to_json(), allow_nan=False)
