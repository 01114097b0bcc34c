"""The Alerts page's runbook link opens the runbook: the console serves the bundle's ``runbooks/<alert>.md`` at
the path an alert's default ``runbook_url`` resolves to from the page, escaped, and nothing else (no other file,
no path out of the bundle's runbooks). Real HTTP: the console's server on loopback, in this process."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from gpuscope.console.server import ConsoleSettings
from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.rules import alerts, runbooks
from gpuscope.rules.render import runbook_url
from gpuscope.runner.plan import builtin_spec_text
from gpuscope.spec.load import parse_fleet
from tests.support.console import in_process_console

pytestmark = pytest.mark.e2e


def local_rules() -> RulesConfig:
    """The rules of the local stack's built-in fleet, whose bundle the console serves."""
    return parse_fleet(builtin_spec_text(), "builtin-fleet.yaml", Path.cwd()).spec.rules_config()


@pytest.fixture
def console(tmp_path: Path) -> Iterator[str]:
    bundle = tmp_path / "bundle"
    (bundle / "runbooks").mkdir(parents=True)
    for name, text in runbooks(local_rules()).items():
        (bundle / "runbooks" / name).write_text(text)
    # an operator's edit that must not run in the console's origin, and files the route must never reach
    (bundle / "runbooks" / "Edited.md").write_text("# Edited\n<script>document.title='pwned'</script>\n")
    (bundle / "README.md").write_text("the bundle's readme, not a runbook\n")
    (tmp_path / "secret.md").write_text("a secret next to the bundle\n")
    settings = ConsoleSettings(bundle=bundle, prometheus_url="http://127.0.0.1:9")
    with in_process_console(settings) as url:
        yield url


def raw_get(base: str, path: str) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (an HTTP client library would resolve its dot segments first)."""
    where = urlsplit(base)
    conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=10)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def test_the_alerts_page_link_opens_the_runbook(console: str) -> None:
    config = local_rules()
    fell_off = next(a for a in alerts(config) if a.name == "GPUFellOffBus")
    link = urljoin(f"{console}/alerts", runbook_url(config, fell_off))  # as the browser resolves the page's href
    page = httpx.get(link, timeout=10)
    assert page.status_code == 200, page.text
    assert page.headers["content-type"].startswith("text/html")
    assert runbooks(config)["GPUFellOffBus.md"].splitlines()[0].replace("&", "&amp;") in page.text


def test_a_runbook_is_shown_as_escaped_text(console: str) -> None:
    page = httpx.get(f"{console}/runbooks/Edited.md", timeout=10)
    assert page.status_code == 200
    assert "<script>" not in page.text and "&lt;script&gt;document.title=" in page.text


@pytest.mark.parametrize(
    "path",
    [
        "/runbooks/NoSuchAlert.md",
        "/runbooks/../README.md",
        "/runbooks/..%2FREADME.md",
        "/runbooks/..%2F..%2Fsecret.md",
        "/runbooks/%2e%2e/%2e%2e/secret.md",
        "/runbooks/GPUFellOffBus.md%00.txt",
        "/runbooks/",
    ],
)
def test_nothing_but_a_runbook_is_served(console: str, path: str) -> None:
    status, body = raw_get(console, path)
    assert status == 404, (path, body[:200])
    assert b"readme, not a runbook" not in body and b"a secret" not in body
