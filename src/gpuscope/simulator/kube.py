"""kube-state-metrics and the kubelet's cAdvisor, simulated for the pods of simulated Kubernetes nodes.

Neither is packaged for a laptop, and both describe a cluster that does not exist here, so the simulator serves
their series for the simulated pods, in their exact names and label sets (``gpuscope.fields.companion``): each
simulated node runs the GPU exporter's pod (``gpuscope-exporter-<suffix>``, container ``exporter``) and the pods
of its simulated population (``SimNode.population``): the same pods, with the same devices, that the node's
kubelet lists (``kubelet.py``) and its process metrics name, churn included. Each GPU pod requests the devices it
holds; a GPU shared by time-slicing or MPS is advertised as its replicas, as the device plugin does. The rules'
joins (the exporter's restarts, GPUs requested vs allocatable, pod CPU and memory) then run end to end on the local
stack.

- kube-state-metrics, one per cluster: ``/sim/kube-state-metrics`` on the cluster's first node. The exporter
  container's restart count is the number of times that node's exporter started again (a ``restart`` fault),
  seen from its start time.
- cAdvisor, one per node, on the node's own address: ``/metrics/cadvisor`` (the kubelet's path).

Values are deterministic functions of time since the stack started.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from gpuscope.backends.sim.node import SimNode, SimNodeConfig
from gpuscope.backends.sim.processes import SimProcess
from gpuscope.backends.sim.teams import SHARED_REPLICAS
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.exporter.server import Extension, node_for
from gpuscope.exposition import Families, general, labels
from gpuscope.fields.companion import BY_NAME, GPU_RESOURCE, VERSIONS, resource_label
from gpuscope.httpd.server import HttpError, Request, Response, Route, get
from gpuscope.simulator.control import sim_of
from gpuscope.simulator.kubelet import devices_of

KSM_PATH = "/sim/kube-state-metrics"
CADVISOR_PATH = "/metrics/cadvisor"
EXPORTER_CONTAINER = "exporter"
NODE_CPUS = 96
NODE_MEMORY = 1_099_511_627_776  # 1 TiB
_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _suffix(*parts: str) -> str:
    digest = hashlib.sha256("/".join(parts).encode()).hexdigest()
    alphabet = "bcdfghjklmnpqrstvwxz2456789"  # Kubernetes' generated-name alphabet
    return "".join(alphabet[int(digest[i : i + 2], 16) % len(alphabet)] for i in range(0, 10, 2))


@dataclass(frozen=True, slots=True, kw_only=True)
class SimPod:
    namespace: str
    name: str
    uid: str
    container: str
    node: str
    requests: tuple[tuple[str, int], ...]  # (resource label, count)
    cpu_cores: float  # average use
    memory_bytes: float
    memory_limit_bytes: float
    created_by: tuple[str, str]  # (kind, name)
    priority_class: str = ""


@dataclass(slots=True)
class SimKubeNode:
    config: SimNodeConfig
    cluster: str
    runtime: NodeRuntime
    namespace: str
    address: str  # the node's IP: kube_pod_info's host_ip (and pod_ip, host-network style)
    started_at: float = 0.0
    restarts: int = 0

    @property
    def hostname(self) -> str:
        return self.config.hostname

    def sim(self) -> SimNode | None:
        return sim_of(self.runtime)

    def devices(self, now: float | None = None) -> list[tuple[SimProcess, str, str]]:
        """(process, resource, device id) of the node's live pods: what its kubelet lists (``kubelet.py``)."""
        sim = self.sim()
        return [] if sim is None else devices_of(sim, sim.population(now))

    def allocatable(self, now: float | None = None) -> tuple[tuple[str, int], ...]:
        """GPU resources as the device plugin advertises them: MIG instances per profile (the mixed strategy);
        a GPU shared by time-slicing or MPS as its replicas, a whole GPU as one."""
        if not self.config.mig_layout:
            shared = {p.gpu for p, _, device in self.devices(now) if "::" in device}
            return ((GPU_RESOURCE, self.config.gpus + (SHARED_REPLICAS - 1) * len(shared)),)
        per: dict[str, int] = {}
        for profile in self.config.mig_layout:
            key = resource_label(f"nvidia.com/mig-{profile.name}")
            per[key] = per.get(key, 0) + self.config.gpus
        return ((GPU_RESOURCE, 0), *sorted(per.items()))

    def pods(self, now: float | None = None) -> list[SimPod]:
        """The exporter's pod, then the pods holding GPUs (the kubelet's, in its order), each container's requests
        the devices it holds."""
        host = self.hostname
        exporter = SimPod(
            namespace=self.namespace,
            name=f"gpuscope-exporter-{_suffix(host)}",
            uid=_uid("exporter", host),
            container=EXPORTER_CONTAINER,
            node=host,
            requests=(),
            cpu_cores=0.05,
            memory_bytes=52e6,
            memory_limit_bytes=128 * 1048576,
            created_by=("DaemonSet", "gpuscope-exporter"),
            priority_class="system-node-critical",
        )
        held: dict[str, tuple[SimProcess, dict[str, int]]] = {}
        for proc, resource, _ in self.devices(now):
            assert proc.pod is not None
            _, counts = held.setdefault(proc.pod.uid, (proc, {}))
            label = resource_label(resource)
            counts[label] = counts.get(label, 0) + 1
        gpu_pods = [
            SimPod(
                namespace=proc.pod.namespace,
                name=proc.pod.name,
                uid=proc.pod.uid,
                container=proc.pod.container,
                node=host,
                requests=tuple(sorted(counts.items())),
                cpu_cores=4.0 * proc.share,
                memory_bytes=NODE_MEMORY * 0.03,
                memory_limit_bytes=NODE_MEMORY * 0.06,
                created_by=_owner(proc.pod.namespace, proc.pod.name),
            )
            for proc, counts in held.values()
            if proc.pod is not None
        ]
        return [exporter, *gpu_pods]


def _owner(namespace: str, pod: str) -> tuple[str, str]:
    """The controller a simulated pod would have: serving replicas a ReplicaSet, notebooks a StatefulSet,
    training and evaluation pods a Job (named as the pod, less its generated suffix)."""
    base = pod.rsplit("-", 1)[0]
    kind = {"serving": "ReplicaSet", "notebooks": "StatefulSet"}.get(namespace, "Job")
    return kind, base


def _node_info(node: SimKubeNode) -> tuple[tuple[str, str], ...]:
    return (
        ("node", node.hostname),
        ("kernel_version", "6.8.0-gpuscope-sim"),
        ("os_image", "Ubuntu 24.04 LTS"),
        ("container_runtime_version", "containerd://1.7.20"),
        ("kubelet_version", "v1.30.4"),
        ("kubeproxy_version", "v1.30.4"),
        ("pod_cidr", ""),
        ("provider_id", f"sim://{node.hostname}"),
        ("system_uuid", _uid("node", node.hostname)),
        ("internal_ip", node.address),
    )


def _uid(*parts: str) -> str:
    h = hashlib.sha256("/".join(parts).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


class _Exposition:
    """The families of kube-state-metrics and cAdvisor, by their names (help text and type from the catalog)."""

    def __init__(self) -> None:
        self._families = Families()

    def add(self, name: str, pairs: Sequence[tuple[str, str]], value: float) -> None:
        meta = BY_NAME[name]
        self._families.add(name, meta.kind, meta.help, labels(pairs), general(value, 10))

    def text(self) -> str:
        return self._families.text()


@dataclass
class KubeSim:
    """The simulated Kubernetes side of the local stack's Kubernetes clusters."""

    nodes: list[SimKubeNode]
    started: float = field(default_factory=time.time)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def node_of(self, runtime: NodeRuntime) -> SimKubeNode | None:
        return next((n for n in self.nodes if n.runtime is runtime), None)

    def _count_restarts(self) -> None:
        with self._lock:
            for node in self.nodes:
                started = node.runtime.published.snapshot.started_at
                if node.started_at and started != node.started_at:
                    node.restarts += 1
                node.started_at = started

    def kube_state_metrics(self, cluster: str, now: float | None = None) -> str:
        """kube-state-metrics' node and pod families for one cluster."""
        self._count_restarts()
        out = _Exposition()
        members = [n for n in self.nodes if n.cluster == cluster]
        at = time.time() if now is None else now
        pods = {n.hostname: n.pods(at) for n in members}  # one population per node: every family agrees
        for node in members:
            out.add("kube_node_info", _node_info(node), 1)
        for node in members:
            for resource, unit, value in (
                ("cpu", "core", NODE_CPUS),
                ("memory", "byte", NODE_MEMORY),
                ("pods", "integer", 110),
                *((r, "integer", n) for r, n in node.allocatable(at)),
            ):
                out.add(
                    "kube_node_status_allocatable",
                    (("node", node.hostname), ("resource", resource), ("unit", unit)),
                    value,
                )
        for node in members:
            for pod in pods[node.hostname]:
                kind, owner = pod.created_by
                out.add(
                    "kube_pod_info",
                    (
                        ("namespace", pod.namespace),
                        ("pod", pod.name),
                        ("uid", pod.uid),
                        ("host_ip", node.address),
                        ("pod_ip", node.address),
                        ("node", pod.node),
                        ("created_by_kind", kind),
                        ("created_by_name", owner),
                        ("priority_class", pod.priority_class),
                        ("host_network", "false"),
                    ),
                    1,
                )
        for node in members:
            for pod in pods[node.hostname]:
                for resource, count in pod.requests:
                    out.add(
                        "kube_pod_container_resource_requests",
                        (
                            ("namespace", pod.namespace),
                            ("pod", pod.name),
                            ("uid", pod.uid),
                            ("container", pod.container),
                            ("node", pod.node),
                            ("resource", resource),
                            ("unit", "integer"),
                        ),
                        count,
                    )
        for node in members:
            for pod in pods[node.hostname]:
                restarts = node.restarts if pod.container == EXPORTER_CONTAINER else 0
                out.add(
                    "kube_pod_container_status_restarts_total",
                    (("namespace", pod.namespace), ("pod", pod.name), ("uid", pod.uid), ("container", pod.container)),
                    restarts,
                )
        return out.text()

    def cadvisor(self, node: SimKubeNode, now: float | None = None) -> str:
        """The kubelet's /metrics/cadvisor container families for the node's pods."""
        at = time.time() if now is None else now
        elapsed = max(0.0, at - self.started)
        out = _Exposition()
        pods = node.pods(at)
        for pod in pods:
            cid = hashlib.sha256(f"{pod.uid}/{pod.container}".encode()).hexdigest()
            labels = (
                ("container", pod.container),
                ("id", f"/kubepods/burstable/pod{pod.uid}/{cid}"),
                (
                    "image",
                    "ghcr.io/gpuscope/gpuscope" if pod.container == EXPORTER_CONTAINER else "nvcr.io/nvidia/pytorch",
                ),
                ("name", cid),
                ("namespace", pod.namespace),
                ("pod", pod.name),
            )
            wave = 1 + 0.1 * math.sin(elapsed / 60 + len(pod.name))
            out.add(
                "container_cpu_usage_seconds_total",
                (*labels[:1], ("cpu", "total"), *labels[1:]),
                pod.cpu_cores * elapsed,
            )
            out.add("container_cpu_cfs_periods_total", labels, 10 * elapsed)
            out.add("container_cpu_cfs_throttled_periods_total", labels, 0)
            out.add("container_memory_working_set_bytes", labels, round(pod.memory_bytes * wave))
            out.add("container_spec_memory_limit_bytes", labels, pod.memory_limit_bytes)
        return out.text()

    def _ksm_handler(self) -> Route:
        async def handler(request: Request) -> Response:
            node = self.node_of(node_for(request))
            if node is None:
                raise HttpError(404, "no simulated Kubernetes node listens on this address\n")
            body = self.kube_state_metrics(node.cluster).encode()
            return Response(200, body, {"Content-Type": _CONTENT_TYPE})

        return get(KSM_PATH, handler)

    def _cadvisor_handler(self) -> Route:
        async def handler(request: Request) -> Response:
            node = self.node_of(node_for(request))
            if node is None:
                raise HttpError(404, "no simulated Kubernetes node listens on this address\n")
            return Response(200, self.cadvisor(node).encode(), {"Content-Type": _CONTENT_TYPE})

        return get(CADVISOR_PATH, handler)

    def extension(self) -> Extension:
        return Extension(
            routes=(self._ksm_handler(), self._cadvisor_handler()),
            links=(
                (KSM_PATH, f"simulated kube-state-metrics {VERSIONS['kube-state-metrics']} (this cluster)"),
                (CADVISOR_PATH, "simulated kubelet cAdvisor (this node's pods)"),
            ),
        )
