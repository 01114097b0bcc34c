"""``--config-file``: dcgm-exporter's YAML configuration file, versions 1 and 2, read once at start.

Where the schema comes from, read in NVIDIA/dcgm-exporter (version 1 came with 4.8.3, PR #711; version 2, with
plural ``collections``, and the field-watch retention with 4.8.4, PR #745):

- Version 1's code: the stored ``internal/pkg/appconfig/yaml_config.go`` is the 4.8.3 one and knows version 1 only:
  ``version``, ``metrics.file``/``fields`` and ``collection.interval``/``watchGroups`` (name, interval, fields), with
  its checks (one document, unknown and repeated keys, exactly one of file or fields, each inline field's name,
  prometheusType and help required and its name unique, positive whole-millisecond intervals, a watch group's name
  required and unique and its fields non-empty).
- The 4.8.4 ``yaml_config.go`` was not available, so everything else is from documents, not code: version 2 and
  the retention keys from 4.8.4's release notes (field-watch retention "through CLI, environment, and YAML
  configuration"; "the version 2 YAML schema with plural collections while preserving version 1 compatibility")
  and 4.8.4's Helm chart README (``deployment/README.md``: the version 2 keys ``metrics.enableExporterMetrics``,
  ``sources.dcgm.watch.maxKeepAge``/``maxKeepSamples``, ``collections[].name``/``every``/``metrics.include``/
  ``sources``, ``sources.dcgm.detectBindUnbind.enabled``/``pollInterval``, ``server.maxConcurrentScrapes``; the
  all-fields ``scrape`` collection as the default cadence; start-up failing when an override pattern matches no
  configured field or two overrides match one field; version 1 taking only its singular ``collection`` and the two
  schemas not mixing), and from the 4.8.4 ``pkg/cmd/app.go`` (flags and env vars that were set win over the file;
  ``validateConfig``: ``maxConcurrentScrapes`` above 0, each watch group's retention valid against the default).
- What those documents leave open is gpuscope's reading, on the lenient side: version 1 also takes
  ``collection.retention``/``watchGroups[].retention`` (``maxAge``, ``maxSamples``), ``metrics.enableExporterMetrics``,
  ``sources.dcgm.detectBindUnbind`` and ``server``; ``metrics`` may hold ``enableExporterMetrics`` alone; version 2's
  checks are version 1's code's where the README says nothing.

Version 1::

    version: 1
    metrics: {file: PATH | fields: [{name, prometheusType, help}], enableExporterMetrics: BOOL}
    collection:
      interval: DURATION
      retention: {maxAge: DURATION, maxSamples: N}
      watchGroups: [{name, interval: DURATION, fields: [PATTERN], retention: {maxAge, maxSamples}}]
    sources: {dcgm: {detectBindUnbind: {enabled: BOOL, pollInterval: DURATION}}}
    server: {maxConcurrentScrapes: N}

Version 2::

    version: 2
    metrics: (as in version 1)
    sources: {dcgm: {watch: {maxKeepAge: DURATION, maxKeepSamples: N}, detectBindUnbind: {...}}}
    collections:
      - {name, every: DURATION, metrics: {include: [PATTERN]}, sources: {dcgm: {watch: {maxKeepAge, maxKeepSamples}}}}
    server: {maxConcurrentScrapes: N}

A collection whose ``include`` is exactly ``["*"]`` sets the default interval and retention; any other
collection (and every version 1 watch group) is an override for the fields its patterns match. The checks (from
the sources above): unknown and repeated keys, more than one document, ``file`` with ``fields``, a non-positive or
sub-millisecond interval, a negative retention, an override with both limits zero, a repeated name. Each refusal
is one line naming ``file:line`` and the key. Durations are Go's (``300ms``, ``30s``, ``1m30s``).

This module is pure but for ``load``: it returns what the file says; ``cli/_options.py`` lets the flags and
environment variables that were set win over it (dcgm-exporter's precedence) and builds the settings.
"""

from __future__ import annotations

import csv
import fnmatch
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import yaml

from gpuscope.durations import go_seconds
from gpuscope.errors import SpecError, UsageError
from gpuscope.inputs import compose
from gpuscope.inputs.files import read_text

__all__ = [
    "ConfigFile",
    "Retention",
    "WatchGroup",
    "describe",
    "load",
    "match_groups",
    "parse",
]

_MAX_INT32 = 2**31 - 1
_MAX_INT64 = 2**63 - 1


@dataclass(frozen=True, slots=True)
class Retention:
    """A field-watch retention override (DCGM's ``maxKeepAge``/``maxKeepSamples``); None: not given here."""

    max_keep_age_s: float | None = None
    max_keep_samples: int | None = None

    def over(self, base: Retention) -> Retention:
        """This override on top of ``base`` (a property given here wins)."""
        return Retention(
            self.max_keep_age_s if self.max_keep_age_s is not None else base.max_keep_age_s,
            self.max_keep_samples if self.max_keep_samples is not None else base.max_keep_samples,
        )


@dataclass(frozen=True, slots=True)
class WatchGroup:
    """A version 1 watch group or a version 2 collection that is not the all-fields one."""

    name: str
    interval_ms: int
    patterns: tuple[str, ...]
    retention: Retention = Retention()
    line: int = 0


@dataclass(frozen=True, slots=True)
class ConfigFile:
    """What a configuration file sets; None (or empty): the file does not set it."""

    path: str
    version: int
    metrics_file: str | None = None
    metrics_csv: str | None = None  # inline ``metrics.fields`` as collectors CSV text
    enable_exporter_metrics: bool | None = None
    collect_interval_ms: int | None = None
    retention: Retention = Retention()
    retention_line: int = 0  # where the file sets ``retention`` (0: it does not)
    watch_groups: tuple[WatchGroup, ...] = ()
    max_concurrent_scrapes: int | None = None
    detect_bind_unbind: bool | None = None
    bind_unbind_poll_interval: str | None = None
    keys: tuple[str, ...] = field(default=())  # the settings it gives, for the start-up line


_DESCRIBED = {
    "metrics_file": "metrics.file",
    "metrics_csv": "metrics.fields",
    "enable_exporter_metrics": "metrics.enableExporterMetrics",
    "collect_interval_ms": "the collection interval",
    "retention": "the watch retention",
    "watch_groups": "watch groups",
    "max_concurrent_scrapes": "server.maxConcurrentScrapes",
    "detect_bind_unbind": "detectBindUnbind",
    "bind_unbind_poll_interval": "detectBindUnbind.pollInterval",
}


def describe(config: ConfigFile) -> str:
    """What the file sets, for the start-up line (``the collection interval, watch groups (fast, slow)``)."""
    parts = []
    for key in config.keys:
        text = _DESCRIBED.get(key, key)
        if key == "watch_groups":
            text += " (" + ", ".join(g.name for g in config.watch_groups) + ")"
        parts.append(text)
    return ", ".join(parts)


def load(path: str) -> ConfigFile:
    """Read and check the file named by ``--config-file``; one clear ``UsageError`` when it cannot be used."""
    return parse(read_text(path, "config file (--config-file)"), path)


# ---- the node walk -------------------------------------------------------------------------------------------


class _Doc:
    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, node: yaml.Node | None, message: str) -> SpecError:
        line = node.start_mark.line + 1 if node is not None else None
        return SpecError(self.source, line, message)

    def mapping(self, node: yaml.Node, path: str, allowed: Sequence[str]) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, f"{path} must be a mapping")
        out: dict[str, yaml.Node] = {}
        lines: dict[str, int] = {}
        for key_node, value in node.value:
            key = str(key_node.value)
            if key in out:
                raise self.error(key_node, f"duplicate key {path_join(path, key)}; first defined at line {lines[key]}")
            if key not in allowed:
                where = f" in {path}" if path else ""
                raise self.error(key_node, f"unknown key {key!r:.60}{where} (allowed: {', '.join(allowed)})")
            out[key], lines[key] = value, key_node.start_mark.line + 1
        return out

    def sequence(self, node: yaml.Node, path: str) -> list[yaml.Node]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.error(node, f"{path} must be a list")
        return list(node.value)

    def text(self, node: yaml.Node, path: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag == "tag:yaml.org,2002:null":
            raise self.error(node, f"{path} must be a value")
        return str(node.value).strip()

    def boolean(self, node: yaml.Node, path: str) -> bool:
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool":
            return str(node.value).lower() in ("true", "yes", "on", "y")
        raise self.error(node, f"{path} must be true or false")

    def integer(self, node: yaml.Node, path: str) -> int:
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int":
            text = str(node.value).replace("_", "")
            if re.fullmatch(r"[-+]?[0-9]{1,19}", text) and -_MAX_INT64 - 1 <= int(text) <= _MAX_INT64:
                return int(text)  # Go's int is 64 bits: its YAML decoder refuses more
        raise self.error(node, f"{path} must be a whole number (64 bits)")

    def duration(self, node: yaml.Node, path: str) -> float:
        try:
            return go_seconds(self.text(node, path))
        except ValueError as exc:
            raise self.error(node, f"{path}: {exc}") from None

    def interval_ms(self, node: yaml.Node, path: str) -> int:
        seconds = self.duration(node, path)
        if seconds <= 0:
            raise self.error(node, f"{path} must be greater than 0")
        ms = seconds * 1000.0
        if ms < 1 or abs(ms - round(ms)) > 1e-6:
            raise self.error(node, f"{path} must be expressed in whole milliseconds or larger")
        return round(ms)


def path_join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


_V1_TOP = ("version", "sources", "metrics", "collection", "server")
_V2_TOP = ("version", "metrics", "collections", "sources", "server")


def parse(text: str, source: str) -> ConfigFile:
    """The configuration file's settings; ``SpecError`` (``file:line: message``) for anything upstream refuses."""
    doc = _Doc(source)
    root = compose(text, source)  # one document, bounded; more than one is refused
    if root is None:
        raise SpecError(source, None, "the config file is empty: it needs at least 'version: 1' or 'version: 2'")
    if not isinstance(root, yaml.MappingNode):
        raise doc.error(root, "the config file must be a mapping of keys (version, metrics, ...)")
    version_node = next((v for k, v in root.value if str(k.value) == "version"), None)
    version = doc.integer(version_node, "version") if version_node is not None else 0
    if version not in (1, 2):
        raise doc.error(version_node or root, "version must be 1 or 2")
    top = doc.mapping(root, "", _V1_TOP if version == 1 else _V2_TOP)
    out: dict[str, object] = {"path": source, "version": version}
    if "metrics" in top:
        out |= _metrics(doc, top["metrics"])
    if "server" in top:
        server = doc.mapping(top["server"], "server", ("maxConcurrentScrapes",))
        if "maxConcurrentScrapes" in server:
            n = doc.integer(server["maxConcurrentScrapes"], "server.maxConcurrentScrapes")
            if n <= 0:
                raise doc.error(server["maxConcurrentScrapes"], "server.maxConcurrentScrapes must be greater than 0")
            out["max_concurrent_scrapes"] = n
    if "sources" in top:
        out |= _sources(doc, top["sources"], version)
    if version == 1 and "collection" in top:
        out |= _collection_v1(doc, top["collection"])
    if version == 2 and "collections" in top:
        out |= _collections_v2(doc, top["collections"], out.get("retention", Retention()))
    keys = tuple(
        k for k, v in out.items() if k not in ("path", "version", "retention_line") and v not in (None, (), Retention())
    )
    return ConfigFile(**out, keys=keys)  # type: ignore[arg-type]


def _metrics(doc: _Doc, node: yaml.Node) -> dict[str, object]:
    m = doc.mapping(node, "metrics", ("file", "fields", "enableExporterMetrics"))
    out: dict[str, object] = {}
    if "enableExporterMetrics" in m:
        out["enable_exporter_metrics"] = doc.boolean(m["enableExporterMetrics"], "metrics.enableExporterMetrics")
    file = doc.text(m["file"], "metrics.file") if "file" in m else ""
    fields = doc.sequence(m["fields"], "metrics.fields") if "fields" in m else []
    if file and fields:
        raise doc.error(node, "metrics must specify exactly one of file or fields")
    if not file and not fields and "enable_exporter_metrics" not in out:
        raise doc.error(node, "metrics must specify file, fields, or enableExporterMetrics")
    if file:
        out["metrics_file"] = file
    if fields:
        out["metrics_csv"] = _inline_csv(doc, fields)
    return out


def _inline_csv(doc: _Doc, fields: list[yaml.Node]) -> str:
    """``metrics.fields`` as collectors CSV rows, quoted (the CSV parser then checks each name and type)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    seen: dict[str, int] = {}
    for i, node in enumerate(fields):
        path = f"metrics.fields[{i}]"
        f = doc.mapping(node, path, ("name", "prometheusType", "help"))
        values = []
        for key in ("name", "prometheusType", "help"):
            value = doc.text(f[key], f"{path}.{key}") if key in f else ""
            if not value:
                raise doc.error(node, f"{path}.{key} is required")
            if "\n" in value or "\r" in value:
                raise doc.error(f[key], f"{path}.{key} must be one line")
            values.append(value)
        if values[0] in seen:
            raise doc.error(node, f"{path}.name duplicates metrics.fields[{seen[values[0]]}].name {values[0]!r:.60}")
        seen[values[0]] = i
        writer.writerow(values)
    return out.getvalue()


def _retention(doc: _Doc, node: yaml.Node, path: str, age_key: str, samples_key: str) -> Retention:
    r = doc.mapping(node, path, (age_key, samples_key))
    age = samples = None
    if age_key in r:
        age = doc.duration(r[age_key], f"{path}.{age_key}")
        if age < 0:
            raise doc.error(r[age_key], f"{path}.{age_key} must not be negative")
    if samples_key in r:
        samples = doc.integer(r[samples_key], f"{path}.{samples_key}")
        if samples < 0:
            raise doc.error(r[samples_key], f"{path}.{samples_key} must not be negative")
        if samples > _MAX_INT32:
            raise doc.error(r[samples_key], f"{path}.{samples_key} must not exceed {_MAX_INT32}")
    return Retention(age, samples)


def _override(doc: _Doc, node: yaml.Node, path: str, retention: Retention, age: str, samples: str) -> Retention:
    if retention.max_keep_age_s == 0 and retention.max_keep_samples == 0:
        raise doc.error(node, f"{path}: {age} and {samples} cannot both be zero")
    return retention


def _sources(doc: _Doc, node: yaml.Node, version: int) -> dict[str, object]:
    s = doc.mapping(node, "sources", ("dcgm",))
    out: dict[str, object] = {}
    if "dcgm" not in s:
        return out
    dcgm = doc.mapping(
        s["dcgm"], "sources.dcgm", ("detectBindUnbind",) if version == 1 else ("watch", "detectBindUnbind")
    )
    if "watch" in dcgm:
        where = "sources.dcgm.watch"
        retention = _retention(doc, dcgm["watch"], where, "maxKeepAge", "maxKeepSamples")
        out["retention"] = _override(doc, dcgm["watch"], where, retention, "maxKeepAge", "maxKeepSamples")
        out["retention_line"] = dcgm["watch"].start_mark.line + 1
    if "detectBindUnbind" in dcgm:
        path = "sources.dcgm.detectBindUnbind"
        d = doc.mapping(dcgm["detectBindUnbind"], path, ("enabled", "pollInterval"))
        if "enabled" in d:
            out["detect_bind_unbind"] = doc.boolean(d["enabled"], f"{path}.enabled")
        if "pollInterval" in d:
            poll = doc.text(d["pollInterval"], f"{path}.pollInterval")
            if poll:
                if doc.duration(d["pollInterval"], f"{path}.pollInterval") <= 0:
                    raise doc.error(d["pollInterval"], f"{path}.pollInterval must be greater than 0")
                out["bind_unbind_poll_interval"] = poll
    return out


def _names(doc: _Doc, node: yaml.Node, path: str, seen: dict[str, int], index: int) -> str:
    name = doc.text(node, path)
    if not name:
        raise doc.error(node, f"{path} is required")
    if name in seen:
        raise doc.error(node, f"{path} {name!r:.60} is duplicated")
    seen[name] = index
    return name


def _patterns(doc: _Doc, node: yaml.Node, path: str) -> tuple[str, ...]:
    items = doc.sequence(node, path)
    if not items:
        raise doc.error(node, f"{path} must not be empty")
    out = []
    for j, item in enumerate(items):
        text = doc.text(item, f"{path}[{j}]")
        if not text:
            raise doc.error(item, f"{path}[{j}] is required")
        out.append(text)
    return tuple(out)


def _collection_v1(doc: _Doc, node: yaml.Node) -> dict[str, object]:
    c = doc.mapping(node, "collection", ("interval", "retention", "watchGroups"))
    out: dict[str, object] = {}
    if "interval" in c and doc.text(c["interval"], "collection.interval"):
        out["collect_interval_ms"] = doc.interval_ms(c["interval"], "collection.interval")
    if "retention" in c:
        retention = _retention(doc, c["retention"], "collection.retention", "maxAge", "maxSamples")
        out["retention"] = _override(doc, c["retention"], "collection.retention", retention, "maxAge", "maxSamples")
        out["retention_line"] = c["retention"].start_mark.line + 1
    groups: list[WatchGroup] = []
    seen: dict[str, int] = {}
    for i, g_node in enumerate(doc.sequence(c["watchGroups"], "collection.watchGroups") if "watchGroups" in c else []):
        path = f"collection.watchGroups[{i}]"
        g = doc.mapping(g_node, path, ("name", "interval", "fields", "retention"))
        name = _names(doc, g["name"], f"{path}.name", seen, i) if "name" in g else ""
        if not name:
            raise doc.error(g_node, f"{path}.name is required")
        if "interval" not in g:
            raise doc.error(g_node, f"{path}.interval is required")
        if "fields" not in g:
            raise doc.error(g_node, f"{path}.fields must not be empty")
        retention = Retention()
        if "retention" in g:
            retention = _retention(doc, g["retention"], f"{path}.retention", "maxAge", "maxSamples")
            _override(doc, g["retention"], f"{path}.retention", retention, "maxAge", "maxSamples")
        groups.append(
            WatchGroup(
                name=name,
                interval_ms=doc.interval_ms(g["interval"], f"{path}.interval"),
                patterns=_patterns(doc, g["fields"], f"{path}.fields"),
                retention=retention,
                line=g_node.start_mark.line + 1,
            )
        )
    if groups:
        out["watch_groups"] = tuple(groups)
    return out


def _collection_v2(doc: _Doc, c_node: yaml.Node, path: str, seen: dict[str, int], i: int) -> WatchGroup:
    c = doc.mapping(c_node, path, ("name", "every", "metrics", "sources"))
    name = _names(doc, c["name"], f"{path}.name", seen, i) if "name" in c else ""
    if not name:
        raise doc.error(c_node, f"{path}.name is required")
    if "every" not in c:
        raise doc.error(c_node, f"{path}.every is required")
    interval = doc.interval_ms(c["every"], f"{path}.every")
    metrics = doc.mapping(c["metrics"], f"{path}.metrics", ("include",)) if "metrics" in c else {}
    if "include" not in metrics:
        raise doc.error(c_node, f"{path}.metrics.include must not be empty")
    patterns = _patterns(doc, metrics["include"], f"{path}.metrics.include")
    retention = Retention()
    sources = doc.mapping(c["sources"], f"{path}.sources", ("dcgm",)) if "sources" in c else {}
    dcgm = doc.mapping(sources["dcgm"], f"{path}.sources.dcgm", ("watch",)) if "dcgm" in sources else {}
    if "watch" in dcgm:
        where = f"{path}.sources.dcgm.watch"
        retention = _retention(doc, dcgm["watch"], where, "maxKeepAge", "maxKeepSamples")
        _override(doc, dcgm["watch"], where, retention, "maxKeepAge", "maxKeepSamples")
    return WatchGroup(name, interval, patterns, retention, c_node.start_mark.line + 1)


def _collections_v2(doc: _Doc, node: yaml.Node, base: object) -> dict[str, object]:
    items = doc.sequence(node, "collections")
    if not items:
        raise doc.error(node, "collections must contain at least one collection")
    out: dict[str, object] = {}
    groups: list[WatchGroup] = []
    seen: dict[str, int] = {}
    default_name = ""
    for i, c_node in enumerate(items):
        path = f"collections[{i}]"
        group = _collection_v2(doc, c_node, path, seen, i)
        if group.patterns != ("*",):
            groups.append(group)
            continue
        if default_name:
            raise doc.error(c_node, f"{path}.metrics.include duplicates the all-fields collection {default_name!r}")
        default_name = group.name
        out["collect_interval_ms"] = group.interval_ms
        out["retention"] = group.retention.over(base if isinstance(base, Retention) else Retention())
        if group.retention != Retention():
            out["retention_line"] = group.line
    if groups:
        out["watch_groups"] = tuple(groups)
    return out


# ---- watch groups against the collectors ----------------------------------------------------------------------


def match_groups(groups: Iterable[WatchGroup], names: Sequence[tuple[str, int]], source: str) -> dict[int, WatchGroup]:
    """Field id -> the watch group whose patterns (shell-style globs) match its name. As upstream, a pattern that
    matches no configured field, or a field two groups match, is an error (``UsageError`` naming both)."""
    owner: dict[int, WatchGroup] = {}
    for group in groups:
        for pattern in group.patterns:
            hits = [(name, fid) for name, fid in names if fnmatch.fnmatchcase(name, pattern)]
            if not hits:
                raise UsageError(
                    f"{source}:{group.line}: watch group {group.name!r:.60} pattern {pattern!r:.60} matches no "
                    "configured field; fix the pattern or add the field to the collectors"
                )
            for name, fid in hits:
                other = owner.get(fid)
                if other is not None and other is not group:
                    raise UsageError(
                        f"{source}:{group.line}: {name} is matched by watch groups {other.name!r:.60} and "
                        f"{group.name!r:.60}; a field may be in one group only"
                    )
                owner[fid] = group
    return owner
