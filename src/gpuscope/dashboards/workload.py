"""L5 Workload: GPUs held, SM/tensor activity, memory and efficiency per pod (namespace/pod) and per batch job
(job_id), and the job metrics pushed through the Pushgateway (step time, throughput). Drills down to L4."""

from __future__ import annotations

from dataclasses import replace

from gpuscope.dashboards import styles, variables
from gpuscope.dashboards.cluster import to_gpu
from gpuscope.dashboards.host import pod_resources_row
from gpuscope.dashboards.model import Dashboard, Panel, Query, Row, Steps, present
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries import workload as w
from gpuscope.dashboards.shared_gpus import l5_row
from gpuscope.dashboards.workload_groups import attribution_row

KEY = "l5-workload"


def _ts(
    title: str,
    queries: tuple[Query | None, ...],
    unit: str,
    *,
    steps: Steps | None = None,
    bounded: bool = False,
    description: str = "",
) -> Panel:
    """A time series panel; ``bounded`` for ratios (0 to 100 %)."""
    return Panel(
        title,
        "timeseries",
        present(*queries),
        unit=unit,
        steps=steps,
        min=0 if bounded else None,
        max=1 if bounded else None,
        description=description,
        width=8,
    )


def _pods(q: Q) -> Row | None:
    if q.c.workload_labels == "off":
        return None
    activity = styles.activity_of_allocated(q.options)
    return Row(
        "Pods",
        (
            _ts("GPUs held", (w.gpus_held(q),), "short"),
            _ts("Activity", (w.activity(q),), "percentunit", steps=activity, bounded=True),
            _ts(
                "Efficiency",
                (w.efficiency(q),),
                "percentunit",
                bounded=True,
                description="Share of the pod's GPUs at or above the idle threshold.",
            ),
            _ts("SM / tensor activity", (w.sm_activity(q), w.tensor_activity(q)), "percentunit", bounded=True),
            _ts("Framebuffer used", (w.memory(q),), "bytes"),
            Panel(
                "GPUs of the selected pods",
                "table",
                (w.pod_gpus(q),),
                unit="percentunit",
                steps=activity,
                links=(to_gpu(q, "__data.fields"),),
                width=8,
            ),
        ),
    )


def _jobs(q: Q) -> Row:
    jobs_table = Panel(
        "Jobs",
        "table",
        (
            Query(w.job_gpus(q).expr, "GPUs", instant=True),
            w.job_column(q, "gpuscope_job_start_time_seconds", "started", "dateTimeAsIso", " * 1000"),
            w.job_column(q, "gpuscope_job_end_time_seconds", "ended", "dateTimeAsIso", " * 1000"),
            w.job_column(q, "gpuscope_job_exit_code", "exit code", "none"),
            replace(w.job_push_age(q, instant=True), steps=styles.job_age(q.options)),
        ),
        width=12,
    )
    return Row(
        "Batch jobs",
        (
            jobs_table,
            Panel(
                "GPUs of the selected jobs",
                "table",
                (w.job_gpu_table(q),),
                unit="percentunit",
                steps=styles.activity_of_allocated(q.options),
                links=(to_gpu(q, "__data.fields"),),
                width=12,
            ),
            _ts("GPUs per job", (w.job_gpus(q),), "short"),
            _ts(
                "Activity",
                (w.job_activity(q), w.job_tensor(q)),
                "percentunit",
                steps=styles.activity_of_allocated(q.options),
                bounded=True,
            ),
            _ts("Framebuffer used", (w.job_memory(q),), "bytes"),
            _ts("Step time", (w.job_metric(q, "gpuscope_job_step_duration_seconds"),), "s"),
            _ts(
                "Throughput",
                (
                    w.job_metric(q, "gpuscope_job_samples_per_second", "{{job_id}} samples/s"),
                    w.job_metric(q, "gpuscope_job_tokens_per_second", "{{job_id}} tokens/s"),
                    w.job_metric(q, "gpuscope_job_steps_total", "{{job_id}} steps/s", rate=True),
                ),
                "short",
            ),
            _ts(
                "Since last push",
                (w.job_push_age(q),),
                "s",
                steps=styles.job_age(q.options),
                description=f"PushgatewayJobStale fires after {q.c.thresholds.job_stale_after} without a push.",
            ),
        ),
    )


def workload_dashboard(q: Q) -> Dashboard:
    pods = _pods(q)
    pod_vars = (variables.namespace(q), variables.pod(q)) if pods else ()
    return Dashboard(
        key=KEY,
        title="GPU L5 Workload",
        description="What a pod or a batch job holds and how well it uses it; jobs report step time and throughput "
        "through the Pushgateway.",
        variables=(variables.cluster(q), *pod_vars, variables.job_id(q)),
        rows=(
            *((pods,) if pods else ()),
            *filter(None, (pod_resources_row(q) if pods else None,)),
            *((shared,) if (shared := l5_row(q)) else ()),
            *filter(None, (attribution_row(q),)),
            _jobs(q),
        ),
        drills_to=("l4-gpu", "efficiency"),
    )
