"""An exporter node's settings and the runtime built from them: no HTTP here.

``ExporterSettings`` is what every node of one process shares (field list, naming, timing, attribution);
``make_runtime`` wires a backend into a collector and renderer. The bundle compiler uses both to count the series
a node serves, so this module must stay free of the HTTP server and its imports.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from gpuscope.backends.base import Backend, WatchPlan
from gpuscope.exporter.attribution.source import WorkloadSettings, WorkloadSource
from gpuscope.exporter.collector import Collector
from gpuscope.exporter.devices import DeviceSelection
from gpuscope.exporter.processes.nvml_lists import ProcessLists
from gpuscope.exporter.processes.pods import PodLookup
from gpuscope.exporter.processes.source import ProcessSettings, ProcessSource
from gpuscope.exporter.render import RenderConfig
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.fields.catalog import Dialect
from gpuscope.fields.collectors import CollectorSet

if TYPE_CHECKING:
    from gpuscope.exporter.kernellog import KernelLogReader


@dataclass(frozen=True, slots=True)
class ExporterSettings:
    """What every exporter node shares: the field list, naming and collection timing."""

    collectors: CollectorSet
    dialect: Dialect = Dialect.CLASSIC
    interval_s: float = 15.0
    host_label: str = "Hostname"
    no_hostname: bool = False
    use_old_namespace: bool = False
    replace_blanks_in_model_name: bool = False
    xid_window_ms: int = 300000
    clock_events_window_ms: int = 300000
    workloads: WorkloadSettings = field(default_factory=WorkloadSettings)
    devices: DeviceSelection = field(default_factory=DeviceSelection)
    switches: DeviceSelection = field(default_factory=DeviceSelection)  # -s/--switch-devices
    kernel_log: str = ""  # --kernel-log: /dev/kmsg or a kernel log text file ("": off)
    processes: ProcessSettings = field(default_factory=ProcessSettings)
    # How DCGM's field watches sample the fields (--watch-max-keep-*, the config file's watch groups); None: the
    # DCGM backend's defaults. Only the dcgm backend keeps watches: the others read every field each collection.
    watches: WatchPlan | None = None
    require_gpus: bool = False  # --health-require-gpus
    # --enable-gpu-bind-unbind-watch: how often the DCGM backend lists its GPUs again; None: its own schedule
    rediscover_s: float | None = None


def kubelet_timeout(interval_s: float) -> float:
    """A kubelet call may take half an interval, between 1 s and 5 s: enough for a loaded node, never a hang."""
    return max(1.0, min(5.0, interval_s / 2))


def make_runtime(
    backend: Backend,
    settings: ExporterSettings,
    hostname: str,
    *,
    own_process_metrics: bool = True,
    clock: Callable[[], float] = time.time,
    pod_lookup: PodLookup | None = None,
    process_lists: ProcessLists | None = None,
) -> NodeRuntime:
    """Wire a backend (and the attribution sources, if any) into a collector and renderer.

    ``{hostname}`` in the kubelet socket path or the mapping directory becomes the node's host label value, so
    each simulated node of ``gpuscope sim`` can have its own sources. ``pod_lookup`` names pods by UID for
    ``--process-metrics`` (an API-server pod watch); without it, the kubelet's pod log directory does.
    ``process_lists`` reads the processes for a backend that reads none (NVML beside the dcgm backend).
    """
    wl = settings.workloads
    workloads = None
    if wl.enabled:
        wl = replace(
            wl,
            socket_path=wl.socket_path.replace("{hostname}", hostname),
            hpc_dir=wl.hpc_dir.replace("{hostname}", hostname),
        )
        workloads = WorkloadSource(wl, timeout_s=kubelet_timeout(settings.interval_s))
    ps = settings.processes
    processes = None
    if pod_lookup is None and workloads is not None and workloads.pod_watch is not None:
        from gpuscope.exporter.attribution.process_pods import WatchedPods

        pod_lookup = WatchedPods(workloads)  # the pod watch names pods by UID (docs/kubernetes-attribution.md)
    if ps.reads:
        processes = ProcessSource(
            replace(
                ps,
                proc_root=ps.proc_root.replace("{hostname}", hostname),
                pod_log_dir=ps.pod_log_dir.replace("{hostname}", hostname),
            ),
            lookup=pod_lookup,
        )
    collector = Collector(
        backend,
        settings.collectors,
        xid_window_s=settings.xid_window_ms / 1000.0,
        clock_events_window_s=settings.clock_events_window_ms / 1000.0,
        clock=clock,
        workloads=workloads,
        devices=settings.devices,
        switches=settings.switches,
        kernel_log=_kernel_log(settings.kernel_log),
        processes=processes,
        process_lists=process_lists,
    )
    render = RenderConfig(
        collectors=settings.collectors,
        hostname=None if settings.no_hostname else hostname,
        host_label=settings.host_label,
        uuid_label="uuid" if settings.use_old_namespace else "UUID",
        replace_blanks_in_model_name=settings.replace_blanks_in_model_name,
        xid_window_ms=settings.xid_window_ms,
        clock_events_window_ms=settings.clock_events_window_ms,
        workload_labels=settings.workloads.mode,
        old_namespace=settings.use_old_namespace,
        gpu_link_base=0 if settings.dialect is Dialect.CLASSIC else 1,
    )
    return NodeRuntime(
        backend,
        collector,
        render,
        interval_s=settings.interval_s,
        dialect=settings.dialect.value,
        own_process_metrics=own_process_metrics,
        require_gpus=settings.require_gpus,
    )


def _kernel_log(path: str) -> KernelLogReader | None:
    if not path:
        return None
    from gpuscope.exporter.kernellog import KernelLogReader  # loaded with --kernel-log only

    return KernelLogReader(path)
