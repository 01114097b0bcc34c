"""The shared-GPU panels (``exporter.process_metrics``): on L5 and L4 only when the switch is on, valid for the
structural check and promtool in every workload-label mode, and naming the exporter's real series."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.dashboards.lint import problems
from gpuscope.dashboards.sdk import schema_problems
from gpuscope.exporter.processes import exposition
from gpuscope.rules import RulesConfig
from tests.support.dashboards import VALUES, built, collectors, substitute, targets
from tests.support.prom import binary

CONFIGS = {
    "info": RulesConfig(),
    "labels": RulesConfig(workload_labels="labels", namespace_label="exported_namespace"),
    "4.9-uuid": RulesConfig(dialect="4.9", uuid_label="uuid", host_label="hostname"),
}


def titles(model: dict[str, Any]) -> set[str]:
    return {p["title"] for p in model["panels"]}


def test_panels_only_with_process_metrics() -> None:
    off = built(RulesConfig(), collectors())
    on = built(RulesConfig(), collectors(), process_metrics=True)
    assert "Shared GPUs" not in titles(off["l5-workload.json"]) and "Shared GPUs" in titles(on["l5-workload.json"])
    assert "Noisy neighbours: share of a shared GPU" in titles(on["l5-workload.json"])
    assert "GPU memory by owner" in titles(on["l4-gpu.json"]) and "GPU memory by owner" not in titles(
        off["l4-gpu.json"]
    )
    labels = built(CONFIGS["labels"], collectors(), process_metrics=True)
    # labels mode: the split is on the DCGM series the pod row already shows; only the leftover is added
    assert "GPU memory held by no live pod" in titles(labels["l5-workload.json"])
    assert "GPU memory per pod" not in titles(labels["l5-workload.json"])


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_shared_gpu_queries_lint_and_parse(name: str, tmp_path: Path) -> None:
    models = built(CONFIGS[name], collectors(), process_metrics=True)
    uids = {m["uid"] for m in models.values()}
    rules: list[dict[str, str]] = []
    families = set(exposition.series_names())
    for file in ("l5-workload.json", "l4-gpu.json"):
        assert problems(models[file], uids) == [] and schema_problems(models[file]) == [], file
        for _panel, target in targets(models[file]):
            if any(f in target["expr"] for f in families):
                rules.append({"record": f"dashboard:q{len(rules)}:check", "expr": substitute(target["expr"], VALUES)})
    assert rules, "no shared-GPU query found"
    path = tmp_path / "queries.yaml"
    path.write_text(yaml.safe_dump({"groups": [{"name": "shared", "rules": rules}]}))
    result = subprocess.run([binary("promtool"), "check", "rules", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
