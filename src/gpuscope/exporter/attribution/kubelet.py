"""The kubelet PodResources v1 client: one ``List`` per collection over one long-lived gRPC channel.

dcgm-exporter dials the kubelet socket anew on every scrape (up to 10 cores on busy MIG nodes); here the
channel is opened once and reused, every call has a deadline, and a failed call drops the channel so the next
collection dials afresh (gRPC's own reconnect backoff can otherwise keep a restarted kubelet unreachable for up to
two minutes). Called only from the collection worker thread, never from the HTTP side.
"""

from __future__ import annotations

import logging
import os

import grpc

from gpuscope.errors import GpuscopeError
from gpuscope.exporter.attribution.dra import PodClaim
from gpuscope.exporter.attribution.podresources import api_pb2
from gpuscope.exporter.attribution.resolve import DEFAULT_SOCKET, PodDevice

log = logging.getLogger(__name__)

LIST_METHOD = "/v1.PodResourcesLister/List"
_MAX_MESSAGE = 16 * 1024 * 1024  # a busy node's List reply can pass gRPC's 4 MiB default


class KubeletError(GpuscopeError):
    """The kubelet could not be asked this collection; the message says why in one line (the socket by its
    parameter's name: the attribution source logs it by the exporter's flag)."""


class KubeletClient:
    """Lists the devices the kubelet has handed to containers."""

    def __init__(self, socket_path: str = DEFAULT_SOCKET, timeout_s: float = 5.0) -> None:
        self.socket_path = socket_path
        self.timeout_s = timeout_s
        self._channel: grpc.Channel | None = None
        self._list: grpc.UnaryUnaryMultiCallable[api_pb2.ListPodResourcesRequest, api_pb2.ListPodResourcesResponse]
        self.dials = 0  # channels opened so far: tests check that a healthy kubelet is dialled once

    def list_devices(self) -> list[PodDevice]:
        """Every (pod, container, resource, device id) the kubelet reports now; raises ``KubeletError``."""
        return self.list_all()[0]

    def list_all(self) -> tuple[list[PodDevice], list[PodClaim]]:
        """The device-plugin devices and the DRA-claimed devices (``dynamic_resources``) the kubelet reports."""
        if not os.path.exists(self.socket_path):
            self.close()
            raise KubeletError(
                f"kubelet socket {self.socket_path} not found ({{pod_resources_kubelet_socket}}): mount the host's "
                "/var/lib/kubelet/pod-resources into the exporter"
            ).naming("pod_resources_kubelet_socket")
        if self._channel is None:
            self._dial()
        try:
            reply = self._list(api_pb2.ListPodResourcesRequest(), timeout=self.timeout_s)
        except grpc.RpcError as exc:
            self.close()
            raise KubeletError(f"kubelet List failed: {_describe(exc)}") from None
        except ValueError as exc:  # grpc's "closed channel": closed under this call at shutdown
            self.close()
            raise KubeletError(f"kubelet List failed: {exc}") from None
        devices = [
            PodDevice(pod.namespace, pod.name, container.name, held.resource_name, device_id)
            for pod in reply.pod_resources
            for container in pod.containers
            for held in container.devices
            for device_id in held.device_ids
        ]
        claims = [
            PodClaim(
                namespace=pod.namespace,
                pod=pod.name,
                container=container.name,
                claim_name=dynamic.claim_name,
                claim_namespace=dynamic.claim_namespace,
                driver=resource.driver_name,
                pool=resource.pool_name,
                device=resource.device_name,
            )
            for pod in reply.pod_resources
            for container in pod.containers
            for dynamic in container.dynamic_resources
            for resource in dynamic.claim_resources
        ]
        return devices, claims

    def _dial(self) -> None:
        target = f"unix:{os.path.abspath(self.socket_path)}"
        self._channel = grpc.insecure_channel(target, options=[("grpc.max_receive_message_length", _MAX_MESSAGE)])
        self._list = self._channel.unary_unary(
            LIST_METHOD,
            request_serializer=api_pb2.ListPodResourcesRequest.SerializeToString,
            response_deserializer=api_pb2.ListPodResourcesResponse.FromString,
        )
        self.dials += 1
        log.debug("opened a gRPC channel to the kubelet at %s", target)

    def close(self) -> None:
        if self._channel is not None:
            self._channel.close()
            self._channel = None


def _describe(exc: grpc.RpcError) -> str:
    try:
        return f"{exc.code().name}: {exc.details() or 'no details'}"
    except AttributeError:  # the base RpcError carries no status; every error a call raises does
        return type(exc).__name__
