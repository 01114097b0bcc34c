"""Workload alerts (owner: workload): GPUs held but not used, and batch jobs that stopped reporting."""

from __future__ import annotations

from gpuscope.rules.model import Alert, Group, Runbook
from gpuscope.rules.promql import Promql


def allocated_but_idle(q: Promql) -> Alert:
    c = q.config
    t = c.thresholds
    who = (
        f"{{{{ $labels.{c.namespace_label} }}}}/{{{{ $labels.{c.pod_label} }}}}"
        if c.workload_labels != "off"
        else "a process holding its memory"
    )
    return Alert(
        "GPUAllocatedButIdle",
        f"workload:gpu_activity:avg5m < {t.idle_activity_ratio:g}",
        "ticket",
        "workload",
        "A GPU is allocated to a workload that is not using it.",
        f"GPU {{{{ $labels.gpu }}}} on {{{{ $labels.{c.host_label} }}}} is held by {who} but its activity has been "
        f"below {t.idle_activity_ratio:.0%} for {t.idle_for}.",
        Runbook(
            "A pod (or job) holds a GPU it does not use: a notebook left open, a job waiting on data or on a hung "
            "rank, a serving replica with no traffic. Nobody else can use that GPU meanwhile.",
            (
                f"workload:gpu_activity:avg5m < {t.idle_activity_ratio:g}",
                "cluster:gpu_allocation_efficiency:ratio",
            ),
            (
                "Ask the owner (namespace/pod labels) whether it is expected; scale down or delete idle replicas.",
                "A training job idle on some GPUs but busy on others is usually stuck on one rank: check its logs.",
                "For notebooks, consider an idle-culling policy.",
            ),
        ),
        "1h",
        for_=t.idle_for,
    )


def job_stale(q: Promql) -> Alert:
    c = q.config
    pushed = f"push_time_seconds{{{c.job_metrics_selector}}}"
    return Alert(
        "PushgatewayJobStale",
        f"time() - max by (job, job_id, instance) ({pushed}) > {_seconds(c.thresholds.job_stale_after)}",
        "ticket",
        "workload",
        "A batch job stopped pushing its metrics without finishing.",
        "Job {{ $labels.job_id }} ({{ $labels.job }}) has not pushed metrics for over "
        f"{c.thresholds.job_stale_after} and did not report completion.",
        Runbook(
            "Jobs push step metrics to the Pushgateway while they run and delete their group when they finish. A "
            "group that stops updating belongs to a job that was killed, hung, or lost its route to the gateway; "
            "the Pushgateway keeps its last values forever, so dashboards would show a frozen job.",
            (f"time() - {pushed}",),
            (
                "Check the job in the scheduler (kubectl / squeue): killed, OOM, preempted, or hung?",
                "If it is gone, delete its group: `curl -X DELETE <pushgateway>/metrics/job/<job>/job_id/<id>/"
                "instance/<instance>`.",
            ),
        ),
        "as configured",
        for_="1m",
    )


def _seconds(duration: str) -> int:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    return int(duration[:-1]) * units[duration[-1]]


def workload_group(q: Promql) -> Group:
    return Group("gpuscope-workload.alerts", (allocated_but_idle(q), job_stale(q)), file="alerts")
