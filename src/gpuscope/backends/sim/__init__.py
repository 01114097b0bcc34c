"""The simulated backend: deterministic GPU nodes with realistic values and runtime fault injection."""

from gpuscope.backends.sim.faults import FaultKind, FaultRequest
from gpuscope.backends.sim.models import MODELS, GpuModel, model_by_key, parse_mig_layout
from gpuscope.backends.sim.node import SimNode, SimNodeConfig

__all__ = [
    "MODELS",
    "FaultKind",
    "FaultRequest",
    "GpuModel",
    "SimNode",
    "SimNodeConfig",
    "model_by_key",
    "parse_mig_layout",
]
