"""``gpuscope console`` when things are wrong: a bundle without dashboards, Prometheus unreachable, a query past
its deadline, bad flags. Each is a clear message in the page and in the log, and the console keeps running."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By

from tests.support.browser import errors, loaded, panels, running_chromium, wait
from tests.support.console import running_console
from tests.support.net import free_port
from tests.support.upstack import cli, generated_builtin_bundle

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generated_builtin_bundle(tmp_path_factory.mktemp("bundle"))


@pytest.fixture(scope="module")
def browser() -> Iterator[webdriver.Chrome]:
    with running_chromium() as driver:
        yield driver


@pytest.fixture
def hung_prometheus() -> Iterator[str]:
    """A TCP listener that takes connections and never answers: a Prometheus stuck on a query."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_bundle_without_dashboards(tmp_path: Path, browser: webdriver.Chrome) -> None:
    (tmp_path / "empty").mkdir()
    with running_console(tmp_path, "--bundle", str(tmp_path / "empty"), "--prometheus", "http://127.0.0.1:9") as c:
        browser.get(c.url)
        wait(browser, loaded)
        banner = browser.find_element(By.CSS_SELECTOR, "[data-problem]").text
        assert "no dashboards in" in banner and "gpuscope generate" in banner
        assert "no dashboards in" in c.log_text()
        browser.get(f"{c.url}/d/local-l2-cluster")
        wait(browser, loaded)
        shown = " ".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, "[data-problem]"))
        assert "no dashboard local-l2-cluster in the bundle (dashboards: none)" in shown and "no dashboards in" in shown
        assert c.proc.poll() is None
        assert errors(browser) == []


def test_prometheus_unreachable(tmp_path: Path, bundle: Path, browser: webdriver.Chrome) -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    with running_console(tmp_path, "--bundle", str(bundle), "--prometheus", closed) as c:
        browser.get(f"{c.url}/d/local-l2-cluster")
        wait(browser, loaded)
        found = panels(browser)
        assert found and all(p["state"] == "error" and "cannot connect" in p["errors"] for p in found), found
        message = browser.find_element(By.CSS_SELECTOR, "section.panel .panel-message.error").text
        assert f"--prometheus {closed}: cannot connect" in message
        assert f"--prometheus {closed}: cannot connect" in c.log_text()
        assert browser.find_elements(By.CSS_SELECTOR, "#variables .var-error")  # the variables say so too
        assert c.proc.poll() is None and httpx.get(f"{c.url}/api/stats", timeout=5).json()["queries"] > 0
        assert errors(browser) == []
        # hostile requests: one line saying what is wrong, status 400, and the console carries on (each carries the
        # page's token: without it, any POST is a 403, tests/hostile/test_console_input.py)
        token = re.search(r'name="gpuscope-token" content="([^"]+)"', httpx.get(c.url, timeout=5).text)
        assert token is not None
        for path, body, needle in [
            ("/api/panel", b"{not json", "expected a JSON object"),
            ("/api/panel", b'["a"]', "expected a JSON object"),
            ("/api/panel", b'{"uid": "nope"}', "no dashboard 'nope'"),
            ("/api/panel", b'{"uid": "local-l2-cluster", "panel": "x"}', "panel must be a whole number"),
            ("/api/panel", b'{"uid": "local-l2-cluster", "panel": 9999}', "has no panel 9999"),
            ("/api/variables", b'{"uid": "local-l2-cluster", "from": "yesterday"}', "time 'yesterday'"),
            ("/api/faults", b'{"fault": "thermal"}', "only be injected into a local stack"),
        ]:
            response = httpx.post(
                f"{c.url}{path}", content=body, headers={"X-Gpuscope-Token": token.group(1)}, timeout=5
            )
            assert response.status_code == 400 and needle in response.json()["error"], (path, body, response.text)
        assert c.proc.poll() is None


def test_query_timeout(tmp_path: Path, bundle: Path, browser: webdriver.Chrome, hung_prometheus: str) -> None:
    args = ("--bundle", str(bundle), "--prometheus", hung_prometheus, "--query-timeout", "0.5", "--max-in-flight", "4")
    with running_console(tmp_path, *args) as c:
        browser.get(f"{c.url}/d/local-l1-fleet")
        wait(browser, loaded)
        found = panels(browser)
        assert found and all("no answer within --query-timeout 0.5s" in p["errors"] for p in found), found
        assert "no answer within --query-timeout 0.5s" in c.log_text()
        stats = httpx.get(f"{c.url}/api/stats", timeout=5).json()
        assert stats["peak_in_flight"] <= 4 < stats["queries"]  # bounded, though every query hung
        assert c.proc.poll() is None


def test_bad_flags_are_one_line_and_exit_2(tmp_path: Path) -> None:
    for args, needle in [
        (("--prometheus", "localhost:9090"), "--prometheus 'localhost:9090': expected an http:// or https:// URL"),
        (("--prometheus", "http://x", "--listen", "nowhere"), "--listen 'nowhere': expected host:port"),
    ]:
        done = cli("console", "--bundle", str(tmp_path), *args, timeout=30)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and needle in done.stderr, done
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = cli("console", "--bundle", str(tmp_path), "--prometheus", "http://x", "--listen", f"127.0.0.1:{port}")
    assert done.returncode == 2 and f"--listen 127.0.0.1:{port}: cannot serve there" in done.stderr, done
