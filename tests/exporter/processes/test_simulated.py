"""The simulator's processes through the real attribution path: its /proc and pod directory files, time-sharing
and MPS pods, MIG instances, churn, and the run-time ``zombie`` fault."""

from __future__ import annotations

from pathlib import Path

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.backends.sim.faults import FaultKind, FaultRequest
from gpuscope.backends.sim.processes import CHURN_S
from gpuscope.exporter.processes.source import ProcessSettings
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key, parse_mig_layout
from gpuscope.simulator.fleet import FleetNode, with_simulated_processes
from tests.support.clock import FakeClock
from tests.support.metrics_text import value


def node(tmp_path: Path, mig: str = "") -> tuple[SimNode, NodeRuntime, FakeClock]:
    model = model_by_key("h100")
    config = SimNodeConfig("sim-a", model, 4, parse_mig_layout(model, mig) if mig else (), workload="training")
    settings = ExporterSettings(collectors=load_collectors(None), processes=ProcessSettings(enabled=True))
    (placed,), settings = with_simulated_processes([FleetNode(config, "127.0.0.1", 9400)], settings, tmp_path)
    clock = FakeClock()
    sim = SimNode(placed.config, clock=clock)
    return sim, make_runtime(sim, settings, "sim-a", clock=clock), clock


def scrape(runtime: NodeRuntime, clock: FakeClock) -> str:
    clock.t += 15
    runtime.collect()
    return runtime.body(clock.t, gzip=False).decode()


def pods_on(text: str, gpu: str) -> set[str]:
    return {
        line.split('pod="', 1)[1].split('"', 1)[0]
        for line in text.splitlines()
        if line.startswith("gpuscope_gpu_process_memory_used_bytes{") and f'gpu="{gpu}"' in line and 'pod="' in line
    }


def test_shared_gpus_churn_and_a_zombie(tmp_path: Path) -> None:
    sim, runtime, clock = node(tmp_path)
    try:
        text = scrape(runtime, clock)
        assert len(pods_on(text, "0")) == 3  # time-slicing: three inference pods
        assert len(pods_on(text, "1")) == 2  # MPS: two client pods, plus the server as a plain process
        assert (
            value(text, "gpuscope_gpu_process_memory_used_bytes", gpu="1", process_name="nvidia-cuda-mps") == 64 << 20
        )
        assert len(pods_on(text, "2")) == 1
        assert value(text, "gpuscope_gpu_unattributed_processes", gpu="0") == 0
        before = pods_on(text, "0")
        clock.t += CHURN_S
        churned = scrape(runtime, clock)
        assert pods_on(churned, "0").isdisjoint(before)  # restarted pods: new names
        assert pods_on(churned, "2") == pods_on(text, "2")  # the training pod stays

        sim.apply(FaultRequest(FaultKind.ZOMBIE, gpu=2))
        zombie = scrape(runtime, clock)
        assert value(zombie, "gpuscope_gpu_unattributed_memory_used_bytes", gpu="2") == 8 << 30
        assert value(zombie, "gpuscope_gpu_unattributed_processes", gpu="2") == 1
        assert value(zombie, "gpuscope_exporter_process_unattributed_total", reason="pod_gone") == 1
        assert {"fault": "zombie", "gpu": 2} in sim.active_faults()
        sim.apply(FaultRequest(FaultKind.ZOMBIE, gpu=2, enabled=False))
        cleared = scrape(runtime, clock)
        assert value(cleared, "gpuscope_gpu_unattributed_memory_used_bytes", gpu="2") == 0
        assert not (tmp_path / "sim-a" / "proc" / ".tmp").exists()
    finally:
        runtime.close()


def test_mig_instances_have_their_own_pods(tmp_path: Path) -> None:
    _, runtime, clock = node(tmp_path, mig="3g.40gb:2")
    try:
        text = scrape(runtime, clock)
        lines = [line for line in text.splitlines() if line.startswith("gpuscope_gpu_process_memory_used_bytes{")]
        on_gpu0 = [line for line in lines if 'gpu="0"' in line]
        assert len(on_gpu0) == 2 and all("GPU_I_ID=" in line for line in on_gpu0)
        assert 'gpuscope_gpu_process_utilization_percent{gpu="0"' not in text  # no per-process samples with MIG
    finally:
        runtime.close()
