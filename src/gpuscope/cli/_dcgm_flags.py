"""dcgm-exporter's flags that gpuscope accepts without acting on them, and the argument forms of its CLI parser.

A flag the GPU Operator, dcgm-exporter's Helm chart or a user's values pass must never stop the exporter (a pod
that exits on start crash-loops). So every flag of the current dcgm-exporter release is accepted; the ones with
no effect here say so in one log line at start, and only when they were set (flag or env var). The README's flag
table lists every flag and its status.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

import typer

log = logging.getLogger("gpuscope")

# parameter name -> why it has no effect here (logged once at start when set).
INERT: dict[str, str] = {
    "switch_devices": "gpuscope serves GPU and GPU-instance entities only, not NvSwitches",
    "cpu_devices": "gpuscope serves GPU and GPU-instance entities only, not CPUs or CPU cores (Grace)",
    "enable_dcgm_log": "gpuscope reports DCGM errors in its own log (stderr); DCGM's own log is not forwarded",
    "dcgm_log_level": "DCGM's own log is not forwarded; use --debug for gpuscope's detail",
    "dump_enabled": "file dumps of DCGM calls are not implemented; /health and the self-metrics "
    "(gpuscope_exporter_*) carry the exporter's state",
    "dump_directory": "file dumps are not implemented (see --dump-enabled)",
    "dump_retention": "file dumps are not implemented (see --dump-enabled)",
    "dump_compression": "file dumps are not implemented (see --dump-enabled)",
    "disable_startup_validate": "gpuscope never exits on a missing GPU or driver: it serves /health 503 and "
    "retries every collection",
    "enable_gpu_bind_unbind_watch": "GPUs that fall off or come back are seen at the next collection; no "
    "separate watch is needed",
    "gpu_bind_unbind_poll_interval": "see --enable-gpu-bind-unbind-watch",
}

DCGM_LOG_LEVELS = ("NONE", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "VERB")


def was_set(ctx: typer.Context, name: str) -> bool:
    """True when a parameter came from the command line or its env var, not from its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")


def _flag_of(ctx: typer.Context, name: str) -> str:
    for param in ctx.command.params:
        if param.name == name:
            return "/".join(param.opts)
    return name


def inert_lines(ctx: typer.Context, names: Iterable[str] = INERT) -> list[str]:
    """One line per inert flag that was set, naming it and why it has no effect."""
    return [
        f"{_flag_of(ctx, name)} is accepted and has no effect: {INERT[name]}" for name in names if was_set(ctx, name)
    ]


def log_inert(ctx: typer.Context) -> None:
    for line in inert_lines(ctx):
        log.info("%s", line)


_TRUE = frozenset({"1", "t", "true", "yes", "y", "on"})
_FALSE = frozenset({"0", "f", "false", "no", "n", "off"})


def normalise_bool_args(command: Any, args: Sequence[str]) -> list[str]:
    """dcgm-exporter's parser takes ``--flag=false`` for a boolean; click's flags take no value. Rewrite
    ``--flag=<bool>`` to ``--flag`` or ``--no-flag`` (a value that is not a boolean is left for click to refuse)."""
    flags: dict[str, tuple[str, str | None]] = {}
    for param in command.params:
        if getattr(param, "is_flag", False) and getattr(param, "is_bool_flag", False):
            off = next((o for o in param.secondary_opts if o.startswith("--")), None)
            for opt in param.opts:
                flags[opt] = (next((o for o in param.opts if o.startswith("--")), opt), off)
    out: list[str] = []
    for position, arg in enumerate(args):
        if arg == "--":
            out.extend(args[position:])
            break
        name, sep, value = arg.partition("=")
        if sep and name in flags and value.lower() in _TRUE | _FALSE:
            on, off = flags[name]
            if value.lower() in _TRUE:
                out.append(on)
            elif off is not None:
                out.append(off)
            continue
        out.append(arg)
    return out


# The Kubernetes attribution flags that act only with -k/--kubernetes (as dcgm-exporter's).
KUBERNETES_ONLY = (
    "kubernetes_enable_pod_labels",
    "kubernetes_enable_pod_uid",
    "kubernetes_pod_label_allowlist_regex",
    "kubernetes_virtual_gpus",
    "kubernetes_enable_dra",
)


def needs_kubernetes_lines(ctx: typer.Context, kubernetes: bool) -> list[str]:
    """One line per Kubernetes attribution flag that was set without -k/--kubernetes (then it has no effect)."""
    if kubernetes:
        return []
    return [
        f"{_flag_of(ctx, name)} has no effect without -k/--kubernetes (env DCGM_EXPORTER_KUBERNETES)"
        for name in KUBERNETES_ONLY
        if was_set(ctx, name)
    ]
