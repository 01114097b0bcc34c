"""A deployment labelled the way dcgm-exporter >= 4.8.3 labels it (``hostname``, pod labels on every series),
run by ``gpuscope up --fast`` from a fleet spec that says so: doctor detects the labels and audits it correctly.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuscope.doctor import Access, Endpoints, Report, audit
from gpuscope.generate.budget import predicted
from gpuscope.runner.plan import FAST_SPEEDUP
from tests.support.doctor import until
from tests.support.net import wait_for
from tests.support.upstack import UpStack, running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

HOOK = {"webhook": {"url": "http://127.0.0.1:1/"}}  # replaced by the stack's recorder
SPEC: dict[str, Any] = {
    "name": "dcgm-style",
    "clusters": [
        {"name": "gpu-c", "node_groups": [{"name": "h100", "gpu_model": "h100", "gpus_per_node": 4, "nodes": 2}]}
    ],
    "long_term_store": "mimir",
    "retention": {"cold_tier": "full"},
    "exporter": {"host_label": "hostname", "workload_labels": "labels"},
    "receivers": {"infra": HOOK, "platform": HOOK, "workload": HOOK},
}


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spec") / "fleet.yaml"
    path.write_text(yaml.safe_dump(SPEC))
    return path


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, fleet: Path) -> Iterator[UpStack]:
    with running_stack(tmp_path_factory.mktemp("dcgm") / "data", str(fleet)) as s:
        wait_for(lambda: s.status().get("floor_green_after_seconds"), timeout=90, what="the Phase 1 floor")
        yield s


def audited(stack: UpStack, fleet: Path) -> Report:
    e = Endpoints(
        stack.url("prometheus-a@gpu-c"),
        alertmanager=stack.url("alertmanager"),
        replica_b=stack.url("prometheus-b@gpu-c"),
        global_store=stack.url("global"),
    )
    return audit(e, Access(timeout_s=20), fleet=str(fleet), speedup=FAST_SPEEDUP, predict=predicted)


def summary(report: Report, check: str) -> str:
    return next(r.summary for r in report.results if r.id == check)


def test_hostname_labels_are_detected_and_the_deployment_passes(stack: UpStack, fleet: Path) -> None:
    report = until(lambda: audited(stack, fleet), {}, what="a clean audit")
    d = report.detected
    assert (d["host_label"], d["host_labels_present"], d["cluster"]) == ("hostname", ["hostname"], "gpu-c")
    assert summary(report, "host-label") == "one host label: hostname"
    assert summary(report, "gpus-reporting") == "8/8 GPUs report DCGM_FI_DEV_GPU_TEMP"
    # its rules were rendered for hostname, and doctor recognises them as matching the series
    # Every group of the rule files the stack's bundle gave this cluster's Prometheus pair is loaded.
    rules = stack.data_dir / "bundle" / "clusters" / "gpu-c" / "rules"
    groups = sum(len(yaml.safe_load(path.read_text())["groups"]) for path in rules.glob("*.yaml"))
    assert groups >= 12
    assert summary(report, "rule-groups") == f"{groups} gpuscope rule groups loaded, none failing"


def test_a_lost_gpu_is_named_by_its_hostname_label(stack: UpStack, fleet: Path) -> None:
    stack.inject("fell-off-bus", "--cluster", "gpu-c", "--node", "1", "--gpu", "3")
    report = until(lambda: audited(stack, fleet), {"gpus-reporting": "FAIL", "gpus-stopped": "FAIL"}, what="lost")
    assert "GPU 3 (GPU-" in summary(report, "gpus-stopped") and "on gpu-c-h100-01" in summary(report, "gpus-stopped")
    stopped = next(r for r in report.results if r.id == "gpus-stopped")
    assert "max by (instance, UUID, gpu, hostname)" in stopped.evidence[0].query
    stack.clear()
    until(lambda: audited(stack, fleet), {}, what="recovery")


def test_a_node_that_lost_every_gpu_still_answers(stack: UpStack, fleet: Path) -> None:
    stack.inject("fell-off-bus", "--cluster", "gpu-c", "--node", "0")
    report = until(lambda: audited(stack, fleet), {"gpus-reporting": "FAIL", "gpus-stopped": "FAIL"}, what="node")
    node = stack.state["nodes"][0]["url"].removeprefix("http://")
    assert summary(report, "gpus-reporting") == f"1 exporter target(s) up but reporting no GPU: {node}"
    assert summary(report, "gpus-stopped").startswith("4 GPU(s) stopped reporting while their exporter is up")
    stack.clear()
    until(lambda: audited(stack, fleet), {}, what="recovery")


def test_a_fleet_spec_still_saying_Hostname_is_caught(stack: UpStack, tmp_path: Path) -> None:
    old = tmp_path / "fleet.yaml"
    old.write_text(yaml.safe_dump({**SPEC, "exporter": {"host_label": "Hostname", "workload_labels": "labels"}}))
    report = until(lambda: audited(stack, old), {"host-label": "FAIL"}, what="the pre-4.8.3 fleet spec")
    assert summary(report, "host-label") == (
        "the exporters send hostname but the fleet spec says Hostname: its rules match no GPU series"
    )
