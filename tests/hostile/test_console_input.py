"""Issue 37, the console: an alert's ``runbook_url`` is a link only when it is http(s) (``javascript:`` and
``data:`` are text, in a real Chromium); a web page elsewhere cannot make the console relay a fault to the stack
(a cross-site ``text/plain`` POST, sent by Chromium from another origin, is refused with 403 and nothing reaches
the control API), nor reach the control API itself; a rebound DNS name is refused; an endless Prometheus answer
is cut at the body cap with memory bounded; a request that cannot get a query slot is answered 503 in time.

Everything is real HTTP on loopback: the console (``gpuscope console``, or its app in this process where the test
needs a control API), a recording control API, hostile Prometheus and Alertmanager servers, the stack's real
control API over a real ``Stack``.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import socketserver
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from gpuscope.console.server import ConsoleSettings
from gpuscope.httpd.guard import HttpLimits
from gpuscope.httpd.site import Site
from gpuscope.runner.control import control_app
from gpuscope.runner.plan import builtin_spec_text, plan_stack
from gpuscope.runner.stack import Stack
from gpuscope.spec.load import parse_fleet
from tests.support.browser import loaded, running_chromium, wait
from tests.support.console import in_process_console
from tests.support.hostile_http import drip, endless, hostile, send
from tests.support.net import free_port, wait_for
from tests.support.upstack import generated_builtin_bundle

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

RUNBOOKS = {
    "ScriptScheme": "javascript:document.body.dataset.pwned='1'",
    "ScriptBehindSpace": " javascript:document.body.dataset.pwned='1'",
    "DataScheme": "data:text/html,<script>alert(1)</script>",
    "HttpsRunbook": "https://runbooks.example/GPUFellOffBus",
    "RelativeRunbook": "runbooks/GPUFellOffBus.md",
}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated_builtin_bundle(tmp_path_factory.mktemp("bundle"))


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    with running_chromium() as driver:
        yield driver


class Recorder:
    """A control API stand-in on loopback that records every request it gets and answers ``{"ok": true}``."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, bytes]] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                recorder.requests.append((self.command, self.path, self.rfile.read(length)))
                body = json.dumps({"ok": True, "message": "recorded"}).encode() if self.command != "GET" else b"[]"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = do_DELETE = _answer

            def log_message(self, *_: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def faults(self) -> list[tuple[str, str, bytes]]:
        return [r for r in self.requests if r[1].startswith("/faults")]


@contextmanager
def cli_console(*args: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpuscope", "console", "--listen", f"127.0.0.1:{port}", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/api/dashboards", timeout=5).status_code == 200, what="the console")
        yield url, proc
    finally:
        proc.terminate()
        proc.wait(30)


def page_token(url: str) -> str:
    """The token the console serves with its page, as the page's own script reads it."""
    match = re.search(r'<meta name="gpuscope-token" content="([^"]+)">', httpx.get(url, timeout=10).text)
    assert match, "the page carries no token"
    return match.group(1)


def alertmanager_answer(path: str, handler: socketserver.StreamRequestHandler) -> None:
    alerts: list[Any] = [
        {
            "labels": {"alertname": name, "owner": "infra", "severity": "page"},
            "annotations": {"summary": f"{name} fired", "runbook_url": url},
            "startsAt": "2026-12-01T00:00:00Z",
            "status": {"state": "active", "inhibitedBy": []},
        }
        for name, url in RUNBOOKS.items()
    ]
    alerts += [5, {"labels": 5, "annotations": ["x"], "status": "firing"}]  # wrong types: skipped, no 500
    body = json.dumps(alerts).encode()
    head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\nConnection: close"
    send(handler, head, body)


def test_only_http_runbooks_are_links(tmp_path: Path, bundle: Path, browser: webdriver.Chrome) -> None:
    with (
        hostile(alertmanager_answer) as am,
        in_process_console(
            ConsoleSettings(bundle=bundle, prometheus_url="http://127.0.0.1:9", alertmanager_url=am)
        ) as url,
    ):
        browser.get(f"{url}/alerts")
        wait(browser, loaded)
        found = len(browser.find_elements(By.CSS_SELECTOR, "tr.alert"))
        assert found == len(RUNBOOKS), browser.find_element(By.TAG_NAME, "body").text
        links = {
            row.get_attribute("data-alertname"): [a.get_attribute("href") for a in row.find_elements(By.TAG_NAME, "a")]
            for row in browser.find_elements(By.CSS_SELECTOR, "tr.alert")
        }
        assert links == {
            "DataScheme": [],
            "HttpsRunbook": ["https://runbooks.example/GPUFellOffBus"],
            "RelativeRunbook": [f"{url}/runbooks/GPUFellOffBus.md"],
            "ScriptBehindSpace": [],
            "ScriptScheme": [],
        }
        shown = sorted(e.text for e in browser.find_elements(By.CSS_SELECTOR, ".runbook-text"))
        assert shown == sorted(RUNBOOKS[n].strip() for n in ("DataScheme", "ScriptBehindSpace", "ScriptScheme"))
        for text in browser.find_elements(By.CSS_SELECTOR, ".runbook-text"):
            text.click()  # text, not a link: nothing runs
        assert browser.execute_script("return document.body.dataset.pwned") is None


def attacker_page(target: str) -> str:
    """A page on another origin that posts a fault the way any web site could: no preflight, no credentials."""
    return f"""<!doctype html><title>loading</title><script>
    const body = JSON.stringify({{fault: "global-down"}});
    Promise.allSettled([
      fetch("{target}/api/faults",
            {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}}, body}}),
      fetch("{target}/api/faults", {{method: "POST", mode: "no-cors", body: new Blob([body])}}),
    ]).then(() => {{ document.title = "sent"; }});
    </script>"""


@contextmanager
def serving(text: str) -> Iterator[str]:
    def answer(path: str, handler: socketserver.StreamRequestHandler) -> None:
        body = text.encode()
        send(handler, f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {len(body)}", body)

    with hostile(answer) as url:
        yield url


def test_a_cross_site_post_is_refused_and_the_page_own_post_goes_through(
    bundle: Path, browser: webdriver.Chrome
) -> None:
    control = Recorder()
    settings = ConsoleSettings(bundle=bundle, prometheus_url="http://127.0.0.1:9", control_url=control.url)
    with in_process_console(settings) as url:
        with serving(attacker_page(url)) as evil:
            browser.get(evil)
            wait(browser, lambda d: d.title == "sent", what="the attacker's page to send its POSTs")
        assert control.faults() == []  # nothing was relayed to the stack
        fault = json.dumps({"fault": "global-down"})
        for headers in (
            {"Content-Type": "text/plain", "Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
            {"Content-Type": "application/json"},  # no token: what a script on another origin can send at best
            {"Content-Type": "application/json", "X-Gpuscope-Token": "guessed"},
            {"Content-Type": "application/json", "X-Gpuscope-Token": page_token(url), "Origin": "http://evil.example"},
        ):
            refused = httpx.post(f"{url}/api/faults", content=fault, headers=headers, timeout=10)
            assert refused.status_code == 403, (headers, refused.text)
            assert refused.json()["error"], refused.text
        for path in ("/api/panel", "/api/variables"):  # every POST, not only the faults
            assert httpx.post(f"{url}{path}", json={"uid": "local-l1-fleet"}, timeout=10).status_code == 403
        assert control.faults() == []
        own = {"X-Gpuscope-Token": page_token(url), "Origin": url, "Sec-Fetch-Site": "same-origin"}
        relayed = httpx.post(f"{url}/api/faults", json={"fault": "global-down"}, headers=own, timeout=10)
        assert relayed.status_code == 200, relayed.text
        assert [(m, p, json.loads(b)) for m, p, b in control.faults()] == [
            ("POST", "/faults", {"fault": "global-down"})
        ]


def test_a_rebound_dns_name_gets_no_page_and_no_token(bundle: Path) -> None:
    settings = ConsoleSettings(bundle=bundle, prometheus_url="http://127.0.0.1:9")
    with in_process_console(settings) as url:
        port = url.rsplit(":", 1)[1]
        for host in (f"attacker.example:{port}", "attacker.example"):
            refused = httpx.get(url, headers={"Host": host}, timeout=10)
            assert refused.status_code == 421 and "gpuscope-token" not in refused.text, refused.text
        for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
            assert httpx.get(url, headers={"Host": host}, timeout=10).status_code == 200


def test_the_control_api_refuses_what_a_browser_sends(tmp_path: Path) -> None:
    loaded_spec = parse_fleet(builtin_spec_text(), "builtin-fleet.yaml", tmp_path)
    (tmp_path / "data").mkdir()
    stack = Stack(plan_stack(loaded_spec.spec, fast=True), loaded_spec, tmp_path / "data")
    port = free_port()
    loop = asyncio.new_event_loop()
    site = Site(control_app(stack), HttpLimits())
    loop.run_until_complete(site.start("127.0.0.1", port))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    try:
        fault = json.dumps({"fault": "global-down"})
        for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}):
            refused = httpx.post(f"{url}/faults", content=fault, headers={"Content-Type": "text/plain", **headers})
            assert refused.status_code == 403 and "web pages" in refused.json()["error"], refused.text
            webhook = httpx.post(f"{url}/webhook/infra", content="{}", headers=headers, timeout=10)
            assert webhook.status_code == 403
            assert httpx.delete(f"{url}/faults", headers=headers, timeout=10).status_code == 403
        assert stack.notifications == [] and list(stack.events) == []
        # a program (Alertmanager, gpuscope inject, the console's server) sends no Origin: it is served
        assert httpx.post(f"{url}/webhook/infra", json={"alerts": []}, timeout=10).status_code == 200
        assert len(stack.notifications) == 1
    finally:
        asyncio.run_coroutine_threadsafe(site.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


def peak_rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_an_endless_prometheus_answer_is_cut_at_the_cap(bundle: Path) -> None:
    with (
        hostile(endless) as prometheus,
        cli_console("--bundle", str(bundle), "--prometheus", prometheus, "--query-timeout", "120") as (url, proc),
    ):
        token = page_token(url)
        answers: list[httpx.Response] = []

        def panel() -> None:  # the fleet table: nine queries at once, each answered without end
            body = {"uid": "local-l1-fleet", "panel": 9}
            answers.append(httpx.post(f"{url}/api/panel", json=body, headers={"X-Gpuscope-Token": token}, timeout=200))

        threads = [threading.Thread(target=panel) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [a.status_code for a in answers] == [200] * 4
        for answer in answers:
            errors = answer.json()["errors"]
            assert errors and all(
                f"--prometheus {prometheus}: " in e and "answered more than 16 MiB" in e for e in errors
            )
        # 36 endless answers, at most 8 read at once and each cut at 16 MiB: a few hundred MiB at the very most,
        # where reading them whole grows by gigabytes until the deadline
        assert peak_rss_kib(proc.pid) < 768 * 1024
        assert proc.poll() is None


def test_waiting_for_a_query_slot_has_a_deadline(bundle: Path) -> None:
    with socket.socket() as hung:  # takes connections, never answers: every slot stays busy
        hung.bind(("127.0.0.1", 0))
        hung.listen(64)
        prometheus = f"http://127.0.0.1:{hung.getsockname()[1]}"
        args = ("--bundle", str(bundle), "--prometheus", prometheus, "--max-in-flight", "1")
        with cli_console(*args, "--query-timeout", "120", "--queue-timeout", "1") as (url, proc):
            # the fleet table's nine queries share one slot: the first holds it, the second gives up after 1 s
            body = {"uid": "local-l1-fleet", "panel": 9}
            busy = httpx.post(f"{url}/api/panel", json=body, headers={"X-Gpuscope-Token": page_token(url)}, timeout=60)
            assert busy.status_code == 503, busy.text
            assert busy.json()["error"] == (
                f"--prometheus {prometheus}: all 1 query slots stayed busy for 1s: the endpoint is slow or "
                "overloaded; try again, or raise --query-timeout"
            )
            assert proc.poll() is None


def test_a_dripping_prometheus_ends_at_the_query_timeout(bundle: Path) -> None:
    with (
        hostile(drip) as prometheus,
        cli_console("--bundle", str(bundle), "--prometheus", prometheus, "--query-timeout", "2") as (url, proc),
    ):
        # without a total deadline a drip resets every read timeout: the panel would never be answered
        body = {"uid": "local-l1-fleet", "panel": 2}
        answer = httpx.post(f"{url}/api/panel", json=body, headers={"X-Gpuscope-Token": page_token(url)}, timeout=60)
        assert answer.status_code == 200, answer.text
        assert answer.json()["errors"] == [f"A: --prometheus {prometheus}: no answer within --query-timeout 2s"]
        assert proc.poll() is None
