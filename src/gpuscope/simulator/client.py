"""Client side of ``/sim/faults``: what ``gpuscope sim inject`` and the local stack use to drive faults."""

from __future__ import annotations

import httpx

from gpuscope.backends.sim.faults import FaultRequest
from gpuscope.errors import EnvironmentProblem, UsageError


def _call(method: str, url: str, payload: dict[str, object] | None = None) -> list[dict[str, object]]:
    try:
        response = httpx.request(method, url, json=payload, timeout=10.0)
    except httpx.HTTPError as exc:
        raise EnvironmentProblem(f"cannot reach {url}: {exc} (is the simulated node running?)") from None
    if response.status_code == 400:
        raise UsageError(str(response.json().get("error", response.text)))
    if response.status_code != 200:
        raise EnvironmentProblem(f"{url} answered {response.status_code}: {response.text.strip()[:200]}")
    active = response.json().get("active", [])
    return list(active)


def send_fault(url: str, request: FaultRequest) -> list[dict[str, object]]:
    """Inject or clear one fault; returns the node's active faults."""
    return _call("POST", url, request.to_json())


def clear_faults(url: str) -> list[dict[str, object]]:
    """Switch off every fault of a node."""
    return _call("DELETE", url)
