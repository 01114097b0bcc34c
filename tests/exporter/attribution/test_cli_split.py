"""The per-pod split of shared GPUs (``--kubernetes-virtual-gpus``) through the real ``gpuscope exporter`` process:
the fake NVML's process lists (``tests/fakenvml/module.py --processes``), a host's ``/proc`` as files, the fake
kubelet (a real gRPC server) and the fake API server (real HTTPS), as dcgm-exporter's ``createPerProcessMetrics``
(NVIDIA/dcgm-exporter 4.5.3-4.8.2, commit d5e5f51, ``internal/pkg/transformation/kubernetes.go``) writes it."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpuscope.simulator.kubelet import kubelet_server, pod
from tests.exporter.processes.proctree import ProcTree, pod_cgroup
from tests.fakenvml import FakeNvml
from tests.support.exporter_process import clean_env, exporter_process
from tests.support.kubeapi import fake_kube_api
from tests.support.metrics_text import families
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[3]
GPU = "nvidia.com/gpu"
NODE = "gpu-node-3"
GIB = 1 << 30
CSV = (
    "DCGM_FI_DEV_GPU_UTIL, gauge, Utilization.\n"
    "DCGM_FI_DEV_FB_USED, gauge, Used.\n"
    "DCGM_FI_DEV_GPU_TEMP, gauge, Temperature.\n"
)


def rows(text: str, name: str, gpu: str) -> list[tuple[dict[str, str], float]]:
    fam = families(text).get(name)
    return [] if fam is None else [(dict(s.labels), s.value) for s in fam[1] if s.labels.get("gpu") == gpu]


@dataclass(frozen=True)
class Node:
    """What one run saw: the /metrics text and the sharing pods' UIDs."""

    text: str
    uid_a: str
    uid_b: str
    uid_c: str


def run_split(tmp_path: Path, flags: list[str]) -> Node:
    """The exporter with ``flags`` on three GPUs of the fake NVML: GPU 0 time-shared by infer-a (two processes) and
    infer-b (none), trainer-c listed on GPU 1 with its process on GPU 2; the /metrics text once infer-a's split
    series reads 45 %."""
    uuids = [d.uuid for d in FakeNvml("hgx-h100").devices]
    tree = ProcTree(tmp_path / "host")
    csv = tmp_path / "fields.csv"
    csv.write_text(CSV)
    port = free_port()
    with fake_kube_api(tmp_path) as api, kubelet_server() as kubelet:
        uid_a = api.create_pod("serving", "infer-a", NODE, {"team": "search"})
        uid_b = api.create_pod("serving", "infer-b", NODE, {})
        uid_c = api.create_pod("ml", "trainer-c", NODE, {})
        kubelet.set_pods(
            [
                pod("serving", "infer-a", ("srv", GPU, [f"{uuids[0]}::0"])),  # GPU 0 time-shared by a and b
                pod("serving", "infer-b", ("srv", GPU, [f"{uuids[0]}::1"])),  # b runs nothing on it
                pod("ml", "trainer-c", ("main", GPU, [uuids[1]])),  # listed on GPU 1, its process is on GPU 2
            ]
        )
        tree.process(100, pod_cgroup(uid_a))
        tree.process(101, pod_cgroup(uid_a))
        tree.process(300, pod_cgroup(uid_c))
        processes = tmp_path / "processes.json"
        processes.write_text(
            json.dumps(
                {
                    "0": [
                        {"pid": 100, "memory": 3 * GIB, "sm": 40},
                        {"pid": 101, "memory": GIB + (512 << 10), "sm": 5},  # MiB floored per process
                    ],
                    "2": [{"pid": 300, "memory": 2 * GIB, "sm": 90}],
                }
            )
        )
        argv = [sys.executable, "-m", "tests.fakenvml.module", "--processes", str(processes), "--"]
        # gpuscope's own flags here only place the test's fakes: NVML (no GPU on this machine: auto would pick the
        # simulator), the host's /proc, no pod log directory (the pods are named through the API server's watch).
        argv += ["-m", "gpuscope", "exporter", "--backend", "nvml", "--proc-root", str(tree.proc), "--pod-log-dir", ""]
        argv += ["-a", f"127.0.0.1:{port}", "-c", "300", "-f", str(csv), *flags]
        argv += ["--pod-resources-kubelet-socket", kubelet.socket_path]
        env = clean_env(
            {
                **api.env(),
                "NODE_NAME": NODE,
                "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO), os.environ.get("PYTHONPATH", "")]),
            }
        )
        url = f"http://127.0.0.1:{port}"
        with exporter_process(argv, url, tmp_path, env=env, cwd=REPO) as running:

            def split() -> str | None:
                text = running.get("/metrics").text
                util = {labels.get("pod"): v for labels, v in rows(text, "DCGM_FI_DEV_GPU_UTIL", "0")}
                return text if util.get("infer-a") == 45 else None

            text = wait_for(split, what="the per-pod split of GPU 0", timeout=60)
            assert "Traceback" not in running.log()
    return Node(text, uid_a, uid_b, uid_c)


def assert_dcgm_exporter_split(node: Node) -> None:
    """GPU_UTIL and FB_USED as dcgm-exporter's createPerProcessMetrics writes them, whatever the mode."""
    text = node.text
    fb0 = rows(text, "DCGM_FI_DEV_FB_USED", "0")
    device, *pods = fb0
    assert "pod" not in device[0] and "vgpu" not in device[0]  # the device's own series, first, as dcgm-exporter's
    by_pod = {labels["pod"]: (labels, v) for labels, v in pods}
    assert set(by_pod) == {"infer-a", "infer-b"}
    a, fb_a = by_pod["infer-a"]
    b, fb_b = by_pod["infer-b"]
    assert (fb_a, fb_b) == (3 * 1024 + 1024, 0)  # b, sharing the GPU with no process, gets its 0-valued series
    assert (a["pod_uid"], a["vgpu"], a["container"], a["namespace"]) == (node.uid_a, "0", "srv", "serving")
    # pod_uid without --kubernetes-enable-pod-uid, as dcgm-exporter
    assert (b["pod_uid"], b["vgpu"]) == (node.uid_b, "1")
    util0 = {labels.get("pod"): (labels, v) for labels, v in rows(text, "DCGM_FI_DEV_GPU_UTIL", "0")}
    assert set(util0) == {None, "infer-a", "infer-b"}
    assert util0["infer-b"][1] == 0 and util0["infer-b"][0]["vgpu"] == "1"
    # trainer-c's process runs on GPU 2, where the kubelet lists nobody: GPU 2 keeps its device series alone, and
    # on GPU 1, where c is listed, c's series is 0.
    assert [labels.get("pod") for labels, _ in rows(text, "DCGM_FI_DEV_FB_USED", "2")] == [None]
    assert [labels.get("pod") for labels, _ in rows(text, "DCGM_FI_DEV_GPU_UTIL", "2")] == [None]
    fb1 = rows(text, "DCGM_FI_DEV_FB_USED", "1")
    pairs = [(labels.get("pod"), labels.get("pod_uid")) for labels, _ in fb1]
    assert pairs == [(None, None), ("trainer-c", node.uid_c)]
    assert fb1[1][1] == 0
    # Without --process-metrics the processes are read for the split only.
    assert "gpuscope_gpu_process_memory_used_bytes" not in text
    assert "gpuscope_gpu_unattributed_processes" not in text
    assert 'gpuscope_exporter_kubernetes_api_up{resource="pods"} 1' in text


def test_virtual_gpus_alone_split_gpu_util_and_fb_used_per_sharing_pod(tmp_path: Path) -> None:
    """``-k --kubernetes-virtual-gpus`` as the Helm chart or the GPU Operator render it (Go's one-dash form here), no
    ``--workload-labels``: dcgm-exporter's labels mode, its split and its copies per sharing pod."""
    node = run_split(tmp_path, ["-k", "-kubernetes-virtual-gpus"])
    assert_dcgm_exporter_split(node)
    # The other fields: one copy per sharing pod and replica, no device series, pod_uid only with its flag.
    temp0 = rows(node.text, "DCGM_FI_DEV_GPU_TEMP", "0")
    assert sorted((labels["pod"], labels["vgpu"]) for labels, _ in temp0) == [("infer-a", "0"), ("infer-b", "1")]
    assert all("pod_uid" not in labels for labels, _ in temp0)


def test_info_mode_splits_too(tmp_path: Path) -> None:
    """``--workload-labels info`` (the generated bundle's) with ``-k --kubernetes-virtual-gpus``: the split series
    are dcgm-exporter's, and every other series keeps info mode's labels."""
    node = run_split(tmp_path, ["-k", "--kubernetes-virtual-gpus", "--workload-labels", "info"])
    assert_dcgm_exporter_split(node)
    temp0 = rows(node.text, "DCGM_FI_DEV_GPU_TEMP", "0")
    assert [sorted(labels) for labels, _ in temp0] == [sorted(rows(node.text, "DCGM_FI_DEV_FB_USED", "0")[0][0])]
    assert "pod" not in temp0[0][0]  # one series, the device's: info mode puts no pod on it
    info = {(labels["pod"], labels.get("vgpu")) for labels, _ in rows(node.text, "gpuscope_gpu_workload_info", "0")}
    assert info == {("infer-a", "0"), ("infer-b", "1")}  # the attribution stays on the info series
