"""Small informational commands: ``version`` and ``fields``."""

from __future__ import annotations

from typing import Annotated

import typer

from gpuscope import __version__
from gpuscope.cli._app import app


@app.command("version")
def version_command() -> None:
    """Print the gpuscope version."""
    typer.echo(f"gpuscope {__version__}")


@app.command("fields")
def fields_command(
    default: Annotated[bool, typer.Option("--default", help="Only the fields of the default list.")] = False,
    csv_out: Annotated[bool, typer.Option("--csv", help="Print a collectors CSV of the selection.")] = False,
) -> None:
    """List the field catalog: every field gpuscope can serve, with id, type, unit and MIG behaviour."""
    from gpuscope.fields.catalog import ALL_FIELDS

    rows = [f for f in ALL_FIELDS if f.in_default or not default]
    for f in rows:
        if csv_out:
            typer.echo(f'{f.name}, {f.type.value}, "{f.help}"')
        else:
            flags = ",".join(
                x for x, on in (("prof", f.prof), ("exporter", f.exporter), ("default", f.in_default)) if on
            )
            typer.echo(
                f"{f.name:52} {f.field_id:>5} {f.type.value:8} {f.unit or '-':8} {f.entity.value:7} "
                f"mig={f.mig.value:11} level={f.level.value:12} agg={f.aggregation.value:13} {flags}"
            )
