from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.catalog import Dialect
from gpuscope.fields.collectors import CollectorSet, load_collectors, parse_collectors
from gpuscope.hardware.models import model_by_key, parse_mig_layout
from tests.support.clock import FakeClock
from tests.support.exporter import RuntimeFactory


@pytest.fixture
def make() -> Iterator[RuntimeFactory]:
    """Build a runtime on a simulated node with a fake clock: ``make(model=..., gpus=..., csv=..., ...)``.

    Runtimes are closed at the end of the test, so no kubelet channel outlives it.
    """
    built: list[NodeRuntime] = []

    def factory(
        *,
        model: str = "h100",
        gpus: int = 2,
        mig: str = "",
        csv: str | None = None,
        dialect: Dialect = Dialect.CLASSIC,
        hostname: str = "node-a",
        workload: str = "training",
        interval_s: float = 15.0,
        **settings: Any,
    ) -> tuple[NodeRuntime, SimNode, FakeClock]:
        clock = FakeClock()
        gpu_model = model_by_key(model)
        config = SimNodeConfig(
            hostname, gpu_model, gpus, parse_mig_layout(gpu_model, mig) if mig else (), workload=workload, seed=3
        )
        sim = SimNode(config, clock=clock)
        collectors: CollectorSet = (
            parse_collectors(csv, "test.csv", dialect) if csv is not None else load_collectors(None, dialect)
        )
        runtime = make_runtime(
            sim,
            ExporterSettings(collectors=collectors, dialect=dialect, interval_s=interval_s, **settings),
            hostname,
            clock=clock,
        )
        built.append(runtime)
        return runtime, sim, clock

    yield factory
    for runtime in built:
        runtime.close()
