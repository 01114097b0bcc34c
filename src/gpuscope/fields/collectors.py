"""The collectors CSV: dcgm-exporter's field-list grammar, parsed with errors that point at the real line.

Grammar (as dcgm-exporter's Go ``encoding/csv`` reader with ``Comment='#'``): one record per line, exactly three
columns ``field, Prometheus type, help``; a line starting with ``#`` is a comment; blank lines are skipped;
RFC 4180 quoting lets a help text contain commas; spaces around a column are trimmed. ``label`` rows become
labels on every series of the entity instead of metric families.

Leniency where dcgm-exporter is lenient, so the files it ships load: a field listed twice is served once (the
first row wins, with a warning), and a field DCGM removed is skipped with a line naming its replacement. Beyond
it, so that one line never costs the whole node: a field whose value cannot have the row's type (a string field
declared ``gauge``) is left out with a warning, and a field NVIDIA's dcgm_fields.h defines that the catalog has no
row for (``catalog.header_field``) is accepted (``CollectorSet.header_only``, one line for all of them): the DCGM
backend reads it by its header id, the other backends report it as unsupported. Those lines are returned in
``CollectorSet.warnings``; whoever loads the file logs them.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources
from typing import NoReturn

from gpuscope.errors import SpecError, UsageError
from gpuscope.fields.catalog import (
    BY_ID,
    LEGACY_NAMES,
    REMOVED_FIELDS,
    RENAMED_IN_4_10,
    Dialect,
    Field,
    MetricType,
    ValueKind,
    header_field,
    header_tables,
    resolve,
    suggest,
)
from gpuscope.inputs import MissingFile, read_text

DEFAULT_COUNTERS_RESOURCE = "default-counters.csv"
_TYPES = ", ".join(t.value for t in MetricType)


@dataclass(frozen=True, slots=True)
class Metric:
    """One CSV row resolved against the catalog."""

    field: Field
    name: str
    type: MetricType
    help: str
    line: int


@dataclass(frozen=True, slots=True)
class CollectorSet:
    """What to export: metric families in file order, and the label fields."""

    source: str
    metrics: tuple[Metric, ...]
    labels: tuple[Metric, ...]
    warnings: tuple[str, ...] = ()  # "source:line: ..." for rows accepted but not served as written
    # rows of fields only dcgm_fields.h knows (no catalog row): read by the DCGM backend, unsupported elsewhere
    header_only: tuple[Metric, ...] = ()

    def field_ids(self) -> frozenset[int]:
        """Every field id a backend must read to serve this set."""
        return frozenset(m.field.field_id for m in (*self.metrics, *self.labels))


def default_counters_text() -> str:
    """The built-in field list, equal to dcgm-exporter's ``etc/default-counters.csv``."""
    return resources.files("gpuscope.fields").joinpath(DEFAULT_COUNTERS_RESOURCE).read_text(encoding="utf-8")


def load_collectors(
    path: str | None,
    dialect: Dialect = Dialect.CLASSIC,
    where: str = "flag -f/--collectors, env DCGM_EXPORTER_COLLECTORS",
) -> CollectorSet:
    """Read and parse a collectors file; ``None`` means the built-in default list. ``where`` names the setting."""
    if path is None:
        text = default_counters_text()
        if dialect is Dialect.DCGM_4_10:  # 4.10.0's shipped collectors name the PROF byte rates *_PER_SECOND
            text = "\n".join(_renamed_4_10(line) for line in text.split("\n"))
        return parse_collectors(text, "<built-in default-counters.csv>", dialect)
    return parse_collectors(read_collectors_text(path, where), path, dialect)


def _renamed_4_10(line: str) -> str:
    name, sep, rest = line.partition(",")
    new = RENAMED_IN_4_10.get(name.strip())
    return f"{new}{sep}{rest}" if new else line


def read_collectors_text(path: str, where: str) -> str:
    """The text of a collectors file: a regular file, size-limited, UTF-8 (a byte-order mark is dropped)."""
    try:
        return read_text(path, "collectors file")
    except MissingFile:
        raise UsageError(
            f"collectors file {path!r} does not exist ({where}); leave it out to use the built-in default list"
        ) from None


def parse_collectors(text: str, source: str, dialect: Dialect = Dialect.CLASSIC) -> CollectorSet:
    """Parse collectors CSV text; raises ``SpecError`` naming ``source:line``."""
    metrics: list[Metric] = []
    labels: list[Metric] = []
    header_only: list[Metric] = []
    warnings: list[str] = []
    seen: dict[str, int] = {}
    for line, columns in _records(text, source):
        name = columns[0].strip() if columns else ""
        if name in REMOVED_FIELDS and len(columns) == 3:
            warnings.append(
                f"{source}:{line}: {name} was removed in DCGM 4.7 and is skipped; list {REMOVED_FIELDS[name]} instead"
            )
            continue
        metric = _row(columns, source, line, dialect)
        if isinstance(metric, str):
            warnings.append(metric)
            continue
        if metric.name in seen:
            warnings.append(
                f"{source}:{line}: {metric.name} is already listed on line {seen[metric.name]}; "
                "served once, as that line says"
            )
            continue
        seen[metric.name] = line
        if metric.field.field_id not in BY_ID and not metric.field.exporter:
            header_only.append(metric)
        else:
            (labels if metric.type is MetricType.LABEL else metrics).append(metric)
    if header_only:
        warnings.append(
            f"{source}: {len(header_only)} field(s) only DCGM's dcgm_fields.h describes are read by their DCGM id "
            "with --backend dcgm and reported as gpuscope_exporter_field_unsupported by the other backends: "
            + ", ".join(f"{m.name} (line {m.line})" for m in header_only)
        )
    if not metrics and not header_only:
        raise SpecError(source, None, "no metric rows: list at least one field (see etc/default-counters.csv)")
    return CollectorSet(source, tuple(metrics), tuple(labels), tuple(warnings), tuple(header_only))


def _records(text: str, source: str) -> list[tuple[int, list[str]]]:
    # Blank out comment lines rather than dropping them, so csv's line numbers stay the file's. A byte-order mark
    # (Excel's "CSV UTF-8") is not part of the first field's name.
    text = text.removeprefix("\ufeff")
    kept = "\n".join("" if ln.startswith("#") else ln for ln in text.splitlines())
    reader = csv.reader(io.StringIO(kept), strict=True, skipinitialspace=True)
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            if row and any(col.strip() for col in row):
                records.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise SpecError(source, reader.line_num, f"malformed CSV: {exc}") from None
    return records


def _unknown_field(source: str, line: int, name: str) -> NoReturn:
    hint = suggest(name)
    extra = f" (did you mean {hint!r}?)" if hint else " (see `gpuscope fields` for the catalog)"
    raise SpecError(source, line, f"unknown field {name!r}{extra}")


def _row(columns: list[str], source: str, line: int, dialect: Dialect) -> Metric | str:
    """The row as a metric, or a warning line when the row is left out (its type cannot carry the value)."""
    if len(columns) != 3:
        raise SpecError(
            source,
            line,
            f"expected 3 columns (DCGM field, Prometheus type, help message), got {len(columns)}; "
            "quote a help text that contains commas",
        )
    name, type_text, help_text = (col.strip(" ") for col in columns)
    resolved = resolve(name, dialect)
    if (
        resolved is None and name not in header_tables().ids
    ):  # the first column first: that is what a reader checks first
        _unknown_field(source, line, name)
    try:
        metric_type = MetricType(type_text)
    except ValueError:
        raise SpecError(source, line, f"unknown Prometheus type {type_text!r}; expected one of: {_TYPES}") from None
    if resolved is None:
        header_only = header_field(name, metric_type, help_text)
        if header_only is None:
            _unknown_field(source, line, name)
        return Metric(header_only, name, metric_type, help_text, line)
    if metric_type is not MetricType.LABEL and resolved.field.value is ValueKind.STRING:
        return (
            f"{source}:{line}: {name} is a string field and cannot be a {metric_type.value}: left out "
            "(declare it `label` to serve it as a label)"
        )
    if metric_type is MetricType.LABEL and resolved.field.exporter:
        raise SpecError(source, line, f"{name!r} is computed by the exporter and cannot be a label")
    if resolved.emitted_name != name and not resolved.field.is_label and name not in LEGACY_NAMES:
        # Renamed by the dialect: the row's help and type describe the old unit, the catalog's the new one.
        return Metric(resolved.field, resolved.emitted_name, resolved.field.type, resolved.field.help, line)
    return Metric(resolved.field, resolved.emitted_name, metric_type, help_text, line)
