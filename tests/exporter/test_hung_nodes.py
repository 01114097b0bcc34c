"""One hung node cannot stall the others, and clearing a ``slow`` fault ends the read already sleeping in it."""

from __future__ import annotations

import asyncio
import threading
import time

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.backends.sim.faults import FaultKind, FaultRequest
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.exporter.scheduler import Scheduler
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from tests.support.net import wait_for

INTERVAL_S = 0.2


def _node(name: str) -> tuple[NodeRuntime, SimNode]:
    sim = SimNode(SimNodeConfig(name, model_by_key("h100"), 1))
    settings = ExporterSettings(collectors=load_collectors(None), interval_s=INTERVAL_S)
    return make_runtime(sim, settings, name), sim


def test_hung_nodes_do_not_stall_healthy_ones_and_clear_ends_the_hang() -> None:
    nodes = [_node(f"node-{i}") for i in range(4)]
    hung = [sim for _, sim in nodes[:2]]
    for sim in hung:  # an hour-long read on two nodes, with two workers: the pool `gpuscope up` uses
        sim.apply(FaultRequest(fault=FaultKind.SLOW, seconds=3600))
    scheduler = Scheduler([rt for rt, _ in nodes], INTERVAL_S, workers=2)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    thread = threading.Thread(target=loop.run_until_complete, args=(scheduler.run(stop),), daemon=True)
    thread.start()
    try:
        healthy = [rt for rt, _ in nodes[2:]]
        wait_for(
            lambda: all(rt.published.snapshot.collections >= 5 for rt in healthy),
            timeout=30,
            what="the healthy nodes to keep collecting while two nodes hang",
        )
        wait_for(lambda: all(rt.health(time.time())[0] == 200 for rt in healthy), timeout=30, what="healthy /health")
        assert all(rt.published.snapshot.collections == 0 for rt, _ in nodes[:2])  # still inside their hour
        hung[0].apply(FaultRequest(fault=FaultKind.SLOW, enabled=False))  # switched off
        hung[1].clear()  # everything cleared
        wait_for(
            lambda: all(rt.published.snapshot.collections >= 1 for rt, _ in nodes[:2]),
            timeout=30,
            what="the sleeping reads to end when their fault is cleared",
        )
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        loop.close()
        for rt, _ in nodes:
            rt.close()
