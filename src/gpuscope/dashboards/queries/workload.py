"""L5 Workload: what a pod (by namespace/pod) or a batch job (by job_id) holds and how well it uses it.

Pods come from the exporter's attribution in the configured mode: ``info`` joins the per-GPU series with
``gpuscope_gpu_workload_info`` on (UUID, GPU_I_ID) with the pods as the "many" side, which stays right when
several pods share a GPU; ``labels`` reads the pod labels on the series themselves. Jobs join GPU series by UUID
with ``gpuscope_job_info``, pushed by each job through the Pushgateway (one series per GPU of the job), and use
``job:*`` recording rules where the rules define them.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import Q
from gpuscope.rules.recording import HELD, HELD_ACTIVE, UNIT_ACTIVITY


def pods(q: Q) -> str:
    """The selected pods' series. Holders that are no pod (a Slurm job from the job-mapping directory: no namespace,
    no pod) are left to the jobs row, where they would otherwise be a "/" legend here."""
    c = q.c
    return f'{q.in_cluster},{c.namespace_label}=~"$namespace",{c.pod_label}=~"$pod",{c.pod_label}!=""'


def pod_by(q: Q) -> str:
    return f"{q.c.namespace_label}, {q.c.pod_label}"


def pod_legend(q: Q) -> str:
    return f"{{{{{q.c.namespace_label}}}}}/{{{{{q.c.pod_label}}}}}"


def allocations(q: Q) -> str:
    """``workload:gpu_activity:avg5m`` for the selected pods: one series per allocated GPU or MIG instance."""
    return q.rec("workload:gpu_activity:avg5m", pods(q))


def _held(q: Q) -> str:
    """``workload:gpu_held:ratio`` for the selected pods: each one's share of a GPU (a MIG instance its share,
    holders of a shared GPU split it), the accounting unit of the Efficiency dashboard and the report."""
    return q.rec(HELD, pods(q))


def gpus_held(q: Q) -> Query:
    return Query(f"sum by ({pod_by(q)}) ({_held(q)})", pod_legend(q))


def activity(q: Q) -> Query:
    """The pod's activity, each of its GPUs and instances weighed by its held share."""
    by = pod_by(q)
    return Query(f"sum by ({by}) ({q.rec(HELD_ACTIVE, pods(q))})\n/\nsum by ({by}) ({_held(q)})", pod_legend(q))


def efficiency(q: Q) -> Query:
    """Share of the pod's held GPUs at or above the idle threshold (the cluster's allocation efficiency, per
    pod), in held GPU-equivalents."""
    t, by = q.c.thresholds.idle_activity_ratio, pod_by(q)
    busy = f"sum by ({by}) ({_held(q)} * ({allocations(q)} >= bool {t:g}))"
    return Query(f"{busy}\n/\nsum by ({by}) ({_held(q)})", pod_legend(q))


def per_pod(q: Q, gpu_expr: str, how: str, fields: tuple[str, ...], suffix: str = "") -> Query | None:
    """A per-GPU (or per-instance) expression attributed to pods, combined with ``how`` (avg, sum)."""
    c = q.c
    keys = f"{q.uuid}, GPU_I_ID"
    if c.workload_labels == "info":
        info = q.exporter("gpuscope_gpu_workload_info", pods(q))
        expr = (
            f"{how} by ({pod_by(q)}) (\n"
            f"  max by ({keys}, {pod_by(q)}) ({info})\n"
            f"  * on ({keys}) group_left max by ({keys}) ({gpu_expr})\n)"
        )
    elif c.workload_labels == "labels":
        expr = f"{how} by ({pod_by(q)}) ({gpu_expr})"
    else:
        return None
    return q.needs(fields, expr, f"{pod_legend(q)}{suffix}")


def sm_activity(q: Q) -> Query | None:
    scope = pods(q) if q.c.workload_labels == "labels" else q.in_cluster
    return per_pod(q, q.rec("gpu:sm_active:avg1m", scope), "avg", ("DCGM_FI_PROF_SM_ACTIVE",), " SM")


def tensor_activity(q: Q) -> Query | None:
    scope = pods(q) if q.c.workload_labels == "labels" else q.in_cluster
    return per_pod(q, q.rec("gpu:tensor_active:avg1m", scope), "avg", ("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",), " tensor")


def memory(q: Q) -> Query | None:
    field = "DCGM_FI_DEV_FB_USED"
    scope = pods(q) if q.c.workload_labels == "labels" else q.in_cluster
    return per_pod(q, q.base(field, scope), "sum", (field,))


def pod_gpus(q: Q) -> Query:
    return Query(allocations(q), "activity", instant=True)


# Batch jobs -----------------------------------------------------------------------------------------------------


def _job_scope(q: Q) -> str:
    return f'{q.in_cluster},job_id=~"$job_id"'


def job_allocations(q: Q) -> str:
    """``job:gpu_activity:avg5m``: per GPU (or MIG instance) of each selected running job, with job_id and user.

    Inline, the same expression as the rule, for a rule set that predates it: finished jobs (an end time in
    their group) no longer claim their GPUs; pushed info series always say ``UUID``.
    """
    c, u, h = q.c, q.uuid, q.host
    scope = _job_scope(q)
    running = f"{q.jobs('gpuscope_job_info', scope)} unless on (job, job_id, instance) " + q.jobs(
        "gpuscope_job_end_time_seconds", scope
    )
    if u != "UUID":
        running = f'label_replace({running}, "{u}", "$1", "UUID", "(.+)")'
    gpu = f"{c.cluster_label}, {h}, gpu, modelName"
    fallback = (
        f"max by (job_id, user, {u}, GPU_I_ID) ({running})\n"
        f"* on ({u}, GPU_I_ID) group_left ({gpu}) max by ({u}, GPU_I_ID, {gpu}) ({UNIT_ACTIVITY})"
    )
    return q.recorded_or("job:gpu_activity:avg5m", fallback, scope)


def _job_by(q: Q) -> str:
    """A job is its cluster's: two Slurm clusters hand out the same ids, and every column of the jobs table (and the
    series of a job across the HA pair) merges on these labels."""
    return f"{q.cluster}, job_id"


def job_gpus(q: Q) -> Query:
    scope = _job_scope(q)
    info = q.jobs("gpuscope_job_info", scope, 'UUID!=""')
    by = _job_by(q)
    fallback = f"count by ({by}) (max by ({by}, UUID, GPU_I_ID) ({info}))"
    return Query(f"max by ({by}) ({q.recorded_or('job:gpus:count', fallback, scope)})", "{{job_id}}")


def job_activity(q: Q) -> Query:
    return Query(f"avg by (job_id, user) ({job_allocations(q)})", "{{job_id}} ({{user}})")


def job_per_gpu(q: Q, gpu_expr: str, how: str, fields: tuple[str, ...], suffix: str = "") -> Query | None:
    """A per-GPU expression attributed to the jobs holding the GPU (or MIG instance), combined with ``how``."""
    keys = f"{q.uuid}, GPU_I_ID"
    held = f"count by (job_id, user, {keys}) ({job_allocations(q)})"  # 1 per (job, GPU)
    expr = f"{how} by (job_id, user) (\n  {held}\n  * on ({keys}) group_left max by ({keys}) ({gpu_expr})\n)"
    return q.needs(fields, expr, f"{{{{job_id}}}} ({{{{user}}}}){suffix}")


def job_memory(q: Q) -> Query | None:
    field = "DCGM_FI_DEV_FB_USED"
    return job_per_gpu(q, q.base(field, q.in_cluster), "sum", (field,))


def job_tensor(q: Q) -> Query | None:
    field = "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"
    return job_per_gpu(q, q.rec("gpu:tensor_active:avg1m", q.in_cluster), "avg", (field,), " tensor")


def job_metric(q: Q, metric: str, legend: str = "{{job_id}}", rate: bool = False) -> Query:
    sel = q.jobs(metric, _job_scope(q))
    inner = f"rate({sel}[$__rate_interval])" if rate else sel
    return Query(f"max by ({_job_by(q)}) ({inner})", legend)


def job_column(q: Q, metric: str, name: str, unit: str, scale: str = "") -> Query:
    return Query(f"max by ({_job_by(q)}) ({q.jobs(metric, _job_scope(q))}){scale}", name, instant=True, unit=unit)


def job_push_age(q: Q, instant: bool = False) -> Query:
    """Seconds since each job last pushed (PushgatewayJobStale fires past ``job_stale_after``)."""
    return Query(
        f"time() - max by ({_job_by(q)}) ({q.jobs('push_time_seconds', _job_scope(q))})",
        "since last push" if instant else "{{job_id}}",
        instant=instant,
        unit="s" if instant else "",
    )


def job_gpu_table(q: Q) -> Query:
    return Query(job_allocations(q), "activity", instant=True)


def pods_per_shared_gpu(q: Q) -> Query:
    """GPUs (or MIG instances) that more than one pod shares, with their pod count (``--kubernetes-virtual-gpus``)."""
    shared = q.rec("gpu:sharing_pods:count", q.in_cluster)
    return Query(f"max by ({q.uuid}, GPU_I_ID) ({shared} > 1)", f"{{{{{q.uuid}}}}} {{{{GPU_I_ID}}}}")
