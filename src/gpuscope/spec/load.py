"""Loading a fleet spec: YAML -> ``FleetSpec``, and the collectors CSV it names (relative to the spec file)."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from gpuscope.fields.catalog import Dialect
from gpuscope.fields.collectors import CollectorSet, default_counters_text, parse_collectors, read_collectors_text
from gpuscope.spec.fleet import FleetSpec
from gpuscope.spec.source import load_yaml_model, parse_yaml_model


@dataclass(frozen=True, slots=True)
class LoadedSpec:
    spec: FleetSpec
    collectors: CollectorSet
    collectors_csv: str


def example_text() -> str:
    """The commented example ``gpuscope init`` writes."""
    return resources.files("gpuscope.spec").joinpath("example-fleet.yaml").read_text(encoding="utf-8")


def load_fleet(path: str) -> LoadedSpec:
    spec = load_yaml_model(path, FleetSpec, "the fleet spec argument")
    return _with_collectors(spec, Path(path).parent)


def parse_fleet(text: str, source: str, base: Path) -> LoadedSpec:
    return _with_collectors(parse_yaml_model(text, source, FleetSpec), base)


def _with_collectors(spec: FleetSpec, base: Path) -> LoadedSpec:
    dialect = Dialect(spec.exporter.dialect)
    if spec.exporter.collectors is None:
        text = default_counters_text()
        return LoadedSpec(spec, parse_collectors(text, "<built-in default-counters.csv>", dialect), text)
    csv_path = str(base / spec.exporter.collectors)
    text = read_collectors_text(csv_path, "exporter.collectors in the fleet spec")
    return LoadedSpec(spec, parse_collectors(text, csv_path, dialect), text)
