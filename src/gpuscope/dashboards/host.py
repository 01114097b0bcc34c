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
from gpuscope.dashboards.styles import GREEN, ORANGE, RED
from gpuscope.fields.companion import GPU_RESOURCE_REGEX


def _ne(q: Q, metric: str, *matchers: str) -> str:
    inner = ",".join(m for m in (q.c.host.node_exporter_selector, q.on_node, *matchers) if m)
    return f"{metric}{{{inner}}}"


def _ksm(q: Q, metric: str, *matchers: str) -> str:
    inner = ",".join(m for m in (q.c.host.kube_state_metrics_selector, q.in_cluster, *matchers) if m)
    return f"{metric}{{{inner}}}"


def _cadvisor(q: Q, metric: str) -> str:
    c = q.c
    inner = ",".join((c.host.cadvisor_selector, q.in_cluster, _POD_SCOPE))
    return f"{metric}{{{inner}}}"


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


def cpu_busy(q: Q) -> Query:
    """The L3 host row's first query: share of CPU time not idle, per host (the e2e test reads it)."""
    idle = _ne(q, "node_cpu_seconds_total", 'mode="idle"')
    return Query(f"1 - avg by ({q.host}) (rate({idle}[$__rate_interval]))", f"{{{{{q.host}}}}} busy")


def _iowait(q: Q) -> Query:
    iowait = _ne(q, "node_cpu_seconds_total", 'mode="iowait"')
    return Query(f"avg by ({q.host}) (rate({iowait}[$__rate_interval]))", f"{{{{{q.host}}}}} iowait")


def _memory(q: Q) -> Query:
    avail = f"max by ({q.host}) ({_ne(q, 'node_memory_MemAvailable_bytes')})"
    total = f"max by ({q.host}) ({_ne(q, 'node_memory_MemTotal_bytes')})"
    return Query(f"{avail} / {total}", f"{{{{{q.host}}}}} available")


def _filesystems(q: Q) -> Query:
    hs = q.c.host
    sel = f'mountpoint=~"{hs.filesystem_mountpoints}",fstype!~"tmpfs|ramfs|squashfs|overlay"'
    keys = f"{q.host}, mountpoint"
    free = f"max by ({keys}) ({_ne(q, 'node_filesystem_avail_bytes', sel)})"
    size = f"max by ({keys}) ({_ne(q, 'node_filesystem_size_bytes', sel)})"
    return Query(f"{free} / {size}", "{{mountpoint}} free")


def _network(q: Q) -> tuple[Query, ...]:
    sel = f'device!~"{q.c.host.network_devices_ignored}"'
    keys = f"{q.host}, device"
    rx = f"sum by ({keys}) (rate({_ne(q, 'node_network_receive_bytes_total', sel)}[$__rate_interval]))"
    tx = f"sum by ({keys}) (rate({_ne(q, 'node_network_transmit_bytes_total', sel)}[$__rate_interval]))"
    errs = f"sum by ({keys}) (increase({_ne(q, 'node_network_receive_errs_total', sel)}[$__rate_interval]))"
    return Query(rx, "{{device}} rx"), Query(tx, "{{device}} tx"), Query(errs, "{{device}} rx errors")


def _infiniband(q: Q) -> tuple[Query, ...]:
    keys = f"{q.host}, device, port"
    state = f"max by ({keys}) ({_ne(q, 'node_infiniband_state_id')})"
    rx = f"sum by ({keys}) (rate({_ne(q, 'node_infiniband_port_data_received_bytes_total')}[$__rate_interval]))"
    errs = f"sum by ({keys}) (increase({_ne(q, 'node_infiniband_port_errors_received_total')}[$__rate_interval]))"
    return (
        Query(state, "{{device}}/{{port}} state", instant=True),
        Query(rx, "{{device}}/{{port}} rx", instant=True, unit="Bps"),
        Query(errs, "{{device}}/{{port}} errors", instant=True),
    )


_IB_COLLECTOR = (
    ValueText("0", "no InfiniBand: the collector found no HCA (or failed)", ORANGE),
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
    ib_collector = f"max by ({q.host}) ({_ne(q, 'node_scrape_collector_success', _IB)})"
    panels = (
        _ts(
            "Host CPU",
            (cpu_busy(q), _iowait(q)),
            "percentunit",
            min=0,
            max=1,
            steps=Steps(GREEN, ((t.cpu_busy_ratio, RED),), source="GPUHostCPUSaturated's threshold"),
            description="Busy (not idle) and iowait share of the host's CPU time: a saturated host starves its "
            "GPUs (data loading, preprocessing)." + not_scraped,
        ),
        _ts(
            "Host memory available",
            (_memory(q),),
            "percentunit",
            min=0,
            max=1,
            steps=Steps(RED, ((t.memory_available_ratio, GREEN),), source="GPUHostMemoryPressure's threshold"),
            description="MemAvailable / MemTotal." + not_scraped,
        ),
        _ts(
            "Filesystems free",
            (_filesystems(q),),
            "percentunit",
            min=0,
            max=1,
            steps=Steps(RED, ((t.filesystem_free_ratio, GREEN),), source="GPUHostFilesystemFull's threshold"),
            description="Free share of the mount points training uses (host_signals.filesystem_mountpoints)."
            + not_scraped,
        ),
        _ts(
            "Network", _network(q), "Bps", width=12, description="Throughput and receive errors per NIC." + not_scraped
        ),
        Panel(
            "InfiniBand collector",
            "stat",
            (Query(ib_collector, f"{{{{{q.host}}}}}", instant=True),),
            mappings=_IB_COLLECTOR,
            description="Whether node-exporter's infiniband collector reports this host; 'no InfiniBand' explains "
            "an empty port table." + not_scraped,
            width=4,
        ),
        Panel(
            "InfiniBand ports",
            "table",
            _infiniband(q),
            mappings=_IB_STATE,
            description="Port state (4 active; GPUHostInfiniBandPortDown pages when an active port leaves it), "
            "receive rate and errors. Empty when the InfiniBand collector reports nothing (see its panel).",
            width=8,
        ),
    )
    return Row("Host (node-exporter)", panels)


_IB = 'collector="infiniband"'
_PENDING = 'node=""'
_POD_SCOPE = 'namespace=~"$namespace",pod=~"$pod",container!="",container!="POD"'


def allocation_row(q: Q) -> Row | None:
    """L2: GPUs requested vs allocatable, per GPU resource (MIG profiles included), from kube-state-metrics."""
    if not q.c.host.kube_state_metrics:
        return None
    res = f'resource=~"{GPU_RESOURCE_REGEX}"'
    alloc = f"sum by (resource) ({_ksm(q, 'kube_node_status_allocatable', res)})"
    req = f"sum by (resource) ({_ksm(q, 'kube_pod_container_resource_requests', res)})"
    pending = f"sum by (resource) ({_ksm(q, 'kube_pod_container_resource_requests', res, _PENDING)})"
    empty = " Empty: kube-state-metrics is not scraped in this cluster, or it has no GPU resources."
    return Row(
        "Requested vs allocatable (kube-state-metrics)",
        (
            _ts(
                "GPUs requested vs allocatable",
                (
                    Query(alloc, "{{resource}} allocatable"),
                    Query(req, "{{resource}} requested"),
                    Query(pending, "{{resource}} pending"),
                ),
                "short",
                width=16,
                description="kube_node_status_allocatable and kube_pod_container_resource_requests per GPU resource "
                "(nvidia_com_gpu, nvidia_com_mig_*); pending: requests of pods not yet on a node." + empty,
            ),
            Panel(
                "Requested / allocatable",
                "stat",
                (Query(f"{req} / on (resource) {alloc}", "{{resource}}", instant=True),),
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
    keys = "namespace, pod, container"
    cpu = f"sum by ({keys}) (rate({_cadvisor(q, 'container_cpu_usage_seconds_total')}[$__rate_interval]))"
    thr = f"sum by ({keys}) (rate({_cadvisor(q, 'container_cpu_cfs_throttled_periods_total')}[$__rate_interval]))"
    per = f"sum by ({keys}) (rate({_cadvisor(q, 'container_cpu_cfs_periods_total')}[$__rate_interval]))"
    ws = f"max by ({keys}) ({_cadvisor(q, 'container_memory_working_set_bytes')})"
    limit = f"max by ({keys}) ({_cadvisor(q, 'container_spec_memory_limit_bytes')} > 0)"
    legend = "{{namespace}}/{{pod}} {{container}}"
    empty = " Empty: the kubelet's cAdvisor is not scraped, or the pod runs elsewhere."
    return Row(
        "Pod CPU and memory (cAdvisor)",
        (
            _ts("Pod CPU (cores)", (Query(cpu, legend),), "short", description="Cores used per container." + empty),
            _ts(
                "Pod CPU throttled",
                (Query(f"{thr} / {per}", legend),),
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
                (Query(ws, f"{legend} working set"), Query(limit, f"{legend} limit")),
                "bytes",
                description="Working set against the limit (GPUPodMemoryNearLimit)." + empty,
            ),
        ),
    )
