"""``--backend dcgm`` with the per-pod split: the fields from the fake libdcgm, the process lists through the fake
NVML beside it (as dcgm-exporter reads them through NVML beside DCGM), the pods from the fake kubelet and API
server, all through the real ``gpuscope exporter`` process."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from gpuscope.simulator.kubelet import kubelet_server, pod
from tests.exporter.processes.proctree import ProcTree, pod_cgroup
from tests.fakedcgm import build
from tests.fakenvml import FakeNvml
from tests.support.exporter_process import clean_env, exporter_process
from tests.support.kubeapi import fake_kube_api
from tests.support.metrics_text import families
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[3]
NODE = "dcgm-node"
GIB = 1 << 30
FB_USED, GPU_UTIL = 252, 203
A100 = "NVIDIA A100-SXM4-80GB"


@pytest.fixture(scope="module")
def fake_library(request: pytest.FixtureRequest) -> Path:
    return build(Path(request.config.cache.mkdir("fakedcgm")))


def test_dcgm_backend_splits_shared_gpus_from_nvml_process_lists(fake_library: Path, tmp_path: Path) -> None:
    uuids = [d.uuid for d in FakeNvml("hgx-h100").devices]
    model = [f"gpu {i} {uuids[i]} 00000000:0{7 + i}:00.0 {A100}" for i in (0, 1)]
    model += ["value none 0 1 s 550.54.15", "value none 0 2 s 12.550.54"]
    model += [f"value gpu {g} {fid} i {v}" for g in (0, 1) for fid, v in ((FB_USED, 30000 + g), (GPU_UTIL, 70))]
    (tmp_path / "model.txt").write_text("\n".join(model) + "\n")
    (tmp_path / "fields.csv").write_text("DCGM_FI_DEV_GPU_UTIL, gauge, u\nDCGM_FI_DEV_FB_USED, gauge, m\n")
    tree = ProcTree(tmp_path / "host")
    port = free_port()
    with fake_kube_api(tmp_path) as api, kubelet_server() as kubelet:
        uid_a = api.create_pod("serving", "infer-a", NODE, {})
        uid_b = api.create_pod("serving", "infer-b", NODE, {})
        kubelet.set_pods(
            [
                pod("serving", "infer-a", ("srv", "nvidia.com/gpu", [f"{uuids[0]}::0"])),
                pod("serving", "infer-b", ("srv", "nvidia.com/gpu", [f"{uuids[0]}::1"])),
            ]
        )
        tree.process(100, pod_cgroup(uid_a))
        processes = tmp_path / "processes.json"
        processes.write_text(json.dumps({"0": [{"pid": 100, "memory": 5 * GIB, "sm": 33}]}))
        argv = [sys.executable, "-m", "tests.fakenvml.module", "--processes", str(processes), "--"]
        argv += ["-m", "gpuscope", "exporter", "--backend", "dcgm", "-a", f"127.0.0.1:{port}", "-c", "300"]
        argv += ["-f", str(tmp_path / "fields.csv"), "-k", "--kubernetes-virtual-gpus", "--workload-labels"]
        argv += ["labels", "--pod-resources-kubelet-socket", kubelet.socket_path, "--proc-root", str(tree.proc)]
        env = clean_env(
            {
                **api.env(),
                "NODE_NAME": NODE,
                "GPUSCOPE_LIBDCGM_PATH": str(fake_library),
                "GPUSCOPE_FAKEDCGM_MODEL": str(tmp_path / "model.txt"),
                "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO), os.environ.get("PYTHONPATH", "")]),
            }
        )
        with exporter_process(argv, f"http://127.0.0.1:{port}", tmp_path, env=env, cwd=REPO) as running:

            def split() -> list[tuple[dict[str, str], float]] | None:
                fam = families(running.get("/metrics").text).get("DCGM_FI_DEV_FB_USED")
                got = [] if fam is None else [(dict(s.labels), s.value) for s in fam[1] if s.labels["gpu"] == "0"]
                return got if any(labels.get("pod") == "infer-a" for labels, _ in got) else None

            fb = wait_for(split, what="the split of GPU 0's FB_USED", timeout=60)
            assert "Traceback" not in running.log()
    assert [(labels.get("pod"), labels.get("pod_uid"), v) for labels, v in fb] == [
        (None, None, 30000),  # the device's own value, from DCGM
        ("infer-a", uid_a, 5 * 1024),  # its process, from NVML
        ("infer-b", uid_b, 0),
    ]
