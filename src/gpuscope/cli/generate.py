"""``gpuscope init``, ``gpuscope generate`` and ``gpuscope budget``: the fleet spec and what it compiles to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from gpuscope.cli._app import app
from gpuscope.errors import UsageError

FleetArg = Annotated[str, typer.Argument(help="The fleet spec (see `gpuscope init`).")]


@app.command("init")
def init_command(
    path: Annotated[str, typer.Argument(help="Where to write the example spec.")] = "fleet.yaml",
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Write a commented example fleet spec to start from."""
    from gpuscope.spec.load import example_text

    target = Path(path)
    if target.exists() and not force:
        raise UsageError(f"{path} already exists; pass --force to overwrite it or give another path")
    try:
        target.write_text(example_text(), encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    typer.echo(f"wrote {path}: edit it, then run `gpuscope generate {path} -o bundle`")


@app.command("generate")
def generate_command(
    fleet: FleetArg,
    output: Annotated[str, typer.Option("-o", "--output", help="Bundle directory.")] = "bundle",
) -> None:
    """Compile the fleet spec into a monitoring bundle (byte-identical on re-run)."""
    from gpuscope.bundle import write_bundle
    from gpuscope.generate.compose import generate_bundle
    from gpuscope.spec.load import load_fleet

    loaded = load_fleet(fleet)
    bundle = generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv)
    changed = write_bundle(bundle, output)
    typer.echo(f"{output}: {len(bundle.files)} files, {len(changed)} changed (see {output}/README.md)")


@app.command("budget")
def budget_command(
    fleet: FleetArg,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Series, samples/s, head memory and remote-write bandwidth per cluster, against the budget."""
    from rich.console import Console
    from rich.table import Table

    from gpuscope.generate.budget import compute_budget
    from gpuscope.generate.readme import BUDGET_COLUMNS, budget_rows
    from gpuscope.spec.load import load_fleet

    loaded = load_fleet(fleet)
    report = compute_budget(loaded.spec, loaded.collectors)
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2, sort_keys=True))
        return
    table = Table(
        title=f"Budget for {loaded.spec.name} (per Prometheus replica; budget "
        f"{report.budget_head_series:,} head series)"
    )
    for column in BUDGET_COLUMNS:
        table.add_column(column, justify="left" if column in ("cluster", "verdict") else "right")
    for row in budget_rows(report):
        table.add_row(*row)
    console = Console(width=200)
    console.print(table)
    for name, verdict in report.mimir_verdicts:
        console.print(f"Mimir tenant {name}: {verdict}")
