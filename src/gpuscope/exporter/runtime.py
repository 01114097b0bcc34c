"""One exporter's moving parts: collect on a worker thread, render once, serve the bytes many times.

``collect()`` runs off the event loop (it may block on hardware); everything else runs on the loop and only reads
the last published render. A scrape costs a dictionary lookup, a few formatted lines for the per-scrape tail and,
for gzip, compressing only that tail: the static body's compressor state is kept and copied per scrape.
"""

from __future__ import annotations

import json
import threading
import zlib
from dataclasses import dataclass, field, replace

from gpuscope import exposition
from gpuscope.backends.base import Backend
from gpuscope.exporter.attribution.exposition import render_workload_info
from gpuscope.exporter.collector import Collector
from gpuscope.exporter.render import RenderConfig, Split, render_dcgm
from gpuscope.exporter.selfmetrics import ReloadStatus, read_process_stats, render_dynamic, render_self
from gpuscope.exporter.snapshot import Snapshot
from gpuscope.fields.collectors import CollectorSet
from gpuscope.httpd.stats import AuthStats, ConnectionStats

FRESHNESS_INTERVALS = 3


@dataclass(slots=True)
class Published:
    """A rendered snapshot. ``_gzip`` is built lazily, on the event loop, by the first gzip scrape."""

    snapshot: Snapshot
    static: bytes
    _gzip: tuple[bytes, zlib._Compress] | None = field(default=None)

    def gzip_parts(self) -> tuple[bytes, zlib._Compress]:
        if self._gzip is None:
            compressor = zlib.compressobj(1, zlib.DEFLATED, 31)
            self._gzip = (compressor.compress(self.static), compressor)
        return self._gzip


class NodeRuntime:
    """The exporter for one node (one process, or one of many simulated nodes)."""

    def __init__(
        self,
        backend: Backend,
        collector: Collector,
        render_config: RenderConfig,
        *,
        interval_s: float,
        dialect: str,
        own_process_metrics: bool = True,  # the process_* series of this process (not per-GPU processes)
        require_gpus: bool = False,
    ) -> None:
        self.backend = backend
        self.require_gpus = require_gpus  # --health-require-gpus: no GPU visible is unhealthy
        self.collector = collector
        self.render_config = render_config
        self.interval_s = interval_s
        self.dialect = dialect
        self.own_process_metrics = own_process_metrics
        self.busy = False
        # The per-scrape self-state, set through the methods below: the listener's connection counts and the last
        # reload's outcome (absent until a listener serves this node, and unless this process reloads on SIGHUP).
        self._connections: ConnectionStats | None = None
        self._reload: ReloadStatus | None = None
        self._auth: AuthStats | None = None
        self._publish_lock = threading.Lock()
        self.published = self._render(collector.snapshot)

    def _render(self, snapshot: Snapshot) -> Published:
        config = self.render_config
        split: Split = {}
        processes = ""
        if snapshot.processes is not None:  # --process-metrics: its renderer is loaded only then
            from gpuscope.exporter.processes.exposition import labels_split, render_processes

            split, processes = labels_split(snapshot, config), render_processes(snapshot, config)
        text = (
            render_dcgm(snapshot, config, split)
            + render_workload_info(snapshot, config)
            + processes
            + render_self(snapshot, config, self.interval_s, self.dialect)
        )
        return Published(snapshot, exposition.encode(text))

    def collect(self) -> None:
        """Collect and publish; runs on a worker thread."""
        snapshot = self.collector.collect()
        published = self._render(snapshot)
        with self._publish_lock:
            # A restart may have published a newer (reset) snapshot meanwhile; never go back in time.
            if published.snapshot.seq >= self.published.snapshot.seq:
                self.published = published

    def close(self) -> None:
        """Release the backend and the attribution sources (the kubelet channel); the runtime is not used again."""
        if self.collector.workloads is not None:
            self.collector.workloads.close()
        if self.collector.process_lists is not None:
            self.collector.process_lists.close()
        self.backend.close()

    def body(self, now: float, gzip: bool) -> bytes:
        """The exposition for one scrape."""
        pub = self.published
        process = read_process_stats() if self.own_process_metrics else None
        tail = exposition.encode(
            render_dynamic(pub.snapshot, now, process, self._connections, self._reload, self._auth)
        )
        if not gzip:
            return pub.static + tail
        prefix, compressor = pub.gzip_parts()
        copy = compressor.copy()
        return prefix + copy.compress(tail) + copy.flush()

    @property
    def connections(self) -> ConnectionStats | None:
        """The connection counts of the listener serving this node, once one does."""
        return self._connections

    def export_connections(self, stats: ConnectionStats) -> None:
        """Export ``stats`` (kept by the listener's guard, on the event loop) with every scrape of this node."""
        self._connections = stats

    def export_auth(self, stats: AuthStats) -> None:
        """Export basic auth's counts (kept by ``auth`` on the event loop) with every scrape of this node."""
        self._auth = stats

    def reload_succeeded(self, at: float) -> None:
        """A configuration (the one read at start, or a SIGHUP reload's) was applied at ``at``."""
        self._reload = ReloadStatus(successful=True, success_at=at)

    def reload_failed(self) -> None:
        """A reload was refused; the previous configuration, and its success time, stay."""
        previous = self._reload
        self._reload = ReloadStatus(successful=False, success_at=previous.success_at if previous else 0.0)

    def health(self, now: float) -> tuple[int, str]:
        """(HTTP status, JSON body) for ``/health``: 200 only while the snapshot is fresh and the backend up."""
        snap = self.published.snapshot
        age = snap.age(now)
        limit = FRESHNESS_INTERVALS * self.interval_s
        gpus = snap.reading.gpus if snap.reading else ()
        info: dict[str, object] = {
            "backend": snap.backend,
            "snapshot_age_seconds": None if age is None else round(age, 3),
            "gpus": len(gpus),
            "gpus_lost": sum(1 for g in gpus if g.lost),
        }
        if snap.collections and not snap.backend_up:
            reason = f"backend {snap.backend} unavailable: {snap.backend_error}"
        elif age is None:
            reason = "no collection has completed yet"
        elif age > limit:
            reason = f"snapshot is {age:.1f}s old (limit {limit:g}s): collection is failing or hung"
        elif self.require_gpus and not gpus:
            reason = f"backend {snap.backend} sees no GPU (--health-require-gpus)"
        else:
            return 200, json.dumps({"status": "ok", **info})
        return 503, json.dumps({"status": "unhealthy", "reason": reason, **info})

    def reconfigure(self, collectors: CollectorSet) -> None:
        """Serve a new field list (a reload): read from the next collection on, rendered from now on."""
        self.collector.set_collectors(collectors)
        with self._publish_lock:
            self.render_config = replace(self.render_config, collectors=collectors)
            self.published = self._render(self.published.snapshot)

    def restart(self) -> None:
        """Start over as a restarted exporter process would: the collector's own state (counters, event
        windows) is dropped and its empty snapshot published at once."""
        self.collector.reset()
        with self._publish_lock:
            self.published = self._render(self.collector.snapshot)
