"""Reads the attribution sources once per collection, on the collection worker thread.

The kubelet and the mapping directory are read together with the GPUs, so the snapshot's attribution always
matches its reading and a scrape never waits on the kubelet. Problems are logged once (when they start, change or
end), not every interval, and show in the self-metrics.

Pod labels and UIDs (and, for DRA, the node's ResourceSlices) come from the API server through watches that run
on their own threads (``gpuscope.kube.reflector``); a collection only reads their last copy. When the API server
cannot be reached, attribution degrades to what the kubelet gives (pods without labels or UID; DRA devices
unmatched) and ``gpuscope_exporter_kubernetes_api_up`` says so.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from gpuscope.backends.base import GpuReading
from gpuscope.exporter.attribution.dra import PodClaim, SliceDevices, claim_devices
from gpuscope.exporter.attribution.hpc import read_job_dir
from gpuscope.exporter.attribution.podmeta import (
    PodIndex,
    PodMeta,
    compile_allowlist,
    pod_budget,
    pod_decoder,
    with_pod_metadata,
)
from gpuscope.exporter.attribution.resolve import (
    DEFAULT_SOCKET,
    ApiStatus,
    Attribution,
    PodDevice,
    Target,
    WorkloadLabels,
    WorkloadStatus,
    resolve,
)
from gpuscope.flagnames import flag_names

# The kubelet client (gRPC, ~10 MiB) and the API server watch are imported only when -k and the flags that use them
# are on: an exporter without them never loads either (tests/exporter/test_import_weight.py).
if TYPE_CHECKING:
    from gpuscope.exporter.attribution.kubelet import KubeletClient
    from gpuscope.kube.client import ApiServer
    from gpuscope.kube.reflector import Reflector

log = logging.getLogger(__name__)

# Consecutive failed kubelet calls after which the last good pod list is dropped. A single failure keeps the
# attribution (no flapping joins on a kubelet hiccup); a kubelet that stays away loses it within a few intervals.
KUBELET_GRACE = 3
_MAX_REMEMBERED = 1024


@dataclass(frozen=True, slots=True)
class WorkloadSettings:
    """Where attribution comes from and how it is exposed."""

    mode: WorkloadLabels = WorkloadLabels.INFO
    kubernetes: bool = False
    socket_path: str = DEFAULT_SOCKET
    resource_names: tuple[str, ...] = ()
    hpc_dir: str = ""
    pod_labels: bool = False  # --kubernetes-enable-pod-labels
    pod_uid: bool = False  # --kubernetes-enable-pod-uid
    label_allowlist: str = ""  # --kubernetes-pod-label-allowlist-regex (comma-separated; a bad pattern skipped)
    virtual_gpus: bool = False  # --kubernetes-virtual-gpus
    dra: bool = False  # --kubernetes-enable-dra
    node_name: str = ""  # the field selector of the API server watches: spec.nodeName=<node_name>

    @property
    def enabled(self) -> bool:
        return self.mode is not WorkloadLabels.OFF and (self.kubernetes or bool(self.hpc_dir))

    @property
    def split(self) -> bool:
        """Whether shared GPUs' GPU_UTIL and FB_USED are split per sharing pod: ``-k --kubernetes-virtual-gpus``,
        as dcgm-exporter splits them (from per-process readings; ``processes.exposition``), in ``info`` mode too.

        dcgm-exporter has no modes: its command line (the Helm chart's, the GPU Operator's) lands in our default
        ``info`` mode, and the split is what it asked for. The split series are per-pod values, not a pod label
        copied onto a device value, so they carry their pod as the per-process families of ``info`` mode do; every
        other series keeps ``info`` mode's stable labels. ``off`` asks the kubelet nothing, so nothing splits."""
        return self.kubernetes and self.virtual_gpus and self.mode is not WorkloadLabels.OFF

    @property
    def pod_metadata(self) -> bool:
        """Whether the pods are watched on the API server: labels or UID asked for, or the split, whose series
        carry the pod's UID and whose processes are named by it (dcgm-exporter's pod informer runs with ``-k``)."""
        return self.kubernetes and (self.pod_labels or self.pod_uid or self.split)


class WorkloadSource:
    """One node's attribution sources; not thread-safe (one collection at a time, as the collector runs)."""

    def __init__(
        self,
        settings: WorkloadSettings,
        kubelet: KubeletClient | None = None,
        timeout_s: float = 5.0,
        api: ApiServer | None = None,
    ) -> None:
        self.settings = settings
        self.kubelet = kubelet
        self.timeout_s = timeout_s
        if kubelet is None and settings.kubernetes:
            from gpuscope.exporter.attribution.kubelet import KubeletClient

            self.kubelet = KubeletClient(settings.socket_path, timeout_s)
        self.pod_watch: Reflector[PodMeta] | None = None
        self.slice_watch: Reflector[SliceDevices] | None = None
        if settings.pod_metadata or (settings.kubernetes and settings.dra):
            from gpuscope.kube.client import ApiServer

            self._make_watches(api or ApiServer.from_env())
        self._started = False
        self._node_warned = False
        self._pods: list[PodDevice] = []
        self._claims: list[PodClaim] = []
        self._failures = 0
        self._errors_total = 0
        self._kubelet_problem = ""
        self._hpc_problem: str | None = None
        self._reported_unmatched: set[str] = set()

    def _make_watches(self, api: ApiServer | None) -> None:
        node = self.settings.node_name
        # Compiled (and a bad pattern warned about) at start, API server or not.
        allowlist = compile_allowlist(self.settings.label_allowlist) if self.settings.pod_labels else ()
        if api is None:
            log.warning(
                "pod labels/UID, the per-pod split's pod UIDs and DRA need the API server, and this exporter is not "
                "running in a pod (KUBERNETES_SERVICE_HOST/PORT unset): attribution comes from the kubelet only"
            )
            return
        from gpuscope.exporter.attribution.dra import RESOURCESLICE_PATHS, slice_decoder
        from gpuscope.kube.reflector import Reflector

        selector = f"spec.nodeName={node}"
        if self.settings.pod_metadata:
            decode = pod_decoder(labels=self.settings.pod_labels, allowlist=allowlist)
            self.pod_watch = Reflector(
                api, ("/api/v1/pods",), decode, field_selector=selector, budget=pod_budget(), what="pods"
            )
        if self.settings.dra:
            self.slice_watch = Reflector(
                api, RESOURCESLICE_PATHS, slice_decoder(), field_selector=selector, what="resourceslices"
            )

    def _start_watches(self) -> None:
        """Start the watches at the first collection, and give them a moment to list, so that the first
        collection already carries labels (a series that gains labels one interval later is churn)."""
        self._started = True
        watches = [w for w in (self.pod_watch, self.slice_watch) if w is not None]
        for watch in watches:
            watch.start()
        for watch in watches:
            watch.wait_synced(min(self.timeout_s, 2.0))

    def read(self, gpus: Sequence[GpuReading]) -> tuple[Attribution, WorkloadStatus]:
        """Ask the kubelet, read the mapping directory, and place both on ``gpus``."""
        if not self._started:
            self._start_watches()
        kubelet_up = self._read_kubelet()
        jobs, hpc_ok = self._read_jobs()
        dra = (
            claim_devices(self._claims, self.slice_watch.items() if self.slice_watch else {})
            if self.settings.dra
            else []
        )
        attribution = resolve(
            gpus, self._pods, jobs, self.settings.resource_names, virtual_gpus=self.settings.virtual_gpus, dra=dra
        )
        if self.pod_watch is not None:
            pods = self.pods()
            attribution = with_pod_metadata(
                attribution, pods, uid=self.settings.pod_uid, labels=self.settings.pod_labels
            )
            if self.settings.split:
                attribution = replace(attribution, pod_uids=MappingProxyType(_holder_uids(attribution, pods)))
            self._check_node(attribution, pods)
        self._report_unmatched(attribution.unmatched)
        status = WorkloadStatus(
            kubernetes=self.kubelet is not None,
            kubelet_up=kubelet_up,
            kubelet_errors=self._errors_total,
            hpc=bool(self.settings.hpc_dir),
            hpc_dir_readable=hpc_ok,
            api=self._api_status(),
        )
        return attribution, status

    def _check_node(self, attribution: Attribution, pods: PodIndex) -> None:
        """Say once when the watch is synced but none of the kubelet's pods is in it: the node name is wrong."""
        held = {(w.namespace, w.pod) for a in attribution.targets.values() for w in a.pods}
        if self._node_warned or not held or self.pod_watch is None or not self.pod_watch.status().synced:
            return
        if all(pods.by_name(namespace, name) is None for namespace, name in held):
            self._node_warned = True
            log.warning(
                "none of the %d pods holding GPUs is among the API server's pods of node %r: set NODE_NAME "
                "(--node-name) to this node's name (the DaemonSet's spec.nodeName)",
                len(held),
                self.settings.node_name,
            )

    def pods(self) -> PodIndex:
        """The pods of this node as the API server watch last saw them (empty when pods are not watched).

        For callers that know a pod UID (a process's cgroup names it): ``source.pods().by_uid(uid)``. Safe from any
        thread: it reads the watch's last copy, which is replaced whole."""
        return PodIndex(self.pod_watch.items() if self.pod_watch is not None else {})

    def _api_status(self) -> tuple[ApiStatus, ...]:
        if not (self.settings.pod_metadata or (self.settings.kubernetes and self.settings.dra)):
            return ()
        wanted = [
            ("pods", self.pod_watch, self.settings.pod_metadata),
            ("resourceslices", self.slice_watch, self.settings.dra),
        ]
        out = []
        for resource, watch, on in wanted:
            if not on:
                continue
            if watch is None:  # not in a pod: no API server to ask
                out.append(ApiStatus(resource=resource, errors=(("unreachable", 1),)))
                continue
            st = watch.status()
            out.append(
                ApiStatus(
                    resource=resource,
                    up=st.up,
                    objects=st.objects,
                    requests=st.requests,
                    errors=tuple(sorted(st.errors.items())),
                )
            )
        return tuple(out)

    def _read_kubelet(self) -> bool:
        if self.kubelet is None:
            return False
        from gpuscope.exporter.attribution.kubelet import KubeletError

        try:
            self._pods, self._claims = self.kubelet.list_all()
        except KubeletError as exc:
            self._failures += 1
            self._errors_total += 1
            if str(exc) != self._kubelet_problem:
                self._kubelet_problem = str(exc)
                # by the flag that sets the socket, as the CLI would word it
                log.warning("no pod attribution from the kubelet: %s", exc.worded(flag_names("exporter")))
            if self._failures >= KUBELET_GRACE:
                self._pods, self._claims = [], []
            return False
        if self._kubelet_problem:
            log.info("the kubelet answers again; pod attribution resumed")
            self._kubelet_problem = ""
        self._failures = 0
        return True

    def _read_jobs(self) -> tuple[dict[Target, tuple[str, ...]], bool]:
        path = self.settings.hpc_dir
        if not path:
            return {}, False
        try:
            jobs = read_job_dir(path)
        except OSError as exc:
            problem = exc.strerror or str(exc)
            if problem != self._hpc_problem:
                self._hpc_problem = problem
                log.warning("cannot read the HPC job mapping directory %s (--hpc-job-mapping-dir): %s", path, problem)
            return {}, False
        if self._hpc_problem:
            log.info("HPC job mapping directory %s is readable again", path)
            self._hpc_problem = None
        return jobs, True

    def _report_unmatched(self, unmatched: Sequence[str]) -> None:
        for name in unmatched:
            if name not in self._reported_unmatched and len(self._reported_unmatched) < _MAX_REMEMBERED:
                self._reported_unmatched.add(name)
                log.warning("workload attribution: %r names no GPU or MIG instance on this node", name)

    def close(self) -> None:
        if self.kubelet is not None:
            self.kubelet.close()
        for watch in (self.pod_watch, self.slice_watch):
            if watch is not None:
                watch.stop()


def _holder_uids(attribution: Attribution, pods: PodIndex) -> dict[tuple[str, str], str]:
    """The UID of every pod holding a device, where the watch knows it."""
    out: dict[tuple[str, str], str] = {}
    for assignment in attribution.targets.values():
        for w in assignment.pods:
            meta = pods.by_name(w.namespace, w.pod)
            if meta is not None and meta.uid:
                out[(w.namespace, w.pod)] = meta.uid
    return out
