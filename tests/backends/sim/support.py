"""A simulated node on the fake clock, and a reading taken one collection interval after a first one."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gpuscope.backends.base import NodeReading, ReadRequest, Value
from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.fields.catalog import BY_ID
from gpuscope.hardware.models import MigProfile, model_by_key
from tests.support.clock import FakeClock

# Every DCGM field and every base-unit view (below -100) the simulator reads natively; not exporter-owned ones.
ALL = ReadRequest(frozenset(fid for fid in BY_ID if fid > 2 or fid < -100), health=True, p2p=True)


def node(
    model: str = "h100",
    gpus: int = 2,
    clock: Callable[[], float] | None = None,
    *,
    mig_layout: tuple[MigProfile, ...] = (),
    workload: str = "mixed",
    profiling: str = "all",
) -> SimNode:
    """A node of ``gpus`` ``model`` GPUs, seed 7; the other settings are SimNodeConfig's defaults."""
    config = SimNodeConfig(
        "node-a", model_by_key(model), gpus, mig_layout=mig_layout, workload=workload, seed=7, profiling=profiling
    )
    return SimNode(config, clock=clock or FakeClock())


def collect_twice(n: SimNode, clock: FakeClock, dt: float = 15.0) -> NodeReading:
    """The second of two readings ``dt`` apart: rates and counter deltas need a previous one."""
    n.collect(ALL)
    clock.t += dt
    return n.collect(ALL)


def numbers(values: Mapping[int, Value]) -> dict[int, float]:
    """A reading's numeric values, to compare (the string ones, such as the driver version, left out)."""
    return {fid: v for fid, v in values.items() if not isinstance(v, str)}
