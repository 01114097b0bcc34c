"""Host-signal scenarios: node-exporter, kube-state-metrics and cAdvisor series, with the label sets those exporters
give them (``gpuscope.fields.companion``) plus what the generated scrape configs add (job, instance, host label)."""

from __future__ import annotations

from gpuscope.rules import RulesConfig
from tests.rules.fixtures import change, flat, gpu_labels, self_labels, target, up
from tests.support.promtool import Case, Series, steps

TEMP = "DCGM_FI_DEV_GPU_TEMP"
LONG = "1h30m"


def ne(host: str = "node-a", **extra: str) -> dict[str, str]:
    """A node-exporter series after the scrape: the file_sd target label gives it the GPU series' host label."""
    return {"job": "node-exporter", "instance": f"{host}:9100", "Hostname": host, **extra}


def ksm(**extra: str) -> dict[str, str]:
    return {"job": "kube-state-metrics", "instance": "10.0.3.7:8080", **extra}


def cadvisor(pod: str, container: str = "main", namespace: str = "ml", host: str = "node-a") -> dict[str, str]:
    return {
        "job": "cadvisor",
        "instance": f"{host}:10250",
        "Hostname": host,
        "container": container,
        "id": f"/kubepods/burstable/pod-{pod}/{container}",
        "image": "nvcr.io/nvidia/pytorch:24.05-py3",
        "name": f"{container}-{pod}",
        "namespace": namespace,
        "pod": pod,
    }


def gpus(host: str = "node-a", n: int = 1, total: str = "1h") -> tuple[Series, ...]:
    return tuple(Series(TEMP, gpu_labels(g, host), flat(60, total)) for g in range(n))


def counter(before: float, after: float, start: str = "30m", total: str = "1h") -> str:
    """A counter growing by ``before`` per 15 s step until ``start``, then by ``after``."""
    s, t = steps(start), steps(total)
    return f"0+{before:g}x{s - 1} {before * (s - 1) + after:g}+{after:g}x{t - s - 1}"


def host(hostname: str) -> dict[str, str]:
    return {"Hostname": hostname}


CPU = (
    Case(
        "the data loader saturates every core of a GPU node",
        "GPUHostCPUSaturated",
        (
            *gpus(),
            *(Series("node_cpu_seconds_total", ne(cpu=str(c), mode="idle"), counter(12, 0.15)) for c in range(2)),
        ),
        fires_by="50m",
        expected=(host("node-a"),),
        quiet_at=("29m45s", "40m"),
    ),
    Case(
        "near miss: 90% busy, and a saturated host without GPUs",
        "GPUHostCPUSaturated",
        (
            *gpus(),
            Series("node_cpu_seconds_total", ne(cpu="0", mode="idle"), counter(12, 1.5)),
            Series("node_cpu_seconds_total", ne("cpu-only", cpu="0", mode="idle"), counter(12, 0)),
        ),
        quiet_at=("50m", "55m"),
    ),
    Case(
        "a GPU node waits on its disks",
        "GPUHostIOWaitHigh",
        (*gpus(), Series("node_cpu_seconds_total", ne(cpu="0", mode="iowait"), counter(0.05, 4.5))),
        fires_by="50m",
        expected=(host("node-a"),),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: 10% iowait",
        "GPUHostIOWaitHigh",
        (*gpus(), Series("node_cpu_seconds_total", ne(cpu="0", mode="iowait"), counter(0.05, 1.5))),
        quiet_at=("50m", "55m"),
    ),
)

MEMORY = (
    Case(
        "available memory drops to 2%",
        "GPUHostMemoryPressure",
        (
            *gpus(),
            Series("node_memory_MemTotal_bytes", ne(), flat(1e12)),
            Series("node_memory_MemAvailable_bytes", ne(), change(5e11, 2e10)),
        ),
        fires_by="37m",
        expected=(host("node-a"),),
        quiet_at=("29m45s", "33m"),
    ),
    Case(
        "tasks stall on memory half of the time (PSI)",
        "GPUHostMemoryPressure",
        (
            *gpus(),
            Series("node_memory_MemTotal_bytes", ne(), flat(1e12)),
            Series("node_memory_MemAvailable_bytes", ne(), flat(3e11)),
            Series("node_pressure_memory_stalled_seconds_total", ne(), counter(0, 7.5)),
        ),
        fires_by="37m",
        expected=(host("node-a"),),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: 8% available, light stalls",
        "GPUHostMemoryPressure",
        (
            *gpus(),
            Series("node_memory_MemTotal_bytes", ne(), flat(1e12)),
            Series("node_memory_MemAvailable_bytes", ne(), change(5e11, 8e10)),
            Series("node_pressure_memory_stalled_seconds_total", ne(), counter(0, 0.75)),
        ),
        quiet_at=("40m", "55m"),
    ),
)

FS = {"device": "/dev/md0", "fstype": "ext4", "mountpoint": "/raid"}
FILESYSTEM = (
    Case(
        "checkpoints fill /raid",
        "GPUHostFilesystemFull",
        (
            *gpus(),
            Series("node_filesystem_size_bytes", ne(**FS), flat(1e13)),
            Series("node_filesystem_avail_bytes", ne(**FS), change(4e12, 2e11)),
            Series("node_filesystem_readonly", ne(**FS), flat(0)),
        ),
        fires_by="37m",
        expected=({"Hostname": "node-a", "device": "/dev/md0", "mountpoint": "/raid"},),
        quiet_at=("29m45s", "33m"),
    ),
    Case(
        "near miss: a full /dev/shm (not a training path) and a full read-only /",
        "GPUHostFilesystemFull",
        (
            *gpus(),
            Series("node_filesystem_size_bytes", ne(device="shm", fstype="ext4", mountpoint="/dev/shm"), flat(1e9)),
            Series("node_filesystem_avail_bytes", ne(device="shm", fstype="ext4", mountpoint="/dev/shm"), flat(0)),
            Series("node_filesystem_size_bytes", ne(device="/dev/sda1", fstype="ext4", mountpoint="/"), flat(1e11)),
            Series("node_filesystem_avail_bytes", ne(device="/dev/sda1", fstype="ext4", mountpoint="/"), flat(0)),
            Series("node_filesystem_readonly", ne(device="/dev/sda1", fstype="ext4", mountpoint="/"), flat(1)),
        ),
        quiet_at=("40m", "55m"),
    ),
)

IB = {"device": "mlx5_0", "port": "1"}
INFINIBAND = (
    Case(
        "an active InfiniBand port goes down",
        "GPUHostInfiniBandPortDown",
        (*gpus(), Series("node_infiniband_state_id", ne(**IB), change(4, 1))),
        fires_by="33m",
        expected=({"Hostname": "node-a", **IB},),
        quiet_at=("29m45s", "31m"),
    ),
    Case(
        "near miss: a port that was never active (not cabled), and a GPU node without the InfiniBand collector",
        "GPUHostInfiniBandPortDown",
        (*gpus(), *gpus("node-b"), Series("node_infiniband_state_id", ne(device="mlx5_1", port="1"), flat(1))),
        quiet_at=("33m", "55m"),
    ),
    Case(
        "a link goes down and recovers",
        "GPUHostInfiniBandErrors",
        (*gpus(), Series("node_infiniband_link_downed_total", ne(**IB), change(0, 1))),
        fires_by="32m",
        expected=({"Hostname": "node-a", **IB},),
        quiet_at=("29m45s",),
    ),
    Case(
        "a port receives a stream of bad packets",
        "GPUHostInfiniBandErrors",
        (*gpus(), Series("node_infiniband_port_errors_received_total", ne(**IB), counter(0, 5))),
        fires_by="32m",
        expected=({"Hostname": "node-a", **IB},),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: five bad packets once",
        "GPUHostInfiniBandErrors",
        (*gpus(), Series("node_infiniband_port_errors_received_total", ne(**IB), change(0, 5))),
        quiet_at=("32m", "45m"),
    ),
)

NETWORK = (
    Case(
        "a NIC counts receive errors",
        "GPUHostNetworkErrors",
        (
            *gpus(),
            Series("node_network_receive_errs_total", ne(device="eth0"), counter(0, 20)),
            Series("node_network_transmit_errs_total", ne(device="eth0"), flat(0)),
        ),
        fires_by="32m",
        expected=({"Hostname": "node-a", "device": "eth0"},),
        quiet_at=("29m45s",),
    ),
    Case(
        "near miss: errors on a container veth, and a trickle on eth0",
        "GPUHostNetworkErrors",
        (
            *gpus(),
            Series("node_network_receive_errs_total", ne(device="veth1a2b3c"), counter(0, 50)),
            Series("node_network_transmit_errs_total", ne(device="veth1a2b3c"), flat(0)),
            Series("node_network_receive_errs_total", ne(device="eth0"), counter(0, 1)),
            Series("node_network_transmit_errs_total", ne(device="eth0"), counter(0, 1)),
        ),
        quiet_at=("40m", "55m"),
    ),
)


def alloc(node: str, resource: str, values: str) -> Series:
    return Series("kube_node_status_allocatable", ksm(node=node, resource=resource, unit="integer"), values)


def request(pod: str, node: str, resource: str, values: str, namespace: str = "ml") -> Series:
    labels = ksm(namespace=namespace, pod=pod, uid=f"uid-{pod}", container="main", node=node, resource=resource)
    return Series("kube_pod_container_resource_requests", {**labels, "unit": "integer"}, values)


MIG_GPU = gpu_labels(0, "node-m", mig=("1g.10gb", 7))
CAPACITY = (
    Case(
        "the device plugin drops a GPU the exporter still sees",
        "GPUNodeAllocatableShort",
        (*gpus(n=2), alloc("node-a", "nvidia_com_gpu", change(2, 1))),
        fires_by="45m",
        expected=({"Hostname": "node-a"},),
        quiet_at=("29m45s", "38m"),
    ),
    Case(
        "near miss: allocatable matches, and a MIG node advertising instances",
        "GPUNodeAllocatableShort",
        (
            *gpus(n=2),
            alloc("node-a", "nvidia_com_gpu", flat(2)),
            Series(TEMP, MIG_GPU, flat(60)),
            alloc("node-m", "nvidia_com_gpu", flat(0)),
            alloc("node-m", "nvidia_com_mig_1g_10gb", flat(7)),
        ),
        quiet_at=("45m", "55m"),
    ),
    Case(
        "pods (one pending) request every GPU and every MIG instance",
        "GPURequestsNearAllocatable",
        (
            alloc("node-a", "nvidia_com_gpu", flat(8, LONG)),
            alloc("node-m", "nvidia_com_mig_1g_10gb", flat(7, LONG)),
            request("train-0", "node-a", "nvidia_com_gpu", flat(4, LONG)),
            request("train-1", "node-a", "nvidia_com_gpu", f"_x{steps('30m')} 4x{steps('1h') - 1}"),
            request("train-2", "", "nvidia_com_gpu", f"_x{steps('30m')} 8x{steps('1h') - 1}"),
            request("infer-0", "node-m", "nvidia_com_mig_1g_10gb", f"_x{steps('30m')} 7x{steps('1h') - 1}"),
        ),
        fires_by="1h5m",
        expected=({"resource": "nvidia_com_gpu"}, {"resource": "nvidia_com_mig_1g_10gb"}),
        quiet_at=("29m45s", "55m"),
    ),
    Case(
        "near miss: 7 of 8 GPUs requested",
        "GPURequestsNearAllocatable",
        (
            alloc("node-a", "nvidia_com_gpu", flat(8, LONG)),
            request("train-0", "node-a", "nvidia_com_gpu", flat(7, LONG)),
        ),
        quiet_at=("1h5m", "1h10m"),
    ),
)


def info(pod: str, gpu: int = 0) -> Series:
    return Series(
        "gpuscope_gpu_workload_info", {**self_labels(gpu), "namespace": "ml", "pod": pod, "container": "main"}, flat(1)
    )


def throttle(pod: str, per_step: float, container: str = "main") -> tuple[Series, ...]:
    labels = cadvisor(pod, container)
    return (
        Series("container_cpu_cfs_periods_total", labels, counter(150, 150)),
        Series("container_cpu_cfs_throttled_periods_total", labels, counter(3, per_step)),
    )


def memory(pod: str, used: str, limit: float = 6.4e10) -> tuple[Series, ...]:
    labels = cadvisor(pod)
    return (
        Series("container_memory_working_set_bytes", labels, used),
        Series("container_spec_memory_limit_bytes", labels, flat(limit)),
    )


PODS = (
    Case(
        "a GPU pod hits its CPU limit; a CPU-only pod throttled as hard does not count",
        "GPUPodCPUThrottled",
        (up(), *gpus(), info("train-0"), *throttle("train-0", 60), *throttle("etl-0", 60)),
        fires_by="50m",
        expected=({"namespace": "ml", "pod": "train-0", "container": "main"},),
        quiet_at=("29m45s", "40m"),
    ),
    Case(
        "attribution off: the GPU pods are those kube-state-metrics says requested a GPU",
        "GPUPodCPUThrottled",
        (*gpus(), request("train-0", "node-a", "nvidia_com_gpu", flat(1)), *throttle("train-0", 60)),
        fires_by="50m",
        expected=({"namespace": "ml", "pod": "train-0", "container": "main"},),
        config=RulesConfig(workload_labels="off"),
    ),
    Case(
        "near miss: throttled 10% of periods",
        "GPUPodCPUThrottled",
        (up(), *gpus(), info("train-0"), *throttle("train-0", 15)),
        quiet_at=("50m", "55m"),
    ),
    Case(
        "a GPU pod's working set reaches 95% of its limit",
        "GPUPodMemoryNearLimit",
        (up(), *gpus(), info("train-0"), *memory("train-0", change(3e10, 6.1e10))),
        fires_by="42m",
        expected=({"namespace": "ml", "pod": "train-0", "container": "main"},),
        quiet_at=("29m45s", "35m"),
    ),
    Case(
        "near miss: 80% of the limit, and a GPU pod without a memory limit",
        "GPUPodMemoryNearLimit",
        (
            up(),
            *gpus(),
            info("train-0"),
            info("train-1", 1),
            *memory("train-0", change(3e10, 5.1e10)),
            *memory("train-1", flat(6e10), limit=0),
        ),
        quiet_at=("42m", "55m"),
    ),
)

KSM_RESTARTS = ksm(namespace="gpu-monitoring", pod="gpuscope-exporter-x7k2p", uid="uid-exp", container="exporter")
POD_INFO = ksm(
    namespace="gpu-monitoring",
    pod="gpuscope-exporter-x7k2p",
    uid="uid-exp",
    host_ip="10.0.0.11",
    pod_ip="10.0.0.11",
    node="node-a",
    created_by_kind="DaemonSet",
    created_by_name="gpuscope-exporter",
    priority_class="system-node-critical",
    host_network="false",
)
RESTARTED = (
    Case(
        "dcgm-exporter crash-loops: only kube-state-metrics counts the restart",
        "GPUExporterRestarted",
        (
            up(),
            *gpus(),
            Series(
                "kube_pod_container_status_restarts_total",
                {**KSM_RESTARTS, "container": "nvidia-dcgm-exporter"},
                change(3, 4),
            ),
            Series("kube_pod_info", POD_INFO, flat(1)),
        ),
        fires_by="32m",
        expected=(target(),),
        quiet_at=("29m45s",),
    ),
    Case(
        "gpuscope restarts: its start time and kube-state-metrics both see it, and it is one alert",
        "GPUExporterRestarted",
        (
            up(),
            *gpus(),
            Series("gpuscope_exporter_start_time_seconds", target(), change(1000, 2800)),
            Series("kube_pod_container_status_restarts_total", KSM_RESTARTS, change(0, 1)),
            Series("kube_pod_info", POD_INFO, flat(1)),
        ),
        fires_by="32m",
        expected=(target(),),
        quiet_at=("29m45s",),
        still_firing_at=("35m",),
    ),
    Case(
        "near miss: a workload container on the node restarts",
        "GPUExporterRestarted",
        (
            up(),
            *gpus(),
            Series("gpuscope_exporter_start_time_seconds", target(), flat(1000)),
            Series("kube_pod_container_status_restarts_total", {**KSM_RESTARTS, "container": "main"}, change(0, 1)),
            Series("kube_pod_info", POD_INFO, flat(1)),
        ),
        quiet_at=("32m", "45m"),
    ),
)

CASES = (*CPU, *MEMORY, *FILESYSTEM, *INFINIBAND, *NETWORK, *CAPACITY, *PODS, *RESTARTED)
