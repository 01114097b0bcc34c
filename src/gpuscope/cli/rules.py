"""``gpuscope rules``: render recording rules and alerts, list them, write their runbooks."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from gpuscope.cli._app import app
from gpuscope.errors import UsageError

rules_app = typer.Typer(
    help="Recording rules and alerts for every GPU failure mode (Prometheus rule files), and their runbooks.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.add_typer(rules_app, name="rules")

ConfigOption = Annotated[
    str | None, typer.Option("--config", help="Rules config YAML (selectors, label names, thresholds, budgets).")
]


def _config(path: str | None):  # type: ignore[no-untyped-def]
    from gpuscope.rules import RulesConfig
    from gpuscope.spec.source import load_yaml_model

    return RulesConfig() if path is None else load_yaml_model(path, RulesConfig, "--config")


def _write(directory: str, files: dict[str, str]) -> None:
    from gpuscope.bundle import inside

    out = Path(directory)
    try:
        out.mkdir(parents=True, exist_ok=True)
        root = out.resolve()
        for name, text in sorted(files.items()):
            inside(root, name, "the rule files").write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write to {directory!r} (-o/--output): {exc.strerror or exc}") from None
    for name in sorted(files):
        typer.echo(str(out / name))


@rules_app.command("render")
def render_command(
    config: ConfigOption = None,
    output: Annotated[str | None, typer.Option("-o", "--output", help="Directory to write the rule files to.")] = None,
) -> None:
    """Render the rule files (recording, alerts, fleet); to stdout unless -o is given."""
    from gpuscope.rules import render_rule_files

    files = render_rule_files(_config(config))
    if output:
        _write(output, files)
        return
    for name, text in files.items():
        sys.stdout.write(f"# --- {name}\n{text}")


@rules_app.command("runbooks")
def runbooks_command(
    config: ConfigOption = None,
    output: Annotated[
        str, typer.Option("-o", "--output", help="Directory for <AlertName>.md files.")
    ] = "docs/runbooks",
) -> None:
    """Write one runbook per alert (what it means, how to confirm, what to do, who owns it)."""
    from gpuscope.rules import runbooks

    _write(output, runbooks(_config(config)))


@rules_app.command("list")
def list_command(config: ConfigOption = None) -> None:
    """List every alert with its owner, severity, for, keep_firing_for and detection bound."""
    from gpuscope.rules import alerts

    for alert in alerts(_config(config)):
        typer.echo(
            f"{alert.name:48} {alert.owner:9} {alert.severity:7} for={alert.for_:5} "
            f"keep_firing_for={alert.keep_firing_for:4} bound={alert.bound}"
        )
