"""Recorded values: units, fallbacks, aggregation levels, the allocation join, rollups and the fleet level."""

from __future__ import annotations

from gpuscope.rules import RulesConfig
from tests.rules.fixtures import H100, flat, from_, gpu_labels, self_labels, uuid
from tests.support.promtool import ExprCase, Series


def series_text(name: str, labels: dict[str, str]) -> str:
    return name + "{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}"


def keys(labels: dict[str, str], *names: str) -> dict[str, str]:
    return {k: labels[k] for k in names if k in labels}


G0, G1 = gpu_labels(0), gpu_labels(1)
G0_OLD = {("uuid" if k == "UUID" else k): v for k, v in G0.items()}  # dcgm-exporter -o
MIG7, MIG8 = gpu_labels(2, mig=("3g.40gb", 7)), gpu_labels(2, mig=("3g.40gb", 8))


def job_info(job_id: str, user: str, gpu: int | None, **extra: str) -> Series:
    """A pushed info series as Prometheus stores it after scraping the Pushgateway with honor_labels."""
    labels = {"job": "train", "job_id": job_id, "instance": "node-a", "user": user, "Hostname": "node-a"}
    if gpu is not None:
        labels["UUID"] = uuid("node-a", gpu)
    return Series("gpuscope_job_info", {**labels, **extra}, flat(1))


def joined(job_id: str, user: str, gpu: dict[str, str]) -> str:
    # The GPU's identity, not the scrape instance: a replaced exporter pod is the same GPU.
    kept = keys(gpu, "GPU_I_ID", "Hostname", "UUID", "gpu", "modelName", "uuid")
    return series_text("job:gpu_activity:avg5m", {"job_id": job_id, "user": user, **kept})


JOB_EXPRS = (
    ExprCase(
        "job join: per job and GPU; two jobs naming one GPU each get it; MIG instances by GPU_I_ID; finished "
        "jobs no longer claim their GPUs",
        (
            Series("DCGM_FI_PROF_SM_ACTIVE", G0, flat(0.75)),
            Series("DCGM_FI_PROF_SM_ACTIVE", G1, flat(0.5)),
            Series("DCGM_FI_PROF_SM_ACTIVE", MIG7, flat(0.25)),
            Series("DCGM_FI_PROF_SM_ACTIVE", MIG8, flat(0.125)),
            job_info("a", "alice", 0),
            job_info("a", "alice", 1),
            job_info("b", "bob", 1),
            job_info("m", "mia", 2, GPU_I_ID="8"),
            job_info("done", "dan", 0),
            Series("gpuscope_job_end_time_seconds", {"job": "train", "job_id": "done", "instance": "node-a"}, flat(1)),
        ),
        "10m",
        "job:gpu_activity:avg5m",
        (
            (joined("a", "alice", G0), 0.75),
            (joined("a", "alice", G1), 0.5),
            (joined("b", "bob", G1), 0.5),
            (joined("m", "mia", MIG8), 0.125),
        ),
    ),
    ExprCase(
        "job GPU count: distinct GPUs with a UUID; a GPU the job could not resolve (no UUID) is not counted",
        (
            job_info("a", "alice", 0),
            job_info("a", "alice", 1),
            job_info("a", "alice", None, device="3"),
            job_info("b", "bob", 1),
            job_info("m", "mia", 2, GPU_I_ID="7"),
            job_info("m", "mia", 2, GPU_I_ID="8"),
        ),
        "10m",
        "job:gpus:count",
        (('job:gpus:count{job_id="a"}', 2), ('job:gpus:count{job_id="b"}', 1), ('job:gpus:count{job_id="m"}', 2)),
    ),
    ExprCase(
        "job join with dcgm-exporter -o (uuid label): the pushed UUID is matched to uuid",
        (Series("DCGM_FI_PROF_SM_ACTIVE", G0_OLD, flat(0.75)), job_info("a", "alice", 0)),
        "10m",
        "job:gpu_activity:avg5m",
        ((joined("a", "alice", G0_OLD), 0.75),),
        config=RulesConfig(uuid_label="uuid"),
    ),
)

EXPRS = (
    ExprCase(
        "GPU utilization percent becomes a ratio; power and the activity fallback are averaged per GPU",
        (
            Series("DCGM_FI_DEV_GPU_UTIL", G0, flat(50)),
            Series("DCGM_FI_DEV_POWER_USAGE", G0, flat(350.5)),
            Series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", G0, flat(0.25)),
        ),
        "10m",
        "gpu:utilization:ratio_avg5m",
        ((series_text("gpu:utilization:ratio_avg5m", G0), 0.5),),
    ),
    ExprCase(
        "activity prefers SM active, falls back to graphics-engine active, then utilization",
        (
            Series("DCGM_FI_PROF_SM_ACTIVE", G0, flat(0.7)),
            Series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", G0, flat(0.9)),
            Series("DCGM_FI_PROF_GR_ENGINE_ACTIVE", G1, flat(0.4)),
            Series("DCGM_FI_DEV_GPU_UTIL", gpu_labels(2), flat(30)),
        ),
        "10m",
        "gpu:activity:avg5m",
        (
            (series_text("gpu:activity:avg5m", G0), 0.7),
            (series_text("gpu:activity:avg5m", G1), 0.4),
            (series_text("gpu:activity:avg5m", gpu_labels(2)), 0.3),
        ),
    ),
    ExprCase(
        "framebuffer used ratio excludes nothing but what is free",
        (Series("DCGM_FI_DEV_FB_USED", G0, flat(60000)), Series("DCGM_FI_DEV_FB_FREE", G0, flat(20000))),
        "10m",
        "gpu:fb_used:ratio",
        ((series_text("gpu:fb_used:ratio", G0), 0.75),),
    ),
    ExprCase(
        "a MIG GPU counts once per node and per cluster; models are counted",
        (
            *(Series("DCGM_FI_DEV_GPU_TEMP", gpu_labels(0, mig=("1g.10gb", gi)), flat(60)) for gi in (7, 8, 9)),
            Series("DCGM_FI_DEV_GPU_TEMP", G1, flat(60)),
            Series("DCGM_FI_DEV_GPU_TEMP", gpu_labels(0, "node-b", model="NVIDIA A100-SXM4-80GB"), flat(60)),
        ),
        "10m",
        '{__name__=~"node:gpus_reporting:count|cluster:gpus:count_by_model"}',
        (
            ('node:gpus_reporting:count{Hostname="node-a"}', 2),
            ('node:gpus_reporting:count{Hostname="node-b"}', 1),
            (f'cluster:gpus:count_by_model{{modelName="{H100}"}}', 2),
            ('cluster:gpus:count_by_model{modelName="NVIDIA A100-SXM4-80GB"}', 1),
        ),
    ),
    ExprCase(
        "lost GPUs on a stock dcgm-exporter (no gpuscope_exporter_gpu_lost) are counted from GPUFellOffBus itself: "
        "XID 79 on the last-XID gauge, once per GPU although the gauge repeats on both MIG instances",
        (
            Series("up", {"job": "dcgm-exporter", "instance": "node-a:9400"}, flat(1)),
            Series("DCGM_FI_DEV_GPU_TEMP", G1, flat(60)),
            *(Series("DCGM_FI_DEV_GPU_TEMP", m, flat(60)) for m in (MIG7, MIG8)),
            *(
                Series(
                    "DCGM_FI_DEV_XID_ERRORS",
                    {**m, "err_code": "79", "err_msg": "GPU has fallen off the bus"},
                    from_("79", start="5m"),
                )
                for m in (MIG7, MIG8)
            ),
        ),
        "7m",
        "cluster:gpus_lost:count",
        (("cluster:gpus_lost:count", 1),),
    ),
    ExprCase(
        "lost GPUs are counted, and zero is recorded when none is lost",
        (
            Series("DCGM_FI_DEV_GPU_TEMP", G0, flat(60)),
            Series("gpuscope_exporter_gpu_lost", self_labels(0), flat(0)),
        ),
        "10m",
        "cluster:gpus_lost:count",
        (("cluster:gpus_lost:count", 0),),
    ),
    ExprCase(
        "allocation join: pods sharing a GPU split it (two GPUs, two pods each, are two GPUs allocated); "
        "efficiency is the share of allocated GPUs that are active",
        (
            Series("DCGM_FI_DEV_GPU_TEMP", G0, flat(60)),
            Series("DCGM_FI_DEV_GPU_TEMP", G1, flat(60)),
            Series("DCGM_FI_PROF_SM_ACTIVE", G0, flat(0.02)),
            Series("DCGM_FI_PROF_SM_ACTIVE", G1, flat(0.9)),
            Series(
                "gpuscope_gpu_workload_info",
                {**self_labels(0), "namespace": "ml", "pod": "a", "container": "x"},
                flat(1),
            ),
            Series(
                "gpuscope_gpu_workload_info",
                {**self_labels(0), "namespace": "ml", "pod": "b", "container": "x"},
                flat(1),
            ),
            *(
                Series(
                    "gpuscope_gpu_workload_info",
                    {**self_labels(1), "namespace": "ml", "pod": pod, "container": "x"},
                    flat(1),
                )
                for pod in ("c", "d")
            ),
        ),
        "10m",
        '{__name__=~"cluster:gpu_allocation_efficiency:ratio|cluster:gpus_allocated:count"}',
        # One of two GPUs active. Prometheus sums in map order, so only exactly representable ratios
        # compare equal in promtool 2.42 from run to run (1/3 came out as ...33 or ...37).
        (("cluster:gpu_allocation_efficiency:ratio", 0.5), ("cluster:gpus_allocated:count", 2)),
    ),
    ExprCase(
        "Slurm jobs hold GPUs too (the job-mapping directory's gpuscope_gpu_job_info): a GPU a job holds is "
        "allocated, a GPU a job and a pod share is split between them, a GPU nobody holds is not allocated",
        (
            *(Series("DCGM_FI_DEV_GPU_TEMP", gpu_labels(g), flat(60)) for g in (0, 1, 2)),
            Series("DCGM_FI_PROF_SM_ACTIVE", G0, flat(0.9)),
            Series("DCGM_FI_PROF_SM_ACTIVE", G1, flat(0.01)),
            Series("DCGM_FI_PROF_SM_ACTIVE", gpu_labels(2), flat(0.9)),
            Series(
                "gpuscope_gpu_workload_info",
                {**self_labels(0), "namespace": "ml", "pod": "a", "container": "x"},
                flat(1),
            ),
            Series("gpuscope_gpu_job_info", {**self_labels(0), "hpc_job": "43"}, flat(1)),
            Series("gpuscope_gpu_job_info", {**self_labels(1), "hpc_job": "42"}, flat(1)),
        ),
        "10m",
        '{__name__=~"cluster:gpu_allocation_efficiency:ratio|cluster:gpus_allocated:count"}',
        # G0 (active) half to the pod, half to job 43; G1 (idle) to job 42: two GPUs allocated, one active.
        (("cluster:gpu_allocation_efficiency:ratio", 0.5), ("cluster:gpus_allocated:count", 2)),
    ),
    ExprCase(
        "without attribution a GPU whose memory is held (over 5 %) is allocated, and the GPUs memory-held are "
        "the GPUs allocated: two of three here",
        (
            *(Series("DCGM_FI_DEV_GPU_TEMP", gpu_labels(g), flat(60)) for g in (0, 1, 2)),
            *(Series("DCGM_FI_PROF_SM_ACTIVE", gpu_labels(g), flat(0.5)) for g in (0, 1, 2)),
            *(
                Series(field, gpu_labels(g), flat(mib))
                for g, used in ((0, 40000), (1, 20000), (2, 100))
                for field, mib in (("DCGM_FI_DEV_FB_USED", used), ("DCGM_FI_DEV_FB_FREE", 80000 - used))
            ),
        ),
        "10m",
        '{__name__=~"cluster:gpus_allocated:count|cluster:gpus_memory_held:count"}',
        (("cluster:gpus_allocated:count", 2), ("cluster:gpus_memory_held:count", 2)),
        config=RulesConfig(workload_labels="off"),
    ),
    ExprCase(
        "cold-tier rollups are evaluated every 5 minutes with bounded labels",
        (Series("DCGM_FI_DEV_POWER_USAGE", {**G0, "pod": "churning-pod-123"}, "300+1x60"),),
        "15m",
        "gpu:power_watts:avg_rollup5m",
        (
            (
                series_text(
                    "gpu:power_watts:avg_rollup5m",
                    keys(G0, "Hostname", "UUID", "gpu", "modelName"),
                ),
                350.0,
            ),
        ),
    ),
    ExprCase(
        "4.9 dialect: renamed names and base units give the same recorded ratio",
        (Series("DCGM_FI_DEV_GPU_UTIL_RATIO", G0, flat(0.5)),),
        "10m",
        "gpu:utilization:ratio_avg5m",
        ((series_text("gpu:utilization:ratio_avg5m", G0), 0.5),),
        config=RulesConfig(dialect="4.9"),
    ),
)

FLEET_INPUT = (
    Series("cluster:gpus_reporting:count", {"cluster": "a"}, flat(64)),
    Series("cluster:gpus_reporting:count", {"cluster": "b"}, flat(16)),
    # cluster a has one MIG GPU with 7 instances: 64 GPUs, 70 activity units
    Series("cluster:gpu_activity_units:count", {"cluster": "a"}, flat(70)),
    Series("cluster:gpu_activity_units:count", {"cluster": "b"}, flat(16)),
    Series("cluster:gpu_activity:sum5m", {"cluster": "a"}, flat(35)),
    Series("cluster:gpu_activity:sum5m", {"cluster": "b"}, flat(8)),
)
FLEET = ExprCase(
    "the fleet level sums clusters and weights activity by activity unit (a MIG instance counts once)",
    FLEET_INPUT,
    "5m",
    '{__name__=~"fleet:gpus_reporting:count|fleet:gpu_activity:avg5m"}',
    (("fleet:gpus_reporting:count", 80.0), ("fleet:gpu_activity:avg5m", 0.5)),
)
