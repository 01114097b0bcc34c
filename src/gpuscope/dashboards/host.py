"""Host signals on the dashboards: the L3 host row (node-exporter: CPU, memory, filesystems, network,
InfiniBand beside the node's GPUs), L2's GPUs requested vs allocatable (kube-state-metrics) and L5's pod CPU and
memory beside its GPU use (cAdvisor).

Each appears only when the spec scrapes its exporter (``host_signals``, through ``RulesConfig.host``). A host
whose node-exporter runs without the InfiniBand collector, or finds no HCA, shows that in words instead of an
empty graph (``node_scrape_collector_success``). Queries join by the host label the scrape configs give these
series (``generate/host_scrape.py``), and thresholds are the host alerts' own.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Panel, Query, Row, Steps, ValueText
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import host as h
from gpuscope.dashboards.styles import GREEN, NEUTRAL, ORANGE, RED


def _ts(
    title: str,
    queries: tuple[Query, ...],
    unit: str,
    *,
    description: str,
    width: int = 8,
    steps: Steps | None = None,
    min: float | None = None,
    max: float | None = None,
) -> Panel:
    return Panel(
        title, "timeseries", queries, unit=unit, description=description, width=width, steps=steps, min=min, max=max
    )


_IB_COLLECTOR = (
    # a machine without HCAs is normal, not a fault: neutral, not a warning colour
    ValueText("0", "no InfiniBand: the collector found no HCA (or failed)", NEUTRAL),
    ValueText("1", "InfiniBand collected", GREEN),
)
_IB_STATE = (
    ValueText("1", "down", RED),
    ValueText("2", "init", ORANGE),
    ValueText("3", "armed", ORANGE),
    ValueText("4", "active", GREEN),
)


def host_row(q: Q) -> Row | None:
    """L3: the host under the node's GPUs, from node-exporter."""
    if not q.c.host.node_exporter:
        return None
    t = q.c.host.thresholds
    not_scraped = " Empty: node-exporter is not scraped for this node, or its series lack the host label."
    panels = (
        _ts(
            "Host CPU",
            (h.cpu_busy(q), h.iowait(q)),
            "percentunit",
            min=0,
            max=1,
            steps=Steps(GREEN, ((t.cpu_busy_ratio, RED),), source="GPUHostCPUSaturated's threshold"),
            description="Busy (not idle) and iowait share of the host's CPU time: a saturated host starves its "
            "GPUs (data loading, preprocessing)." + not_scraped,
        ),
        _ts(
            "Host memory available",
            (h.memory(q),),
            "percentunit",
            min=0,
            max=1,
            steps=Steps(RED, ((t.memory_available_ratio, GREEN),), source="GPUHostMemoryPressure's threshold"),
            description="MemAvailable / MemTotal." + not_scraped,
        ),
        _ts(
            "Filesystems free",
            (h.filesystems(q),),
            "percentunit",
            min=0,
            max=1,
            steps=Steps(RED, ((t.filesystem_free_ratio, GREEN),), source="GPUHostFilesystemFull's threshold"),
            description="Free share of the mount points training uses (host_signals.filesystem_mountpoints)."
            + not_scraped,
        ),
        _ts(
            "Network", h.network(q), "Bps", width=12, description="Throughput and receive errors per NIC." + not_scraped
        ),
        Panel(
            "InfiniBand collector",
            "stat",
            (h.ib_collector(q),),
            mappings=_IB_COLLECTOR,
            description="Whether node-exporter's infiniband collector reports this host; 'no InfiniBand' explains "
            "an empty port table." + not_scraped,
            width=4,
        ),
        Panel(
            "InfiniBand ports",
            "table",
            h.infiniband(q),
            mappings=_IB_STATE,
            description="Port state (4 active; GPUHostInfiniBandPortDown pages when an active port leaves it), "
            "receive rate and errors. Empty when the InfiniBand collector reports nothing (see its panel).",
            width=8,
        ),
    )
    return Row("Host (node-exporter)", panels)


def allocation_row(q: Q) -> Row | None:
    """L2: GPUs requested vs allocatable, per GPU resource (MIG profiles included), from kube-state-metrics."""
    if not q.c.host.kube_state_metrics:
        return None
    empty = " Empty: kube-state-metrics is not scraped in this cluster, or it has no GPU resources."
    return Row(
        "Requested vs allocatable (kube-state-metrics)",
        (
            _ts(
                "GPUs requested vs allocatable",
                h.gpus_requested_vs_allocatable(q),
                "short",
                width=16,
                description="kube_node_status_allocatable and kube_pod_container_resource_requests per GPU resource "
                "(nvidia_com_gpu, nvidia_com_mig_*); pending: requests of pods not yet on a node." + empty,
            ),
            Panel(
                "Requested / allocatable",
                "stat",
                (h.requested_ratio(q),),
                unit="percentunit",
                steps=Steps(
                    GREEN,
                    ((q.c.host.thresholds.gpu_requests_ratio, RED),),
                    source="GPURequestsNearAllocatable's threshold",
                ),
                description="Above the threshold for 30 minutes, GPURequestsNearAllocatable fires." + empty,
                width=8,
            ),
        ),
    )


def pod_resources_row(q: Q) -> Row | None:
    """L5: the selected pods' container CPU and memory (cAdvisor) beside their GPU use."""
    if not q.c.host.cadvisor:
        return None
    empty = " Empty: the kubelet's cAdvisor is not scraped, or the pod runs elsewhere."
    return Row(
        "Pod CPU and memory (cAdvisor)",
        (
            _ts("Pod CPU (cores)", (h.pod_cpu(q),), "short", description="Cores used per container." + empty),
            _ts(
                "Pod CPU throttled",
                (h.pod_cpu_throttled(q),),
                "percentunit",
                min=0,
                max=1,
                steps=Steps(
                    GREEN,
                    ((q.c.host.thresholds.pod_cpu_throttled_ratio, RED),),
                    source="GPUPodCPUThrottled's threshold",
                ),
                description="Share of CFS periods throttled at the CPU limit: the GPU waits for the host." + empty,
            ),
            _ts(
                "Pod memory",
                h.pod_memory(q),
                "bytes",
                description="Working set against the limit (GPUPodMemoryNearLimit)." + empty,
            ),
        ),
    )
