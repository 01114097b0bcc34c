"""GPU sources behind one protocol: ``sim`` (simulated nodes) and ``nvml`` (real GPUs)."""

from __future__ import annotations

import ctypes.util
import logging
import os

from gpuscope.backends.base import Backend
from gpuscope.backends.sim.node import SimNode, SimNodeConfig
from gpuscope.errors import UsageError

log = logging.getLogger(__name__)

BACKENDS = ("auto", "sim", "nvml")


def nvidia_driver_present() -> bool:
    """True when this machine has an NVIDIA driver (kernel module or NVML library)."""
    return os.path.exists("/proc/driver/nvidia/version") or ctypes.util.find_library("nvidia-ml") is not None


def choose_backend(name: str) -> str:
    """Resolve ``auto``: nvml when a driver is present, else sim (said loudly: nobody wants fake data by mistake)."""
    if name not in BACKENDS:
        raise UsageError(f"unknown backend {name!r} (--backend): choose one of {', '.join(BACKENDS)}")
    if name != "auto":
        return name
    if nvidia_driver_present():
        return "nvml"
    log.warning(
        "no NVIDIA driver found on this machine: serving SIMULATED GPUs (--backend sim). "
        "Pass --backend nvml to insist on real GPUs."
    )
    return "sim"


def open_backend(name: str, sim_config: SimNodeConfig) -> Backend:
    """Open the named backend (``auto`` already resolved)."""
    if name == "sim":
        return SimNode(sim_config)
    if name == "nvml":
        from gpuscope.backends.nvml import NvmlBackend  # imported lazily: only this path loads pynvml

        return NvmlBackend()
    raise UsageError(f"unknown backend {name!r}")
