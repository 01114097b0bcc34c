"""Simulated kubelets: the real PodResources v1 gRPC API on a unix socket, one per simulated Kubernetes node.

The exporter asks a kubelet which container holds which device (``List``), as it would on a real node. A
``KubeletServer`` answers either with the pods a caller set (``set_pods``; the tests make pods appear, restart and
go away, make the kubelet fail or stop it) or with what a ``lister`` says at the moment of the call: for a
simulated node, ``node_pods`` reads the node's pod population (``SimNode.population``), the same pods its process
metrics, kube-state-metrics and cAdvisor describe, so churned pods come and go from every source at once.

Device ids are those the NVIDIA device plugin hands the kubelet: ``GPU-<uuid>`` for a whole GPU, ``MIG-<uuid>``
(resource ``nvidia.com/mig-<profile>``, the mixed strategy) for a MIG instance, and ``GPU-<uuid>::<n>`` for
replica n of a GPU shared by time-slicing or MPS. DRA-claimed devices (``DynamicResources``: claim name and
namespace, then driver, pool and device per claimed device, as the kubelet's v1 API has them) are built by ``pod``.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from contextlib import contextmanager
from pathlib import Path

import grpc

from gpuscope.backends.sim.node import SimNode
from gpuscope.backends.sim.processes import SimProcess
from gpuscope.exporter.attribution.podresources import api_pb2, api_pb2_grpc
from gpuscope.exporter.attribution.resolve import GPU_RESOURCE, MIG_RESOURCE_PREFIX

# (container name, resource name, device ids)
ContainerSpec = tuple[str, str, Sequence[str]]
# (container name, claim name, driver, pool, device names)
ClaimSpec = tuple[str, str, str, str, Sequence[str]]
Lister = Callable[[], Sequence[api_pb2.PodResources]]

# sockaddr_un's sun_path holds 108 bytes with the terminating NUL
MAX_SOCKET_PATH = 107


def pod(
    namespace: str, name: str, *containers: ContainerSpec, claims: Sequence[ClaimSpec] = ()
) -> api_pb2.PodResources:
    """A pod whose containers hold devices; two entries with one container name form one container.

    ``claims`` are DRA ResourceClaims (in the pod's namespace) whose devices a container holds."""
    by_name: dict[str, api_pb2.ContainerResources] = {}
    for cname, resource, ids in containers:
        entry = by_name.setdefault(cname, api_pb2.ContainerResources(name=cname))
        entry.devices.append(api_pb2.ContainerDevices(resource_name=resource, device_ids=list(ids)))
    for cname, claim_name, driver, pool, devices in claims:
        entry = by_name.setdefault(cname, api_pb2.ContainerResources(name=cname))
        entry.dynamic_resources.append(
            api_pb2.DynamicResource(
                claim_name=claim_name,
                claim_namespace=namespace,
                claim_resources=[
                    api_pb2.ClaimResource(
                        cdi_devices=[api_pb2.CDIDevice(name=f"k8s.{driver}/claim={device}")],
                        driver_name=driver,
                        pool_name=pool,
                        device_name=device,
                    )
                    for device in devices
                ],
            )
        )
    return api_pb2.PodResources(name=name, namespace=namespace, containers=list(by_name.values()))


class KubeletServer(api_pb2_grpc.PodResourcesListerServicer):
    """The PodResources ``List`` call on ``socket_path``; thread-safe."""

    def __init__(self, socket_path: str, lister: Lister | None = None, workers: int = 4) -> None:
        if len(socket_path.encode()) > MAX_SOCKET_PATH:
            raise ValueError(f"unix socket path {socket_path!r} is longer than {MAX_SOCKET_PATH} bytes")
        self.socket_path = socket_path
        self.lister = lister
        self.workers = workers
        self._lock = threading.Lock()
        self._pods: list[api_pb2.PodResources] = []
        self.calls = 0
        self.failing: grpc.StatusCode | None = None
        self._server: grpc.Server | None = None

    def set_pods(self, pods: Sequence[api_pb2.PodResources]) -> None:
        with self._lock:
            self._pods = list(pods)

    def List(self, request: api_pb2.ListPodResourcesRequest, context: grpc.ServicerContext) -> object:
        with self._lock:
            self.calls += 1
            failing = self.failing
            pods = list(self._pods)
        if failing is not None:
            context.abort(failing, "the kubelet was told to fail")
        if self.lister is not None:
            pods = list(self.lister())
        return api_pb2.ListPodResourcesResponse(pod_resources=pods)

    def start(self) -> None:
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=self.workers))
        api_pb2_grpc.add_PodResourcesListerServicer_to_server(self, server)
        Path(self.socket_path).unlink(missing_ok=True)  # a socket left by a killed stack
        server.add_insecure_port(f"unix:{self.socket_path}")
        server.start()
        self._server = server

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop(grace=None).wait()
            self._server = None
        Path(self.socket_path).unlink(missing_ok=True)


@contextmanager
def kubelet_server(lister: Lister | None = None) -> Iterator[KubeletServer]:
    """A started kubelet on a short socket path of its own (unix socket paths are limited to ~107 bytes)."""
    workdir = tempfile.mkdtemp(prefix="kubelet-")
    kubelet = KubeletServer(str(Path(workdir) / "kubelet.sock"), lister)
    kubelet.start()
    try:
        yield kubelet
    finally:
        kubelet.stop()
        shutil.rmtree(workdir, ignore_errors=True)


# --- a simulated node's pods ------------------------------------------------------------------------------------


def devices_of(sim: SimNode, processes: Sequence[SimProcess]) -> list[tuple[SimProcess, str, str]]:
    """(process, resource, device id) for each live pod's process holding a device, in population order: one
    entry per pod and device, the replica index counting the pods that share a GPU."""
    uuids = {g.index: g.uuid for g in sim.gpus}
    instances = {(g.index, i.identity.gpu_instance_id): i.identity for g in sim.gpus for i in g.instances}
    holders: dict[int, list[str]] = {}
    for p in processes:
        if p.pod is not None and p.live_pod and p.gpu_instance_id is None:
            names = holders.setdefault(p.gpu, [])
            if p.pod.uid not in names:
                names.append(p.pod.uid)
    out: list[tuple[SimProcess, str, str]] = []
    seen: set[tuple[str, int, int | None]] = set()
    for p in processes:
        if p.pod is None or not p.live_pod or (p.pod.uid, p.gpu, p.gpu_instance_id) in seen:
            continue
        seen.add((p.pod.uid, p.gpu, p.gpu_instance_id))
        if p.gpu_instance_id is not None:
            ident = instances.get((p.gpu, p.gpu_instance_id))
            if ident is not None:
                out.append((p, f"{MIG_RESOURCE_PREFIX}{ident.profile}", ident.uuid))
            continue
        sharing = holders.get(p.gpu, [])
        uuid = uuids[p.gpu]
        device = uuid if len(sharing) < 2 else f"{uuid}::{sharing.index(p.pod.uid)}"
        out.append((p, GPU_RESOURCE, device))
    return out


def node_pods(sim: SimNode, now: float | None = None) -> list[api_pb2.PodResources]:
    """What the kubelet of a simulated node lists: its live pods with the devices they hold."""
    pods: dict[str, api_pb2.PodResources] = {}
    containers: dict[tuple[str, str], api_pb2.ContainerResources] = {}
    for proc, resource, device in devices_of(sim, sim.population(now)):
        assert proc.pod is not None
        p = proc.pod
        entry = pods.setdefault(p.uid, api_pb2.PodResources(name=p.name, namespace=p.namespace))
        key = (p.uid, p.container)
        if key not in containers:
            containers[key] = entry.containers.add(name=p.container)
        containers[key].devices.append(api_pb2.ContainerDevices(resource_name=resource, device_ids=[device]))
    return list(pods.values())
