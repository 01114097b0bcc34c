"""Alerts over kube-state-metrics and cAdvisor: GPUs requested vs allocatable per node and cluster (MIG resources
included), the CPU and memory of the pods holding GPUs (joined to the GPU through the workload attribution), and
the GPU exporter's own container restarts as a source of ``GPUExporterRestarted``.

kube-state-metrics' ``node`` label is copied into the host label with ``label_replace``, so these rules also work
where another stack scrapes it. Series names and labels: ``gpuscope.fields.companion`` (``docs/host-signals.md``).
"""

from __future__ import annotations

from gpuscope.fields.companion import GPU_RESOURCE, GPU_RESOURCE_REGEX
from gpuscope.rules.promql import Promql
from gpuscope.rules.records import Alert, Recording, Runbook

_HOST_TMPL = "{{{{ $labels.{} }}}}"
_SCHEDULED = 'node!=""'
_MIG = 'GPU_I_ID!=""'


def _host(q: Promql) -> str:
    return _HOST_TMPL.format(q.config.host_label)


def _ksm(q: Promql, metric: str, extra: str = "") -> str:
    matchers = ",".join(m for m in (q.config.host.kube_state_metrics_selector, extra) if m)
    return f"{metric}{{{matchers}}}"


def _cadvisor(q: Promql, metric: str, extra: str = "") -> str:
    matchers = ",".join(m for m in (q.config.host.cadvisor_selector, 'container!=""', 'container!="POD"', extra) if m)
    return f"{metric}{{{matchers}}}"


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


def kube_recordings(q: Promql) -> list[Recording]:
    h = q.config.host_label
    rules: list[Recording] = []
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
    return rules


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


def kube_alerts(q: Promql) -> list[Alert]:
    hs = q.config.host
    rules: list[Alert] = []
    if hs.kube_state_metrics:
        rules += [allocatable_short(q), requests_near_allocatable(q)]
    if hs.cadvisor and (q.config.workload_labels != "off" or hs.kube_state_metrics):
        rules += [pod_cpu_throttled(q), pod_memory_near_limit(q)]
    return rules
