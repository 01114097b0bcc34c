"""The stack's control API on loopback: faults, status, and the webhook receiver that records notifications.

Its callers are programs (``gpuscope inject``, the console's server, Alertmanager), never a browser: a request that
changes something and carries a browser's ``Origin`` or ``Sec-Fetch-Site`` is refused (403), so a web page cannot
inject faults with a cross-site ``text/plain`` POST, which a browser sends without asking first.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from aiohttp import web

from gpuscope.errors import GpuscopeError
from gpuscope.runner.stack import InjectRequest, Stack

STACK_KEY = web.AppKey("stack", Stack)


def _stack(request: web.Request) -> Stack:
    return request.app[STACK_KEY]


async def _webhook(request: web.Request) -> web.Response:
    try:
        body = await request.json()
    except json.JSONDecodeError:
        return web.json_response({"error": "expected Alertmanager's webhook JSON"}, status=400)
    _stack(request).record(request.match_info["receiver"], body)
    return web.json_response({"ok": True})


async def _notifications(request: web.Request) -> web.Response:
    return web.json_response(_stack(request).notifications)


async def _status(request: web.Request) -> web.Response:
    return web.json_response(await _stack(request).fresh_report())


async def _inject(request: web.Request) -> web.Response:
    try:
        data = await request.json()
        req = InjectRequest(**data)
        message = await _stack(request).inject(req)
    except (TypeError, json.JSONDecodeError) as exc:
        return web.json_response({"error": f"bad request: {exc}"}, status=400)
    except GpuscopeError as exc:
        return web.json_response({"error": str(exc)}, status=400)
    _stack(request).event(message)
    return web.json_response({"ok": True, "message": message})


async def _clear(request: web.Request) -> web.Response:
    cluster = request.query.get("cluster")
    message = await _stack(request).clear(cluster)
    _stack(request).event(message)
    return web.json_response({"ok": True, "message": message})


@web.middleware
async def _programs_only(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    if request.method not in ("GET", "HEAD") and ("Origin" in request.headers or "Sec-Fetch-Site" in request.headers):
        return web.json_response(
            {"error": "the control API takes no requests from web pages: use gpuscope inject or the console"},
            status=403,
        )
    return await handler(request)


def control_app(stack: Stack) -> web.Application:
    app = web.Application(client_max_size=4 * 1024 * 1024, middlewares=[_programs_only])
    app[STACK_KEY] = stack
    app.router.add_post("/webhook/{receiver}", _webhook)
    app.router.add_get("/notifications", _notifications)
    app.router.add_get("/status", _status)
    app.router.add_post("/faults", _inject)
    app.router.add_delete("/faults", _clear)
    return app
