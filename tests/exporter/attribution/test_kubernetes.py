"""Pod attribution from a real gRPC kubelet (the fake one), through the exporter's collection and exposition."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gpuscope.exporter.attribution.kubelet import KubeletClient, KubeletError
from gpuscope.exporter.attribution.resolve import WorkloadLabels
from gpuscope.exporter.attribution.source import KUBELET_GRACE, WorkloadSettings
from gpuscope.simulator.kubelet import KubeletServer, kubelet_server, pod
from tests.support.exporter import RuntimeFactory, reading, scrape
from tests.support.metrics_text import families, label_order

GPU = "nvidia.com/gpu"
MIG = "nvidia.com/mig-1g.10gb"
CSV = (
    "DCGM_FI_DEV_GPU_TEMP, gauge, Temperature.\n"
    "DCGM_FI_DEV_FB_USED, gauge, Used.\n"
    "DCGM_FI_DEV_XID_ERRORS, gauge, Last XID.\n"
    "DCGM_EXP_XID_ERRORS_COUNT, gauge, XIDs in the window.\n"
    "DCGM_FI_DRIVER_VERSION, label, Driver version.\n"
)


@pytest.fixture
def kubelet() -> Iterator[KubeletServer]:
    with kubelet_server() as k:
        yield k


def k8s(kubelet: KubeletServer, mode: WorkloadLabels = WorkloadLabels.INFO, **extra: Any) -> WorkloadSettings:
    return WorkloadSettings(mode=mode, kubernetes=True, socket_path=kubelet.socket_path, **extra)


def info_series(text: str) -> list[dict[str, str]]:
    fam = families(text).get("gpuscope_gpu_workload_info")
    return [] if fam is None else [dict(s.labels) for s in fam[1]]


def test_info_mode_one_series_per_allocation_and_clean_gpu_series(make: RuntimeFactory, kubelet: KubeletServer) -> None:
    runtime, _, clock = make(gpus=4, workloads=k8s(kubelet))
    runtime.collect()
    uuid = [g.identity.uuid for g in reading(runtime).gpus]
    kubelet.set_pods(
        [
            pod("ml", "train-0", ("main", GPU, [uuid[0]])),
            pod("web", "infer-1", ("srv", GPU, [f"{uuid[2]}::0"])),
            pod("web", "infer-2", ("srv", GPU, ["nvidia2"])),  # GKE device name, shares GPU 2 (time-slicing)
        ]
    )
    runtime.collect()
    text = scrape(runtime, clock)
    assert info_series(text) == [
        {"gpu": "0", "UUID": uuid[0], "Hostname": "node-a", "container": "main", "namespace": "ml", "pod": "train-0"},
        {"gpu": "2", "UUID": uuid[2], "Hostname": "node-a", "container": "srv", "namespace": "web", "pod": "infer-1"},
        {"gpu": "2", "UUID": uuid[2], "Hostname": "node-a", "container": "srv", "namespace": "web", "pod": "infer-2"},
    ]
    assert label_order(text, "gpuscope_gpu_workload_info")[0] == [
        "gpu", "UUID", "Hostname", "container", "namespace", "pod"
    ]  # fmt: skip
    # GPU series carry no pod labels in info mode.
    assert "pod=" not in "".join(ln for ln in text.splitlines() if ln.startswith("DCGM_"))
    assert "gpuscope_exporter_kubelet_up 1\n" in text
    assert "gpuscope_exporter_workload_unmatched_devices 0\n" in text


def test_mig_instances_get_gpu_i_id_on_the_info_series(make: RuntimeFactory, kubelet: KubeletServer) -> None:
    runtime, _, clock = make(gpus=2, mig="1g.10gb:7", workloads=k8s(kubelet))
    runtime.collect()
    gpus = reading(runtime).gpus
    inst = gpus[1].instances
    kubelet.set_pods(
        [
            pod("ml", "a", ("c", MIG, [inst[0].identity.uuid])),
            pod("ml", "b", ("c", MIG, [f"{inst[3].identity.uuid}::1"])),
            pod("ml", "g", ("c", MIG, [f"nvidia0/gi{gpus[0].instances[2].identity.gpu_instance_id}"])),
            pod("ml", "v", ("c", MIG, [f"nvidia0/gi{gpus[0].instances[4].identity.gpu_instance_id}/vgpu1"])),
        ]
    )
    runtime.collect()
    got = {(s["gpu"], s.get("GPU_I_ID"), s["pod"]) for s in info_series(scrape(runtime, clock))}
    assert got == {
        ("0", str(gpus[0].instances[2].identity.gpu_instance_id), "g"),
        ("0", str(gpus[0].instances[4].identity.gpu_instance_id), "v"),
        ("1", str(inst[0].identity.gpu_instance_id), "a"),
        ("1", str(inst[3].identity.gpu_instance_id), "b"),
    }


def test_labels_mode_is_dcgm_exporter_behaviour(make: RuntimeFactory, kubelet: KubeletServer) -> None:
    runtime, _, clock = make(gpus=2, csv=CSV, workloads=k8s(kubelet, WorkloadLabels.LABELS))
    runtime.collect()
    uuid = reading(runtime).gpus[1].identity.uuid
    kubelet.set_pods([pod("ml", "train-0", ("main", GPU, [uuid]))])
    runtime.collect()
    text = scrape(runtime, clock)
    fams = families(text)
    assert "gpuscope_gpu_workload_info" not in fams
    for name in ("DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_FB_USED", "DCGM_EXP_XID_ERRORS_COUNT"):
        by_gpu = {s.labels["gpu"]: s.labels for s in fams[name][1]}
        assert (by_gpu["1"]["pod"], by_gpu["1"]["namespace"], by_gpu["1"]["container"]) == ("train-0", "ml", "main")
        assert "pod" not in by_gpu["0"]  # an unallocated GPU keeps its series, without pod labels
    # Attributes come after the label fields, byte-sorted with err_code/err_msg (dcgm-exporter's order).
    assert label_order(text, "DCGM_FI_DEV_GPU_TEMP")[1][-4:] == [
        "DCGM_FI_DRIVER_VERSION",
        "container",
        "namespace",
        "pod",
    ]
    assert label_order(text, "DCGM_FI_DEV_XID_ERRORS")[1][-6:] == [
        "DCGM_FI_DRIVER_VERSION", "container", "err_code", "err_msg", "namespace", "pod"
    ]  # fmt: skip
    old, _, old_clock = make(gpus=2, use_old_namespace=True, workloads=k8s(kubelet, WorkloadLabels.LABELS))
    old.collect()
    sample = next(s for s in families(scrape(old, old_clock))["DCGM_FI_DEV_GPU_TEMP"][1] if s.labels["gpu"] == "1")
    assert (sample.labels["pod_name"], sample.labels["pod_namespace"], sample.labels["container_name"]) == (
        "train-0",
        "ml",
        "main",
    )
    assert "pod" not in sample.labels and "uuid" in sample.labels


def test_terminated_pods_drop_their_attribution_at_the_next_collection(
    make: RuntimeFactory, kubelet: KubeletServer
) -> None:
    runtime, _, clock = make(gpus=2, workloads=k8s(kubelet))
    kubelet.set_pods([pod("ml", "a", ("c", GPU, ["nvidia0"])), pod("ml", "b", ("c", GPU, ["nvidia1"]))])
    runtime.collect()
    assert {s["pod"] for s in info_series(scrape(runtime, clock))} == {"a", "b"}
    # "a" is gone from the kubelet's list; "b" is still listed but its containers hold no devices any more.
    kubelet.set_pods([pod("ml", "b")])
    runtime.collect()
    text = scrape(runtime, clock)
    assert info_series(text) == []
    assert "gpuscope_gpu_workload_info" not in text


def test_kubelet_is_read_per_collection_never_per_scrape_over_one_channel(
    make: RuntimeFactory, kubelet: KubeletServer
) -> None:
    runtime, _, clock = make(gpus=1, workloads=k8s(kubelet))
    kubelet.set_pods([pod("ml", "a", ("c", GPU, ["nvidia0"]))])
    for _ in range(5):
        runtime.collect()
    assert kubelet.calls == 5
    for _ in range(50):
        assert b"gpuscope_gpu_workload_info{" in runtime.body(clock.t, gzip=False)
    assert kubelet.calls == 5
    source = runtime.collector.workloads
    assert source is not None and source.kubelet is not None and source.kubelet.dials == 1


def test_kubelet_failure_keeps_attribution_briefly_then_drops_it_and_reconnects(
    make: RuntimeFactory, kubelet: KubeletServer
) -> None:
    import grpc

    runtime, _, clock = make(gpus=1, workloads=k8s(kubelet))
    kubelet.set_pods([pod("ml", "a", ("c", GPU, ["nvidia0"]))])
    runtime.collect()
    kubelet.failing = grpc.StatusCode.UNAVAILABLE
    for n in range(1, KUBELET_GRACE + 1):
        runtime.collect()
        text = scrape(runtime, clock)
        assert "gpuscope_exporter_kubelet_up 0\n" in text
        assert f"gpuscope_exporter_kubelet_errors_total {n}\n" in text
        assert (len(info_series(text)) == 1) is (n < KUBELET_GRACE)
    kubelet.failing = None
    runtime.collect()
    text = scrape(runtime, clock)
    assert "gpuscope_exporter_kubelet_up 1\n" in text and len(info_series(text)) == 1
    source = runtime.collector.workloads
    assert source is not None and source.kubelet is not None and source.kubelet.dials == KUBELET_GRACE + 1


def test_kubelet_restart_on_the_same_socket(make: RuntimeFactory, kubelet: KubeletServer) -> None:
    runtime, _, clock = make(gpus=1, workloads=k8s(kubelet))
    kubelet.set_pods([pod("ml", "a", ("c", GPU, ["nvidia0"]))])
    runtime.collect()
    kubelet.stop()
    runtime.collect()
    assert "gpuscope_exporter_kubelet_up 0\n" in scrape(runtime, clock)
    kubelet.start()
    kubelet.set_pods([pod("ml", "after-restart", ("c", GPU, ["nvidia0"]))])
    runtime.collect()
    assert [s["pod"] for s in info_series(scrape(runtime, clock))] == ["after-restart"]


def test_missing_socket_is_reported_not_fatal(
    make: RuntimeFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = WorkloadSettings(kubernetes=True, socket_path=str(tmp_path / "none.sock"))
    runtime, _, clock = make(gpus=1, workloads=settings)
    with caplog.at_level(logging.WARNING):
        runtime.collect()
    # the exporter's own log names the flag that sets the socket (the library names the parameter)
    (said,) = [r.getMessage() for r in caplog.records if "no pod attribution from the kubelet" in r.getMessage()]
    assert f"kubelet socket {tmp_path / 'none.sock'} not found (--pod-resources-kubelet-socket): mount" in said
    text = scrape(runtime, clock)
    assert "gpuscope_exporter_kubelet_up 0\n" in text
    assert "DCGM_FI_DEV_GPU_TEMP{" in text and info_series(text) == []
    assert runtime.collector.snapshot.backend_up


def test_off_mode_never_asks_the_kubelet(make: RuntimeFactory, kubelet: KubeletServer) -> None:
    runtime, _, clock = make(gpus=1, workloads=k8s(kubelet, WorkloadLabels.OFF))
    kubelet.set_pods([pod("ml", "a", ("c", GPU, ["nvidia0"]))])
    runtime.collect()
    text = scrape(runtime, clock)
    assert kubelet.calls == 0 and "pod=" not in text and "kubelet" not in text


def test_unmatched_devices_are_counted(make: RuntimeFactory, kubelet: KubeletServer) -> None:
    runtime, _, clock = make(gpus=1, workloads=k8s(kubelet, resource_names=("nvidia.com/a100",)))
    kubelet.set_pods(
        [pod("ml", "a", ("c", "nvidia.com/a100", ["GPU-elsewhere", "nvidia0"]), ("c", "example.com/x", ["nvidia0"]))]
    )
    runtime.collect()
    text = scrape(runtime, clock)
    assert "gpuscope_exporter_workload_unmatched_devices 1\n" in text
    assert [s["pod"] for s in info_series(text)] == ["a"]


def test_a_channel_closed_under_a_list_is_a_kubelet_error_not_a_traceback(kubelet: KubeletServer) -> None:
    """At shutdown the client can be closed while a collection's List is on its way (the exporter waits a few
    seconds for a collection in progress, not for a hung one): that List fails as the kubelet's error."""
    client = KubeletClient(kubelet.socket_path, timeout_s=5.0)
    assert client.list_all() == ([], [])
    assert client._channel is not None
    client._channel.close()  # what close() does from the shutdown thread, between the dial check and the call
    with pytest.raises(KubeletError, match="closed channel"):
        client.list_all()
    assert client.list_all() == ([], [])  # the next collection dials again
    client.close()
