"""Workload scenarios (allocated-but-idle in every attribution mode, stale pushed jobs)."""

from __future__ import annotations

from gpuscope.rules import RulesConfig
from tests.rules.fixtures import H100, change, flat, gpu_labels, self_labels, up, uuid
from tests.rules.harness import Case, Series

SM = "DCGM_FI_PROF_SM_ACTIVE"
LABELS_MODE = RulesConfig(workload_labels="labels", host_label="hostname")
OFF_MODE = RulesConfig(workload_labels="off")
LONG = "1h45m"


def info(gpu: int, pod: str, namespace: str = "ml") -> Series:
    labels = {**self_labels(gpu), "namespace": namespace, "pod": pod, "container": "main"}
    return Series("gpuscope_gpu_workload_info", labels, flat(1, LONG))


def held_by(gpu: int, pod: str, host_label: str = "Hostname", **extra: str) -> dict[str, str]:
    return {
        "instance": "node-a:9400",
        host_label: "node-a",
        "gpu": str(gpu),
        "UUID": uuid("node-a", gpu),
        "namespace": "ml",
        "pod": pod,
        **extra,
    }


ALLOCATED_BUT_IDLE = (
    Case(
        "info mode: a pod holds GPU 0 and stops working; GPU 1 is busy; GPU 2 is idle but free",
        "GPUAllocatedButIdle",
        (
            up(total=LONG),
            Series(SM, gpu_labels(0), change(0.6, 0.01, total=LONG)),
            Series(SM, gpu_labels(1), flat(0.8, LONG)),
            Series(SM, gpu_labels(2), flat(0.0, LONG)),
            info(0, "notebook-7"),
            info(1, "trainer-0"),
        ),
        fires_by="90m",
        expected=(held_by(0, "notebook-7", modelName=H100),),
        quiet_at=("29m45s", "70m"),
    ),
    Case(
        "info mode: two pods time-slice one GPU (::N replicas) and both are reported",
        "GPUAllocatedButIdle",
        (up(total=LONG), Series(SM, gpu_labels(0), flat(0.01, LONG)), info(0, "svc-a-1"), info(0, "svc-b-1")),
        fires_by="60m",
        expected=(held_by(0, "svc-a-1", modelName=H100), held_by(0, "svc-b-1", modelName=H100)),
        start="0m",
    ),
    Case(
        "labels mode: dcgm-exporter pod labels on every series, hostname label",
        "GPUAllocatedButIdle",
        (
            up(total=LONG),
            Series(
                SM,
                gpu_labels(0, host_label="hostname", extra={"container": "c", "namespace": "ml", "pod": "notebook-7"}),
                flat(0.0, LONG),
            ),
            Series(SM, gpu_labels(1, host_label="hostname"), flat(0.0, LONG)),
        ),
        fires_by="60m",
        expected=(held_by(0, "notebook-7", host_label="hostname"),),
        start="0m",
        config=LABELS_MODE,
    ),
    Case(
        "off mode: memory held but nothing running counts as allocated",
        "GPUAllocatedButIdle",
        (
            up(total=LONG),
            Series(SM, gpu_labels(0), flat(0.0, LONG)),
            Series("DCGM_FI_DEV_FB_USED", gpu_labels(0), flat(40000, LONG)),
            Series("DCGM_FI_DEV_FB_FREE", gpu_labels(0), flat(40000, LONG)),
            Series(SM, gpu_labels(1), flat(0.0, LONG)),
            Series("DCGM_FI_DEV_FB_USED", gpu_labels(1), flat(0, LONG)),
            Series("DCGM_FI_DEV_FB_FREE", gpu_labels(1), flat(80000, LONG)),
        ),
        fires_by="60m",
        expected=({"instance": "node-a:9400", "Hostname": "node-a", "gpu": "0", "UUID": uuid("node-a", 0)},),
        start="0m",
        config=OFF_MODE,
    ),
    Case(
        "near miss: an allocated GPU that is quiet for 30 minutes, then works again",
        "GPUAllocatedButIdle",
        (up(total=LONG), Series(SM, gpu_labels(0), "0.7x119 0.01x120 0.7x180"), info(0, "trainer-0")),
        quiet_at=("62m", "70m"),
    ),
)

JOB = {"job": "train-llm", "job_id": "slurm-4242", "instance": "node-a"}

JOB_STALE = (
    Case(
        "a job stops pushing without finishing (killed, hung)",
        "PushgatewayJobStale",
        (Series("push_time_seconds", JOB, "0+15x119 1785x120"),),
        fires_by="41m",
        expected=(JOB,),
        quiet_at=("35m",),
    ),
    Case(
        "near miss: a job that keeps pushing",
        "PushgatewayJobStale",
        (Series("push_time_seconds", JOB, "0+15x240"),),
        quiet_at=("41m", "59m"),
    ),
)

CASES = ALLOCATED_BUT_IDLE + JOB_STALE
