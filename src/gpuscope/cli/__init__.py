"""The ``gpuscope`` command: parse flags into typed options, call one library function, map errors to exits.

Each command group lives in its own module and registers itself on the shared Typer app when imported here.
Flags and environment variables of ``gpuscope exporter`` are dcgm-exporter's, so Helm charts and GPU Operator
settings carry over. Every bad input ends as one line on stderr and exit code 2; nothing below this package
exits the process.
"""

from __future__ import annotations

import sys

import typer
from typer.exceptions import Abort, TyperException

from gpuscope.cli import (  # noqa: F401 - importing registers the commands
    console,
    doctor,
    exporter,
    generate,
    job,
    misc,
    remediate,
    report,
    rules,
    selftest,
    sim,
    up,
    xid,
)
from gpuscope.cli._app import app
from gpuscope.cli._dcgm_flags import normalise_bool_args
from gpuscope.errors import AuditError, GpuscopeError

# A bad flag is exit 2 everywhere, except where 2 means something else: doctor's 2 is "checks failed".
PARSE_ERROR_EXIT = {"doctor": AuditError.exit_code}


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the command; every error becomes one line on stderr and an exit code."""
    command = typer.main.get_command(app)
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "exporter":  # dcgm-exporter's --flag=false form (see _dcgm_flags)
        args = ["exporter", *normalise_bool_args(exporter.exporter_command_click(command), args[1:])]
    try:
        result = command.main(args=args, prog_name="gpuscope", standalone_mode=False)
    except TyperException as exc:  # flag parsing: unknown option, bad value, missing argument
        ctx = getattr(exc, "ctx", None)
        path = ctx.command_path.partition(" ")[2] if ctx is not None else ""
        where = f" (see 'gpuscope {path} --help')" if path else ""
        sys.stderr.write(f"gpuscope: error: {exc.format_message()}{where}\n")
        return PARSE_ERROR_EXIT.get(path.split(" ")[0], 2)
    except Abort:
        sys.stderr.write("gpuscope: aborted\n")
        return 130
    except GpuscopeError as exc:
        sys.stderr.write(f"gpuscope: error: {exc}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    return result if isinstance(result, int) else 0


def dcgm_exporter_main() -> int:
    """``dcgm-exporter`` on the PATH (the container image): ``gpuscope exporter`` with dcgm-exporter's arguments."""
    return main(["exporter", *sys.argv[1:]])
