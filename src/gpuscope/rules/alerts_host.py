"""Alerts over the exporters beside the GPU exporter, on GPU nodes only: the host (node-exporter: CPU, iowait,
memory, filesystems, InfiniBand, network), Kubernetes capacity (kube-state-metrics: GPUs requested vs allocatable,
MIG resources included) and the CPU and memory of the pods holding GPUs (cAdvisor, joined to the GPU through the
workload attribution).

Joins are by the host label: the generated scrape configs give node-exporter and cAdvisor series the GPU series'
host label (file_sd target labels, or relabeling from the Kubernetes node name), and kube-state-metrics' ``node``
label is copied into it here with ``label_replace``, so the rules also work where another stack scrapes it.
Series names and labels: ``gpuscope.fields.companion`` (and ``docs/host-signals.md``).
"""

from __future__ import annotations

from gpuscope.fields.companion import GPU_RESOURCE, GPU_RESOURCE_REGEX
from gpuscope.rules.model import Alert, Group, Recording, Runbook
from gpuscope.rules.promql import Promql, alternatives

_HOST_TMPL = "{{{{ $labels.{} }}}}"
_SCHEDULED = 'node!=""'
_MIG = 'GPU_I_ID!=""'


def _host(q: Promql) -> str:
    return _HOST_TMPL.format(q.config.host_label)


def _ne(q: Promql, metric: str, extra: str = "") -> str:
    matchers = ",".join(m for m in (q.config.host.node_exporter_selector, extra) if m)
    return f"{metric}{{{matchers}}}"


def _ksm(q: Promql, metric: str, extra: str = "") -> str:
    matchers = ",".join(m for m in (q.config.host.kube_state_metrics_selector, extra) if m)
    return f"{metric}{{{matchers}}}"


def _cadvisor(q: Promql, metric: str, extra: str = "") -> str:
    matchers = ",".join(m for m in (q.config.host.cadvisor_selector, 'container!=""', 'container!="POD"', extra) if m)
    return f"{metric}{{{matchers}}}"


def gpu_hosts(q: Promql) -> str:
    """One series per host that has GPUs (the GPU exporter reported within the last 10 minutes)."""
    h = q.config.host_label
    return f"group by ({h}) (last_over_time({q.dcgm('DCGM_FI_DEV_GPU_TEMP')}[10m]))"


def on_gpu_hosts(q: Promql, expr: str) -> str:
    return f"({expr})\nand on ({q.config.host_label}) {gpu_hosts(q)}"


def ksm_by_host(q: Promql, expr: str) -> str:
    """A kube-state-metrics expression with its ``node`` label copied into the host label."""
    return f'label_replace({expr}, "{q.config.host_label}", "$1", "node", "(.+)")'


def gpu_pods(q: Promql) -> str:
    """``namespace, pod`` of every pod holding a GPU, from the workload attribution the exporter runs in."""
    c = q.config
    if c.workload_labels == "info":
        src = f"{q.exporter('gpuscope_gpu_workload_info')}"
    elif c.workload_labels == "labels":
        src = q.dcgm("DCGM_FI_DEV_GPU_TEMP", f'{c.pod_label}!=""')
    else:  # no attribution in the GPU series: the pods kube-state-metrics says requested a GPU resource
        return f"group by (namespace, pod) ({_ksm(q, 'kube_pod_container_resource_requests', _gpu_resources())} > 0)"
    grouped = f"group by ({c.namespace_label}, {c.pod_label}) ({src})"
    if (c.namespace_label, c.pod_label) != ("namespace", "pod"):  # cAdvisor names them namespace and pod
        grouped = f'label_replace({grouped}, "namespace", "$1", "{c.namespace_label}", "(.*)")'
        grouped = f'group by (namespace, pod) (label_replace({grouped}, "pod", "$1", "{c.pod_label}", "(.*)"))'
    return grouped


def _gpu_resources() -> str:
    return f'resource=~"{GPU_RESOURCE_REGEX}"'


def kube_restarts(q: Promql, window: str) -> str:
    """GPU exporters whose container kube-state-metrics saw restart within ``window``, labelled like
    ``GPUExporterRestarted`` (``instance, job`` of the exporter on that node), so ``or`` with the exporter's own
    restart signals gives one alert per restart however many signals saw it."""
    c, h = q.config, q.config.host_label
    counter = _ksm(q, "kube_pod_container_status_restarts_total", c.host.exporter_container_selector)
    restarted = f"max by (namespace, pod) (increase({counter}[{window}]) > 0)"
    pod_node = f"max by (namespace, pod, node) ({_ksm(q, 'kube_pod_info', _SCHEDULED)})"
    on_node = ksm_by_host(q, f"{restarted}\n  * on (namespace, pod) group_left (node) {pod_node}")
    exporters = f"group by (instance, job, {h}) (last_over_time({q.dcgm('DCGM_FI_DEV_GPU_TEMP')}[{window}]))"
    return f"max by (instance, job) (\n  {exporters}\n  * on ({h}) group_left ()\n  max by ({h}) ({on_node})\n)"


def with_kube_restarts(q: Promql, expr: str, window: str) -> str:
    """``GPUExporterRestarted``'s expression, with kube-state-metrics' restart count as one more source."""
    if not q.config.host.kube_state_metrics:
        return expr
    return f"{expr}\nor\n({kube_restarts(q, window)})"


def host_recordings(q: Promql) -> Group:
    h = q.config.host_label
    rules: list[Recording] = []
    if q.config.host.node_exporter:
        idle = _ne(q, "node_cpu_seconds_total", 'mode="idle"')
        iowait = _ne(q, "node_cpu_seconds_total", 'mode="iowait"')
        rules += [
            Recording(
                record="host:cpu_busy:ratio5m",
                expr=f"1 - avg by ({h}) (rate({idle}[5m]))",
            ),
            Recording(
                record="host:cpu_iowait:ratio5m",
                expr=f"avg by ({h}) (rate({iowait}[5m]))",
            ),
            Recording(
                record="host:memory_available:ratio",
                expr=f"max by ({h}) ({_ne(q, 'node_memory_MemAvailable_bytes')})\n"
                f"/ on ({h}) max by ({h}) ({_ne(q, 'node_memory_MemTotal_bytes')})",
            ),
        ]
    if q.config.host.kube_state_metrics:
        alloc = _ksm(q, "kube_node_status_allocatable", _gpu_resources())
        req = _ksm(q, "kube_pod_container_resource_requests", _gpu_resources())
        scheduled = _ksm(q, "kube_pod_container_resource_requests", f"{_gpu_resources()},{_SCHEDULED}")
        rules += [
            Recording(
                record="host:gpus_allocatable:sum",
                expr=f"sum by ({h}, resource) ({ksm_by_host(q, alloc)})",
            ),
            Recording(
                # scheduled pods only (node set); pending pods count in the cluster figure
                record="host:gpus_requested:sum",
                expr=f"sum by ({h}, resource) ({ksm_by_host(q, scheduled)})",
            ),
            Recording(record="cluster:gpus_allocatable:sum", expr=f"sum by (resource) ({alloc})"),
            Recording(record="cluster:gpus_requested:sum", expr=f"sum by (resource) ({req})"),
        ]
    return Group(name="gpuscope-host.rules", rules=tuple(rules))


def cpu_saturated(q: Promql) -> Alert:
    t = q.config.host.thresholds
    return Alert(
        name="GPUHostCPUSaturated",
        expr=on_gpu_hosts(q, f"host:cpu_busy:ratio5m > {t.cpu_busy_ratio:g}"),
        severity="ticket",
        owner="workload",
        summary="The CPUs of a GPU node are saturated.",
        description=f"{_host(q)} has been over {t.cpu_busy_ratio:.0%} CPU busy for {t.for_}: its GPUs may be waiting "
        "on the host (data loading, preprocessing).",
        runbook=Runbook(
            meaning="Every core of a GPU node is busy. Data loaders, decompression or CPU-side augmentation cannot "
            "keep up, so the GPUs stall and look idle with nothing on the GPU dashboards to explain it.",
            confirm=(
                "host:cpu_busy:ratio5m",
                "topk(5, sum by (namespace, pod) (rate(container_cpu_usage_seconds_total[5m])))",
            ),
            actions=(
                "Find the busiest pods on the node (L3 host row, L5 pod CPU) and their CPU requests/limits.",
                "Raise data-loader workers only if cores are free; otherwise move preprocessing off the GPU node.",
            ),
        ),
        bound="20m",
        for_=t.for_,
    )


def iowait_high(q: Promql) -> Alert:
    t = q.config.host.thresholds
    return Alert(
        name="GPUHostIOWaitHigh",
        expr=on_gpu_hosts(q, f"host:cpu_iowait:ratio5m > {t.iowait_ratio:g}"),
        severity="ticket",
        owner="infra",
        summary="A GPU node's CPUs spend a large share of time waiting for I/O.",
        description=f"{_host(q)} has spent over {t.iowait_ratio:.0%} of CPU time in iowait for {t.for_}.",
        runbook=Runbook(
            meaning="Reads of training data or writes of checkpoints are slow (local disk saturated, network "
            "filesystem degraded), so the job's input pipeline and its GPUs wait.",
            confirm=("host:cpu_iowait:ratio5m", "rate(node_disk_io_time_seconds_total[5m])"),
            actions=(
                "Check the storage the node reads from: local NVMe health, NFS/Lustre/GPFS server load.",
                "Stagger checkpoint writes of many jobs; cache datasets on local disk.",
            ),
        ),
        bound="20m",
        for_=t.for_,
    )


def memory_pressure(q: Promql) -> Alert:
    t = q.config.host.thresholds
    h = q.config.host_label
    stalled = _ne(q, "node_pressure_memory_stalled_seconds_total")
    expr = alternatives(
        f"host:memory_available:ratio < {t.memory_available_ratio:g}",
        f"max by ({h}) (rate({stalled}[5m])) > {t.memory_stall_ratio:g}",
    )
    return Alert(
        name="GPUHostMemoryPressure",
        expr=on_gpu_hosts(q, expr),
        severity="ticket",
        owner="workload",
        summary="A GPU node is short of memory.",
        description=f"{_host(q)} has under {t.memory_available_ratio:.0%} memory available, or its tasks stall on "
        f"memory over {t.memory_stall_ratio:.0%} of the time.",
        runbook=Runbook(
            meaning="The host is close to the OOM killer: pinned-memory buffers, data-loader workers and page "
            "cache compete. A job killed here shows up as an idle GPU and a restarted pod.",
            confirm=(
                "host:memory_available:ratio",
                "rate(node_pressure_memory_stalled_seconds_total[5m])",
                "increase(node_vmstat_oom_kill[1h])",
            ),
            actions=(
                "Find the pods with the largest working set on the node (L5 pod memory).",
                "Lower data-loader workers or prefetch depth; set memory requests that match use.",
            ),
        ),
        bound="7m",
        for_="5m",
    )


def filesystem_full(q: Promql) -> Alert:
    hs = q.config.host
    h = q.config.host_label
    sel = f'mountpoint=~"{hs.filesystem_mountpoints}",fstype!~"tmpfs|ramfs|squashfs|overlay"'
    avail, size = _ne(q, "node_filesystem_avail_bytes", sel), _ne(q, "node_filesystem_size_bytes", sel)
    ro = _ne(q, "node_filesystem_readonly", sel)
    keys = f"{h}, device, mountpoint"
    expr = (
        f"max by ({keys}) ({avail}) / max by ({keys}) ({size}) < {hs.thresholds.filesystem_free_ratio:g}\n"
        f"unless on ({keys}) max by ({keys}) ({ro}) == 1"
    )
    return Alert(
        name="GPUHostFilesystemFull",
        expr=on_gpu_hosts(q, expr),
        severity="ticket",
        owner="infra",
        summary="A filesystem that training uses on a GPU node is almost full.",
        description=f"{{{{ $labels.mountpoint }}}} on {_host(q)} has under "
        f"{hs.thresholds.filesystem_free_ratio:.0%} free.",
        runbook=Runbook(
            meaning="Checkpoints, dataset caches or container images fill the disk; the next checkpoint write "
            "fails and the job dies or hangs, its GPUs idle.",
            confirm=("node_filesystem_avail_bytes / node_filesystem_size_bytes",),
            actions=(
                "Remove old checkpoints and caches; `crictl rmi --prune` for unused images.",
                "Move checkpoints to shared storage; size local scratch for the largest job.",
            ),
        ),
        bound="7m",
        for_="5m",
    )


def infiniband_port_down(q: Promql) -> Alert:
    h = q.config.host_label
    state = _ne(q, "node_infiniband_state_id")
    keys = f"{h}, device, port"
    # Only ports that were active within the hour: an unused, never-cabled port is not an outage.
    expr = f"max by ({keys}) ({state}) < 4\nand on ({keys}) max by ({keys}) (max_over_time({state}[1h])) >= 4"
    return Alert(
        name="GPUHostInfiniBandPortDown",
        expr=on_gpu_hosts(q, expr),
        severity="page",
        owner="infra",
        summary="An InfiniBand port of a GPU node went down.",
        description=f"InfiniBand port {{{{ $labels.device }}}}/{{{{ $labels.port }}}} on {_host(q)} left the "
        "Active state.",
        runbook=Runbook(
            meaning="A compute-fabric rail of the node is down (cable, transceiver, switch port, HCA). Multi-node "
            "NCCL jobs on the node hang or crawl on the remaining rails.",
            confirm=("node_infiniband_state_id < 4", "node_infiniband_physical_state_id"),
            actions=(
                "`ibstat` / `ibstatus` on the node; check the switch port and the cable.",
                "Drain the node from multi-node scheduling until the port is Active (state 4) again.",
            ),
        ),
        bound="3m",
        for_="2m",
    )


def infiniband_errors(q: Promql) -> Alert:
    h = q.config.host_label
    n = q.config.host.thresholds.ib_errors_per_10m
    keys = f"{h}, device, port"
    expr = alternatives(
        f"max by ({keys}) (increase({_ne(q, 'node_infiniband_link_downed_total')}[10m])) > 0",
        f"max by ({keys}) (increase({_ne(q, 'node_infiniband_port_errors_received_total')}[10m])) > {n}",
    )
    return Alert(
        name="GPUHostInfiniBandErrors",
        expr=on_gpu_hosts(q, expr),
        severity="ticket",
        owner="infra",
        summary="An InfiniBand port of a GPU node is flapping or receiving errors.",
        description=f"InfiniBand port {{{{ $labels.device }}}}/{{{{ $labels.port }}}} on {_host(q)} went down and "
        f"recovered, or received over {n} bad packets in 10 minutes.",
        runbook=Runbook(
            meaning="A marginal link: it retrains or corrupts packets, so collective operations slow down or time "
            "out before the port goes down for good.",
            confirm=(
                "increase(node_infiniband_link_downed_total[1h])",
                "increase(node_infiniband_port_errors_received_total[1h])",
            ),
            actions=("Reseat or replace the cable/transceiver; check the switch side's counters (`ibqueryerrors`).",),
        ),
        bound="2m",
    )


def network_errors(q: Promql) -> Alert:
    hs = q.config.host
    h = q.config.host_label
    sel = f'device!~"{hs.network_devices_ignored}"'
    keys = f"{h}, device"
    rx = f"increase({_ne(q, 'node_network_receive_errs_total', sel)}[10m])"
    tx = f"increase({_ne(q, 'node_network_transmit_errs_total', sel)}[10m])"
    return Alert(
        name="GPUHostNetworkErrors",
        expr=on_gpu_hosts(q, f"max by ({keys}) ({rx} + {tx}) > {hs.thresholds.network_errors_per_10m}"),
        severity="ticket",
        owner="infra",
        summary="A network interface of a GPU node is counting errors.",
        description=f"{{{{ $labels.device }}}} on {_host(q)} counted over {hs.thresholds.network_errors_per_10m} "
        "receive/transmit errors in 10 minutes.",
        runbook=Runbook(
            meaning="Frame, CRC or FIFO errors on a NIC: a bad cable or optic, or a duplex/MTU mismatch. Storage and "
            "RoCE traffic retry and slow the job down.",
            confirm=("increase(node_network_receive_errs_total[1h])", "increase(node_network_transmit_errs_total[1h])"),
            actions=("`ethtool -S <device>` on the node; check the switch port; replace the cable or optic.",),
        ),
        bound="2m",
    )


def allocatable_short(q: Promql) -> Alert:
    c, h = q.config, q.config.host_label
    temp = q.dcgm("DCGM_FI_DEV_GPU_TEMP")
    # Nodes without MIG only: with MIG the device plugin advertises instances, not GPUs.
    seen = (
        f"count by ({h}) (count by ({h}, {c.uuid_label}) ({temp}))\n"
        f"unless on ({h}) count by ({h}) ({q.dcgm('DCGM_FI_DEV_GPU_TEMP', _MIG)})"
    )
    alloc = _ksm(q, "kube_node_status_allocatable", f'resource="{GPU_RESOURCE}"')
    return Alert(
        name="GPUNodeAllocatableShort",
        expr=f"({seen})\n> on ({h}) sum by ({h}) ({ksm_by_host(q, alloc)})",
        severity="ticket",
        owner="infra",
        summary="A node offers Kubernetes fewer GPUs than its exporter sees.",
        description=f"{_host(q)} has {{{{ $value }}}} GPUs reporting telemetry but fewer allocatable {GPU_RESOURCE}.",
        runbook=Runbook(
            meaning="The NVIDIA device plugin marked GPUs unhealthy (an XID it watches) or lost them, or is not "
            "running: the GPUs are healthy enough to report telemetry but cannot be scheduled.",
            confirm=(
                f'kube_node_status_allocatable{{resource="{GPU_RESOURCE}"}}',
                "count by (Hostname) (DCGM_FI_DEV_GPU_TEMP)",
            ),
            actions=(
                "`kubectl describe node <node>`: Capacity vs Allocatable of nvidia.com/gpu; the device plugin's logs.",
                "Restart the device plugin pod after an XID has been dealt with; reset or replace a GPU it dropped.",
            ),
        ),
        bound="15m",
        for_="10m",
    )


def requests_near_allocatable(q: Promql) -> Alert:
    t = q.config.host.thresholds
    return Alert(
        name="GPURequestsNearAllocatable",
        expr=f"cluster:gpus_requested:sum / on (resource) cluster:gpus_allocatable:sum > {t.gpu_requests_ratio:g}",
        severity="ticket",
        owner="platform",
        summary="Pods request nearly every allocatable GPU of the cluster.",
        description="Requests for {{ $labels.resource }} are at {{ $value | humanizePercentage }} of what the "
        "cluster's nodes can allocate (pending pods included).",
        runbook=Runbook(
            meaning="GPU capacity is exhausted or about to be: new pods queue. Requests counted here include "
            "pending pods, so the ratio goes above 1 while work waits.",
            confirm=("cluster:gpus_requested:sum", "cluster:gpus_allocatable:sum"),
            actions=(
                "Find idle allocations first (GPUAllocatedButIdle, L2 requested vs allocatable).",
                "Add nodes, or change the MIG layout if small requests wait for whole GPUs.",
            ),
        ),
        bound="35m",
        for_="30m",
    )


def pod_cpu_throttled(q: Promql) -> Alert:
    t = q.config.host.thresholds
    keys = "namespace, pod, container"
    thr = f"sum by ({keys}) (rate({_cadvisor(q, 'container_cpu_cfs_throttled_periods_total')}[5m]))"
    per = f"sum by ({keys}) (rate({_cadvisor(q, 'container_cpu_cfs_periods_total')}[5m]))"
    return Alert(
        name="GPUPodCPUThrottled",
        expr=f"({thr} / {per} > {t.pod_cpu_throttled_ratio:g})\nand on (namespace, pod) {gpu_pods(q)}",
        severity="ticket",
        owner="workload",
        summary="A pod holding a GPU is throttled at its CPU limit.",
        description="{{ $labels.namespace }}/{{ $labels.pod }} ({{ $labels.container }}) is throttled in "
        "{{ $value | humanizePercentage }} of its CPU periods; its GPU waits for it.",
        runbook=Runbook(
            meaning="The container hits its CPU limit (CFS quota): data loading and kernel launches are delayed, "
            "and the GPU shows low activity though the pod is busy.",
            confirm=(
                "rate(container_cpu_cfs_throttled_periods_total[5m]) / rate(container_cpu_cfs_periods_total[5m])",
            ),
            actions=("Raise the pod's CPU limit (or drop it and keep the request), or reduce loader workers.",),
        ),
        bound="20m",
        for_=t.for_,
    )


def pod_memory_near_limit(q: Promql) -> Alert:
    t = q.config.host.thresholds
    keys = "namespace, pod, container"
    ws = f"max by ({keys}) ({_cadvisor(q, 'container_memory_working_set_bytes')})"
    limit = f"max by ({keys}) ({_cadvisor(q, 'container_spec_memory_limit_bytes')} > 0)"
    return Alert(
        name="GPUPodMemoryNearLimit",
        expr=f"({ws} / {limit} > {t.pod_memory_limit_ratio:g})\nand on (namespace, pod) {gpu_pods(q)}",
        severity="ticket",
        owner="workload",
        summary="A pod holding a GPU is close to its memory limit.",
        description="{{ $labels.namespace }}/{{ $labels.pod }} ({{ $labels.container }}) uses "
        "{{ $value | humanizePercentage }} of its memory limit; the OOM killer is next.",
        runbook=Runbook(
            meaning="The container's working set approaches its cgroup limit: when it reaches it the job is "
            "OOM-killed, the GPU drops to idle and the pod restarts.",
            confirm=("container_memory_working_set_bytes / container_spec_memory_limit_bytes",),
            actions=("Raise the memory limit, or lower host-side buffers (prefetch, pinned memory, workers).",),
        ),
        bound="12m",
        for_="10m",
    )


def host_group(q: Promql) -> Group:
    hs = q.config.host
    rules: list[Alert] = []
    if hs.node_exporter and hs.node_exporter_alerts:
        rules += [
            cpu_saturated(q),
            iowait_high(q),
            memory_pressure(q),
            filesystem_full(q),
            infiniband_port_down(q),
            infiniband_errors(q),
            network_errors(q),
        ]
    if hs.kube_state_metrics:
        rules += [allocatable_short(q), requests_near_allocatable(q)]
    if hs.cadvisor and (q.config.workload_labels != "off" or hs.kube_state_metrics):
        rules += [pod_cpu_throttled(q), pod_memory_near_limit(q)]
    return Group(name="gpuscope-host.alerts", rules=tuple(rules), file="alerts")
