"""The stack's control API on loopback: faults, status, and the webhook receiver that records notifications."""

from __future__ import annotations

import json

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
    return web.json_response(_stack(request).report())


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


def control_app(stack: Stack) -> web.Application:
    app = web.Application(client_max_size=4 * 1024 * 1024)
    app[STACK_KEY] = stack
    app.router.add_post("/webhook/{receiver}", _webhook)
    app.router.add_get("/notifications", _notifications)
    app.router.add_get("/status", _status)
    app.router.add_post("/faults", _inject)
    app.router.add_delete("/faults", _clear)
    return app
