"""The simulated backend: deterministic GPU nodes with realistic values and runtime fault injection.

The GPU models it imitates are domain data in ``gpuscope.hardware.models``.
"""

from gpuscope.backends.sim.faults import FaultKind, FaultRequest
from gpuscope.backends.sim.node import SimNode, SimNodeConfig

__all__ = [
    "FaultKind",
    "FaultRequest",
    "SimNode",
    "SimNodeConfig",
]
