"""The point of the design: what 100 pod restarts on 8 GPUs cost in series, in info mode and in labels mode.

Prometheus keeps every series it has seen in its head block for up to two hours, so the cost of churn is the
number of *distinct* series across collections, not the number in one scrape.
"""

from __future__ import annotations

from gpuscope.exporter.attribution.resolve import WorkloadLabels
from gpuscope.exporter.attribution.source import WorkloadSettings
from gpuscope.simulator.kubelet import KubeletServer, kubelet_server, pod
from tests.support.exporter import RuntimeFactory, scrape

GPUS = 8
RESTARTS = 100
CSV = "".join(
    f"{name}, gauge, {name}.\n"
    for name in (
        "DCGM_FI_DEV_GPU_TEMP",
        "DCGM_FI_DEV_POWER_USAGE",
        "DCGM_FI_DEV_SM_CLOCK",
        "DCGM_FI_DEV_MEM_CLOCK",
        "DCGM_FI_DEV_GPU_UTIL",
        "DCGM_FI_DEV_MEM_COPY_UTIL",
        "DCGM_FI_DEV_FB_FREE",
        "DCGM_FI_DEV_FB_USED",
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        "DCGM_FI_PROF_DRAM_ACTIVE",
    )
)
FIELDS = CSV.count("\n")


def series(text: str) -> set[str]:
    """The identities (name and labels) of the GPU series and info series of one scrape."""
    return {
        line.rsplit(" ", 1)[0] for line in text.splitlines() if line.startswith(("DCGM_", "gpuscope_gpu_workload_info"))
    }


def churn(make: RuntimeFactory, kubelet: KubeletServer, mode: WorkloadLabels) -> tuple[int, int, int]:
    """(distinct series before any restart, distinct series after 100 restarts, GPU series per GPU)."""
    settings = WorkloadSettings(mode=mode, kubernetes=True, socket_path=kubelet.socket_path)
    runtime, _, clock = make(gpus=GPUS, csv=CSV, workloads=settings)
    running = {gpu: f"job-{gpu}-0" for gpu in range(GPUS)}

    def collect() -> set[str]:
        kubelet.set_pods(
            [pod("ml", name, ("main", "nvidia.com/gpu", [f"nvidia{gpu}"])) for gpu, name in running.items()]
        )
        runtime.collect()
        return series(scrape(runtime, clock))

    seen = collect()
    before = len(seen)
    per_gpu = sum(1 for s in seen if s.startswith("DCGM_") and 'gpu="0"' in s)
    for restart in range(1, RESTARTS + 1):
        gpu = restart % GPUS
        running[gpu] = f"job-{gpu}-{restart}"  # a restarted pod comes back under a new name
        seen |= collect()
    return before, len(seen), per_gpu


def test_info_mode_a_restart_adds_one_series(make: RuntimeFactory) -> None:
    with kubelet_server() as kubelet:
        before, after, per_gpu = churn(make, kubelet, WorkloadLabels.INFO)
    assert per_gpu == FIELDS
    assert before == GPUS * FIELDS + GPUS  # every GPU series once, plus one info series per running pod
    assert after - before == RESTARTS  # at most (here: exactly) one new series per restart


def test_labels_mode_a_restart_adds_one_series_per_field(make: RuntimeFactory) -> None:
    with kubelet_server() as kubelet:
        before, after, per_gpu = churn(make, kubelet, WorkloadLabels.LABELS)
    assert per_gpu == FIELDS
    assert before == GPUS * FIELDS
    assert after - before == RESTARTS * FIELDS  # every series of the GPU, again, on every restart
