"""Device-id forms and placement of pods and jobs on GPUs and MIG instances (pure functions)."""

from __future__ import annotations

import pytest

from gpuscope.backends.base import GpuReading, ReadRequest
from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.attribution.labels import attribute_variants
from gpuscope.exporter.attribution.resolve import (
    Assignment,
    DeviceRef,
    PodDevice,
    Workload,
    is_gpu_resource,
    parse_device_id,
    resolve,
)
from gpuscope.hardware.models import model_by_key, parse_mig_layout


def gpus(count: int = 4, mig: str = "") -> tuple[GpuReading, ...]:
    model = model_by_key("h100")
    node = SimNode(SimNodeConfig("n", model, count, parse_mig_layout(model, mig) if mig else ()))
    return node.collect(ReadRequest(frozenset())).gpus


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("GPU-1b2c", DeviceRef(uuid="GPU-1b2c")),
        ("GPU-1b2c::3", DeviceRef(uuid="GPU-1b2c")),  # time-slicing replica
        (" GPU-1b2c ", DeviceRef(uuid="GPU-1b2c")),
        ("MIG-77aa", DeviceRef(uuid="MIG-77aa")),
        ("MIG-77aa::1", DeviceRef(uuid="MIG-77aa")),  # EKS
        ("nvidia0", DeviceRef(index=0)),  # GKE device name
        ("nvidia12", DeviceRef(index=12)),
        ("nvidia3/gi7", DeviceRef(index=3, gi=7)),  # GKE MIG
        ("nvidia1/gi2/vgpu0", DeviceRef(index=1, gi=2)),
        ("nvidia2/vgpu5", DeviceRef(index=2)),  # GKE sharing
        ("GPU-1b2c/vgpu1", DeviceRef(uuid="GPU-1b2c")),
        ("nvidiaX", DeviceRef(uuid="nvidiaX")),  # not a device name: only an exact id could match it
    ],
)
def test_device_id_forms(raw: str, expected: DeviceRef) -> None:
    assert parse_device_id(raw) == expected


def test_gpu_resources() -> None:
    assert is_gpu_resource("nvidia.com/gpu")
    assert is_gpu_resource("nvidia.com/mig-1g.10gb")
    assert not is_gpu_resource("nvidia.com/a100")
    assert is_gpu_resource("nvidia.com/a100", ["nvidia.com/a100"])
    assert not is_gpu_resource("example.com/fpga", ["nvidia.com/a100"])


def test_whole_gpus_by_uuid_replica_and_device_name() -> None:
    node = gpus(4)
    uuid = [g.identity.uuid for g in node]
    devices = [
        PodDevice("ml", "train-0", "main", "nvidia.com/gpu", uuid[0]),
        PodDevice("ml", "share-a", "main", "nvidia.com/gpu", f"{uuid[1]}::0"),
        PodDevice("ml", "share-b", "main", "nvidia.com/gpu", f"{uuid[1]}::1"),
        PodDevice("gke", "web", "srv", "nvidia.com/gpu", "nvidia2"),
        PodDevice("ml", "custom", "main", "nvidia.com/a100", uuid[3]),  # only with --nvidia-resource-names
        PodDevice("ml", "fpga", "main", "example.com/fpga", uuid[3]),  # never a GPU resource
        PodDevice("ml", "elsewhere", "main", "nvidia.com/gpu", "GPU-not-on-this-node"),
        PodDevice("ml", "gone", "main", "nvidia.com/gpu", "nvidia9"),
    ]
    plain = resolve(node, devices)
    assert plain.targets == {
        (0, None): Assignment((Workload("ml", "train-0", "main"),)),
        (1, None): Assignment((Workload("ml", "share-a", "main"), Workload("ml", "share-b", "main"))),
        (2, None): Assignment((Workload("gke", "web", "srv"),)),
    }
    assert plain.unmatched == ("GPU-not-on-this-node", "nvidia9")
    extra = resolve(node, devices, extra_resources=["nvidia.com/a100"])
    assert extra.targets[(3, None)] == Assignment((Workload("ml", "custom", "main"),))


def test_a_pod_is_one_entry_per_device_the_last_container_wins() -> None:
    node = gpus(2)
    uuid = node[0].identity.uuid
    devices = [
        PodDevice("ml", "p", "init", "nvidia.com/gpu", uuid),  # the init container's device handed on
        PodDevice("ml", "p", "main", "nvidia.com/gpu", uuid),
    ]
    assert resolve(node, devices).targets == {(0, None): Assignment((Workload("ml", "p", "main"),))}


def test_mig_instances_by_uuid_replica_and_gke_name() -> None:
    node = gpus(2, "1g.10gb:7")
    inst = node[1].instances
    gi = [i.identity.gpu_instance_id for i in inst]
    devices = [
        PodDevice("ml", "a", "c", "nvidia.com/mig-1g.10gb", inst[0].identity.uuid),
        PodDevice("ml", "b", "c", "nvidia.com/mig-1g.10gb", f"{inst[1].identity.uuid}::2"),
        PodDevice("ml", "g", "c", "nvidia.com/mig-1g.10gb", f"nvidia1/gi{gi[2]}"),
        PodDevice("ml", "v", "c", "nvidia.com/gpu", f"nvidia0/gi{node[0].instances[0].identity.gpu_instance_id}/vgpu3"),
        PodDevice("ml", "x", "c", "nvidia.com/mig-1g.10gb", "nvidia1/gi99"),
    ]
    result = resolve(node, devices)
    assert list(result.targets) == [
        (0, node[0].instances[0].identity.gpu_instance_id),
        (1, gi[0]),
        (1, gi[1]),
        (1, gi[2]),
    ]
    assert result.targets[(1, gi[1])].pods == (Workload("ml", "b", "c"),)
    assert result.unmatched == ("nvidia1/gi99",)


def test_jobs_whole_gpu_files_cover_mig_instances() -> None:
    node = gpus(2, "1g.10gb:7")
    gi = [i.identity.gpu_instance_id for i in node[0].instances]
    result = resolve(node, jobs={(0, None): ["41", "42"], (0, gi[0]): ["42", "43"], (5, None): ["9"], (1, 99): ["8"]})
    assert result.targets[(0, None)].jobs == ("41", "42")
    assert result.targets[(0, gi[0])].jobs == ("41", "42", "43")  # the whole-GPU jobs plus its own, once each
    assert all(result.targets[(0, g)].jobs == ("41", "42") for g in gi[1:])
    assert (1, None) not in result.targets
    assert result.unmatched == ("5", "1.99")


def test_labels_mode_attribute_sets() -> None:
    pods = (Workload("ml", "old", "c"), Workload("ml", "new", "c"))
    assert attribute_variants(None, False) == ((),)
    assert attribute_variants(Assignment(pods), False) == (
        (("container", "c"), ("namespace", "ml"), ("pod", "new")),  # one pod per device: the last listed
    )
    assert attribute_variants(Assignment(pods[:1], ("7", "8")), True) == (
        (("container_name", "c"), ("hpc_job", "7"), ("pod_name", "old"), ("pod_namespace", "ml")),
        (("container_name", "c"), ("hpc_job", "8"), ("pod_name", "old"), ("pod_namespace", "ml")),
    )
