"""The server's routes beyond exact GET paths, as the console, the remediator, the stack's control API and the
simulator use them: ``{name}`` path parameters, a static directory (nothing outside it, whatever the path says),
POST/DELETE, JSON in and out, and a site that stops with its keep-alive connections. Real HTTP on loopback."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from gpuscope.httpd.guard import HttpLimits
from gpuscope.httpd.server import (
    App,
    PathPattern,
    Request,
    Response,
    delete,
    get,
    json_response,
    post,
    static,
)
from gpuscope.httpd.site import Site
from tests.support.net import free_port
from tests.support.rawhttp import closed_by_peer, keepalive_get, read_response


@contextmanager
def serving(app: App) -> Iterator[tuple[str, Site, asyncio.AbstractEventLoop]]:
    """``app`` on a ``Site`` on loopback, on its own event loop thread; its URL, the site and the loop."""
    loop = asyncio.new_event_loop()
    site = Site(app, HttpLimits())
    port = free_port()
    loop.run_until_complete(site.start("127.0.0.1", port))
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}", site, loop
    finally:
        asyncio.run_coroutine_threadsafe(site.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)
        loop.close()


def raw_status(url: str, path: str) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (a client library would resolve its dot segments first)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        answer = read_response(sock)
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize(
    ("pattern", "path", "found"),
    [
        ("/api/dashboards/{uid}", "/api/dashboards/abc", {"uid": "abc"}),
        ("/api/dashboards/{uid}", "/api/dashboards/", None),  # a parameter is never empty
        ("/api/dashboards/{uid}", "/api/dashboards/a/b", None),  # nor more than one segment
        ("/api/dashboards/{uid}", "/api/dashboards", None),
        ("/d/{uid}/{slug}", "/d/x/y", {"uid": "x", "slug": "y"}),
        ("/d/{uid}/{slug}", "/d/x", None),
        ("/webhook/{receiver}", "/hook/infra", None),
        ("/static/{path*}", "/static/vendor/u.js", {"path": "vendor/u.js"}),
        ("/static/{path*}", "/static/", None),
        ("/static/{path*}", "/static//etc/passwd", None),  # an empty segment: never an absolute path
        ("/static/{path*}", "/static", None),
    ],
)
def test_path_patterns(pattern: str, path: str, found: dict[str, str] | None) -> None:
    assert PathPattern.of(pattern).match(path) == found


def test_a_rest_segment_is_last_only() -> None:
    with pytest.raises(ValueError, match="can only be the last"):
        PathPattern.of("/static/{path*}/x")


def test_parameters_methods_and_json_over_http() -> None:
    seen: list[tuple[str, object, dict[str, str]]] = []

    async def model(request: Request) -> Response:
        return json_response({"uid": request.match_info["uid"]})

    async def exact(_request: Request) -> Response:
        return Response.text("exact\n")

    async def record(request: Request) -> Response:
        seen.append((request.match_info["receiver"], await request.json(), request.query))
        return json_response({"ok": True}, status=201, headers={"X-Seen": str(len(seen))})

    async def clear(request: Request) -> Response:
        return json_response({"cleared": request.query.get("cluster")})

    app = App(max_body_bytes=1024)
    app.add([get("/api/dashboards/{uid}", model), get("/api/dashboards/fixed", exact)])
    app.add([post("/webhook/{receiver}", record), delete("/faults", clear)])
    with serving(app) as (url, _site, _loop):
        answer = httpx.get(f"{url}/api/dashboards/local-l1-fleet")
        assert answer.status_code == 200 and answer.json() == {"uid": "local-l1-fleet"}
        assert answer.headers["content-type"] == "application/json; charset=utf-8"
        assert httpx.get(f"{url}/api/dashboards/fixed").text == "exact\n"  # an exact path before any pattern
        assert httpx.head(f"{url}/api/dashboards/x").status_code == 200
        refused = httpx.delete(f"{url}/api/dashboards/x")
        assert refused.status_code == 405 and refused.headers["allow"] == "GET,HEAD"
        for path in ("/api/dashboards/", "/api/dashboards/a/b", "/webhook/"):
            assert httpx.get(f"{url}{path}").status_code == 404, path
        posted = httpx.post(f"{url}/webhook/infra?x=1&x=2&y=%2F", json={"alerts": []})
        assert posted.status_code == 201 and posted.headers["x-seen"] == "1"
        assert seen == [("infra", {"alerts": []}, {"x": "1", "y": "/"})]
        assert httpx.delete(f"{url}/faults?cluster=c1").json() == {"cleared": "c1"}
        assert httpx.get(f"{url}/faults").status_code == 405


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "static"
    (root / "vendor").mkdir(parents=True)
    (root / "app.js").write_text("export const x = 1;\n")
    (root / "vendor" / "u.css").write_text("body {}\n")
    (tmp_path / "secret.txt").write_text("a secret next to the static folder\n")
    (root / "out.txt").symlink_to(tmp_path / "secret.txt")  # a link out of the folder
    (root / "up").symlink_to(tmp_path)
    return root


def test_a_static_folder_serves_its_files(tree: Path) -> None:
    app = App(max_body_bytes=1024)
    app.add([static("/static", tree)])
    with serving(app) as (url, _site, _loop):
        script = httpx.get(f"{url}/static/app.js")
        assert script.status_code == 200 and script.text == "export const x = 1;\n"
        assert script.headers["content-type"].split(";")[0] in ("text/javascript", "application/javascript")
        style = httpx.get(f"{url}/static/vendor/u.css")
        assert style.status_code == 200 and style.headers["content-type"] == "text/css; charset=utf-8"
        head = httpx.head(f"{url}/static/vendor/u.css")
        assert head.status_code == 200 and head.content == b""


@pytest.mark.parametrize(
    "path",
    [
        "/static/../secret.txt",
        "/static/vendor/../../secret.txt",
        "/static/%2e%2e/secret.txt",
        "/static/..%2Fsecret.txt",
        "/static/vendor%2F..%2F..%2Fsecret.txt",
        "/static/..%5Csecret.txt",
        "/static/%2Fetc%2Fpasswd",
        "/static//etc/passwd",
        "/static/out.txt",  # a link out of the folder
        "/static/up/secret.txt",  # a folder link out of it
        "/static/app.js%00.txt",
        "/static/vendor",  # a folder
        "/static/",
        "/static/nothing.js",
    ],
)
def test_nothing_outside_the_static_folder_is_served(tree: Path, path: str) -> None:
    app = App(max_body_bytes=1024)
    app.add([static("/static", tree)])
    with serving(app) as (url, _site, _loop):
        status, body = raw_status(url, path)
    assert status == 404, (path, body[:200])
    assert b"secret" not in body and b"root:" not in body


def test_a_stopped_site_closes_its_keep_alive_connections() -> None:
    # What a simulated exporter outage (`gpuscope inject exporter-down`) relies on: Prometheus's open keep-alive
    # connection is dropped too, as a crashed exporter's would be, not only new connections refused.
    async def ok(_request: Request) -> Response:
        return Response.text("ok\n")

    app = App(max_body_bytes=1024)
    app.add([get("/health", ok)])
    with serving(app) as (url, site, loop), socket.create_connection(("127.0.0.1", site.port), timeout=10) as sock:
        assert keepalive_get(sock).startswith(b"HTTP/1.1 200 ")
        asyncio.run_coroutine_threadsafe(site.stop(), loop).result(30)
        assert closed_by_peer(sock, timeout=10)
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"{url}/health")
