"""Per-process metrics (``--process-metrics``): what they cost per collection, and what pod churn costs in series.

1. Fake NVML, an 8x H100 node, default counters, 0 / 16 / 64 processes spread over the GPUs (pods of a real
   ``/proc`` and pod log directory written to a temporary directory): NVML calls per collection (deterministic)
   and the whole collection's time (NVML reads, ``/proc`` reads, attribution, rendering), with process metrics off
   and on.
2. The simulator, an 8x H100 node with its own population (time-shared, MPS and training pods): collection time
   off and on.
3. Distinct process series after 100 pod restarts on 8 GPUs shared by two pods each, per mode (Prometheus keeps
   each one in its head block for up to 2 hours).

The fake's and the simulator's times are gpuscope's own Python cost, not a driver's.

Usage: ``python bench/processes.py [--collections N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from tests.exporter.processes.proctree import ProcTree, pod_cgroup  # noqa: E402
from tests.fakenvml import FakeNvml  # noqa: E402
from tests.fakenvml.processes import FakeProcess  # noqa: E402

from gpuscope.backends.nvml import NvmlBackend, Timing  # noqa: E402
from gpuscope.backends.sim import SimNode, SimNodeConfig  # noqa: E402
from gpuscope.exporter.attribution.resolve import WorkloadLabels  # noqa: E402
from gpuscope.exporter.attribution.source import WorkloadSettings  # noqa: E402
from gpuscope.exporter.processes.source import ProcessSettings  # noqa: E402
from gpuscope.exporter.runtime import NodeRuntime  # noqa: E402
from gpuscope.exporter.settings import ExporterSettings, make_runtime  # noqa: E402
from gpuscope.fields.collectors import load_collectors  # noqa: E402
from gpuscope.hardware.models import model_by_key  # noqa: E402
from gpuscope.simulator.fleet import FleetNode, with_simulated_processes  # noqa: E402

GIB = 1 << 30
RESTARTS = 100
PROCESS_CALLS = (
    "nvmlDeviceGetComputeRunningProcesses_v3",
    "nvmlDeviceGetGraphicsRunningProcesses_v3",
    "nvmlDeviceGetProcessesUtilizationInfo",
    "nvmlDeviceGetAccountingMode",
    "nvmlDeviceGetAccountingStats",
)


def _uid(n: int) -> str:
    return f"{n:08x}-0000-4000-8000-{n:012x}"


class FakeNode:
    """An NVML-backed runtime on the fake NVML, with a host's /proc and pod directory as files."""

    def __init__(self, root: Path, processes: int, on: bool, mode: WorkloadLabels = WorkloadLabels.INFO) -> None:
        self.tree = ProcTree(root)
        self.fake = FakeNvml("hgx-h100")
        backend = NvmlBackend(self.fake, timing=Timing(reprobe_s=1e9, mig_check_s=1e9), watch_events=False)
        settings = ExporterSettings(
            collectors=load_collectors(None),
            workloads=WorkloadSettings(mode=mode),
            processes=ProcessSettings(enabled=on, proc_root=str(self.tree.proc), pod_log_dir=str(self.tree.pods)),
        )
        self.runtime: NodeRuntime = make_runtime(backend, settings, "bench-node")
        self.live: dict[int, tuple[int, int, str, str]] = {}
        for n in range(processes):
            self.place(n, n % len(self.fake.devices))

    def place(self, n: int, gpu: int, generation: int = 0) -> None:
        """Pod ``n`` (its ``generation``-th incarnation) runs one process on ``gpu``."""
        uid, pid, name = _uid(n * 1000 + generation + 1), 1000 + n * 1000 + generation, f"pod-{n}-g{generation}"
        self.tree.pod("ml", name, uid)
        self.tree.process(pid, pod_cgroup(uid))
        self.fake.devices[gpu].processes.append(FakeProcess(pid=pid, memory=GIB, sm=10 + n % 50, mem=5))
        self.live[n] = (gpu, pid, name, uid)

    def restart(self, n: int, generation: int) -> None:
        """Pod ``n`` is replaced: a new name, UID and PID; the old one's files and process are gone."""
        gpu, pid, name, uid = self.live.pop(n)
        self.fake.devices[gpu].processes = [p for p in self.fake.devices[gpu].processes if p.pid != pid]
        self.tree.exit(pid)
        self.tree.delete_pod("ml", name, uid)
        self.place(n, gpu, generation)

    def collect(self) -> str:
        self.fake.now_us += 15_000_000
        self.runtime.collect()
        return self.runtime.body(0.0, gzip=False).decode()


def median_ms(runtime: NodeRuntime, collections: int, before: object = None) -> float:
    times = []
    for _ in range(collections):
        if callable(before):
            before()
        start = time.perf_counter()
        runtime.collect()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def fake_rows(collections: int) -> list[str]:
    rows = []
    for processes in (0, 16, 64):
        for on in (False, True):
            with tempfile.TemporaryDirectory() as tmp:
                node = FakeNode(Path(tmp), processes, on)
                node.collect()
                before = node.fake.collection_calls()
                node.collect()
                calls = node.fake.collection_calls() - before
                process_calls = sum(calls[name] for name in PROCESS_CALLS)

                def tick(n: FakeNode = node) -> None:
                    n.fake.now_us += 15_000_000

                ms = median_ms(node.runtime, collections, tick)
                node.runtime.close()
            rows.append(
                f"| fake NVML, 8x H100 | {processes} | {'on' if on else 'off'} | {sum(calls.values())} "
                f"| {process_calls} | {ms:.2f} |"
            )
    return rows


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t

    def tick(self) -> None:
        self.t += 15.0


def sim_row(collections: int, gpus: int, on: bool, tmp: Path) -> str:
    config = SimNodeConfig("bench-sim", model_by_key("h100"), gpus, workload="training")
    settings = ExporterSettings(collectors=load_collectors(None), processes=ProcessSettings(enabled=on))
    (placed,), settings = with_simulated_processes([FleetNode(config, "127.0.0.1", 1)], settings, tmp)
    clock = Clock()
    runtime = make_runtime(SimNode(placed.config, clock=clock), settings, "bench-sim", clock=clock)
    runtime.collect()
    text = runtime.body(clock.t, gzip=False).decode()
    processes = sum(
        1 for line in text.splitlines() if line.startswith("gpuscope_gpu_process_memory_used_bytes{")
    )  # one process per owner in the simulator's population
    ms = median_ms(runtime, collections, clock.tick)
    runtime.close()
    return f"| simulator, {gpus}x H100 | {processes} | {'on' if on else 'off'} | - | - | {ms:.2f} |"


def sim_rows(collections: int) -> list[str]:
    """The simulator's own population: 16 processes on 8 GPUs (time-shared, MPS, training); 64 on 32 GPUs."""
    rows = []
    for gpus, on in ((8, False), (8, True), (32, False), (32, True)):
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(sim_row(collections, gpus, on, Path(tmp)))
    return rows


_CHURNED = ("gpuscope_gpu_process_", "DCGM_FI_DEV_GPU_UTIL{", "DCGM_FI_DEV_FB_USED{")


def _series(text: str) -> set[str]:
    return {line.rsplit(" ", 1)[0] for line in text.splitlines() if line.startswith(_CHURNED)}


def churn_row(mode: WorkloadLabels, tmp: Path) -> str:
    node = FakeNode(tmp, 16, True, mode)  # 8 GPUs, two pods each
    seen = _series(node.collect())
    start = len(seen)
    for r in range(RESTARTS):
        node.restart(r % 16, r + 1)
        seen |= _series(node.collect())
    node.runtime.close()
    return f"| {mode.value} | {start} | {len(seen)} | {len(seen) - start} |"


def churn_rows() -> list[str]:
    rows = []
    for mode in (WorkloadLabels.INFO, WorkloadLabels.LABELS):
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(churn_row(mode, Path(tmp)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collections", type=int, default=50)
    args = parser.parse_args()
    head = "| source | processes per node | --process-metrics | NVML calls / collection | of them per-process "
    print(head + "| ms / collection (median) |")
    print("|---|---|---|---|---|---|")
    for row in fake_rows(args.collections) + sim_rows(args.collections):
        print(row)
    print()
    print(f"| mode | process-related series at start | distinct after {RESTARTS} pod restarts | added |")
    print("|---|---|---|---|")
    for row in churn_rows():
        print(row)


if __name__ == "__main__":
    main()
