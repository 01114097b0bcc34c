"""Shared-GPU alerts (owner: platform): GPU memory held by processes that belong to no live pod (zombies).

Read from ``--process-metrics``: the exporter sums, per GPU, the memory of processes it could not attribute to a
live container, job or command (``gpuscope_gpu_unattributed_memory_used_bytes``). A process that exits between
NVML's list and ``/proc`` is unattributed for one collection; ``for`` outlasts that. What stays is memory nobody
will free: a process that outlived its pod (stuck in the driver, or escaped its container's cgroup), blocking the
next pod scheduled on the GPU, which then shows as "allocated but idle" or fails with out-of-memory.
"""

from __future__ import annotations

from gpuscope.rules.promql import Promql
from gpuscope.rules.records import MINUTE_INTERVAL, Alert, Group, Runbook

UNATTRIBUTED_MEMORY = "gpuscope_gpu_unattributed_memory_used_bytes"
UNATTRIBUTED_TOTAL = "gpuscope_exporter_process_unattributed_total"
_MIB = 1 << 20


def memory_held_by_no_pod(q: Promql) -> Alert:
    c = q.config
    t = c.thresholds
    held = q.exporter(UNATTRIBUTED_MEMORY)
    floor = t.unattributed_memory_mib * _MIB
    return Alert(
        name="GPUMemoryHeldByNoPod",
        # The newest sample within the last minute: one failed scrape must not start the 10 minutes of ``for`` over.
        expr=f"max by ({q.gpu_id}) (last_over_time({held}[1m])) > {floor}",
        severity="ticket",
        owner="platform",
        summary="GPU memory is held by processes that belong to no live pod.",
        description=f"{{{{ $value | humanize1024 }}}}B of GPU {{{{ $labels.gpu }}}} on "
        f"{{{{ $labels.{c.host_label} }}}} has been held for {t.unattributed_for} by processes no live container, "
        "job or command owns.",
        runbook=Runbook(
            meaning="The exporter lists the GPU's processes (NVML) and finds each one's owner from its cgroup "
            "(/proc/<pid>/cgroup: pod UID and container, Slurm job, or the command). Memory counted here belongs to "
            "processes whose pod is gone (the pod UID in their cgroup names no live pod: a zombie), whose cgroup "
            "has an unknown shape, or that the exporter cannot see at all (no hostPID). A zombie's memory is not "
            "freed until the process dies, so the next pod on this GPU runs out of memory or waits.",
            confirm=(
                f"{held} > 0",
                f"increase({q.exporter(UNATTRIBUTED_TOTAL)}[15m])",
                "nvidia-smi --query-compute-apps=pid,used_memory --format=csv  # on the node",
            ),
            actions=(
                "Read the reason counter: pod_gone is a zombie; pid_not_visible on every process means the exporter "
                "runs without hostPID (set exporter.process_metrics in the fleet spec, which adds it); "
                "unknown_cgroup means a runtime path gpuscope does not parse yet (report it).",
                "For a zombie: find the PID with nvidia-smi on the node, check `cat /proc/<pid>/cgroup` and its state "
                "(`ps -o pid,stat,etime,cmd -p <pid>`); kill it. A process in state D is stuck in the driver: drain "
                "the node and reset the GPU (nvidia-smi -r) or reboot.",
                "Cordon the node until the memory is free, so no new pod lands on the GPU and fails.",
            ),
        ),
        bound="12m",
        for_=t.unattributed_for,
    )


def processes_group(q: Promql) -> Group:
    """Once a minute: the alert waits 10 minutes within 12 and reads every GPU's unattributed-memory gauge."""
    return Group(
        name="gpuscope-processes.alerts",
        rules=(memory_held_by_no_pod(q),),
        interval=MINUTE_INTERVAL,
        file="alerts",
    )
