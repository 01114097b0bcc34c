"""``gpuscope xid``: what an XID means and what to do about it, from the XID catalogue gpuscope carries."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from gpuscope.cli._app import app
from gpuscope.errors import UsageError


def _code(text: str) -> int:
    try:
        code = int(text)
    except ValueError:
        code = -1
    if not 0 < code < 1000:
        raise UsageError(f"invalid XID {text!r}: give a number between 1 and 999, e.g. 'gpuscope xid 79'")
    return code


@app.command("xid")
def xid_command(
    codes: Annotated[list[str] | None, typer.Argument(help="XID codes (default: the critical ones).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Look up XIDs: the driver's message, whether gpuscope pages on it, and the catalogue's recommended action."""
    from gpuscope.fields.xid import CATALOG_VERSION, CRITICAL_XIDS, GPU_FELL_OFF_BUS, xid_info

    infos = [xid_info(_code(c)) for c in codes] if codes else [xid_info(c) for c in CRITICAL_XIDS]
    if as_json:
        rows = [
            {
                "xid": i.code,
                "message": i.message,
                "critical": i.critical,
                "bucket": i.bucket.value if i.bucket else None,
                "from_catalog": i.from_catalog,
                "action": i.action,
            }
            for i in infos
        ]
        typer.echo(json.dumps({"catalog": CATALOG_VERSION, "xids": rows}, indent=2))
        return
    for i in infos:
        alert = "GPUFellOffBus" if i.code == GPU_FELL_OFF_BUS else "GPUXidCritical"
        pages = f"yes, as {alert}" if i.critical else "no (not in the default critical set)"
        if i.bucket is None:
            bucket = "none"
        else:
            bucket = (
                i.bucket.value if i.from_catalog else f"{i.bucket.value} (gpuscope's call: newer than the catalogue)"
            )
        typer.echo(f"XID {i.code}: {i.message}")
        typer.echo(f"  pages:  {pages}")
        typer.echo(f"  bucket: {bucket}")
        typer.echo(f"  action: {i.action}")
    typer.echo(f"Source: {CATALOG_VERSION}.")
