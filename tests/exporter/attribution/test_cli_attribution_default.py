"""The attribution default follows how the exporter was started (issue 49), through the real processes.

dcgm-exporter's switches (``-k``, ``DCGM_EXPORTER_KUBERNETES=true``, the image's ``dcgm-exporter`` command) and no
``--workload-labels`` give dcgm-exporter's labels on the ``DCGM_*`` series, which OpenCost, KEDA,
prometheus-adapter and the OpenShift console query; ``gpuscope exporter`` alone keeps ``info``; an explicit
``--workload-labels``/``GPUSCOPE_WORKLOAD_LABELS`` (the generated bundle's) wins. One start-up line says which and
why. Simulated GPUs, the fake kubelet (a real gRPC server), a real job-mapping directory.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from gpuscope.simulator.kubelet import kubelet_server, pod
from tests.support.exporter_process import GPUSCOPE, clean_env, exporter_process
from tests.support.metrics_text import families
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

GPU = "nvidia.com/gpu"
MIG = "nvidia.com/mig-1g.10gb"
TEMP = "DCGM_FI_DEV_GPU_TEMP"
EXPORTER = [*GPUSCOPE, "exporter"]
Pods = Callable[[str], Sequence[object]]


def dcgm_exporter() -> list[str]:
    """The image's ENTRYPOINT: the ``dcgm-exporter`` script installed beside this interpreter."""
    found = shutil.which("dcgm-exporter", path=str(Path(sys.executable).parent))
    assert found, "dcgm-exporter is not installed beside this interpreter: run make deps"
    return [found]


def series(text: str, name: str = TEMP) -> list[dict[str, str]]:
    fam = families(text).get(name)
    return [] if fam is None else [dict(s.labels) for s in fam[1]]


def run(
    tmp_path: Path, command: list[str], env: dict[str, str], pods: Pods, ready: Callable[[str], bool]
) -> tuple[str, str]:
    """``command`` on simulated GPUs with the fake kubelet listing ``pods(the first /metrics text)``: (the
    /metrics text once ``ready`` holds, the process's log)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    argv = [*command, "--backend", "sim", "--sim-gpus", "2", "-a", f"127.0.0.1:{port}", "-c", "300"]
    with kubelet_server() as kubelet:
        env = clean_env({**env, "DCGM_POD_RESOURCES_KUBELET_SOCKET": kubelet.socket_path})
        with exporter_process(argv, url, tmp_path, env=env) as exporter:
            kubelet.set_pods(pods(exporter.get("/metrics").text))  # type: ignore[arg-type]
            text = wait_for(lambda: ready(t := exporter.get("/metrics").text) and t, what="attributed series")
            log = exporter.log()
    assert "Traceback" not in log
    return text, log


def attribution_line(log: str) -> str:
    """The one start-up line, from ``attribution: `` on."""
    lines = [ln.partition("attribution: ")[2] for ln in log.splitlines() if "attribution: " in ln]
    assert len(lines) == 1, log
    return lines[0]


def jobs(tmp_path: Path) -> str:
    directory = tmp_path / "jobs"
    directory.mkdir()
    (directory / "0").write_text("slurm-41\n")
    return str(directory)


def test_the_images_command_with_k_puts_pod_labels_on_whole_and_shared_gpus(tmp_path: Path) -> None:
    """The GPU Operator's settings (``DCGM_EXPORTER_KUBERNETES=true`` through the image's ENTRYPOINT) with shared
    GPUs and a job mapping: dcgm-exporter's labels, one copy per sharing pod (``vgpu``) and job (``hpc_job``)."""
    env = {"DCGM_EXPORTER_KUBERNETES": "true", "KUBERNETES_VIRTUAL_GPUS": "true"}
    command = [*dcgm_exporter(), "--hpc-job-mapping-dir", jobs(tmp_path)]

    def pods(_: str) -> list[object]:
        return [
            pod("ml", "trainer", ("main", GPU, ["nvidia0"])),
            pod("serving", "infer-a", ("srv", GPU, ["nvidia1::0"])),
            pod("serving", "infer-b", ("srv", GPU, ["nvidia1::1"])),
        ]

    text, log = run(tmp_path, command, env, pods, lambda t: len(series(t)) == 3)
    held = {s["gpu"]: s for s in series(text) if s["gpu"] == "0"}["0"]
    assert (held["namespace"], held["pod"], held["container"], held["hpc_job"]) == ("ml", "trainer", "main", "slurm-41")
    shared = sorted((s["pod"], s["vgpu"]) for s in series(text) if s["gpu"] == "1")
    assert shared == [("infer-a", "0"), ("infer-b", "1")]
    assert "gpuscope_gpu_workload_info" not in families(text)
    assert attribution_line(log) == (
        "labels (pod labels and hpc_job on the DCGM series, as dcgm-exporter: started with -k or "
        "DCGM_EXPORTER_KUBERNETES)"
    )


def test_k_on_gpuscope_exporter_puts_pod_labels_on_mig_instances(tmp_path: Path) -> None:
    def pods(first: str) -> list[object]:
        gi = next(s["GPU_I_ID"] for s in series(first) if s["gpu"] == "0")
        return [pod("ml", "small", ("c", MIG, [f"nvidia0/gi{gi}"]))]

    command = [*EXPORTER, "-k", "--sim-mig-layout", "1g.10gb:7"]
    text, log = run(tmp_path, command, {}, pods, lambda t: any("pod" in s for s in series(t)))
    held = [s for s in series(text) if "pod" in s]
    assert [(s["gpu"], s["namespace"], s["pod"], s["container"]) for s in held] == [("0", "ml", "small", "c")]
    assert held[0]["GPU_I_ID"] == next(s["GPU_I_ID"] for s in series(text) if s["gpu"] == "0")
    assert attribution_line(log).startswith("labels (pod labels on the DCGM series, as dcgm-exporter: started with -k")


DCGM_EXPORTER_JOBS = "labels (hpc_job on the DCGM series, as dcgm-exporter: started as dcgm-exporter)"


@pytest.mark.parametrize(
    ("entry", "env", "line", "extra"),
    [
        ("dcgm-exporter", {}, DCGM_EXPORTER_JOBS, []),
        # -on (-o and -n in one): a form only typer reads, so the command goes through typer's parse, not _quickargs
        ("dcgm-exporter", {}, DCGM_EXPORTER_JOBS, ["-on"]),
        ("gpuscope", {}, "info (gpuscope_gpu_job_info; gpuscope exporter's default without -k or dcgm-exporter)", []),
        (
            "dcgm-exporter",
            {"GPUSCOPE_WORKLOAD_LABELS": "info"},
            "info (gpuscope_gpu_job_info; set by --workload-labels or GPUSCOPE_WORKLOAD_LABELS)",
            [],
        ),
    ],
)
def test_hpc_jobs_follow_the_command_unless_the_mode_is_set(
    tmp_path: Path, entry: str, env: dict[str, str], line: str, extra: list[str]
) -> None:
    command = [*(dcgm_exporter() if entry == "dcgm-exporter" else EXPORTER), "--hpc-job-mapping-dir", jobs(tmp_path)]
    command += extra
    mode = line.partition(" ")[0]

    def ready(text: str) -> bool:
        return "gpuscope_gpu_job_info{" in text if mode == "info" else any("hpc_job" in s for s in series(text))

    text, log = run(tmp_path, command, env, lambda _: [], ready)
    assert attribution_line(log) == line
    on_gpu0 = next(s for s in series(text) if s["gpu"] == "0")
    assert ("hpc_job" in on_gpu0) == (mode == "labels")


def test_explicit_info_under_k_keeps_the_dcgm_series_stable(tmp_path: Path) -> None:
    """The generated bundle's DaemonSet: ``-k`` with ``GPUSCOPE_WORKLOAD_LABELS=info`` (kept explicit there)."""
    env = {"DCGM_EXPORTER_KUBERNETES": "true", "GPUSCOPE_WORKLOAD_LABELS": "info"}
    text, log = run(
        tmp_path,
        dcgm_exporter(),
        env,
        lambda _: [pod("ml", "trainer", ("main", GPU, ["nvidia1"]))],
        lambda t: "gpuscope_gpu_workload_info{" in t,
    )
    assert not any("pod" in s for s in series(text))
    assert [s["pod"] for s in series(text, "gpuscope_gpu_workload_info")] == ["trainer"]
    assert attribution_line(log) == (
        "info (gpuscope_gpu_workload_info; set by --workload-labels or GPUSCOPE_WORKLOAD_LABELS)"
    )


def test_nothing_to_attribute_says_off(tmp_path: Path) -> None:
    text, log = run(tmp_path, dcgm_exporter(), {}, lambda _: [], lambda t: bool(series(t)))
    assert attribution_line(log) == "off (no -k, no --hpc-job-mapping-dir: nothing to attribute)"
    assert not any("pod" in s or "hpc_job" in s for s in series(text))
