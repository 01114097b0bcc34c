"""Pod labels, pod UID, virtual GPUs and DRA through a collecting runtime, with the fake kubelet and API server.

Pods are created, relabelled and deleted on the fake API server while the runtime collects; each change shows at
the next collection after the watch delivered it.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gpuscope.exporter.attribution.resolve import WorkloadLabels
from gpuscope.exporter.attribution.source import WorkloadSettings, WorkloadSource
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.simulator.kubelet import KubeletServer, kubelet_server, pod
from tests.support.clock import FakeClock
from tests.support.exporter import RuntimeFactory, reading, scrape
from tests.support.kubeapi import FakeKubeApi, fake_kube_api
from tests.support.metrics_text import families, label_order
from tests.support.net import wait_for
from tests.support.prom import binary

pytestmark = pytest.mark.e2e

GPU = "nvidia.com/gpu"
NODE = "node-a"
CSV = "DCGM_FI_DEV_GPU_TEMP, gauge, Temperature.\nDCGM_FI_DEV_FB_USED, gauge, Used.\n"


@pytest.fixture
def kubelet() -> Iterator[KubeletServer]:
    with kubelet_server() as k:
        yield k


@pytest.fixture
def api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeKubeApi]:
    with fake_kube_api(tmp_path) as server:
        for name, value in server.env().items():
            monkeypatch.setenv(name, value)
        yield server


def settings(kubelet: KubeletServer, mode: WorkloadLabels = WorkloadLabels.INFO, **kw: Any) -> WorkloadSettings:
    return WorkloadSettings(
        mode=mode,
        kubernetes=True,
        socket_path=kubelet.socket_path,
        node_name=NODE,
        **kw,
    )


def series(text: str, name: str) -> list[dict[str, str]]:
    fam = families(text).get(name)
    return [] if fam is None else [dict(s.labels) for s in fam[1]]


def source(runtime: NodeRuntime) -> WorkloadSource:
    assert runtime.collector.workloads is not None
    return runtime.collector.workloads


def collect_until(runtime: NodeRuntime, clock: FakeClock, check: Callable[[str], object], what: str) -> str:
    """Collect (one collection per poll) until the scrape satisfies ``check``."""

    def once() -> str | None:
        runtime.collect()
        text = scrape(runtime, clock)
        return text if check(text) else None

    return wait_for(once, what=what)


def test_info_mode_pod_labels_and_uid_follow_the_api_server(
    make: RuntimeFactory, kubelet: KubeletServer, api: FakeKubeApi
) -> None:
    uid = api.create_pod("ml", "train-0", NODE, {"team": "vision", "app.kubernetes.io/name": "trainer", "tier": "x"})
    runtime, _, clock = make(
        gpus=2, csv=CSV, hostname=NODE,
        workloads=settings(kubelet, pod_labels=True, pod_uid=True, label_allowlist="^team$,app\\.kubernetes"),
    )  # fmt: skip
    kubelet.set_pods([pod("ml", "train-0", ("main", GPU, ["nvidia0"]))])
    runtime.collect()  # the first collection waits for the watch's first list
    text = scrape(runtime, clock)
    info = series(text, "gpuscope_gpu_workload_info")
    assert info == [
        {
            "gpu": "0", "UUID": info[0]["UUID"], "Hostname": NODE, "container": "main", "namespace": "ml",
            "pod": "train-0", "app_kubernetes_io_name": "trainer", "pod_uid": uid, "team": "vision",
        }
    ]  # fmt: skip
    assert all("team" not in s for s in series(text, "DCGM_FI_DEV_GPU_TEMP"))  # info mode: GPU series stay clean
    assert 'gpuscope_exporter_kubernetes_api_up{resource="pods"} 1\n' in text
    # Relabelled, a new pod scheduled, the first deleted: each shows within a collection of the watch event.
    api.relabel_pod("ml", "train-0", {"team": "robotics"})
    collect_until(
        runtime, clock, lambda t: series(t, "gpuscope_gpu_workload_info")[0].get("team") == "robotics", "relabel"
    )
    uid2 = api.create_pod("web", "infer-1", NODE, {"team": "search"})
    kubelet.set_pods(
        [pod("ml", "train-0", ("main", GPU, ["nvidia0"])), pod("web", "infer-1", ("srv", GPU, ["nvidia1"]))]
    )
    text = collect_until(
        runtime, clock, lambda t: {s.get("pod_uid") for s in series(t, "gpuscope_gpu_workload_info")} == {uid, uid2},
        "the new pod's UID",
    )  # fmt: skip
    api.delete_pod("ml", "train-0")
    kubelet.set_pods([pod("web", "infer-1", ("srv", GPU, ["nvidia1"]))])
    runtime.collect()
    assert [s["pod"] for s in series(scrape(runtime, clock), "gpuscope_gpu_workload_info")] == ["infer-1"]
    assert source(runtime).pods().by_uid(uid2) is not None
    wait_for(lambda: source(runtime).pods().by_uid(uid) is None, what="the deleted pod leaves the cache")
    # A node's lifetime of changes cost one list and one watch.
    assert api.count("/api/v1/pods") == 2


def test_labels_mode_puts_pod_labels_and_uid_on_every_gpu_series(
    make: RuntimeFactory, kubelet: KubeletServer, api: FakeKubeApi
) -> None:
    hostile = {"team": "vision", "pod": "clash", "9lives": "cat", "a.b/c-d": "x", "a_b_c_d": "y", "Hostname": "no"}
    uid = api.create_pod("ml", "train-0", NODE, hostile)
    runtime, _, clock = make(
        gpus=2,
        csv=CSV,
        hostname=NODE,
        workloads=settings(kubelet, WorkloadLabels.LABELS, pod_labels=True, pod_uid=True),
    )
    kubelet.set_pods([pod("ml", "train-0", ("main", GPU, ["nvidia1"]))])
    runtime.collect()
    text = scrape(runtime, clock)
    for name in ("DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_FB_USED"):
        by_gpu = {s["gpu"]: s for s in series(text, name)}
        held = by_gpu["1"]
        assert (held["pod"], held["team"], held["pod_uid"], held["_9lives"]) == ("train-0", "vision", uid, "cat")
        assert (held["a_b_c_d"], held["Hostname"]) == ("x", NODE)  # byte-wise first key wins; ours win clashes
        assert "team" not in by_gpu["0"]
    assert "gpuscope_gpu_workload_info" not in text
    # Prometheus's own parser takes the exposition: every pod label became a valid, unique label name.
    checked = subprocess.run(
        [binary("promtool"), "check", "metrics"], input=text, capture_output=True, text=True, check=False
    )
    assert "parsing error" not in checked.stdout + checked.stderr, checked.stdout + checked.stderr


def test_labels_mode_writes_pod_labels_with_the_label_fields_and_attributes_after(
    make: RuntimeFactory, kubelet: KubeletServer, api: FakeKubeApi
) -> None:
    """dcgm-exporter's order (internal/pkg/transformation/kubernetes.go puts a pod's labels in the series' label
    map, container/namespace/pod/pod_uid in its attributes; rendermetrics/render_metrics.go writes the label map
    byte-sorted, then the attributes byte-sorted): the pod's labels among the label fields and the series' own
    labels (window_size_in_ms), err_code/err_msg among the attributes."""
    api.create_pod("ml", "train-0", NODE, {"team": "vision", "zone": "b"})
    csv = CSV + (
        "DCGM_FI_DEV_XID_ERRORS, gauge, x\nDCGM_EXP_CLOCK_EVENTS_COUNT, gauge, c\n"
        "DCGM_FI_DRIVER_VERSION, label, Driver Version\n"
    )
    workloads = settings(kubelet, WorkloadLabels.LABELS, pod_labels=True, pod_uid=True)
    runtime, _, clock = make(gpus=2, csv=csv, hostname=NODE, workloads=workloads)
    kubelet.set_pods([pod("ml", "train-0", ("main", GPU, ["nvidia1"]))])
    text = collect_until(runtime, clock, lambda t: 'zone="b"' in t, "the pod's labels on its series")
    head = ["gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname", "DCGM_FI_DRIVER_VERSION"]
    attributes = ["container", "namespace", "pod", "pod_uid"]

    def held(name: str) -> list[str]:
        orders = [o for o in label_order(text, name) if "pod" in o]
        assert len(orders) == 1, orders
        return orders[0]

    assert held("DCGM_FI_DEV_GPU_TEMP") == [*head, "team", "zone", *attributes]
    assert held("DCGM_FI_DEV_XID_ERRORS") == [
        *head,
        "team",
        "zone",
        "container",
        "err_code",
        "err_msg",
        *attributes[1:],
    ]
    assert held("DCGM_EXP_CLOCK_EVENTS_COUNT") == [*head, "team", "window_size_in_ms", "zone", *attributes]
    assert label_order(text, "DCGM_FI_DEV_GPU_TEMP")[0] == head  # the GPU nobody holds: no pod, no pod labels


def test_api_server_failure_degrades_to_the_kubelet_and_says_why(
    make: RuntimeFactory, kubelet: KubeletServer, api: FakeKubeApi
) -> None:
    api.fail_with = 403
    runtime, _, clock = make(gpus=1, hostname=NODE, workloads=settings(kubelet, pod_labels=True))
    kubelet.set_pods([pod("ml", "a", ("c", GPU, ["nvidia0"]))])
    text = collect_until(runtime, clock, lambda t: 'reason="forbidden"' in t, "the 403 counted in the self-metrics")
    assert 'gpuscope_exporter_kubernetes_api_up{resource="pods"} 0\n' in text
    assert [(s["pod"], "team" in s) for s in series(text, "gpuscope_gpu_workload_info")] == [("a", False)]
    assert "gpuscope_exporter_kubelet_up 1\n" in text
    api.fail_with = None
    api.create_pod("ml", "a", NODE, {"team": "vision"})
    collect_until(
        runtime, clock, lambda t: series(t, "gpuscope_gpu_workload_info")[0].get("team") == "vision", "recovery"
    )


def test_a_wrong_node_name_is_said_once(
    make: RuntimeFactory, kubelet: KubeletServer, api: FakeKubeApi, caplog: pytest.LogCaptureFixture
) -> None:
    api.create_pod("ml", "a", "the-real-node", {"team": "vision"})
    wrong = WorkloadSettings(kubernetes=True, socket_path=kubelet.socket_path, node_name="not-this", pod_labels=True)
    runtime, _, clock = make(gpus=1, workloads=wrong)
    kubelet.set_pods([pod("ml", "a", ("c", GPU, ["nvidia0"]))])

    def said() -> list[str]:
        return [r.message for r in caplog.records if "set NODE_NAME" in r.message]

    collect_until(runtime, clock, lambda _: said(), "the warning")
    runtime.collect()
    runtime.collect()
    lines = said()
    assert len(lines) == 1 and "'not-this'" in lines[0]
    assert "team" not in series(scrape(runtime, clock), "gpuscope_gpu_workload_info")[0]


def test_virtual_gpus_one_attribution_per_sharing_pod_and_replica(make: RuntimeFactory, kubelet: KubeletServer) -> None:
    runtime, _, clock = make(gpus=2, csv=CSV, workloads=settings(kubelet, virtual_gpus=True))
    runtime.collect()
    uuid = reading(runtime).gpus[0].identity.uuid
    kubelet.set_pods(
        [
            pod("web", "a", ("srv", GPU, [f"{uuid}::0", f"{uuid}::3"])),  # two replicas of GPU 0
            pod("web", "b", ("srv", GPU, ["nvidia1/vgpu2"])),  # GKE sharing
            pod("web", "c", ("srv", GPU, ["nvidia1/vgpu"])),  # GKE without a number: still GPU 1
        ]
    )
    runtime.collect()
    info = {(s["gpu"], s["pod"], s.get("vgpu")) for s in series(scrape(runtime, clock), "gpuscope_gpu_workload_info")}
    assert info == {("0", "a", "0"), ("0", "a", "3"), ("1", "b", "2"), ("1", "c", None)}
    labels, _, lclock = make(gpus=2, csv=CSV, workloads=settings(kubelet, WorkloadLabels.LABELS, virtual_gpus=True))
    labels.collect()
    temp = {(s["gpu"], s["pod"], s.get("vgpu")) for s in series(scrape(labels, lclock), "DCGM_FI_DEV_GPU_TEMP")}
    assert temp == info  # labels mode: one copy of each GPU series per sharing pod and replica
    plain, _, pclock = make(gpus=2, csv=CSV, workloads=settings(kubelet, WorkloadLabels.LABELS))
    plain.collect()
    plain_temp = {(s["gpu"], s["pod"]) for s in series(scrape(plain, pclock), "DCGM_FI_DEV_GPU_TEMP")}
    assert plain_temp == {("0", "a"), ("1", "c")}  # without the flag: dcgm-exporter's last pod wins, no vgpu label


def v1beta1_gpu(name: str, uuid: str) -> dict[str, object]:
    """A GPU as the NVIDIA DRA driver publishes it in a resource.k8s.io/v1beta1 ResourceSlice."""
    return {"name": name, "basic": {"attributes": {"type": {"string": "gpu"}, "uuid": {"string": uuid}}}}


def test_dra_claims_resolve_through_the_resource_slices(
    make: RuntimeFactory, kubelet: KubeletServer, api: FakeKubeApi
) -> None:
    runtime, _, clock = make(gpus=2, mig="", csv=CSV, hostname=NODE, workloads=settings(kubelet, dra=True))
    runtime.collect()
    gpus = reading(runtime).gpus
    api.slice_versions = ("v1beta1",)  # an older cluster: the reflector finds the version served
    api.put_slice(
        "node-a-gpu.nvidia.com", NODE, NODE,
        [v1beta1_gpu(f"gpu-{g.identity.index}", g.identity.uuid) for g in gpus],
        version="v1beta1",
    )  # fmt: skip
    kubelet.set_pods(
        [
            pod("ml", "train", claims=[("main", "train-gpu", "gpu.nvidia.com", NODE, ["gpu-1"])]),
            pod("ml", "other", claims=[("main", "fpga", "fpga.example.com", NODE, ["f0"])]),  # not a GPU driver
        ]
    )
    text = collect_until(
        runtime, clock, lambda t: series(t, "gpuscope_gpu_workload_info"), "the claimed GPU attributed"
    )
    assert series(text, "gpuscope_gpu_workload_info") == [
        {
            "gpu": "1", "UUID": gpus[1].identity.uuid, "Hostname": NODE, "container": "main", "namespace": "ml",
            "pod": "train", "dra_claim_name": "train-gpu", "dra_claim_namespace": "ml", "dra_device_name": "gpu-1",
            "dra_driver_name": "gpu.nvidia.com", "dra_pool_name": NODE,
        }
    ]  # fmt: skip
    assert 'gpuscope_exporter_kubernetes_api_up{resource="resourceslices"} 1\n' in text
    assert "gpuscope_exporter_workload_unmatched_devices 0\n" in text


def test_dra_mig_devices_land_on_their_instance_or_their_parent(
    make: RuntimeFactory, kubelet: KubeletServer, api: FakeKubeApi
) -> None:
    runtime, _, clock = make(gpus=1, mig="1g.10gb:7", csv=CSV, hostname=NODE, workloads=settings(kubelet, dra=True))
    runtime.collect()
    gpu = reading(runtime).gpus[0]
    inst = gpu.instances[2].identity

    def mig(name: str, uuid: str) -> dict[str, object]:
        attributes = {"type": "mig", "uuid": uuid, "parentUUID": gpu.identity.uuid, "profile": "1g.10gb"}
        return {"name": name, "attributes": {k: {"string": v} for k, v in attributes.items()}}

    api.put_slice("s", NODE, NODE, [mig("mig-a", inst.uuid), mig("mig-new", "MIG-not-read-yet")])
    kubelet.set_pods(
        [
            pod("ml", "a", claims=[("main", "ca", "gpu.nvidia.com", NODE, ["mig-a"])]),
            pod("ml", "b", claims=[("main", "cb", "gpu.nvidia.com", NODE, ["mig-new"])]),
        ]
    )
    text = collect_until(
        runtime, clock, lambda t: len(series(t, "gpuscope_gpu_workload_info")) == 2, "both claims attributed"
    )
    got = {s["pod"]: s for s in series(text, "gpuscope_gpu_workload_info")}
    assert got["a"]["GPU_I_ID"] == str(inst.gpu_instance_id) and got["a"]["dra_mig_device_uuid"] == inst.uuid
    assert got["a"]["dra_mig_profile"] == "1g.10gb"
    assert "GPU_I_ID" not in got["b"] and got["b"]["UUID"] == gpu.identity.uuid  # created on demand: the parent


def test_the_pod_watch_is_the_process_metrics_pod_lookup(kubelet: KubeletServer, api: FakeKubeApi) -> None:
    from gpuscope.exporter.attribution.process_pods import WatchedPods
    from gpuscope.exporter.processes.pods import PodRef

    uid = api.create_pod("ml", "a", NODE, {"team": "vision"})
    src = WorkloadSource(settings(kubelet, pod_uid=True))
    try:
        lookup = WatchedPods(src)
        assert lookup.pods() is None and lookup.problem  # not listed yet: cannot answer
        src.read(())  # the first collection starts the watch
        wait_for(lambda: lookup.pods(), what="the watch's pods by UID")
        assert lookup.pods() == {uid: PodRef("ml", "a", ())} and not lookup.problem
    finally:
        src.close()
