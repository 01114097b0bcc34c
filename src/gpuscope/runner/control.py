"""The stack's control API on loopback: faults, status, and the webhook receiver that records notifications.

Its callers are programs (``gpuscope inject``, the console's server, Alertmanager), never a browser: a request that
changes something and carries a browser's ``Origin`` or ``Sec-Fetch-Site`` is refused (403), so a web page cannot
inject faults with a cross-site ``text/plain`` POST, which a browser sends without asking first.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from gpuscope.errors import GpuscopeError
from gpuscope.httpd.server import App, Request, Response, delete, get, json_response, post
from gpuscope.runner.inject import InjectRequest

if TYPE_CHECKING:  # annotations only: the API drives the stack it is handed and never builds one
    from gpuscope.runner.stack import Stack

_STACK = "stack"
MAX_BODY_BYTES = 4 * 1024 * 1024  # a webhook notification of thousands of alerts


def _stack(request: Request) -> Stack:
    stack: Stack = request.app.state[_STACK]
    return stack


async def _webhook(request: Request) -> Response:
    try:
        body = await request.json()
    except json.JSONDecodeError:
        return json_response({"error": "expected Alertmanager's webhook JSON"}, status=400)
    _stack(request).record(request.match_info["receiver"], body)
    return json_response({"ok": True})


async def _notifications(request: Request) -> Response:
    return json_response(_stack(request).notifications)


async def _status(request: Request) -> Response:
    return json_response(await _stack(request).fresh_report())


async def _inject(request: Request) -> Response:
    try:
        data = await request.json()
        req = InjectRequest(**data)
        message = await _stack(request).inject(req)
    except (TypeError, json.JSONDecodeError) as exc:
        return json_response({"error": f"bad request: {exc}"}, status=400)
    except GpuscopeError as exc:
        # The message as the library words it, and its template and parameters, so `gpuscope inject` can name them
        # by its flags (--cluster) while the console shows the library's words.
        return json_response({"error": str(exc), "template": exc.template, "refs": list(exc.refs)}, status=400)
    _stack(request).event(message)
    return json_response({"ok": True, "message": message})


async def _clear(request: Request) -> Response:
    cluster = request.query.get("cluster")
    message = await _stack(request).clear(cluster)
    _stack(request).event(message)
    return json_response({"ok": True, "message": message})


async def _programs_only(request: Request) -> Response | None:
    if request.method not in ("GET", "HEAD") and ("Origin" in request.headers or "Sec-Fetch-Site" in request.headers):
        return json_response(
            {"error": "the control API takes no requests from web pages: use gpuscope inject or the console"},
            status=403,
        )
    return None


def control_app(stack: Stack) -> App:
    app = App(max_body_bytes=MAX_BODY_BYTES)
    app.state[_STACK] = stack
    app.before.append(_programs_only)
    app.add(
        [
            post("/webhook/{receiver}", _webhook),
            get("/notifications", _notifications),
            get("/status", _status),
            post("/faults", _inject),
            delete("/faults", _clear),
        ]
    )
    return app
