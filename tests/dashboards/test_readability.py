"""Rules every generated dashboard holds so a platform engineer reads it at a glance, whatever the fleet: axes of
quantities that cannot be negative start at 0 and ratios reach 100 %, legends are tables of series names (no file
paths), fractional GPU counts say they are GPU-equivalents, a node's GPUs come in index order, and a failure signal
answers "none" while nothing is wrong (issue 54). The rules live in the shared builders (``sdk``, ``units``,
``zeros``); this checks their output, panel by panel, over the built-in collectors and over every catalog field."""

from __future__ import annotations

from typing import Any

import pytest

from gpuscope.console.frames import build_table, transform
from gpuscope.dashboards.units import GPU_EQUIVALENTS, NON_NEGATIVE
from gpuscope.prom.records import Sample
from gpuscope.rules import RulesConfig
from tests.support.dashboards import built, collectors, every_field, panels, targets

# Labels whose values are file paths (Prometheus' rule_group is "<rule file>;<group>").
PATH_LABELS = ("rule_group", "filename")


@pytest.fixture(scope="module", params=["built-in", "every field"])
def models(request: pytest.FixtureRequest) -> dict[str, Any]:
    return built() if request.param == "built-in" else built(RulesConfig(), collectors(every_field()))


def test_axes_start_at_0_under_non_negative_quantities_and_ratios_reach_100_percent(models: dict[str, Any]) -> None:
    checked = 0
    for file, model in models.items():
        for p in panels(model):
            if p["type"] != "timeseries":
                continue
            d = p["fieldConfig"]["defaults"]
            where = f"{file} / {p['title']}"
            if d.get("unit") in NON_NEGATIVE:
                assert d.get("min") == 0, where
                checked += 1
            if d.get("unit") == "percentunit":
                assert d.get("max") == 1 or d.get("custom", {}).get("axisSoftMax") == 1, where
    assert checked > 50


def test_legends_are_tables_of_series_names_without_paths(models: dict[str, Any]) -> None:
    for file, model in models.items():
        for p in panels(model):
            if p["type"] == "timeseries":
                assert p["options"]["legend"]["displayMode"] == "table", f"{file} / {p['title']}"
        for p, t in targets(model):
            named = [label for label in PATH_LABELS if f"{{{{{label}}}}}" in t.get("legendFormat", "")]
            assert not named, f"{file} / {p['title']}: the legend shows {named}, a file path"


def test_allocated_gpu_counts_are_in_gpu_equivalents_with_one_decimal(models: dict[str, Any]) -> None:
    seen = 0
    for file, model in models.items():
        for p in panels(model):
            if p["type"] in ("stat", "timeseries") and any("gpus_allocated" in t["expr"] for t in p["targets"]):
                d = p["fieldConfig"]["defaults"]
                assert (d.get("unit"), d.get("decimals")) == (GPU_EQUIVALENTS, 1), f"{file} / {p['title']}"
                assert "GPU-equivalents" in p["description"]
                seen += 1
    assert seen >= 4  # L1's and L2's stat and chart


def test_a_node_s_gpu_table_sorts_by_index_as_a_number(models: dict[str, Any]) -> None:
    table = next(p for p in panels(models["l3-node.json"]) if p["title"] == "GPUs on this node")
    assert table["options"]["sortBy"] == [{"displayName": "gpu"}]
    conversions = [c for t in table["transformations"] for c in t["options"].get("conversions", [])]
    assert {"targetField": "gpu", "destinationType": "number"} in conversions


def test_failure_signals_say_none_while_nothing_is_wrong(models: dict[str, Any]) -> None:
    """The signal's first query falls back to 0 behind a gate that needs the pipeline, and 0 reads "none"."""
    titles = {
        "l2-cluster.json": ("Last XID per GPU", "ECC and row-remap events", "Lost GPUs", "Profiling metrics stale"),
        "l1-fleet.json": ("Firing alerts", "Firing alerts by owner"),
        "pipeline.json": ("Exporter targets down",),
    }
    found = set()
    for file, names in titles.items():
        for p in panels(models[file]):
            if p["title"] not in names:
                continue
            found.add((file, p["title"]))
            first = p["targets"][0]["expr"]
            assert "\nor on () (\n  0 * count(" in first, (file, p["title"])
            mappings = list(p["fieldConfig"]["defaults"].get("mappings", [])) + [
                prop["value"][0]
                for o in p["fieldConfig"].get("overrides", [])
                for prop in o["properties"]
                if prop["id"] == "mappings"
            ]
            assert any(m["options"].get("0", {}).get("text") == "none" for m in mappings), (file, p["title"])
    assert found == {(file, title) for file, names in titles.items() for title in names}


def test_the_gpu_identity_table_names_its_columns_in_words_and_shows_no_reading(models: dict[str, Any]) -> None:
    """L4's Identity, as the console (and Grafana's organize) draws it: "driver version", not a field id over a
    "Value" column holding the temperature the query happened to read."""
    panel = next(p for p in panels(models["l4-gpu.json"]) if p["title"] == "Identity")
    labels = {"Hostname": "n1", "gpu": "0", "UUID": "GPU-0", "DCGM_FI_DRIVER_VERSION": "550.54.15"}
    table = transform(build_table([("A", (Sample(labels, 34.0),))], at_s=1, many=False), panel["transformations"])
    assert table.columns == ["Hostname", "gpu", "UUID", "driver version"]
    assert table.rows == [["n1", "0", "GPU-0", "550.54.15"]]
