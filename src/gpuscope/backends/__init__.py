"""GPU sources behind one protocol: ``sim`` (simulated nodes), ``nvml`` (real GPUs) and ``dcgm`` (a host engine)."""

from __future__ import annotations

import ctypes.util
import logging
import os
from dataclasses import replace
from typing import TYPE_CHECKING

from gpuscope.backends.base import Backend, WatchPlan
from gpuscope.errors import UsageError

# Each backend is imported when it is opened: an NVML exporter never loads the simulator or DCGM's bindings.
if TYPE_CHECKING:
    from gpuscope.backends.sim.node import SimNodeConfig

log = logging.getLogger(__name__)

BACKENDS = ("auto", "sim", "nvml", "dcgm")


def nvidia_driver_present() -> bool:
    """True when this machine has an NVIDIA driver (kernel module or NVML library)."""
    return os.path.exists("/proc/driver/nvidia/version") or ctypes.util.find_library("nvidia-ml") is not None


def choose_backend(name: str, remote_hostengine: str = "") -> str:
    """Resolve ``auto``: dcgm when libdcgm loads and a host engine answers, else nvml when a driver is present,
    else sim. The choice is always logged (said loudly for sim: nobody wants fake data by mistake)."""
    if name not in BACKENDS:
        raise UsageError(f"unknown backend {name!r} ({{backend}}): choose one of {', '.join(BACKENDS)}").naming(
            "backend"
        )
    if name != "auto":
        return name
    from gpuscope.backends.dcgm.connection import parse_target
    from gpuscope.backends.dcgm.probe import hostengine_answers

    answers, detail = hostengine_answers(parse_target(remote_hostengine))
    if answers:
        log.info("--backend auto: using DCGM (%s)", detail)
        return "dcgm"
    if nvidia_driver_present():
        log.info("--backend auto: using NVML (no DCGM: %s)", detail)
        return "nvml"
    log.warning(
        "no DCGM host engine (%s) and no NVIDIA driver found on this machine: serving SIMULATED GPUs "
        "(--backend sim). Pass --backend nvml or --backend dcgm to insist on real GPUs.",
        detail,
    )
    return "sim"


def open_backend(
    name: str,
    sim_config: SimNodeConfig | None,
    remote_hostengine: str = "",
    watches: WatchPlan | None = None,
    rediscover_s: float | None = None,
) -> Backend:
    """Open the named backend (``auto`` already resolved); ``sim_config`` is needed by ``sim`` only. ``watches``
    (how DCGM samples the fields) and ``rediscover_s`` (how often DCGM's GPU list is read again: GPUs bound and
    unbound) are used by ``dcgm`` only: the other backends read every field each collection."""
    if name == "sim":
        from gpuscope.backends.sim.node import SimNode

        if sim_config is None:
            raise ValueError("open_backend('sim') needs the simulated node's configuration")
        return SimNode(sim_config)
    if name == "nvml":
        from gpuscope.backends.nvml import NvmlBackend  # imported lazily: only this path loads pynvml

        return NvmlBackend()
    if name == "dcgm":
        from gpuscope.backends.dcgm import DcgmBackend, parse_target
        from gpuscope.backends.dcgm.watches import Timing

        timing = Timing.from_plan(watches) if watches is not None else Timing()
        if rediscover_s is not None:
            timing = replace(timing, rediscover_s=rediscover_s)
        return DcgmBackend(parse_target(remote_hostengine), timing=timing)
    raise UsageError(f"unknown backend {name!r}")
