"""The live view of ``gpuscope up`` (runner/view.py): it fits the terminal, says when the story alert arrives as the
stack's own rules have it, and calls a cluster's alerting connected while one replica still delivers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from rich.console import Console

from gpuscope.durations import prometheus_seconds
from gpuscope.rules import render_rule_files
from gpuscope.runner.plan import LocalPlan, builtin_spec_text, plan_stack
from gpuscope.runner.stack import Stack
from gpuscope.runner.status import (
    ClusterStatus,
    FiringAlert,
    FloorCheck,
    ReplicaStatus,
    StackStatus,
    floor_checks,
    story_alert,
)
from gpuscope.runner.view import LiveView, render, tour
from gpuscope.spec.load import LoadedSpec, parse_fleet
from tests.support.specs import clusters, fleet


def _load(text: str) -> LoadedSpec:
    return parse_fleet(text, "<test>", Path.cwd())


def _plan(*, fast: bool, text: str | None = None) -> LocalPlan:
    return plan_stack(_load(text or builtin_spec_text()).spec, fast=fast)


def _status(plan: LocalPlan, *, troubled: bool, b_only_alerting: bool = False) -> dict[str, Any]:
    """What ``Stack.report`` gives the view, from the status records themselves: a healthy stack, or one with every
    section at its longest (alerts firing, floor checks failing, remediation decisions, a full event log)."""
    rows = []
    for i, c in enumerate(plan.spec.clusters):
        nodes, gpus = len(plan.nodes_of(c.name)), sum(n.config.gpus for n in plan.nodes_of(c.name))
        up = ReplicaStatus(
            reachable=True,
            targets_up=nodes,
            gpus_reporting=gpus,
            samples_per_second=812.0,
            rule_groups=14,
            alertmanagers=1,
            floor=(FloorCheck(name="exporter targets", ok=not troubled, detail=f"{nodes - 1}/{nodes} up"),) * 4,
        )
        a = replace(up, alertmanagers=0) if b_only_alerting and i == 0 else up
        rows.append(ClusterStatus(name=c.name, targets_total=nodes, gpus_expected=gpus, replicas={"a": a, "b": up}))
    firing = tuple(
        FiringAlert(
            alertname="GPUThermalViolation",
            owner="infra",
            severity="page",
            labels={"cluster": rows[0].name, "Hostname": f"gpu-a-h100-{i}", "gpu": str(i)},
        )
        for i in range(12 if troubled else 0)
    )
    status = StackStatus(
        clusters=tuple(rows),
        firing=firing,
        alertmanager_reachable=True,
        notifications=len(firing),
        remediation=tuple(f"would drain gpu-b-a100-{i}: GPUFellOffBus" for i in range(6 if troubled else 0)),
        global_gpus_by_cluster={c.name: c.gpus_expected for c in rows},
        global_exporter_targets_by_cluster={c.name: c.targets_total for c in rows},
    )
    story = story_alert(plan)
    return {
        **replace(status, floor=floor_checks(status)).to_json(),
        "urls": plan.urls(),
        "fleet": plan.spec.name,
        "global_store": plan.global_name,
        "data_dir": "/tmp/a-data-dir-of-its-own",
        "fast": plan.fast,
        "floor_green_after_seconds": None if troubled else 47.0,
        "story_alert": story.to_json() if story else None,
        "events": [f"13:0{i % 10}:00 node gpu-a-h100-{i % 4} restarted its exporter" for i in range(12)],
    }


def _live(status: dict[str, Any], width: int, height: int) -> list[str]:
    console = Console(width=width, height=height, record=True, color_system=None)
    console.print(LiveView(status))
    return console.export_text().rstrip("\n").split("\n")


@pytest.mark.parametrize(("width", "height"), [(80, 24), (200, 50), (120, 40)])
@pytest.mark.parametrize("troubled", [False, True], ids=["healthy", "troubled"])
def test_the_live_view_fits_the_terminal_with_every_cluster_and_the_tour(
    width: int, height: int, *, troubled: bool
) -> None:
    """rich's Live cuts what is taller than the terminal (the clusters and the tour were cut at 80x24 and 200x50):
    the view summarises instead, keeping a line for the cursor."""
    plan = _plan(fast=False)
    status = _status(plan, troubled=troubled)
    lines = _live(status, width, height)
    assert len(lines) < height
    text = "\n".join(lines)
    for c in plan.spec.clusters:
        assert any(line.startswith(f"│ {c.name} ") for line in lines), c.name
    console = plan.urls()["console"]
    # the tour in full, or the line that names the console and where the whole tour is
    assert f"Try it: {console}" in text or all(step.split()[0] in text for step in tour(status).splitlines())


def test_a_tall_terminal_shows_the_tour_in_full() -> None:
    plan = _plan(fast=False)
    status = _status(plan, troubled=False)
    text = "\n".join(_live(status, 200, 50))
    assert "1. " in text and "4. gpuscope report" in text
    assert f"{plan.urls()['console']}/d/local-l5-workload" in text


def test_clusters_that_do_not_fit_are_counted() -> None:
    plan = _plan(fast=True, text=fleet(clusters(30)))
    lines = _live(_status(plan, troubled=True), 80, 24)
    assert len(lines) < 24
    shown = [c.name for c in plan.spec.clusters if any(line.startswith(f"│ {c.name} ") for line in lines)]
    assert shown and shown == [c.name for c in plan.spec.clusters][: len(shown)]
    assert any(f"+{30 - len(shown)} more" in line for line in lines)


def test_gpuscope_status_prints_every_section() -> None:
    plan = _plan(fast=False)
    status = _status(plan, troubled=True)
    console = Console(width=200, height=24, record=True, color_system=None)
    console.print(render(status))
    text = console.export_text()
    assert text.count("GPUThermalViolation") == 8 and "Inject faults" in text and "Host signals" in text


def test_alerting_is_connected_while_one_replica_delivers_and_names_the_other() -> None:
    plan = _plan(fast=True)
    text = "\n".join(_live(_status(plan, troubled=False, b_only_alerting=True), 200, 50))
    rows = [line for line in text.splitlines() if line.startswith("│ gpu-a ")]
    assert rows and "not connected" not in rows[0] and "replica a not" in rows[0]
    other = next(line for line in text.splitlines() if line.startswith("│ gpu-b "))
    assert "connected" in other and "replica" not in other


def _rule_file_for(plan: LocalPlan, alert: str) -> str:
    """The alert's ``for`` in the rule files the stack's Prometheus servers load."""
    files = render_rule_files(plan.spec.rules_config())
    rules = [r for text in files.values() for g in yaml.safe_load(text)["groups"] for r in g["rules"]]
    return str(next(r["for"] for r in rules if r.get("alert") == alert))


@pytest.mark.parametrize("fast", [False, True], ids=["make-up", "fast"])
def test_the_tour_says_when_the_story_alert_fires_as_the_rules_have_it(tmp_path: Path, *, fast: bool) -> None:
    """ "fires within minutes" was true with --fast only: at real time GPUAllocatedButIdle waits 50 minutes."""
    plan = _plan(fast=fast)
    story = story_alert(plan)
    assert story is not None
    for_ = _rule_file_for(plan, story.alert)
    assert story.for_ == for_ and story.fires_after_seconds > prometheus_seconds(for_)
    # what Stack.report hands the view and `gpuscope status --json`
    report = Stack(plan, _load(builtin_spec_text()), tmp_path).report()
    assert report["story_alert"] == story.to_json()
    status = {**_status(plan, troubled=False), "story_alert": report["story_alert"]}
    text = " ".join(" ".join(_live(status, 400, 200)).split())
    assert f"{story.alert} fires once the GPU has been idle for {for_}" in text
    assert "within minutes" not in text
    assert ("--fast" in text) is (not fast)


def test_a_status_without_the_story_says_nothing_of_it() -> None:
    """A stack started before ``story_alert`` was reported, or a status not gathered yet: no claim at all."""
    status = {**_status(_plan(fast=True), troubled=False), "story_alert": None}
    text = " ".join(_live(status, 400, 200))
    assert "fires once" not in text and "vision holding GPUs it does not use (GPUAllocatedButIdle)," in text
