"""Workload scenarios (allocated-but-idle in every attribution mode, stale pushed jobs)."""

from __future__ import annotations

from gpuscope.rules import RulesConfig, Thresholds
from tests.rules.fixtures import (
    H100,
    change,
    change_missed,
    flat,
    flat_missed,
    gpu_labels,
    missed_up,
    self_labels,
    up,
    uuid,
)
from tests.support.promtool import Case, Series

SM = "DCGM_FI_PROF_SM_ACTIVE"
LABELS_MODE = RulesConfig(workload_labels="labels", host_label="hostname")
OFF_MODE = RulesConfig(workload_labels="off")
LONG = "1h45m"


def info(gpu: int, pod: str, namespace: str = "ml") -> Series:
    labels = {**self_labels(gpu), "namespace": namespace, "pod": pod, "container": "main"}
    return Series("gpuscope_gpu_workload_info", labels, flat(1, LONG))


def held_by(gpu: int, pod: str, host_label: str = "Hostname", **extra: str) -> dict[str, str]:
    """The alert's labels: the GPU's identity and model, not the scrape instance (a replaced exporter pod holds
    the same GPU), and the pod."""
    return {
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
        "info mode: a failed scrape an hour in (every series stale, up 0) does not start the 50 minutes over",
        "GPUAllocatedButIdle",
        (
            missed_up(at="60m", total=LONG),
            Series(SM, gpu_labels(0), change_missed(0.6, 0.01, at="60m", total=LONG)),
            Series("gpuscope_gpu_workload_info", info(0, "notebook-7").labels, flat_missed(1, at="60m", total=LONG)),
        ),
        fires_by="90m",
        expected=(held_by(0, "notebook-7", modelName=H100),),
        quiet_at=("70m",),
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
            # every series: the holder is read from the temperature gauge, which every GPU has
            *(
                Series(
                    name,
                    gpu_labels(
                        0, host_label="hostname", extra={"container": "c", "namespace": "ml", "pod": "notebook-7"}
                    ),
                    flat(value, LONG),
                )
                for name, value in ((SM, 0.0), ("DCGM_FI_DEV_GPU_TEMP", 40))
            ),
            Series(SM, gpu_labels(1, host_label="hostname"), flat(0.0, LONG)),
            Series("DCGM_FI_DEV_GPU_TEMP", gpu_labels(1, host_label="hostname"), flat(40, LONG)),
        ),
        fires_by="60m",
        expected=(held_by(0, "notebook-7", host_label="hostname", modelName=H100),),
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
        expected=({"Hostname": "node-a", "gpu": "0", "UUID": uuid("node-a", 0), "modelName": H100},),
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
STEPS_THEN_KILLED = "0+10x119 1190x120"  # the gateway keeps serving the last value after the job dies
PUSHING_UNTIL_30M = "0+15x119 1785x120"  # push_time_seconds: a push every 15 s, the last one at 29m45s


def from_30m(value: float) -> str:
    return f"_x120 {value:g}x120"


JOB_STALE = (
    Case(
        "a job stops pushing without finishing (killed, hung)",
        "PushgatewayJobStale",
        (
            Series("push_time_seconds", JOB, PUSHING_UNTIL_30M),
            Series("gpuscope_job_steps_total", JOB, STEPS_THEN_KILLED),
        ),
        fires_by="41m",
        expected=(JOB,),
        quiet_at=("35m",),
    ),
    Case(
        "a job killed before its first step (steps_total still 0) is caught too; a shorter job_stale_after",
        "PushgatewayJobStale",
        (Series("push_time_seconds", JOB, PUSHING_UNTIL_30M), Series("gpuscope_job_steps_total", JOB, "0x240")),
        fires_by="33m45s",
        expected=(JOB,),
        quiet_at=("31m",),
        config=RulesConfig(thresholds=Thresholds(job_stale_after="2m")),
    ),
    Case(
        "near miss: a job that keeps pushing",
        "PushgatewayJobStale",
        (Series("push_time_seconds", JOB, "0+15x240"), Series("gpuscope_job_steps_total", JOB, "0+10x240")),
        quiet_at=("41m", "59m"),
    ),
    Case(
        "near miss: a finished job keeps its group (end time, exit code) until gc, and stops pushing",
        "PushgatewayJobStale",
        (
            Series("push_time_seconds", JOB, PUSHING_UNTIL_30M),
            Series("gpuscope_job_steps_total", JOB, STEPS_THEN_KILLED),
            Series("gpuscope_job_end_time_seconds", JOB, from_30m(1785)),
            Series("gpuscope_job_exit_code", JOB, from_30m(0)),
        ),
        quiet_at=("41m", "59m"),
    ),
    Case(
        "near miss: a finished job that deleted its group (no series left)",
        "PushgatewayJobStale",
        (
            Series("push_time_seconds", JOB, "0+15x119 stale"),
            Series("gpuscope_job_steps_total", JOB, "0+10x119 stale"),
        ),
        quiet_at=("41m", "59m"),
    ),
    Case(
        "near miss: a job reported only from a Slurm prolog (no steps) is not expected to push again",
        "PushgatewayJobStale",
        (
            Series("push_time_seconds", JOB, "0x240"),
            Series("gpuscope_job_info", {**JOB, "UUID": uuid("node-a", 0)}, "1x240"),
        ),
        quiet_at=("41m", "59m"),
    ),
)

CASES = ALLOCATED_BUT_IDLE + JOB_STALE
