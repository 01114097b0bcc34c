"""YAML input files validated by pydantic, with errors that point at ``file:line:col``.

PyYAML's composer keeps a position mark on every node; we build the plain data from the node tree and remember
where each key and value started, so a validation error on ``clusters[1].node_groups[0].gpus`` can say
``fleet.yaml:14:15: ...``. Unknown keys are errors with a "did you mean" from the model's own field names.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from gpuscope.errors import SpecError, UsageError
from gpuscope.inputs import MissingFile, compose, read_text
from gpuscope.inputs.yamltree import one_line

Model = TypeVar("Model", bound=BaseModel)
Loc = tuple[str | int, ...]


class _PositionedData:
    """Plain data plus the (line, column) of every key path, both 1-based."""

    def __init__(self) -> None:
        self.positions: dict[Loc, tuple[int, int]] = {}  # where each key (or list item) starts
        self.values: dict[Loc, tuple[int, int]] = {}  # where each value starts

    def build(self, node: yaml.Node, path: Loc = ()) -> Any:
        self.positions.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        self.values[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            result: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = _scalar(key_node)
                if key in result:
                    line, col = key_node.start_mark.line + 1, key_node.start_mark.column + 1
                    raise _Duplicate(line, col, str(key))
                if not isinstance(key, str | int):
                    line, col = key_node.start_mark.line + 1, key_node.start_mark.column + 1
                    raise _BadScalar(line, col, f"key {key_node.value!r} must be a name, not a {type(key).__name__}")
                self.positions[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                result[key] = self.build(value_node, (*path, key))
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i)) for i, item in enumerate(node.value)]
        try:
            return _scalar(node)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:  # 2026-13-45, an int of 5,000 digits
            line, col = node.start_mark.line + 1, node.start_mark.column + 1
            raise _BadScalar(line, col, f"cannot read {node.value[:40]!r}: {one_line(exc)}") from None

    def where(self, loc: Loc) -> tuple[int, int] | None:
        # The deepest known prefix: a missing key is reported at its parent mapping.
        for n in range(len(loc), -1, -1):
            if loc[:n] in self.positions:
                return self.positions[loc[:n]]
        return None


class _Duplicate(Exception):
    def __init__(self, line: int, col: int, key: str) -> None:
        self.line, self.col, self.key = line, col, key


class _BadScalar(Exception):
    def __init__(self, line: int, col: int, message: str) -> None:
        self.line, self.col, self.message = line, col, message


def _scalar(node: yaml.Node) -> Any:
    # Resolved tags (int, float, bool, null, timestamps) become Python values exactly as yaml.safe_load does.
    return yaml.constructor.SafeConstructor().construct_object(node, deep=True)


def format_loc(loc: Loc) -> str:
    """``('clusters', 1, 'name')`` -> ``clusters[1].name``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def load_yaml_model(path: str, model: type[Model], name: str = "") -> Model:
    """Read ``path`` and validate it as ``model``; every problem is a ``SpecError`` at file:line:col. ``name`` is
    the parameter that gave the path, named when it does not exist (the CLI words it as its flag)."""
    try:
        text = read_text(path, "file")
    except MissingFile:
        hint = f" ({{{name}}})" if name else ""
        raise UsageError(f"file {path!r} does not exist{hint}").naming(*((name,) if name else ())) from None
    return parse_yaml_model(text, path, model)


def parse_yaml_model(text: str, source: str, model: type[Model]) -> Model:
    """Validate YAML text as ``model``, reporting errors as ``source:line:col: message``."""
    node = compose(text, source)  # bounded: aliases, depth, merge and complex keys refused with a location
    data_builder = _PositionedData()
    try:
        data = data_builder.build(node) if node is not None else {}
    except _Duplicate as dup:
        raise SpecError(source, dup.line, f"key {dup.key!r} appears twice in the same mapping", dup.col) from None
    except _BadScalar as bad:
        raise SpecError(source, bad.line, bad.message, bad.col) from None
    if not isinstance(data, Mapping):
        raise SpecError(source, 1, f"expected a mapping of settings at the top, got {type(data).__name__}", 1)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _first_error(exc, source, data_builder, model) from None


def _first_error(exc: ValidationError, source: str, data: _PositionedData, model: type[BaseModel]) -> SpecError:
    found = exc.errors()
    # An error on a container caused by a bad item ("tuple too short after validation") is noise next to the
    # item's own error; a misspelt key causes both "unknown key" and "missing key" and the first names the fix.
    locs = [tuple(e["loc"]) for e in found]
    specific = [
        e for e in found if not any(len(o) > len(e["loc"]) and o[: len(e["loc"])] == tuple(e["loc"]) for o in locs)
    ]
    errors = sorted(specific, key=lambda e: (e["type"] != "extra_forbidden", data.where(tuple(e["loc"])) or (0, 0)))
    err = errors[0]
    loc: Loc = tuple(err["loc"])
    value_error = err["type"] not in ("extra_forbidden", "missing")
    where = data.values.get(loc) if value_error and loc in data.values else data.where(loc)
    line, col = where if where else (None, None)
    path = format_loc(loc)
    if err["type"] == "extra_forbidden":
        allowed = _fields_at(model, loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        message = f"unknown key {path!r}{hint}; allowed here: {', '.join(sorted(allowed))}"
    elif err["type"] == "missing":
        message = f"missing required key {path!r}"
    elif err["type"] == "too_short":
        message = f"{path}: list at least {err.get('ctx', {}).get('min_length', 1)}"
    else:
        text = str(err["msg"]).removeprefix("Value error, ")
        message = f"{path}: {text}" if path else text
        if isinstance(err.get("input"), str | int | float | bool) and err["type"] != "value_error":
            message += f" (got {err['input']!r})"
    return SpecError(source, line, message, col)


def _fields_at(model: type[BaseModel], loc: Loc) -> list[str]:
    """The field names of the (nested) model found at ``loc``."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        fields = getattr(current, "model_fields", None)
        if not fields or part not in fields:
            return []
        current = _model_of(fields[part].annotation)
    fields = getattr(current, "model_fields", None)
    return list(fields) if fields else []


def _model_of(annotation: Any) -> Any:
    """Unwrap list[X], tuple[X, ...], X | None and friends down to a BaseModel subclass, if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_of(arg)
        if found is not None:
            return found
    return None
