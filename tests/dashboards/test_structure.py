"""Dashboards are valid Grafana JSON for every configuration, show every collected field, use the alerts'
thresholds, link L1 -> L2 -> L3 -> L4 and L2 -> L5, and come out byte-identical from the same spec."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.dashboards import dashboards
from gpuscope.dashboards.defaults import MAX_UID, uid_for
from gpuscope.dashboards.fields import FAMILIES, collected_by_family, family_of, family_panels
from gpuscope.dashboards.lint import problems, variables_in
from gpuscope.dashboards.options import recorded_names
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.sdk import schema_problems
from gpuscope.fields import companion
from gpuscope.fields.catalog import ALL_FIELDS, RENAMED_IN_4_9, Dialect
from gpuscope.generate.compose import generate_bundle
from gpuscope.rules import RulesConfig, Thresholds, build_groups
from gpuscope.spec.load import parse_fleet
from tests.support.dashboards import VALUES, built, collectors, every_field, options, substitute, targets
from tests.support.prom import binary
from tests.support.specs import ONE, clusters, fleet

CONFIGS = {
    "default": RulesConfig(),
    "4.9-hostname-uuid": RulesConfig(dialect="4.9", host_label="hostname", uuid_label="uuid"),
    "labels-exported": RulesConfig(
        workload_labels="labels", namespace_label="exported_namespace", pod_label="exported_pod"
    ),
    "off": RulesConfig(workload_labels="off", cluster_label="region_cluster"),
    "speedup": RulesConfig(speedup=15, thresholds=Thresholds(nvlink_errors_per_5m=3)),
    "attribution": RulesConfig(pod_group_labels=("team",), virtual_gpus=True, dra=True),
}
KEYS = ("l1-fleet", "l2-cluster", "l3-node", "l4-gpu", "l5-workload", "pipeline", "efficiency", "fabric")


def variants() -> list[tuple[str, RulesConfig, list[str] | None, bool]]:
    out = []
    for name, config in CONFIGS.items():
        for csv_name, fields in (("default-csv", None), ("every-field", every_field())):
            out.append((f"{name}/{csv_name}", config, fields, name != "off"))
    return out


@pytest.mark.parametrize(("name", "config", "fields", "remote_write"), variants(), ids=[v[0] for v in variants()])
def test_dashboards_pass_the_structural_check(
    name: str, config: RulesConfig, fields: list[str] | None, remote_write: bool
) -> None:
    dialect = Dialect(config.dialect)
    models = built(config, collectors(fields, dialect), remote_write=remote_write)
    assert sorted(models) == sorted(f"{k}.json" for k in KEYS)
    uids = {m["uid"] for m in models.values()}
    assert len(uids) == len(models)
    for file, model in models.items():
        assert problems(model, uids) == [], file
        assert schema_problems(model) == [], file
        assert model["schemaVersion"] >= 39
        for panel, target in targets(model):
            assert target["expr"].count("(") == target["expr"].count(")"), (file, panel["title"])


def test_the_lint_catches_what_it_claims() -> None:
    model = built()["l2-cluster.json"]
    broken = yaml.safe_load(yaml.safe_dump(model))  # a deep copy
    broken["uid"] = "x" * 41
    broken["id"] = 7
    first, second = _two_panels(broken)
    second["id"] = first["id"]
    second["gridPos"] = dict(first["gridPos"])
    first["targets"][0]["expr"] += " + on() $nowhere"
    first["targets"][0]["refId"] = ""
    first["datasource"] = {"type": "prometheus", "uid": "some-fixed-uid"}
    first.setdefault("fieldConfig", {}).setdefault("defaults", {})["links"] = [{"title": "x", "url": "/d/nope?a=1"}]
    second["description"] = ""
    heatmap = next(p for p in broken["panels"] if p["type"] == "heatmap")
    heatmap["options"]["color"]["steps"] = 0  # what the SDK writes when steps is never set
    found = "\n".join(problems(broken, {model["uid"]}))
    first["options"]["legendz"] = {"showLegend": True}
    assert any("/legendz: not in the schema" in p for p in schema_problems(broken))
    for expected in (
        "uid",
        "id must be null",
        "unique positive integer",
        "overlaps",
        "$nowhere",
        "refId",
        "datasource must be",
        "no known dashboard",
        "no description",
        "heatmap color steps 0 outside Grafana's 2-128",
    ):
        assert expected in found, expected


def _two_panels(model: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    found = [p for p in model["panels"] if p["type"] != "row"]
    return found[0], found[1]


def test_variables_in_ignores_regex_backreferences() -> None:
    assert variables_in('label_replace(x, "a", "$1", "b", "(.*)") and $gpu ${node:queryparam} [[mig]]') == [
        "gpu",
        "node",
        "mig",
    ]


def test_every_catalog_field_has_a_family_and_l4_shows_every_collected_field() -> None:
    # 4.9 names are the classic fields under another name; dashboards name fields classically.
    renamed = set(RENAMED_IN_4_9.values())
    assert [f.name for f in ALL_FIELDS if not (f.is_label or f.name in renamed or family_of(f.name))] == []
    assert len({f.title for f in FAMILIES}) == len(FAMILIES)
    for dialect in Dialect:
        opts = options(RulesConfig(dialect=dialect.value), collectors(every_field(), dialect))
        gpu = next(d for d in dashboards(opts) if d.key == "l4-gpu")
        shown = [f for row in gpu.rows[1:] for p in row.panels for q in p.queries for f in q.fields]
        numeric = {n for n in opts.fields if not next(f for f in ALL_FIELDS if f.name == n).is_label}
        assert numeric - set(shown) == set(), dialect
        # Each field in exactly one family panel (extra panels, like the decoded clock reasons, read some again).
        q = Q(opts)
        per_field = [
            f
            for family, members in collected_by_family(q)
            for p in family_panels(q, family, members)
            for query in p.queries
            for f in query.fields
        ]
        assert sorted(per_field) == sorted(numeric), dialect


def test_panels_for_uncollected_fields_are_left_out() -> None:
    default = built()
    exprs = " ".join(t["expr"] for m in default.values() for _, t in targets(m))
    # The default CSV has neither SM active nor NVLink error counters: nothing may query them.
    assert "DCGM_FI_PROF_SM_ACTIVE" not in exprs and "gpu:sm_active" not in exprs
    assert "NVLINK_CRC" not in exprs
    full = " ".join(t["expr"] for m in built(fields=collectors(every_field())).values() for _, t in targets(m))
    assert "gpu:sm_active:avg5m" in full and "NVLINK_CRC" in full


def test_panels_use_the_configured_labels_and_dialect() -> None:
    config = CONFIGS["4.9-hostname-uuid"]
    models = built(config, collectors(None, Dialect.DCGM_4_9))
    text = " ".join(t["expr"] + t.get("legendFormat", "") for m in models.values() for _, t in targets(m))
    assert "DCGM_FI_DEV_GPU_TEMP_CELSIUS" in text and "DCGM_FI_DEV_GPU_TEMP{" not in text
    assert "hostname" in text and "Hostname" not in text
    assert 'uuid="$gpu"' in text and "UUID" not in text
    off = built(CONFIGS["off"])
    assert not any("namespace" in v["name"] for v in off["l5-workload.json"]["templating"]["list"])
    assert "region_cluster=~" in off["l2-cluster.json"]["panels"][1]["targets"][0]["expr"]


def test_thresholds_match_the_alerts() -> None:
    config = RulesConfig(
        head_series_budget=1000,
        thresholds=Thresholds(thermal_temperature_celsius=83, idle_activity_ratio=0.1, thermal_violation_ratio=0.3),
    )
    models = built(config, collectors(every_field()), scrape_timeout_s=7.0, remote_write=True)

    def steps(file: str, title: str) -> list[Any]:
        panel = next(p for p in models[file]["panels"] if p.get("title") == title)
        return [s["value"] for s in panel["fieldConfig"]["defaults"]["thresholds"]["steps"]]

    assert steps("l3-node.json", "Temperature")[-1] == 83
    assert steps("l2-cluster.json", "Top allocated-but-idle GPUs") == [None, 0.1]
    assert steps("l2-cluster.json", "Thermal throttling (top 10)")[-1] == pytest.approx(0.3, abs=0.01)
    assert steps("pipeline.json", "Head series vs budget")[1:] == [
        pytest.approx(800, abs=0.01),
        pytest.approx(1000, abs=0.01),
    ]
    assert steps("pipeline.json", "Scrape duration vs timeout")[-1] == 7.0
    # Units come from the catalog, scaled to base units.
    units = {
        p["title"]: p["fieldConfig"]["defaults"]["unit"] for p in models["l4-gpu.json"]["panels"] if "fieldConfig" in p
    }
    assert units["Temperature"] == "celsius"
    assert units["Clocks"] == "hertz"
    assert units["Framebuffer (bytes)"] == "bytes"
    assert units["Throttled time"] == "percentunit"


def _dashboard_uid(url: str) -> str:
    """The dashboard a drill-down link opens (``/d/<uid>?...``)."""
    link = re.match(r"/d/([^?]+)", url)
    assert link, f"{url} does not open a dashboard"
    return link.group(1)


def test_drill_down_links() -> None:
    models = built()
    uid = {k: models[f"{k}.json"]["uid"] for k in KEYS}

    def targets_of(key: str) -> set[str]:
        model = models[f"{key}.json"]
        urls = [link["url"] for link in model["links"]]
        urls += [
            link["url"]
            for p in model["panels"]
            for link in p.get("fieldConfig", {}).get("defaults", {}).get("links", [])
        ]
        return {_dashboard_uid(u) for u in urls}

    assert uid["l2-cluster"] in targets_of("l1-fleet")
    assert {uid["l3-node"], uid["l4-gpu"], uid["l5-workload"]} <= targets_of("l2-cluster")
    assert uid["l4-gpu"] in targets_of("l3-node")
    assert uid["l4-gpu"] in targets_of("l5-workload")
    assert uid["efficiency"] in targets_of("l1-fleet") and uid["efficiency"] in targets_of("l5-workload")
    node_link = next(
        link["url"]
        for p in models["l2-cluster.json"]["panels"]
        if p.get("title") == "Nodes"
        for link in p["fieldConfig"]["defaults"]["links"]
    )
    assert node_link.startswith(f"/d/{uid['l3-node']}?var-node=${{__data.fields.Hostname}}")
    assert "${cluster:queryparam}" in node_link and "${__url_time_range}" in node_link


def test_uids_are_derived_from_names_and_fit_grafana() -> None:
    assert uid_for("prod", "l2-cluster") == "prod-l2-cluster"
    long = uid_for("a" * 63, "l5-workload")
    assert len(long) == MAX_UID and long.endswith("-l5-workload") and long == uid_for("a" * 63, "l5-workload")
    assert long != uid_for("a" * 62 + "b", "l5-workload")


def test_bundle_carries_dashboards_and_provisioning_and_is_deterministic(tmp_path: Path) -> None:
    text = fleet(ONE + clusters(1).replace("c0", "c-zero"))
    first = parse_fleet(text, "fleet.yaml", tmp_path)
    a = generate_bundle(first.spec, first.collectors, first.collectors_csv)
    second = parse_fleet(text, "fleet.yaml", tmp_path)
    b = generate_bundle(second.spec, second.collectors, second.collectors_csv)
    grafana = {p: t for p, t in a.files.items() if p.startswith("grafana/")}
    assert sorted(grafana) == sorted(
        [f"grafana/dashboards/{k}.json" for k in KEYS]
        + ["grafana/dashboards/.lint"]
        + ["grafana/provisioning/dashboards/gpuscope.yaml", "grafana/provisioning/datasources/prometheus.yaml"]
    )
    assert grafana == {p: t for p, t in b.files.items() if p.startswith("grafana/")}
    provider = yaml.safe_load(a.files["grafana/provisioning/dashboards/gpuscope.yaml"])["providers"][0]
    assert provider["type"] == "file" and provider["options"]["path"]
    sources = yaml.safe_load(a.files["grafana/provisioning/datasources/prometheus.yaml"])["datasources"]
    assert [s["isDefault"] for s in sources].count(True) == 1
    assert {s["url"] for s in sources} >= {"http://prometheus-a:9090", "http://global-prometheus:9090"}
    assert all(s["jsonData"]["timeInterval"] == "15s" for s in sources)
    fleet_model = yaml.safe_load(a.files["grafana/dashboards/l1-fleet.json"])
    expected = next(t["expr"] for p, t in targets(fleet_model) if t.get("legendFormat") == "expected (fleet spec)")
    assert 'vector(16), "cluster", "gpu-a"' in expected and 'vector(8), "cluster", "c-zero"' in expected


def test_every_query_parses_with_promtool(tmp_path: Path) -> None:
    """Each panel query, variables filled in, is valid PromQL for Prometheus 2.42 (as a throwaway rule)."""
    rules: list[dict[str, str]] = []
    without_job_rules = frozenset(n for n in recorded_names(RulesConfig()) if not n.startswith("job:"))
    cases: list[tuple[str, RulesConfig, list[str] | None, dict[str, Any]]]
    cases = [(n, c, f, {"remote_write": r}) for n, c, f, r in variants()]
    cases.append(("without job rules", RulesConfig(uuid_label="uuid"), None, {"recorded": without_job_rules}))
    for name, config, fields, extra in cases:
        models = built(config, collectors(fields, Dialect(config.dialect)), **extra)
        for file, model in models.items():
            for panel, target in targets(model):
                rules.append({"record": f"dashboard:q{len(rules)}:check", "expr": substitute(target["expr"], VALUES)})
                assert "$" not in rules[-1]["expr"].replace("$1", ""), (name, file, panel["title"])
    path = tmp_path / "queries.yaml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "dashboards", "rules": rules}]}))
    result = subprocess.run([binary("promtool"), "check", "rules", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_queries_name_only_real_metrics() -> None:
    """Every metric a dashboard names is in the catalog, recorded by the rules, or one of the known others."""
    config = RulesConfig()
    recorded = {r.record for g in build_groups(config) for r in g.rules if hasattr(r, "record")}
    catalog = {f.name for f in ALL_FIELDS}
    known_prefixes = ("gpuscope_", "prometheus_", "scrape_", "job:")
    others = {"up", "ALERTS", "push_time_seconds", "vector", "label_replace"}
    text = " ".join(t["expr"] for m in built(fields=collectors(every_field())).values() for _, t in targets(m))
    names = set(re.findall(r"\b([A-Za-z_][A-Za-z0-9_:]*)\{", text))
    unknown = {
        n
        for n in names
        if n not in catalog
        and n not in recorded
        and n not in others
        and n not in companion.BY_NAME  # node-exporter, kube-state-metrics, cAdvisor (dashboards/host.py)
        and not n.startswith(known_prefixes)
    }
    assert unknown == set()


def test_descriptions_come_from_the_same_facts_as_the_query() -> None:
    config = RulesConfig(thresholds=Thresholds(thermal_temperature_celsius=83, idle_activity_ratio=0.1))
    models = built(config, collectors(every_field()))

    def description(file: str, title: str) -> str:
        panel = next(p for p in models[file]["panels"] if p.get("title") == title)
        return str(panel["description"])

    temperature = description("l3-node.json", "Temperature")
    assert "DCGM_FI_DEV_GPU_TEMP (GPU temperature" in temperature  # what it measures: the catalog's help
    assert "Unit: degrees Celsius." in temperature
    assert "red from 83 °C (GPUThermalThrottling, thresholds.thermal_temperature_celsius)" in temperature
    idle = description("l2-cluster.json", "Top allocated-but-idle GPUs")
    assert "red below 10% activity (GPUAllocatedButIdle" in idle and "Unit: percent" in idle
    for model in models.values():
        for panel in model["panels"]:
            if panel["type"] != "row":
                assert "Unit: " in panel["description"], panel["title"]


def test_bundle_lint_file_lists_dashboard_linter_rules_with_reasons(tmp_path: Path) -> None:
    loaded = parse_fleet(fleet(ONE), "fleet.yaml", tmp_path)
    files = generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv).files
    exclusions = yaml.safe_load(files["grafana/dashboards/.lint"])["exclusions"]
    # dashboard-linter's own rule names (grafana/dashboard-linter docs/rules)
    assert set(exclusions) <= {
        "template-datasource-rule",
        "template-job-rule",
        "template-instance-rule",
        "template-label-promql-rule",
        "template-on-time-change-reload-rule",
        "template-uneditable-rule",
        "panel-datasource-rule",
        "panel-title-description-rule",
        "panel-units-rule",
        "target-promql-rule",
        "target-rate-interval-rule",
        "target-job-rule",
        "target-instance-rule",
    }
    assert {"template-job-rule", "template-instance-rule"} <= set(exclusions)
    assert all(len(e["reason"]) > 40 for e in exclusions.values())
    # the rules the dashboards do follow are not excluded: every panel has a description and the data source
    assert "panel-title-description-rule" not in exclusions and "panel-datasource-rule" not in exclusions
