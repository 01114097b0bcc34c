"""``gpuscope doctor``: audit a live deployment through its Prometheus and Alertmanager APIs.

Exit codes: 0 every check passed, 1 warnings, 2 failures, 3 could not audit (bad flag, unreachable URL, 401,
TLS error, no GPU metrics). 3 is doctor's own so automation tells "the fleet is unhealthy" from "doctor could
not look".
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from gpuscope.cli._app import app
from gpuscope.errors import AuditError


def _headers(values: list[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for value in values:
        name, sep, content = value.partition(":")
        if not sep or not name.strip():
            raise AuditError(f"invalid --header {value!r}: write NAME: VALUE, e.g. 'X-Scope-OrgID: gpu-team'")
        out.append((name.strip(), content.strip()))
    return tuple(out)


def _window(value: str | None) -> float | None:
    from gpuscope.durations import prometheus_seconds

    if value is None:
        return None
    try:
        seconds = prometheus_seconds(value)
    except ValueError:
        seconds = 0.0
    if seconds <= 0:
        raise AuditError(f"invalid --window {value!r}: give a Prometheus duration such as 1h or 30m")
    return seconds


@app.command("doctor")
def doctor_command(
    prometheus: Annotated[str, typer.Option("--prometheus", help="The cluster Prometheus to audit (base URL).")],
    fleet: Annotated[
        str | None, typer.Option("--fleet", help="Fleet spec: expected targets, GPUs, budget, models.")
    ] = None,
    alertmanager: Annotated[str | None, typer.Option("--alertmanager", help="Alertmanager base URL.")] = None,
    replica_b: Annotated[str | None, typer.Option("--replica-b", help="The HA peer Prometheus (base URL).")] = None,
    global_store: Annotated[
        str | None, typer.Option("--global", help="The global store's Prometheus-compatible query API.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The report as JSON (for automation).")] = False,
    verbose: Annotated[
        bool, typer.Option("-v", "--verbose", help="Every check's full evidence, not only its headline.")
    ] = False,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, max=3600, help="Seconds the whole audit may take.")
    ] = 30.0,
    window: Annotated[
        str | None, typer.Option("--window", help="Look-back for restarts, churn, limits (default 1h / speedup).")
    ] = None,
    speedup: Annotated[
        int | None,
        typer.Option("--speedup", min=1, max=60, help="Rule time compression (gpuscope up --fast: 15)."),
    ] = None,
    bearer_token_file: Annotated[str | None, typer.Option("--bearer-token-file", help="Bearer token file.")] = None,
    basic_auth_user: Annotated[str | None, typer.Option("--basic-auth-user", help="Basic auth user.")] = None,
    basic_auth_password_file: Annotated[
        str | None, typer.Option("--basic-auth-password-file", help="File holding the basic auth password.")
    ] = None,
    ca_file: Annotated[str | None, typer.Option("--ca-file", help="CA certificate(s) to verify TLS with.")] = None,
    cert_file: Annotated[str | None, typer.Option("--cert-file", help="Client certificate (mTLS).")] = None,
    key_file: Annotated[str | None, typer.Option("--key-file", help="Client certificate's key (mTLS).")] = None,
    insecure_skip_verify: Annotated[
        bool, typer.Option("--insecure-skip-verify", help="Do not verify TLS certificates.")
    ] = False,
    header: Annotated[
        list[str] | None, typer.Option("--header", help="Extra request header 'Name: value' (repeatable).")
    ] = None,
) -> None:
    """Audit a live deployment: Phase 1 floor, failure modes, label hygiene (exit 0 pass, 1 warn, 2 fail, 3 error)."""
    from rich.console import Console

    from gpuscope.doctor import Access, Endpoints, audit
    from gpuscope.doctor.render import to_json, to_table

    access = Access(
        bearer_token_file=bearer_token_file,
        basic_auth_user=basic_auth_user,
        basic_auth_password_file=basic_auth_password_file,
        ca_file=ca_file,
        cert_file=cert_file,
        key_file=key_file,
        insecure_skip_verify=insecure_skip_verify,
        headers=_headers(header or []),
        timeout_s=timeout,
    )
    endpoints = Endpoints(prometheus, alertmanager, replica_b, global_store)
    from gpuscope.generate.budget import predicted

    report = audit(endpoints, access, fleet=fleet, window_s=_window(window), speedup=speedup, predict=predicted)
    if as_json:
        typer.echo(to_json(report))
    else:
        console = Console()
        if not console.is_terminal and "COLUMNS" not in os.environ:
            console = Console(width=140)  # rich's 80 columns for a pipe would wrap every query
        console.print(to_table(report, verbose))
    raise typer.Exit(report.exit_code)
