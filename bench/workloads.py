"""Workload attribution: what it costs per collection, and what pod churn costs in series, per mode.

Against a real gRPC kubelet (the tests' fake one, on a unix socket) listing 8 GPU pods among 100 other pods, on a
simulated 8-GPU H100 node with the default counters:

- collection time without attribution, and with it in ``info`` and ``labels`` mode (kubelet ``List`` + placing
  devices + rendering, all on the collection thread; a scrape still costs the same);
- distinct series after 100 pod restarts (Prometheus keeps each one in its head block for up to 2 hours).

Usage: ``python bench/workloads.py [--collections N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from tests.support.kubelet import FakeKubelet, fake_kubelet, pod  # noqa: E402

from gpuscope.backends.sim import SimNode, SimNodeConfig  # noqa: E402
from gpuscope.exporter.runtime import NodeRuntime  # noqa: E402
from gpuscope.exporter.settings import ExporterSettings, make_runtime  # noqa: E402
from gpuscope.exporter.workloads.model import WorkloadLabels  # noqa: E402
from gpuscope.exporter.workloads.source import WorkloadSettings  # noqa: E402
from gpuscope.fields.collectors import load_collectors  # noqa: E402
from gpuscope.hardware.models import model_by_key  # noqa: E402

GPUS = 8
OTHER_PODS = 100
RESTARTS = 100


def runtime(kubelet: FakeKubelet | None, mode: WorkloadLabels) -> NodeRuntime:
    workloads = WorkloadSettings(
        mode=mode, kubernetes=kubelet is not None, socket_path=kubelet.socket_path if kubelet else ""
    )
    settings = ExporterSettings(collectors=load_collectors(None), workloads=workloads)
    sim = SimNode(SimNodeConfig("bench-node", model_by_key("h100"), GPUS, workload="training"))
    return make_runtime(sim, settings, "bench-node", process_metrics=False)


def pods(names: dict[int, str]) -> list[object]:
    gpu_pods = [pod("ml", name, ("main", "nvidia.com/gpu", [f"nvidia{gpu}"])) for gpu, name in names.items()]
    others = [pod("default", f"web-{i}", ("app", "example.com/none", [])) for i in range(OTHER_PODS)]
    return gpu_pods + others


def collection_ms(rt: NodeRuntime, collections: int) -> float:
    rt.collect()
    samples = []
    for _ in range(collections):
        start = time.perf_counter()
        rt.collect()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def distinct_series_after_churn(kubelet: FakeKubelet, mode: WorkloadLabels) -> tuple[int, int]:
    rt = runtime(kubelet, mode)
    running = {gpu: f"job-{gpu}-0" for gpu in range(GPUS)}
    seen: set[str] = set()

    def scrape() -> set[str]:
        kubelet.set_pods(pods(running))  # type: ignore[arg-type]
        rt.collect()
        text = rt.body(time.time(), gzip=False).decode()
        return {ln.rsplit(" ", 1)[0] for ln in text.splitlines() if ln.startswith(("DCGM_", "gpuscope_gpu_"))}

    seen |= scrape()
    before = len(seen)
    for restart in range(1, RESTARTS + 1):
        running[restart % GPUS] = f"job-{restart % GPUS}-{restart}"
        seen |= scrape()
    return before, len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collections", type=int, default=200)
    args = parser.parse_args()
    print(f"8x H100 (sim), default counters, kubelet lists {GPUS} GPU pods + {OTHER_PODS} other pods")
    base = collection_ms(runtime(None, WorkloadLabels.OFF), args.collections)
    print(f"collection, no attribution:      {base:7.3f} ms (median of {args.collections})")
    with fake_kubelet() as kubelet:
        kubelet.set_pods(pods({gpu: f"job-{gpu}-0" for gpu in range(GPUS)}))  # type: ignore[arg-type]
        for mode in (WorkloadLabels.INFO, WorkloadLabels.LABELS):
            ms = collection_ms(runtime(kubelet, mode), args.collections)
            print(f"collection, kubelet, {mode.value:6} mode: {ms:7.3f} ms (+{ms - base:.3f} ms)")
        for mode in (WorkloadLabels.INFO, WorkloadLabels.LABELS):
            before, after = distinct_series_after_churn(kubelet, mode)
            print(
                f"{mode.value:6} mode: {before} series; {after} distinct after {RESTARTS} pod restarts"
                f" (+{after - before})"
            )


if __name__ == "__main__":
    main()
