"""A fake kubelet: a real gRPC server on a unix socket serving the PodResources v1 ``List`` call.

Answers carry device-plugin devices (``ContainerDevices``) and DRA-claimed devices (``DynamicResources``:
claim name and namespace, then driver, pool and device name per claimed device, as the kubelet's v1 API has them).

Tests set the pods it reports between collections (pods appear, restart and go away) and can make it fail or
stop it entirely, as a restarting kubelet would.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Iterator, Sequence
from concurrent import futures
from contextlib import contextmanager
from pathlib import Path

import grpc

from gpuscope.exporter.workloads.podresources import api_pb2, api_pb2_grpc

# (container name, resource name, device ids)
ContainerSpec = tuple[str, str, Sequence[str]]
# (container name, claim name, driver, pool, device names)
ClaimSpec = tuple[str, str, str, str, Sequence[str]]


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


class FakeKubelet(api_pb2_grpc.PodResourcesListerServicer):
    def __init__(self, socket_path: str) -> None:
        self.socket_path = socket_path
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
            context.abort(failing, "fake kubelet told to fail")
        return api_pb2.ListPodResourcesResponse(pod_resources=pods)

    def start(self) -> None:
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
        api_pb2_grpc.add_PodResourcesListerServicer_to_server(self, server)
        server.add_insecure_port(f"unix:{self.socket_path}")
        server.start()
        self._server = server

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop(grace=None).wait()
            self._server = None
        Path(self.socket_path).unlink(missing_ok=True)


@contextmanager
def fake_kubelet() -> Iterator[FakeKubelet]:
    """A started fake kubelet on a short socket path (unix socket paths are limited to ~107 bytes)."""
    workdir = tempfile.mkdtemp(prefix="kubelet-")
    kubelet = FakeKubelet(str(Path(workdir) / "kubelet.sock"))
    kubelet.start()
    try:
        yield kubelet
    finally:
        kubelet.stop()
        shutil.rmtree(workdir, ignore_errors=True)
