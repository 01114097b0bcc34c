"""Host alerts over node-exporter, on GPU nodes only (CPU, iowait, memory, filesystems, InfiniBand, network), and
the host-signal groups: these plus the kube-state-metrics and cAdvisor ones (``rules/alerts_kube.py``).

Joins are by the host label: the generated scrape configs give node-exporter series the GPU series' host label
(file_sd target labels, or relabeling from the Kubernetes node name). Series names and labels:
``gpuscope.fields.companion`` (and ``docs/host-signals.md``).
"""

from __future__ import annotations

from gpuscope.rules.alerts_kube import kube_alerts, kube_recordings
from gpuscope.rules.promql import Promql, alternatives
from gpuscope.rules.records import MINUTE_INTERVAL, Alert, Group, Recording, Runbook

_HOST_TMPL = "{{{{ $labels.{} }}}}"
HOST_RULES, HOST_ALERTS, HOST_MINUTE_ALERTS = "gpuscope-host.rules", "gpuscope-host.alerts", "gpuscope-host-1m.alerts"
# Groups that exist only where host signals are scraped and their alerts are on (``host_signals:``).
HOST_GROUPS = (HOST_RULES, HOST_ALERTS, HOST_MINUTE_ALERTS)


def _host(q: Promql) -> str:
    return _HOST_TMPL.format(q.config.host_label)


def _ne(q: Promql, metric: str, extra: str = "") -> str:
    matchers = ",".join(m for m in (q.config.host.node_exporter_selector, extra) if m)
    return f"{metric}{{{matchers}}}"


def gpu_hosts(q: Promql) -> str:
    """One series per host that has GPUs (the GPU exporter reported within the last 10 minutes)."""
    h = q.config.host_label
    return f"group by ({h}) (last_over_time({q.dcgm('DCGM_FI_DEV_GPU_TEMP')}[10m]))"


# ``gpu_hosts`` recorded once a minute, first in the host tickets' group: six tickets and the InfiniBand page
# read one series per host instead of each re-reading every GPU's temperature over 10 minutes. A minute's lag
# is nothing against the 10-minute look-back.
GPU_HOSTS = "host:gpu_reporting:present10m"


def on_gpu_hosts(q: Promql, expr: str) -> str:
    return f"({expr})\nand on ({q.config.host_label}) {GPU_HOSTS}"


def host_recordings(q: Promql) -> Group:
    """Node-exporter and kube-state-metrics aggregates per host, once a minute: only tickets that wait minutes
    read them, and ``node_cpu_seconds_total`` is one series per CPU and mode (tens of thousands per hundred
    nodes), too many to re-read every 15 s."""
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
    rules += kube_recordings(q)
    return Group(name=HOST_RULES, rules=tuple(rules), interval=MINUTE_INTERVAL)


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


def host_group(q: Promql) -> Group:
    """The host page, every evaluation: an InfiniBand port that was up went down."""
    hs = q.config.host
    rules = [infiniband_port_down(q)] if hs.node_exporter and hs.node_exporter_alerts else []
    return Group(name=HOST_ALERTS, rules=tuple(rules), file="alerts")


def host_minute_group(q: Promql) -> Group:
    """The host and Kubernetes tickets, once a minute: each waits minutes (``for``) within a bound that leaves a
    minute to spare. The GPU-node guard they and the InfiniBand page join on is recorded here, above them (rules of
    a group run in order, so they read this evaluation's value)."""
    hs = q.config.host
    rules: list[Recording | Alert] = []
    if hs.node_exporter and hs.node_exporter_alerts:
        rules += [
            Recording(record=GPU_HOSTS, expr=gpu_hosts(q)),
            cpu_saturated(q),
            iowait_high(q),
            memory_pressure(q),
            filesystem_full(q),
            infiniband_errors(q),
            network_errors(q),
        ]
    rules += kube_alerts(q)
    return Group(name=HOST_MINUTE_ALERTS, rules=tuple(rules), interval=MINUTE_INTERVAL, file="alerts")
