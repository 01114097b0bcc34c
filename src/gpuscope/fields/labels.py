"""The label names dcgm-exporter gives workload attribution on GPU series, shared by the exporter that writes them
and the rules and dashboards that read them (pure data)."""

from __future__ import annotations

POD_LABELS = ("container", "namespace", "pod")
POD_LABELS_OLD = ("container_name", "pod_namespace", "pod_name")  # -o/--use-old-namespace (dcgm-exporter 1.x)
JOB_LABEL = "hpc_job"  # the Slurm job the job-mapping directory names (--hpc-job-mapping-dir)
POD_UID_LABEL = "pod_uid"
VGPU_LABEL = "vgpu"
