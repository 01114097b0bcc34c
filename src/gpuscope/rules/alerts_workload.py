"""Workload alerts (owner: workload): GPUs held but not used, and batch jobs that stopped reporting."""

from __future__ import annotations

from gpuscope.durations import prometheus_seconds
from gpuscope.rules.promql import Promql
from gpuscope.rules.records import MINUTE_INTERVAL, Alert, Group, Runbook


def allocated_but_idle(q: Promql) -> Alert:
    c = q.config
    t = c.thresholds
    who = (
        f"{{{{ $labels.{c.namespace_label} }}}}/{{{{ $labels.{c.pod_label} }}}}"
        if c.workload_labels != "off"
        else "a process holding its memory"
    )
    return Alert(
        name="GPUAllocatedButIdle",
        # The newest recorded value within two evaluations, not the instant one: a scrape that failed while the
        # record was evaluated leaves one minute without it, and 50 minutes of ``for`` would start over.
        expr=f"last_over_time(workload:gpu_activity:avg5m[2m]) < {t.idle_activity_ratio:g}",
        severity="ticket",
        owner="workload",
        summary="A GPU is allocated to a workload that is not using it.",
        description=f"GPU {{{{ $labels.gpu }}}} on {{{{ $labels.{c.host_label} }}}} is held by {who} but its activity "
        f"has been below {t.idle_activity_ratio:.0%} for {t.idle_for}.",
        runbook=Runbook(
            meaning="A pod (or job) holds a GPU it does not use: a notebook left open, a job waiting on data or on a "
            "hung rank, a serving replica with no traffic. Nobody else can use that GPU meanwhile.",
            confirm=(
                f"workload:gpu_activity:avg5m < {t.idle_activity_ratio:g}",
                "cluster:gpu_allocation_efficiency:ratio",
            ),
            actions=(
                "Ask the owner (namespace/pod labels) whether it is expected; scale down or delete idle replicas.",
                "A training job idle on some GPUs but busy on others is usually stuck on one rank: check its logs.",
                "For notebooks, consider an idle-culling policy.",
            ),
        ),
        bound="1h",
        for_=t.idle_for,
    )


def job_stale(q: Promql) -> Alert:
    """A job group that reports progress, stopped being pushed, and never said it finished.

    Only groups with ``gpuscope_job_steps_total`` count: a job reported from a Slurm prolog/epilog alone pushes
    twice, hours apart, by design. ``gpuscope.jobs.JobReporter`` pushes it (0 at first) with every heartbeat, so
    a job killed even before its first step is caught. A finished job keeps its group (end time, exit code) until
    ``gpuscope job gc`` expires it, so the end time silences the alert; a deleted group has no ``push_time`` at
    all. The threshold is a number, not a range: ``q.secs`` compresses it like the durations (``speedup``).
    """
    c = q.config
    sel = c.job_metrics_selector
    key = "job, job_id, instance"
    pushed = f"push_time_seconds{{{sel}}}"
    stale_s = q.secs(prometheus_seconds(c.thresholds.job_stale_after))
    return Alert(
        name="PushgatewayJobStale",
        expr=f"(time() - max by ({key}) ({pushed}) > {stale_s})\n"
        f"and on ({key}) gpuscope_job_steps_total{{{sel}}}\n"
        f"unless on ({key}) gpuscope_job_end_time_seconds{{{sel}}}",
        severity="ticket",
        owner="workload",
        summary="A batch job stopped pushing its metrics without finishing.",
        description="Job {{ $labels.job_id }} ({{ $labels.job }}) on {{ $labels.instance }} has not pushed metrics for "
        "over "
        f"{c.thresholds.job_stale_after} and did not report completion.",
        runbook=Runbook(
            meaning="Jobs push their progress to the Pushgateway while they run (gpuscope.jobs pushes every 15 s from "
            "a background thread) and push their end time and exit code when they finish. A group that stops "
            "updating without an end time belongs to a job that was killed (SIGKILL, OOM killer, preemption, node "
            "loss) or lost its route to the gateway. The Pushgateway keeps its last values forever, so dashboards "
            "would show a frozen job, and the GPUs it names stay attributed to it.",
            confirm=(
                f"time() - {pushed}",
                f"gpuscope_job_steps_total{{{sel}}} unless on ({key}) gpuscope_job_end_time_seconds{{{sel}}}",
            ),
            actions=(
                "Check the job in the scheduler (squeue / sacct, kubectl describe): killed, OOM, preempted, or "
                "still running but cut off from the gateway (then it warned once in its log)?",
                "If it is gone, delete its group: `gpuscope job gc --gateway <url> --stale-for "
                f"{c.thresholds.job_stale_after}` removes every such group, or `curl -X DELETE "
                "<pushgateway>/metrics/job/<job>/job_id/<id>/instance/<instance>` this one.",
                "A job hung inside a step keeps pushing (its thread is alive): that shows as a flat "
                "gpuscope_job_steps_total, not as this alert.",
            ),
        ),
        bound="as configured",
        for_="1m",
    )


def workload_group(q: Promql) -> Group:
    """Once a minute: GPUAllocatedButIdle waits 50 minutes on an allocation recorded once a minute, and a job
    stops pushing for ``job_stale_after`` before PushgatewayJobStale's minute of ``for``."""
    return Group(
        name="gpuscope-workload.alerts",
        rules=(allocated_but_idle(q), job_stale(q)),
        interval=MINUTE_INTERVAL,
        file="alerts",
    )
