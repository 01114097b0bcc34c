"""``gpuscope exporter``'s arguments read without running typer's parameter processing, for a node exporter's memory.

Typer (0.29) turns each argument into its value through a pydantic validator built per parameter: pydantic and
typer's adapters, about 9 MiB that a node exporter would hold for its whole life (docs/exporter.md, import weight).
This reader takes the same parameters from the same click command typer builds (names, environment variables,
defaults) and the command's signature (types, ranges), and reads the forms that Helm charts, the GPU Operator and
users pass: ``--name value``, ``--name=value``, ``-x value``, a boolean flag and its ``--no-`` form, environment
variables (a boolean's as click reads one). Anything else (``--help``, an unknown or malformed option, a value that
is not an integer or out of range, a bare argument, an option given as the value of another) returns None, and
typer parses the arguments as it always has: every error and every help text stays typer's.

``tests/test_cli_quickargs.py`` checks this reader against typer's own parse of the same arguments.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# click's BoolParamType: the strings it reads as a boolean (compared in lower case, surrounding blanks removed).
_TRUE = frozenset({"1", "true", "t", "yes", "y", "on"})
_FALSE = frozenset({"0", "false", "f", "no", "n", "off"})
_INTEGER = re.compile(r"[+-]?[0-9]+")


@dataclass(frozen=True, slots=True)
class Param:
    """One option: how it is spelled and read."""

    name: str
    opts: tuple[str, ...]
    off: tuple[str, ...]  # a boolean's negative names (``--no-dump-compression``)
    envvar: str | None
    default: Any
    kind: type  # bool, int or str (``str | None`` reads as str)
    min: int | None = None
    max: int | None = None


@dataclass(frozen=True, slots=True)
class Parsed:
    values: Mapping[str, Any]  # every parameter's value, by name
    set_names: frozenset[str]  # the parameters given on the command line or by their environment variable


def params_of(command: Any, func: Callable[..., Any]) -> tuple[Param, ...] | None:
    """The click ``command``'s options with ``func``'s types and ranges; None if one is of a kind not read here."""
    hints = inspect.signature(func).parameters
    out: list[Param] = []
    for p in command.params:
        annotation = hints[p.name].annotation
        base, *meta = typing.get_args(annotation) or (annotation,)
        kind = _kind(base)
        if kind is None or p.nargs != 1 or p.multiple or not isinstance(p.envvar, str | None):
            return None
        info = meta[0] if meta else None
        out.append(
            Param(
                name=p.name,
                opts=tuple(p.opts),
                off=tuple(p.secondary_opts),
                envvar=p.envvar,
                default=p.default,
                kind=kind,
                min=getattr(info, "min", None),
                max=getattr(info, "max", None),
            )
        )
    return tuple(out)


def _kind(base: Any) -> type | None:
    if base in (bool, int, str):
        return typing.cast(type, base)
    if set(typing.get_args(base)) == {str, type(None)}:
        return str
    return None


def parse(params: Sequence[Param], args: Sequence[str], environ: Mapping[str, str]) -> Parsed | None:
    """The values ``args`` and ``environ`` give ``params``, or None where typer must read them (see the module)."""
    given = _read_args(params, args)
    if given is None:
        return None
    values: dict[str, Any] = {}
    for p in params:
        if p.name in given:
            values[p.name] = given[p.name]
            continue
        raw = environ.get(p.envvar, "") if p.envvar else ""
        if not raw:  # click: an empty variable is no value
            values[p.name] = p.default
            continue
        value = _env_bool(raw) if p.kind is bool else _value(p, raw)
        if value is None:
            return None
        values[p.name] = value
        given[p.name] = value
    return Parsed(values=values, set_names=frozenset(given))


def _read_args(params: Sequence[Param], args: Sequence[str]) -> dict[str, Any] | None:
    """The values given on the command line, by parameter name (the last one of a repeated option, as click)."""
    by_opt: dict[str, tuple[Param, bool]] = {}
    for p in params:
        by_opt.update(dict.fromkeys(p.opts, (p, True)))
        by_opt.update(dict.fromkeys(p.off, (p, False)))
    given: dict[str, Any] = {}
    i = 0
    while i < len(args):
        name, sep, attached = args[i].partition("=")
        if name not in by_opt:
            return None  # --help, an unknown option, a bare argument, "--", combined short flags...
        param, positive = by_opt[name]
        if sep and (param.kind is bool or not name.startswith("--")):
            # --flag=value is dcgm-exporter's form, rewritten before this (normalise_dcgm_args); click reads
            # "-c=5" as the value "=5" of -c: typer says what either means
            return None
        if param.kind is bool:
            given[param.name] = positive
            i += 1
            continue
        if sep:
            raw, i = attached, i + 1
        elif i + 1 < len(args) and not args[i + 1].startswith("-"):
            raw, i = args[i + 1], i + 2
        else:
            return None  # no value, or an option where the value should be: typer decides
        value = _value(param, raw)
        if value is None:
            return None
        given[param.name] = value
    return given


def _value(param: Param, raw: str) -> Any:
    if param.kind is str:
        return raw
    if param.kind is bool or not _INTEGER.fullmatch(raw):
        return None
    number = int(raw)
    if (param.min is not None and number < param.min) or (param.max is not None and number > param.max):
        return None
    return number


def _env_bool(raw: str) -> bool | None:
    text = raw.strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None
