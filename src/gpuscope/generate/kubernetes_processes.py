"""What ``exporter.process_metrics`` adds to the exporter DaemonSet, and only then.

Per-process attribution reads ``/proc/<pid>/cgroup`` of the GPU's processes, whose PIDs NVML reports in the host's
PID namespace: the pod needs ``hostPID: true`` to see them (it then sees every process of the node, which is why
it is off unless asked for). The kubelet's pod log directory, read-only, names live pods by UID.
"""

from __future__ import annotations

from typing import Any

from gpuscope.generate.kubernetes_rbac import per_pod_split
from gpuscope.spec.fleet import FleetSpec

POD_LOG_DIR = "/var/log/pods"


def process_env(spec: FleetSpec) -> list[dict[str, Any]]:
    if not spec.exporter.process_metrics:
        return []
    return [
        {"name": "GPUSCOPE_PROCESS_METRICS", "value": "true"},
        {"name": "GPUSCOPE_POD_LOG_DIR", "value": POD_LOG_DIR},
    ]


def process_mounts(spec: FleetSpec) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(volume mounts, volumes)."""
    if not spec.exporter.process_metrics:
        return [], []
    return (
        [{"name": "pod-logs", "mountPath": POD_LOG_DIR, "readOnly": True}],
        [{"name": "pod-logs", "hostPath": {"path": POD_LOG_DIR, "type": "Directory"}}],
    )


def host_pid(spec: FleetSpec) -> dict[str, Any]:
    """The pod spec key that lets the exporter see the host's processes."""
    # The per-pod split of shared GPUs reads the processes' cgroups too (dcgm-exporter's needs hostPID as well).
    return {"hostPID": True} if spec.exporter.process_metrics or per_pod_split(spec) else {}
