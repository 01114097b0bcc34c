"""``gpuscope up``, ``status``, ``inject`` and ``clear``: the whole signal flow on one machine."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from gpuscope.cli._app import (
    FaultCode,
    FaultGpu,
    FaultLink,
    FaultSeconds,
    FaultSwitch,
    app,
    quiet_libraries,
    setup_logging,
)
from gpuscope.errors import EnvironmentProblem, UsageError
from gpuscope.runner import DEFAULT_DATA_DIR

DataDir = Annotated[str, typer.Option("--data-dir", help="Where the stack keeps its state, data and logs.")]


@app.command("up")
def up_command(
    fleet: Annotated[str | None, typer.Argument(help="Fleet spec; default: a built-in two-cluster fleet.")] = None,
    data_dir: DataDir = DEFAULT_DATA_DIR,
    reset: Annotated[bool, typer.Option("--reset", help="Start from an empty data directory.")] = False,
    fast: Annotated[bool, typer.Option("--fast", help="1 s scrapes, rule and alert time compressed 15x.")] = False,
    no_tui: Annotated[bool, typer.Option("--no-tui", help="Logs only, no live view.")] = False,
) -> None:
    """Run simulated GPU nodes, a Prometheus HA pair per cluster, a global store, Alertmanager and Pushgateway."""
    from gpuscope.runner.binaries import find_binary
    from gpuscope.runner.plan import builtin_spec_text, plan_stack
    from gpuscope.runner.state import data_directory
    from gpuscope.runner.up import run_up
    from gpuscope.spec.load import load_fleet, parse_fleet

    for tool in ("prometheus", "alertmanager", "pushgateway"):
        find_binary(tool)  # say what to install before anything starts
    loaded = load_fleet(fleet) if fleet else parse_fleet(builtin_spec_text(), "<built-in fleet>", Path.cwd())
    tui = not no_tui and sys.stdout.isatty()
    directory = data_directory(data_dir)
    if tui:
        typer.echo(f"gpuscope up: starting the local stack in {directory} (logs in {directory / 'logs'}) ...")
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "logs").mkdir(exist_ok=True)
        logging.basicConfig(
            filename=directory / "logs" / "gpuscope.log",
            level=logging.INFO,
            force=True,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
        quiet_libraries()
    else:
        setup_logging(False, "text")
    plan = plan_stack(loaded.spec, fast=fast)
    asyncio.run(run_up(plan, loaded, directory, reset=reset, tui=tui))


def _control(data_dir: str) -> str:
    from gpuscope.runner.state import control_url, data_paths

    return control_url(data_paths(Path(data_dir).resolve())["state"])


def _call(method: str, url: str, **kwargs: Any) -> Any:
    import httpx  # here, not at the top: every gpuscope process (the exporter's too) imports this module

    try:
        response = httpx.request(method, url, timeout=120, **kwargs)
    except httpx.HTTPError as exc:
        raise EnvironmentProblem(
            f"the stack's control API at {url} does not answer ({exc}); is `gpuscope up` running?"
        ) from None
    try:
        body = response.json()
    except ValueError:
        raise EnvironmentProblem(f"{url} is not the stack's control API (its answer is not JSON)") from None
    if response.status_code == 400:
        raise _refusal(body)
    return body


def _refusal(body: Any) -> UsageError:
    """The control API's 400 as an error the CLI words by its flags (``main``): its template and the parameters
    it names, where the answer carries them as they should be; else its message as it stands."""
    error = body.get("error") if isinstance(body, dict) else None
    template, refs = (body.get("template"), body.get("refs")) if isinstance(body, dict) else (None, None)
    if isinstance(template, str) and isinstance(refs, list) and all(isinstance(r, str) for r in refs):
        return UsageError(template).naming(*refs)
    return UsageError(str(error))


@app.command("status")
def status_command(
    data_dir: DataDir = DEFAULT_DATA_DIR,
    as_json: Annotated[bool, typer.Option("--json", help="Everything, including every URL, as JSON.")] = False,
) -> None:
    """Print the running stack's summary once (the same as the live view)."""
    body = _call("GET", f"{_control(data_dir)}/status")
    if as_json:
        typer.echo(json.dumps(body, indent=2, sort_keys=True))
        return
    from rich.console import Console

    from gpuscope.runner.view import render

    Console().print(render(body))


@app.command("inject")
def inject_command(
    fault: Annotated[
        str,
        typer.Argument(
            help="A simulator fault (xid, fell-off-bus, profiling-lock, thermal, ecc-dbe, "
            "nvlink-crc, fabric-degraded, nvlink5-errors, nvlink-down, nvswitch-fatal, partition-degraded, restart, "
            "slow, hostengine-down, hostengine-restart, version-skew, zombie) or exporter-down, "
            "prometheus-down, global-down. partition-degraded with --cluster and no --node: every node (tray) of it."
        ),
    ],
    cluster: Annotated[str | None, typer.Option("--cluster", help="Cluster name.")] = None,
    node: Annotated[str | None, typer.Option("--node", help="Node index within the cluster, or hostname.")] = None,
    gpu: FaultGpu = None,
    replica: Annotated[str, typer.Option("--replica", help="a or b, for prometheus-down.")] = "a",
    code: FaultCode = None,
    link: FaultLink = None,
    switch: FaultSwitch = None,
    seconds: FaultSeconds = 30.0,
    off: Annotated[bool, typer.Option("--off", help="Switch the fault off.")] = False,
    data_dir: DataDir = DEFAULT_DATA_DIR,
) -> None:
    """Inject a fault into the running stack (or switch it off with --off)."""
    payload = {
        "fault": fault,
        "cluster": cluster,
        "node": node,
        "gpu": gpu,
        "replica": replica,
        "code": code,
        "seconds": seconds,
        "enabled": not off,
        "link": link,
        "switch": switch,
    }
    typer.echo(_call("POST", f"{_control(data_dir)}/faults", json=payload)["message"])


@app.command("clear")
def clear_command(
    cluster: Annotated[str | None, typer.Option("--cluster", help="Only this cluster.")] = None,
    data_dir: DataDir = DEFAULT_DATA_DIR,
) -> None:
    """Switch off every fault and bring back everything stopped on purpose; then say which alerts still fire, and
    for up to how long (the rules remember events: docs/local-stack.md)."""
    from gpuscope.errors import GpuscopeError
    from gpuscope.runner.lingering import after_clear
    from gpuscope.runner.state import data_paths, read_state

    params = {"cluster": cluster} if cluster else {}
    typer.echo(_call("DELETE", f"{_control(data_dir)}/faults", params=params)["message"])
    urls = read_state(data_paths(Path(data_dir).resolve())["state"]).get("urls")
    try:
        still = after_clear(urls if isinstance(urls, dict) else {})
    except GpuscopeError as exc:  # the faults are cleared; what still fires is only a hint
        typer.echo(f"(could not ask the replicas which alerts still fire: {exc})")
        return
    if still:
        typer.echo(
            "Still firing: an alert resolves once its rule stops matching (a cleared fault's event stays in the rule's "
            "look-back), then after its keep_firing_for:"
        )
        for alert in still:
            typer.echo(f"  {alert.line()}")
