"""``gpuscope remediate``: the Alertmanager webhook receiver that drains or taints nodes by policy (dry run unless
``--apply``)."""

from __future__ import annotations

from typing import Annotated

import typer

from gpuscope.cli._app import LOG_FORMATS, app, choice, setup_logging


@app.command("remediate")
def remediate_command(
    policy: Annotated[str, typer.Option("--policy", help="Policy file (YAML): clusters, rules, budget, return.")],
    listen: Annotated[
        str, typer.Option("--listen", help="HOST:PORT of the webhook (POST /webhook) and /metrics.")
    ] = "127.0.0.1:9450",
    apply: Annotated[
        bool,
        typer.Option(
            "--apply/--dry-run",
            help="Act on the schedulers. Default --dry-run: log, audit and count what would be done, touch nothing.",
        ),
    ] = False,
    bearer_token_file: Annotated[
        str | None,
        typer.Option("--bearer-token-file", help="Require 'Authorization: Bearer <token>' (Alertmanager http_config)."),
    ] = None,
    web_config_file: Annotated[
        str | None,
        typer.Option("--web-config-file", help="TLS and client certificates (mTLS), exporter-toolkit's web config."),
    ] = None,
    audit_log: Annotated[str, typer.Option("--audit-log", help="JSON lines, one per decision; - for stdout.")] = "-",
    state_file: Annotated[
        str | None, typer.Option("--state-file", help="Where holds and seen alerts survive a restart (JSON).")
    ] = None,
    alertmanager: Annotated[
        list[str] | None,
        typer.Option("--alertmanager", help="Alertmanager URL for the budget-exhausted page (repeat for each)."),
    ] = None,
    scontrol: Annotated[str, typer.Option("--scontrol", help="Slurm's scontrol (SLURM_CONF picks the cluster).")] = (
        "scontrol"
    ),
    lease: Annotated[
        bool, typer.Option("--lease/--no-lease", help="Kubernetes: act only while holding the leader Lease.")
    ] = True,
    queue_size: Annotated[
        int, typer.Option("--queue-size", min=1, max=100_000, help="Notifications queued before answering 503.")
    ] = 256,
    insecure_no_auth: Annotated[
        bool,
        typer.Option(
            "--insecure-no-auth",
            help="Allow --apply without --bearer-token-file or client certificates (anyone who can POST acts).",
        ),
    ] = False,
    log_format: Annotated[str, typer.Option("--log-format", help="text or json.")] = "text",
    debug: Annotated[bool, typer.Option("--debug", help="Log every decision, ignored ones too.")] = False,
) -> None:
    """Receive Alertmanager's webhook and take nodes with failing GPUs out of service, safely.

    Slurm nodes are drained (scontrol update state=drain reason="[gpuscope] <alert>: <summary>": running jobs
    finish); Kubernetes nodes get the condition GPUHealthy=False, the taint gpuscope.io/gpu-unhealthy, a cordon
    (by policy) and an Event. Within a budget per cluster, idempotent under redelivery, never undoing a person's
    drain or cordon. See docs/remediation.md.
    """
    from gpuscope.remediate.run import RemediateOptions, run_remediator

    setup_logging(debug, choice(log_format, LOG_FORMATS, "--log-format"))
    run_remediator(
        RemediateOptions(
            policy=policy,
            listen=listen,
            apply=apply,
            bearer_token_file=bearer_token_file,
            web_config_file=web_config_file,
            audit_log=audit_log,
            state_file=state_file,
            alertmanagers=tuple(alertmanager or ()),
            scontrol=scontrol,
            lease=lease,
            queue_size=queue_size,
            insecure_no_auth=insecure_no_auth,
        )
    )
