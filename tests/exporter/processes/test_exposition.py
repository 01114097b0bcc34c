"""Per-process metrics end to end inside one exporter: the fake NVML's processes, a host's /proc and pod log
directory as files, the kubelet as a real gRPC server, rendered as /metrics text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuscope.backends.nvml import NvmlBackend
from gpuscope.exporter.attribution.resolve import WorkloadLabels
from gpuscope.exporter.attribution.source import WorkloadSettings
from gpuscope.exporter.processes.pods import PodRef
from gpuscope.exporter.processes.source import ProcessSettings
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors, parse_collectors
from gpuscope.simulator.kubelet import KubeletServer, kubelet_server, pod
from tests.exporter.processes.proctree import ProcTree, pod_cgroup
from tests.fakenvml import FakeNvml
from tests.fakenvml.processes import FakeProcess
from tests.support.metrics_text import value

GIB = 1 << 30
UID_A = "11111111-2222-4333-8444-555555555555"
UID_B = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee"
UID_GONE = "99999999-8888-4777-8666-555555555555"


class Node:
    def __init__(self, tmp: Path, mode: WorkloadLabels = WorkloadLabels.INFO, socket: str = "") -> None:
        self.tree = ProcTree(tmp)
        self.fake = FakeNvml("workstation")
        self.backend = NvmlBackend(self.fake, watch_events=False)
        settings = ExporterSettings(
            collectors=load_collectors(None),
            workloads=WorkloadSettings(mode=mode, kubernetes=bool(socket), socket_path=socket),
            processes=ProcessSettings(enabled=True, proc_root=str(self.tree.proc), pod_log_dir=str(self.tree.pods)),
        )
        self.runtime: NodeRuntime = make_runtime(self.backend, settings, "node-a", clock=lambda: 1_800_000_000.0)

    def scrape(self) -> str:
        self.fake.now_us += 15_000_000
        self.runtime.collect()
        return self.runtime.body(1_800_000_000.0, gzip=False).decode()


@pytest.fixture
def kubelet() -> Iterator[KubeletServer]:
    with kubelet_server() as k:
        yield k


@pytest.fixture
def node(tmp_path: Path) -> Iterator[Node]:
    n = Node(tmp_path)
    yield n
    n.runtime.close()


def test_two_pods_time_sharing_a_gpu_each_get_their_own_series(node: Node) -> None:
    t = node.tree
    t.pod("ml", "trainer-0", UID_A, "trainer")
    t.pod("ml", "notebook-7", UID_B, "jupyter")
    t.process(100, pod_cgroup(UID_A))
    t.process(101, pod_cgroup(UID_A))  # a second process of the same container: summed
    t.process(200, pod_cgroup(UID_B))
    node.fake.devices[0].processes = [
        FakeProcess(pid=100, memory=4 * GIB, sm=30),
        FakeProcess(pid=101, memory=GIB, sm=20),
        FakeProcess(pid=200, memory=2 * GIB, sm=45, enc=7),
    ]
    text = node.scrape()
    head = {"gpu": "0", "Hostname": "node-a", "UUID": node.fake.devices[0].uuid}
    trainer = {**head, "namespace": "ml", "pod": "trainer-0", "container": "trainer"}
    notebook = {**head, "namespace": "ml", "pod": "notebook-7", "container": "jupyter"}
    assert value(text, "gpuscope_gpu_process_memory_used_bytes", **trainer) == 5 * GIB
    assert value(text, "gpuscope_gpu_process_memory_used_bytes", **notebook) == 2 * GIB
    assert value(text, "gpuscope_gpu_process_utilization_percent", engine="sm", **trainer) == 50
    assert value(text, "gpuscope_gpu_process_utilization_percent", engine="encoder", **notebook) == 7
    assert "pid=" not in text
    assert value(text, "gpuscope_gpu_unattributed_memory_used_bytes", **head) == 0
    assert value(text, "gpuscope_gpu_unattributed_processes", **head) == 0


def test_zombie_vanished_pid_and_unknown_cgroup_go_to_unattributed_by_reason(node: Node) -> None:
    t = node.tree
    t.pod("ml", "trainer-0", UID_A)
    t.process(100, pod_cgroup(UID_A))
    t.process(300, pod_cgroup(UID_GONE))  # its pod was deleted, it still holds memory
    t.process(400, "0::/kubepods.slice/a-shape-nobody-knows\n")
    t.process(500, "0::/user.slice/user-1000.slice/session-2.scope\n", comm="blender", uid=0)
    node.fake.devices[0].processes = [
        FakeProcess(pid=100, memory=GIB),
        FakeProcess(pid=300, memory=6 * GIB),
        FakeProcess(pid=400, memory=GIB),
        FakeProcess(pid=500, memory=GIB, kinds=("graphics",)),
        FakeProcess(pid=600, memory=2 * GIB),  # listed by NVML, gone from /proc
    ]
    text = node.scrape()
    assert value(text, "gpuscope_gpu_unattributed_memory_used_bytes", gpu="0") == 9 * GIB
    assert value(text, "gpuscope_gpu_unattributed_processes", gpu="0") == 3
    assert value(text, "gpuscope_gpu_process_memory_used_bytes", process_name="blender", user="root") == GIB
    for reason, count in (("pod_gone", 1), ("unknown_cgroup", 1), ("pid_not_visible", 1), ("pod_ambiguous", 0)):
        assert value(text, "gpuscope_exporter_process_unattributed_total", reason=reason) == count
    # the zombie's pod comes back under the same UID (it never left): attributed again, the counter only grows
    t.pod("ml", "trainer-1", UID_GONE)
    again = node.scrape()
    assert value(again, "gpuscope_gpu_process_memory_used_bytes", pod="trainer-1") == 6 * GIB
    assert value(again, "gpuscope_exporter_process_unattributed_total", reason="pod_gone") == 1


def test_off_by_default_and_a_bad_pod_directory_never_fails_the_scrape(tmp_path: Path) -> None:
    n = Node(tmp_path)
    try:
        n.tree.process(100, pod_cgroup(UID_A))
        n.fake.devices[0].processes = [FakeProcess(pid=100, memory=GIB)]
        n.tree.pods.rmdir()  # not mounted: no UID source, no kubelet either
        text = n.scrape()
        assert value(text, "gpuscope_exporter_process_unattributed_total", reason="no_pod_source") == 1
        assert "DCGM_FI_DEV_GPU_TEMP{" in text  # the GPU series are all there
    finally:
        n.runtime.close()


def test_labels_mode_splits_gpu_util_and_fb_used_per_pod(tmp_path: Path, kubelet: KubeletServer) -> None:
    n = Node(tmp_path, WorkloadLabels.LABELS, socket=kubelet.socket_path)
    try:
        uuid = n.fake.devices[0].uuid
        kubelet.set_pods(
            [
                pod("ml", "trainer-0", ("trainer", "nvidia.com/gpu", [f"{uuid}::0"])),
                pod("ml", "notebook-7", ("jupyter", "nvidia.com/gpu", [f"{uuid}::1"])),
            ]
        )
        n.tree.pod("ml", "trainer-0", UID_A, "trainer")
        n.tree.pod("ml", "notebook-7", UID_B, "jupyter")
        n.tree.process(100, pod_cgroup(UID_A))
        n.tree.process(200, pod_cgroup(UID_B))
        n.fake.devices[0].processes = [
            FakeProcess(pid=100, memory=3 * GIB, sm=60),
            FakeProcess(pid=200, memory=GIB, sm=15),
        ]
        text = n.scrape()
        assert value(text, "DCGM_FI_DEV_GPU_UTIL", pod="trainer-0", container="trainer") == 60
        assert value(text, "DCGM_FI_DEV_GPU_UTIL", pod="notebook-7") == 15
        assert value(text, "DCGM_FI_DEV_FB_USED", pod="trainer-0") == 3 * 1024
        assert value(text, "DCGM_FI_DEV_FB_USED", pod="notebook-7") == 1024
        # as dcgm-exporter: the device's own series first, then one per pod the kubelet lists on the GPU
        lines = [line for line in text.splitlines() if line.startswith("DCGM_FI_DEV_FB_USED{")]
        assert len(lines) == 3 and 'pod="' not in lines[0]
        assert value(text, "DCGM_FI_DEV_GPU_TEMP", pod="trainer-0") is None  # last pod listed wins, as dcgm-exporter
        assert "gpuscope_gpu_process_memory_used_bytes" not in text  # labels mode: the split instead
        assert value(text, "gpuscope_gpu_unattributed_memory_used_bytes", gpu="0") == 0
    finally:
        n.runtime.close()


def test_kubelet_device_list_names_the_only_pod_without_a_pod_directory(tmp_path: Path, kubelet: KubeletServer) -> None:
    n = Node(tmp_path, socket=kubelet.socket_path)
    try:
        uuid = n.fake.devices[0].uuid
        n.tree.pods.rmdir()
        n.tree.process(100, pod_cgroup(UID_A))
        n.fake.devices[0].processes = [FakeProcess(pid=100, memory=GIB)]
        kubelet.set_pods([pod("ml", "solo", ("main", "nvidia.com/gpu", [uuid]))])
        text = n.scrape()
        assert value(text, "gpuscope_gpu_process_memory_used_bytes", pod="solo", container="main") == GIB
        kubelet.set_pods([])  # the pod is gone, its process is not
        text = n.scrape()
        assert value(text, "gpuscope_gpu_unattributed_memory_used_bytes", gpu="0") == GIB
        assert value(text, "gpuscope_exporter_process_unattributed_total", reason="pod_gone") == 1
    finally:
        n.runtime.close()


class ApiServerPods:
    """What an API-server pod watch hands the exporter: live pods by UID (the ``PodLookup`` seam)."""

    def __init__(self, pods: dict[str, PodRef]) -> None:
        self.live = pods

    def pods(self) -> dict[str, PodRef]:
        return self.live


def test_a_pod_uid_source_plugs_in_through_make_runtime(tmp_path: Path) -> None:
    tree = ProcTree(tmp_path)
    fake = FakeNvml("workstation")
    watch = ApiServerPods({UID_A: PodRef("prod", "api-7", ("server",))})
    settings = ExporterSettings(
        collectors=load_collectors(None),
        processes=ProcessSettings(enabled=True, proc_root=str(tree.proc), pod_log_dir=""),
    )
    runtime = make_runtime(NvmlBackend(fake, watch_events=False), settings, "node-a", pod_lookup=watch)
    try:
        tree.process(100, pod_cgroup(UID_A))
        fake.devices[0].processes = [FakeProcess(pid=100, memory=GIB)]
        runtime.collect()
        text = runtime.body(0.0, gzip=False).decode()
        assert value(text, "gpuscope_gpu_process_memory_used_bytes", namespace="prod", pod="api-7") == GIB
        watch.live = {}  # the watch saw the pod deleted
        runtime.collect()
        text = runtime.body(0.0, gzip=False).decode()
        assert value(text, "gpuscope_gpu_unattributed_memory_used_bytes", gpu="0") == GIB
    finally:
        runtime.close()


def test_a_pod_on_an_unused_mig_instance_gets_its_split_series_at_0(tmp_path: Path, kubelet: KubeletServer) -> None:
    """``-k --kubernetes-virtual-gpus`` on a MIG GPU, as dcgm-exporter writes it (internal/pkg/transformation/
    process_metrics.go ``processMIGEnabledGPU``, kubernetes.go ``createPerProcessMetrics``/``buildIdlePodValues``):
    a pod the kubelet lists on an instance none of its processes use gets that instance's FB_USED series at 0,
    after the instance's own series; no GPU_UTIL (DCGM has none per instance); an instance no pod is listed on
    keeps its device series alone; the process of a pod listed on one instance counts on that instance only."""
    tree = ProcTree(tmp_path)
    fake = FakeNvml("h100-mig")
    csv = "DCGM_FI_DEV_GPU_UTIL, gauge, u\nDCGM_FI_DEV_FB_USED, gauge, f\n"
    settings = ExporterSettings(
        collectors=parse_collectors(csv, "split.csv"),
        workloads=WorkloadSettings(
            mode=WorkloadLabels.LABELS, kubernetes=True, socket_path=kubelet.socket_path, virtual_gpus=True
        ),
        processes=ProcessSettings(proc_root=str(tree.proc), pod_log_dir=str(tree.pods), split=True),
    )
    runtime = make_runtime(NvmlBackend(fake, watch_events=False), settings, "node-a", clock=lambda: 1_800_000_000.0)
    mig = "nvidia.com/mig-3g.40gb"
    try:
        kubelet.set_pods(
            [pod("ml", "busy", ("c", mig, ["nvidia0/gi1::0"])), pod("ml", "idle", ("c", mig, ["nvidia0/gi2::0"]))]
        )
        tree.pod("ml", "busy", UID_A, "c")
        tree.pod("ml", "idle", UID_B, "c")
        tree.process(100, pod_cgroup(UID_A))
        fake.devices[0].processes = [FakeProcess(pid=100, memory=3 * GIB, gi=1)]
        fake.now_us += 15_000_000
        runtime.collect()
        text = runtime.body(1_800_000_000.0, gzip=False).decode()
        assert value(text, "DCGM_FI_DEV_FB_USED", GPU_I_ID="1", pod="busy", vgpu="0") == 3 * 1024
        assert value(text, "DCGM_FI_DEV_FB_USED", GPU_I_ID="2", pod="idle", vgpu="0") == 0
        assert value(text, "DCGM_FI_DEV_FB_USED", GPU_I_ID="2", pod="busy") is None
        fb2 = [ln for ln in text.splitlines() if ln.startswith("DCGM_FI_DEV_FB_USED{") and 'GPU_I_ID="2"' in ln]
        assert len(fb2) == 2 and 'pod="' not in fb2[0]  # the instance's own series first, then the pod's
        fb9 = [ln for ln in text.splitlines() if ln.startswith("DCGM_FI_DEV_FB_USED{") and 'GPU_I_ID="9"' in ln]
        assert len(fb9) == 1 and 'pod="' not in fb9[0]
        assert not any(ln.startswith('DCGM_FI_DEV_GPU_UTIL{gpu="0"') for ln in text.splitlines())
    finally:
        runtime.close()
