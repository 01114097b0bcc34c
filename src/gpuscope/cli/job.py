"""``gpuscope job start|step|finish|gc``: job metrics from shell scripts and Slurm prolog/epilog.

Each call is one push (``gpuscope.jobs.oneshot``). A gateway that cannot be reached is a warning and exit 0
unless ``--strict``: a failing Slurm prolog drains the node and requeues the job, a far worse outcome than a
missing metric. Bad input (a job id or label that cannot be reported) is an error, exit 2, as everywhere.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from gpuscope.cli._app import app
from gpuscope.errors import EnvironmentProblem

if TYPE_CHECKING:
    from gpuscope.jobs.gateway import Gateway as Client
    from gpuscope.jobs.metrics import JobIdentity
    from gpuscope.jobs.oneshot import Outcome

job_app = typer.Typer(
    help="Job-scoped metrics through a Pushgateway, joined to GPU telemetry by UUID (shell and Slurm scripts; "
    "in Python use gpuscope.jobs.JobReporter).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.add_typer(job_app, name="job")

Gateway = Annotated[
    str, typer.Option("--gateway", envvar="GPUSCOPE_PUSHGATEWAY", help="Pushgateway URL, e.g. http://pg:9091.")
]
JobId = Annotated[
    str,
    typer.Option("--job-id", envvar=["GPUSCOPE_JOB_ID", "SLURM_JOB_ID"], help="The job's id (default: $SLURM_JOB_ID)."),
]
JobName = Annotated[str, typer.Option("--job-name", envvar="GPUSCOPE_JOB_NAME", help="The 'job' label of the group.")]
Hostname = Annotated[
    str | None,
    typer.Option("--hostname", help="Host label and instance of the group (default: $NODE_NAME or the hostname)."),
]
Timeout = Annotated[
    float, typer.Option("--timeout", min=0.1, max=300, help="Seconds to keep trying to reach the gateway.")
]
Strict = Annotated[bool, typer.Option("--strict", help="Exit 2 when the gateway cannot be reached.")]


def _identity(
    job_id: str, job_name: str, hostname: str | None, user: str | None = None, labels: list[str] | None = None
) -> JobIdentity:
    from gpuscope.jobs.labels import parse_label_pairs
    from gpuscope.jobs.reporter import job_identity

    extra = parse_label_pairs(labels or [], "--label")
    return job_identity(job_id, job=job_name, user=user, hostname=hostname, labels=extra)


def _gateway(url: str, timeout: float) -> Client:
    from gpuscope.jobs.gateway import Gateway as Client

    return Client(url, timeout, total_s=timeout)  # --timeout is the whole command's, however many requests


def _report(outcome: Outcome, what: str, url: str, strict: bool) -> None:
    if outcome.ok:
        return
    message = f"could not {what} at {url} ({outcome.attempts} attempts): {outcome.error}"
    if strict:
        raise EnvironmentProblem(message)
    typer.echo(f"gpuscope: warning: {message}; the job goes on (--strict makes this an error)", err=True)


@job_app.command("start")
def start_command(
    gateway: Gateway,
    job_id: JobId,
    job_name: JobName = "gpuscope-job",
    gpus: Annotated[
        str,
        typer.Option(
            "--gpus",
            help="auto (CUDA_VISIBLE_DEVICES, NVIDIA_VISIBLE_DEVICES, SLURM_JOB_GPUS, else every GPU), none, "
            "or indices / UUIDs separated by commas.",
        ),
    ] = "auto",
    user: Annotated[
        str | None, typer.Option("--user", help="User label (default: $SLURM_JOB_USER or the login name).")
    ] = None,
    label: Annotated[
        list[str] | None, typer.Option("--label", help="Extra NAME=VALUE label on the info series (repeatable).")
    ] = None,
    hostname: Hostname = None,
    timeout: Timeout = 10.0,
    strict: Strict = False,
) -> None:
    """Push the job's info series (one per GPU, with its UUID) and start time; replaces an older group."""
    import os

    from gpuscope.jobs.oneshot import start_job
    from gpuscope.jobs.reporter import gpu_request

    identity = _identity(job_id, job_name, hostname, user, label)
    request = gpu_request(gpus, os.environ)
    client = _gateway(gateway, timeout)
    outcome, resolution = start_job(client, identity, request, timeout, time.time())
    if resolution.problem:
        typer.echo(f"gpuscope: warning: {resolution.problem}; those GPUs will not join GPU telemetry", err=True)
    _report(outcome, "push the job start", client.url, strict)
    if outcome.ok:
        gpu_list = ", ".join(g.uuid or g.device for g in resolution.gpus) or "none"
        typer.echo(f"job {identity.job_id}: started, GPUs: {gpu_list}")


@job_app.command("step")
def step_command(
    gateway: Gateway,
    job_id: JobId,
    job_name: JobName = "gpuscope-job",
    steps: Annotated[int | None, typer.Option("--steps", min=0, help="Steps completed so far (a total).")] = None,
    step_duration: Annotated[
        float | None, typer.Option("--step-duration", min=0, help="Seconds the last step took.")
    ] = None,
    samples_per_second: Annotated[float | None, typer.Option("--samples-per-second", min=0)] = None,
    tokens_per_second: Annotated[float | None, typer.Option("--tokens-per-second", min=0)] = None,
    gauge: Annotated[
        list[str] | None, typer.Option("--gauge", help="NAME=VALUE, pushed as gpuscope_job_<NAME> (repeatable).")
    ] = None,
    hostname: Hostname = None,
    timeout: Timeout = 10.0,
    strict: Strict = False,
) -> None:
    """Push progress; only the metrics given are replaced (with none, it is a heartbeat)."""
    from gpuscope.jobs.metrics import Progress
    from gpuscope.jobs.oneshot import report_step

    identity = _identity(job_id, job_name, hostname)
    progress = Progress(steps, step_duration, samples_per_second, tokens_per_second, _gauges(gauge or []))
    client = _gateway(gateway, timeout)
    _report(report_step(client, identity, progress, timeout), "push the job's progress", client.url, strict)


@job_app.command("finish")
def finish_command(
    gateway: Gateway,
    job_id: JobId,
    job_name: JobName = "gpuscope-job",
    exit_code: Annotated[int, typer.Option("--exit-code", help="The job's exit status (0 = success).")] = 0,
    delete: Annotated[
        bool, typer.Option("--delete", help="Delete the group now instead of leaving the end state for gc.")
    ] = False,
    hostname: Hostname = None,
    timeout: Timeout = 10.0,
    strict: Strict = False,
) -> None:
    """Push the end time and exit status (the group then expires through `gpuscope job gc`), or --delete it."""
    from gpuscope.jobs.metrics import Finish
    from gpuscope.jobs.oneshot import finish_job

    identity = _identity(job_id, job_name, hostname)
    client = _gateway(gateway, timeout)
    outcome = finish_job(client, identity, Finish(time.time(), exit_code), delete, timeout)
    _report(outcome, "delete the job's group" if delete else "push the job's end", client.url, strict)


@job_app.command("gc")
def gc_command(
    gateway: Gateway,
    finished_for: Annotated[
        str, typer.Option("--finished-for", help="Delete groups of jobs finished at least this long ago.")
    ] = "1h",
    stale_for: Annotated[
        str | None,
        typer.Option("--stale-for", help="Also delete unfinished groups not pushed for this long (killed jobs)."),
    ] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List what would be deleted; delete nothing.")] = False,
    timeout: Timeout = 10.0,
) -> None:
    """Expire job groups: the Pushgateway keeps every group forever (run this from cron or a CronJob)."""
    from gpuscope.jobs.expiry import expire
    from gpuscope.jobs.gateway import GatewayError

    finished_s = _seconds(finished_for, "--finished-for")
    stale_s = None if stale_for is None else _seconds(stale_for, "--stale-for")
    client = _gateway(gateway, timeout)
    try:
        expired = expire(client, time.time(), finished_s, stale_s, dry_run)
    except GatewayError as exc:
        raise EnvironmentProblem(f"job gc: {exc}") from None
    verb = "would delete" if dry_run else "deleted"
    for item in expired:
        typer.echo(f"{verb} {item.group.describe()} ({item.reason})")


def _gauges(pairs: list[str]) -> dict[str, float]:
    from gpuscope.jobs.labels import InvalidJobInput, gauge_metric, parse_label_pairs

    out = {}
    for name, value in parse_label_pairs(pairs, "--gauge").items():
        metric = gauge_metric(name)
        if metric is None or metric.removeprefix("gpuscope_job_") != name:
            raise InvalidJobInput(
                f"invalid --gauge name {name!r}: use letters, digits and '_', not a built-in job metric name"
            )
        try:
            out[metric] = float(value)
        except ValueError:
            raise InvalidJobInput(f"invalid --gauge {name}={value!r}: the value must be a number") from None
    return out


def _seconds(value: str, flag: str) -> float:
    """``90``, ``90s``, ``10m``, ``1h30m``, ``2d`` -> seconds; a bad one names ``flag``."""
    from gpuscope.durations import dhms_seconds
    from gpuscope.jobs.labels import InvalidJobInput

    try:
        return dhms_seconds(value)
    except ValueError:
        raise InvalidJobInput(f"invalid duration {value!r} for {flag}: write e.g. 90s, 30m, 1h or 2d") from None
