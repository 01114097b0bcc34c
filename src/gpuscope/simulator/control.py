"""Driving a simulated node through its exporter runtime: find the simulator behind it, inject and clear faults."""

from __future__ import annotations

from gpuscope.backends.sim.faults import FaultKind, FaultRequest
from gpuscope.backends.sim.node import SimNode
from gpuscope.errors import UsageError
from gpuscope.exporter.runtime import NodeRuntime


def sim_of(runtime: NodeRuntime) -> SimNode | None:
    """The simulated node a runtime reads, or None for a real backend."""
    return runtime.backend if isinstance(runtime.backend, SimNode) else None


def apply_fault(runtime: NodeRuntime, request: FaultRequest) -> None:
    """Inject or clear a simulated fault; a restart also resets the exporter's own state."""
    sim = sim_of(runtime)
    if sim is None:
        raise UsageError("fault injection needs the sim backend")
    sim.apply(request)
    if request.fault is FaultKind.RESTART and request.enabled:
        runtime.restart()
