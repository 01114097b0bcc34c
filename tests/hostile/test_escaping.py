"""Item 4 of the hostile-input audit: spec values inside PromQL, Go templates, YAML, JSON and headers are escaped
for that language, and the generated files still pass promtool and amtool with them inside."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from gpuscope.bundle import serialize, write_bundle
from gpuscope.errors import SpecError
from gpuscope.escaping import (
    go_template_text,
    header_value,
    promql_alternation,
    promql_regex,
    promql_string,
    template_free,
)
from gpuscope.generate.compose import generate_bundle
from gpuscope.rules import RulesConfig, render_rule_files
from gpuscope.spec.load import parse_fleet
from tests.support.prom import binary
from tests.support.specs import fleet

HOSTILE = (
    'NVIDIA H100 80GB HBM3", instance="none',  # closes the string and adds a matcher
    "back\\slash",  # an invalid PromQL escape: used to make Prometheus refuse the whole file
    "new\nline",
    "{{ .Foo }}",
    '"}',
    "a.b|c*(d)[e]^$?+",
    "tab\there",
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, check=False, timeout=120)


@pytest.mark.parametrize("value", HOSTILE)
def test_each_escaper_keeps_the_value_one_token(value: str) -> None:
    assert promql_alternation((value, "x")).endswith("|x")
    literal = promql_string(value)
    assert literal.startswith('"') and literal.endswith('"')
    inner = literal[1:-1]
    assert "\n" not in inner and '"' not in inner.replace('\\"', "")  # every quote inside is escaped
    assert json.loads(literal.replace("\\t", "\\u0009")) == value  # Go's and JSON's escapes agree on these
    assert "{{" not in go_template_text(value).replace('{{ "{{" }}', "")
    regex = promql_regex(value)
    assert all(regex[i - 1] == "\\" for i, ch in enumerate(regex) if ch in "|*()[]^$?+." and i > 0)
    assert yaml.safe_load(serialize("f.yaml", {"v": value})) == {"v": value}
    assert json.loads(serialize("f.json", {"v": value})) == {"v": value}


def test_header_values_and_template_free_text_refuse_what_cannot_be_escaped() -> None:
    assert header_value("tenant-1") == "tenant-1"
    for bad in ("a\r\nX-Injected: 1", "a\nb", "a\x00", " padded"):
        with pytest.raises(ValueError, match="cannot be an HTTP header value"):
            header_value(bad)
    for bad in ("https://x/{{ .Foo }}", "https://x/}}", "https://x/\nSet-Cookie: a"):
        with pytest.raises(ValueError, match="runbook_base_url"):
            template_free(bad, "runbook_base_url")


def _group(extra: str) -> str:
    return fleet("  - name: a\n    node_groups:\n      - {name: h, gpu_model: h100, nodes: 2}\n", extra)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('runbook_base_url: "https://wiki/{{ .CommonLabels.x }}"', "template syntax"),
        ('runbook_base_url: "https://wiki/\\nX: y"', "line break"),
    ],
)
def test_runbook_base_url_refuses_newlines_and_templates(tmp_path: Path, extra: str, message: str) -> None:
    with pytest.raises(SpecError, match=rf"^fleet\.yaml:\d+:\d+: runbook_base_url: .*{message}"):
        parse_fleet(_group(extra), "fleet.yaml", tmp_path)


def test_a_cluster_tenant_cannot_inject_a_header(tmp_path: Path) -> None:
    text = fleet(
        '  - name: a\n    tenant: "t\\r\\nX-Evil: 1"\n    node_groups:\n      - {name: h, gpu_model: h100, nodes: 2}\n'
    )
    with pytest.raises(SpecError, match=r"clusters\[0\]\.tenant: .* is not a Mimir tenant id"):
        parse_fleet(text, "fleet.yaml", tmp_path)


@pytest.mark.promtool
def test_hostile_model_names_match_exactly_under_promtool(tmp_path: Path) -> None:
    """GPUModelOutsideBudget with hostile budgeted models: quiet for exactly those models, firing for another."""
    config = RulesConfig(budgeted_models=HOSTILE)
    names = []
    for name, text in render_rule_files(config).items():
        data = yaml.safe_load(text)
        for group in data["groups"]:
            group["rules"] = [r for r in group["rules"] if r.get("alert") == "GPUModelOutsideBudget"]
        (tmp_path / name).write_text(yaml.safe_dump(data))
        names.append(name)

    def series(model: str, uuid: str) -> dict[str, str]:
        labels = f'job="dcgm-exporter",instance="n:9400",gpu="0",UUID="{uuid}",modelName={promql_string(model)}'
        return {"series": f"DCGM_FI_DEV_GPU_TEMP{{{labels}}}", "values": "60+0x80"}

    suite = {
        "rule_files": names,
        "evaluation_interval": "15s",
        "tests": [
            {
                "interval": "15s",
                "input_series": [series(m, f"GPU-{i}") for i, m in enumerate(HOSTILE)]
                + [series("NVIDIA L40S", "GPU-x")],
                "alert_rule_test": [
                    {
                        "eval_time": "15m",
                        "alertname": "GPUModelOutsideBudget",
                        "exp_alerts": [
                            {
                                "exp_labels": {
                                    "alertname": "GPUModelOutsideBudget",
                                    "severity": "ticket",
                                    "owner": "platform",
                                    "modelName": "NVIDIA L40S",
                                },
                                "exp_annotations": {
                                    "summary": "A GPU model the cardinality budget does not cover has appeared.",
                                    "description": "1 GPU(s) of model NVIDIA L40S are reporting; the fleet's series "
                                    "budget was not sized for it.",
                                    "runbook_url": "docs/runbooks/GPUModelOutsideBudget.md",
                                },
                            }
                        ],
                    }
                ],
            }
        ],
    }
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump(suite))
    result = run(binary("promtool"), "test", "rules", str(tmp_path / "suite.yaml"))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.promtool
def test_a_bundle_with_hostile_values_passes_promtool_and_amtool(tmp_path: Path) -> None:
    models = "\n".join(f"  - {json.dumps(m)}" for m in HOSTILE)
    receivers = (
        "receivers:\n"
        '  infra: {slack: {api_url_file: /etc/am/slack, channel: "#in{{fra}}\\"}"}}\n'
        '  platform: {slack: {api_url_file: /etc/am/slack, channel: "@{{ .x"}}\n'
        '  workload: {webhook: {url: "http://127.0.0.1:1/hook?a=\\"}{{"}}\n'
    )
    text = (
        "name: hostile\nclusters:\n  - name: a\n    kind: baremetal\n    region: 'r\"}\\\\'\n"
        "    node_groups:\n      - {name: h, gpu_model: h100, nodes: 2}\n"
        f"{receivers}budgeted_models:\n{models}\n"
    )
    loaded = parse_fleet(text, "fleet.yaml", tmp_path)
    out = tmp_path / "bundle"
    write_bundle(generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv), str(out))
    for config in sorted(out.glob("clusters/*/prometheus-*.yml")):
        result = run(binary("promtool"), "check", "config", str(config))
        assert result.returncode == 0, f"{config}: {result.stdout}{result.stderr}"
    result = run(binary("promtool"), "check", "rules", *map(str, sorted(out.glob("**/rules/*.yaml"))))
    assert result.returncode == 0, result.stdout + result.stderr
    result = run(binary("amtool"), "check-config", str(out / "alertmanager/alertmanager.yml"))
    assert result.returncode == 0, result.stdout + result.stderr
    am = yaml.safe_load((out / "alertmanager/alertmanager.yml").read_text())
    channels = {c["channel"] for r in am["receivers"] for c in r.get("slack_configs", ())}
    assert '#in{{ "{{" }}fra}}"}' in channels
