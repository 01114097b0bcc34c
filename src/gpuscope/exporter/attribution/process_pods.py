"""The pod watch as the per-process metrics' pod lookup: live pods by UID (``processes.pods.PodLookup``).

With ``--kubernetes-enable-pod-labels`` or ``--kubernetes-enable-pod-uid`` the exporter already keeps a copy of
the node's pods; per-process attribution (a process's cgroup names its pod's UID) reads it instead of the
kubelet's pod log directory. Before the watch's first list it answers None (the source cannot answer yet).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuscope.exporter.attribution.source import WorkloadSource
from gpuscope.exporter.processes.pods import PodRef


class WatchedPods:
    """``pods()``: the watch's last copy as ``PodRef`` by UID, containers by name."""

    def __init__(self, source: WorkloadSource) -> None:
        self.source = source
        self.problem = ""

    def pods(self) -> Mapping[str, PodRef] | None:
        watch = self.source.pod_watch
        if watch is None or not watch.status().synced:
            self.problem = "the API server's pod watch has not listed the node's pods yet"
            return None
        self.problem = ""
        return {
            meta.uid: PodRef(meta.namespace, meta.name, tuple(sorted({name for _, name in meta.containers})))
            for meta in watch.items().values()
        }
