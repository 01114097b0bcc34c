"""The ``gpuscope`` command: parse flags into typed options, call one library function, map errors to exits.

Each command group lives in its own module and registers itself on the shared Typer app when imported here.
Flags and environment variables of ``gpuscope exporter`` are dcgm-exporter's, so Helm charts and GPU Operator
settings carry over. Every bad input ends as one line on stderr and exit code 2; nothing below this package
exits the process.
"""

from __future__ import annotations

import atexit
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import typer
from typer.exceptions import Abort, TyperException

from gpuscope.cli._app import app
from gpuscope.cli._dcgm_flags import normalise_dcgm_args
from gpuscope.cli._flagnames import flag_names
from gpuscope.errors import AuditError, GpuscopeError

# The command modules: importing one registers its commands on ``app``. ``gpuscope exporter`` (and the
# ``dcgm-exporter`` entry point) imports its own only, so a node's exporter does not hold the doctor, the generators,
# the console or the stack runner in memory (docs/exporter.md, import weight).
COMMAND_MODULES = (
    "console",
    "doctor",
    "exporter",
    "generate",
    "job",
    "misc",
    "remediate",
    "report",
    "rules",
    "selftest",
    "sim",
    "up",
    "xid",
)

# Import weight is checked from the real process (tests/exporter/test_import_weight.py, docs/exporter.md): set,
# the process writes the names in sys.modules, one a line, to this file when it exits.
MODULES_FILE_ENV = "GPUSCOPE_MODULES_FILE"

# A bad flag is exit 2 everywhere, except where 2 means something else: doctor's 2 is "checks failed".
PARSE_ERROR_EXIT = {"doctor": AuditError.exit_code}


def main(argv: list[str] | None = None, *, entry: str = "gpuscope") -> int:
    """Entry point: run the command; every error becomes one line on stderr and an exit code. ``entry`` is the
    command that was run (``dcgm-exporter``: the image's, whose attribution default is dcgm-exporter's)."""
    _dump_modules_at_exit(os.environ.get(MODULES_FILE_ENV, ""))
    args = sys.argv[1:] if argv is None else argv
    command = root_command(args)
    quick: Callable[[], None] | None = None
    if args and args[0] == "exporter":  # dcgm-exporter's argument forms: -name, --flag=false, repeated slices
        args = ["exporter", *normalise_dcgm_args(_exporter_click(command), args[1:])]
        quick = _quick_exporter(command, args[1:], entry)
    try:
        if quick is not None:
            quick()
            return 0
        result = command.main(args=args, prog_name="gpuscope", standalone_mode=False, obj={"entry": entry})
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
        sys.stderr.write(f"gpuscope: error: {exc.worded(flag_names(args[0] if args else ''))}\n")
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    return result if isinstance(result, int) else 0


def root_command(args: Sequence[str] = ()) -> Any:
    """The click command of ``gpuscope`` with the commands ``args`` can run: ``exporter``'s alone when ``args``
    start with it, every command otherwise (``--help``, any other command, no arguments)."""
    names = ("exporter",) if args[:1] == ["exporter"] else COMMAND_MODULES
    for name in names:
        importlib.import_module(f"gpuscope.cli.{name}")
    return typer.main.get_command(app)


def _exporter_click(root: Any) -> Any:
    from gpuscope.cli.exporter import exporter_command_click

    return exporter_command_click(root)


def _quick_exporter(root: Any, args: Sequence[str], entry: str) -> Callable[[], None] | None:
    """The exporter with its arguments read by ``_quickargs`` (no pydantic in a node exporter's memory), or None
    when typer has to read them (help, errors, forms that reader leaves to typer)."""
    from gpuscope.cli import _quickargs
    from gpuscope.cli.exporter import exporter_command, run_parsed

    params = _quickargs.params_of(_exporter_click(root), exporter_command)
    parsed = _quickargs.parse(params, args, os.environ) if params is not None else None
    if parsed is None:
        return None
    return lambda: run_parsed(parsed.values, parsed.set_names, entry)


def dcgm_exporter_main() -> int:
    """``dcgm-exporter`` on the PATH (the container image): ``gpuscope exporter`` with dcgm-exporter's arguments."""
    from gpuscope.cli._options import DCGM_EXPORTER_ENTRY

    return main(["exporter", *sys.argv[1:]], entry=DCGM_EXPORTER_ENTRY)


def _dump_modules_at_exit(path: str) -> None:
    if not path:
        return

    def dump() -> None:
        text = "".join(f"{name}\n" for name in sorted(sys.modules))
        with open(path, "w", encoding="utf-8") as f:  # no gpuscope import here: this runs after everything else
            f.write(text)

    atexit.register(dump)
