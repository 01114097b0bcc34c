"""Dashboard options and collectors sets for tests, and Grafana's variable substitution as a test needs it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from gpuscope.dashboards import Options, build
from gpuscope.dashboards.options import collected_fields, recorded_names
from gpuscope.fields.catalog import ALL_FIELDS, RENAMED_IN_4_9, Dialect
from gpuscope.fields.collectors import CollectorSet, load_collectors, parse_collectors
from gpuscope.rules import RulesConfig

_NEW_NAMES = frozenset(RENAMED_IN_4_9.values())
# What Grafana puts in for its own macros when a test runs a query (1 s scrapes: $__rate_interval >= 4 scrapes).
MACROS = {"__rate_interval": "10s", "__interval": "2s", "__range": "1m"}
# A value for every dashboard variable, for a query checked outside Grafana (promtool, a real Prometheus).
VALUES = {
    "cluster": "gpu-a",
    "node": "node-1",
    "gpu": "GPU-0",
    "mig": ".*",
    "namespace": "ml",
    "pod": "train-0",
    "job_id": "j-1",
}


def csv_of(names: list[str]) -> str:
    """A collectors CSV selecting ``names`` (classic catalog names), with the catalog's type and help."""
    by_name = {f.name: f for f in ALL_FIELDS}
    rows = [f"{n}, {by_name[n].type.value}, {by_name[n].help.replace(',', ';')}" for n in names]
    return "\n".join(rows) + "\n"


def every_field() -> list[str]:
    """Every classic catalog field (4.9 names are the same fields under the other dialect)."""
    return [f.name for f in ALL_FIELDS if f.name not in _NEW_NAMES]


def collectors(names: list[str] | None = None, dialect: Dialect = Dialect.CLASSIC) -> CollectorSet:
    if names is None:
        return load_collectors(None, dialect)
    return parse_collectors(csv_of(names), "test.csv", dialect)


def options(config: RulesConfig | None = None, fields: CollectorSet | None = None, **kw: Any) -> Options:
    config = config or RulesConfig()
    kw.setdefault("recorded", recorded_names(config))
    return Options(
        "test-fleet",
        config,
        collected_fields(fields or collectors()),
        expected_gpus=(("gpu-a", 16), ("gpu-b", 8)),
        **kw,
    )


def built(config: RulesConfig | None = None, fields: CollectorSet | None = None, **kw: Any) -> dict[str, Any]:
    return build(options(config, fields, **kw))


def panels(model: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    for panel in model["panels"]:
        if panel["type"] != "row":
            yield panel


def targets(model: Mapping[str, Any]) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for panel in panels(model):
        for target in panel["targets"]:
            yield panel, target


def substitute(text: str, values: Mapping[str, str]) -> str:
    """Grafana's interpolation of ``$var``, ``${var}``, ``${var:fmt}`` and ``[[var]]`` (unknown names stay)."""
    merged = {**MACROS, **values}

    def one(match: re.Match[str]) -> str:
        name = next(g for g in match.groups() if g)
        return merged.get(name, match.group(0))

    return re.sub(r"\$\{([A-Za-z_]\w*)(?::\w+)?\}|\$([A-Za-z_]\w*)|\[\[([A-Za-z_]\w*)\]\]", one, text)


def dumps(models: Mapping[str, Any]) -> str:
    return json.dumps(models, sort_keys=True, indent=2)
