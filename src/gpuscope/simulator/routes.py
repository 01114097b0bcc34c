"""``/sim/faults``: the HTTP API that injects, lists and clears faults on a simulated node.

``GET`` lists the active faults, ``POST`` a JSON ``FaultRequest`` switches one on or off, ``DELETE`` clears them
all; each answers ``{"active": [...]}``, and a bad request is a 400 with ``{"error": "..."}`` naming the key.
"""

from __future__ import annotations

import json

from gpuscope.backends.sim.faults import parse_fault_request
from gpuscope.backends.sim.node import SimNode
from gpuscope.errors import UsageError
from gpuscope.exporter.server import Extension, node_for
from gpuscope.httpd.server import HttpError, Request, Response, delete, get, json_response, post
from gpuscope.simulator.control import apply_fault, sim_of

PATH = "/sim/faults"


def _sim(request: Request) -> SimNode:
    sim = sim_of(node_for(request))
    if sim is None:
        raise HttpError(404, "fault injection needs the sim backend\n")
    return sim


def _active(sim: SimNode) -> Response:
    return json_response({"active": sim.active_faults()})


async def _get(request: Request) -> Response:
    return _active(_sim(request))


def _from_a_web_page(request: Request) -> Response | None:
    """A 403 for a change a browser sends (it adds ``Origin`` or ``Sec-Fetch-Site``; programs such as ``gpuscope sim
    inject`` and the stack's supervisor send neither): any page the user opens could otherwise post a fault to a
    simulated node on loopback, as the stack's control API also refuses (runner/control.py)."""
    if "Origin" in request.headers or "Sec-Fetch-Site" in request.headers:
        return json_response({"error": "fault injection takes no requests from web pages"}, status=403)
    return None


async def _post(request: Request) -> Response:
    if refused := _from_a_web_page(request):
        return refused
    sim = _sim(request)
    try:
        raw = await request.read()  # bounded by the server's body limit
        try:
            body = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise UsageError("the body is not UTF-8 text; send a JSON object") from None
        except RecursionError:
            raise UsageError("the body is nested too deeply; send a flat JSON object") from None
        if not isinstance(body, dict):
            raise UsageError('the body must be a JSON object, e.g. {"fault": "thermal", "gpu": 0}')
        apply_fault(node_for(request), parse_fault_request(body))
    except json.JSONDecodeError as exc:
        return json_response({"error": f"invalid JSON: {exc}"}, status=400)
    except UsageError as exc:
        return json_response({"error": str(exc)}, status=400)
    return _active(sim)


async def _delete(request: Request) -> Response:
    if refused := _from_a_web_page(request):
        return refused
    sim = _sim(request)
    sim.clear()
    return _active(sim)


FAULT_ROUTES = Extension(
    routes=(get(PATH, _get), post(PATH, _post), delete(PATH, _delete)),
    links=((PATH, "simulator fault injection"),),
)
