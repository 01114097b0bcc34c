"""The shared Typer application and helpers of every ``gpuscope`` command module."""

from __future__ import annotations

import json
import logging
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from gpuscope.errors import UsageError

if TYPE_CHECKING:
    from gpuscope.httpd.listen import ListenAddress

app = typer.Typer(
    name="gpuscope",
    help="GPU fleet telemetry: a dcgm-exporter compatible exporter, simulated fleets, and the monitoring stack.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
sim_app = typer.Typer(
    help="Serve many simulated GPU nodes (one exporter each, on 127.x.y.z) and inject faults into them.",
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
app.add_typer(sim_app, name="sim")

LOG_FORMATS = ("text", "json")


def setup_logging(debug: bool, fmt: str) -> None:
    """Log to stderr as text or JSON lines."""
    level = logging.DEBUG if debug else logging.INFO
    formatter: logging.Formatter = (
        _JsonFormatter() if fmt == "json" else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    quiet_libraries()


def quiet_libraries() -> None:
    """Per-request lines from HTTP libraries drown what the operator needs to see."""
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)


class _JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(
            {
                "time": self.formatTime(record),
                "level": record.levelname,
                "logger": record.name,
                "msg": record.getMessage(),
            }
        )


def choice(value: str, allowed: tuple[str, ...], flag: str) -> str:
    """Validate a string flag against its allowed values, naming the flag on error."""
    if value not in allowed:
        raise UsageError(f"invalid value {value!r} for {flag}: choose one of {', '.join(allowed)}")
    return value


def listen_address(text: str, flag: str) -> ListenAddress:
    """``-a``/``--listen`` of any command, read one way (``gpuscope.httpd.listen``), naming the flag on error."""
    from gpuscope.httpd.listen import ListenAddressError, parse_listen

    try:
        return parse_listen(text)
    except ListenAddressError as exc:
        raise UsageError(exc.worded({"listen": flag})) from None


# The fault flags `gpuscope inject` (the local stack) and `gpuscope sim inject` (one simulated node) share.
FaultGpu = Annotated[int | None, typer.Option("--gpu", min=0, help="GPU index (default: every GPU).")]
FaultCode = Annotated[
    int | None,
    typer.Option("--code", min=1, max=99999, help="XID number for xid (13); SXid for nvswitch-fatal (20034)."),
]
FaultLink = Annotated[
    int | None, typer.Option("--link", min=0, help="NVLink index of the GPU (from 0), for nvlink-down.")
]
FaultSwitch = Annotated[int | None, typer.Option("--switch", min=0, help="NVSwitch id, for nvswitch-fatal.")]
FaultSeconds = Annotated[float, typer.Option("--seconds", min=0, max=3600, help="Read delay for slow.")]
