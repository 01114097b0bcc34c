"""``gpuscope remediate --apply`` on Kubernetes: real Alertmanagers on the bundle's configuration deliver to a real
remediator process, which works the test's HTTPS API server (Nodes, their status, Events, Leases; the real patch
types and 409 on a stale resourceVersion).

The two Alertmanagers do not gossip, so each delivers every notification: the remediator must act once anyway.
The budget page goes through the first Alertmanager only (an HA pair that gossips would deduplicate it).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from gpuscope.durations import prometheus_seconds
from gpuscope.remediate.kubernetes import ANNOTATION
from gpuscope.remediate.pager import ALERT as BUDGET_ALERT
from gpuscope.remediate.policy import CONDITION_TYPE, TAINT_KEY
from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.rules import alerts
from tests.support.kubeapi import FakeKubeApi, fake_kube_api
from tests.support.net import free_port, wait_for
from tests.support.remediate import (
    SUMMARY,
    TOKEN,
    Bundle,
    Recorder,
    Remediator,
    alertmanagers,
    fleet_spec,
    page,
    post_alert,
    recorder,
    remediator,
    wait_decision,
    write_bundle,
)

pytestmark = pytest.mark.e2e

CLUSTER = "gpu-k"
NODES = [f"gpu-k-{i:04d}" for i in range(6)]
CLUSTERS = """
  - name: gpu-k
    kind: kubernetes
    node_groups: [{name: h100, gpu_model: h100, nodes: 6}]
"""
# How long GPUFellOffBus may take from failure to firing; the remediator's share is the 5 s on top.
BOUND_S = prometheus_seconds(next(a.bound for a in alerts(RulesConfig()) if a.name == "GPUFellOffBus"))


@dataclass
class World:
    bundle: Bundle
    managers: list[str]
    pages: Recorder
    port: int
    root: Path


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("kube-remediation")
    token = root / "am-token"
    token.write_text(TOKEN + "\n")
    port = free_port()
    with recorder() as pages:
        spec = fleet_spec(CLUSTERS, f"http://127.0.0.1:{port}/webhook", pages.url, token, "max_nodes: 2")
        bundle = write_bundle(spec, root)
        with alertmanagers(bundle.alertmanager(), root, count=2) as managers:
            yield World(bundle, managers, pages, port, root)


@pytest.fixture
def kube(tmp_path: Path) -> Iterator[FakeKubeApi]:
    (tmp_path / "kube").mkdir()
    with fake_kube_api(tmp_path / "kube") as api:
        for name in NODES:
            api.add_node(name)
        yield api


def policy(world: World, **changes: Any) -> dict[str, Any]:
    text = world.bundle.policy()
    text.update(changes)
    return text


def acting(world: World, kube: FakeKubeApi, tmp_path: Path, *args: str, **changes: Any) -> Any:
    return remediator(
        tmp_path, policy(world, **changes), "--apply", f"--alertmanager={world.managers[0]}", *args,
        env=kube.env(), port=world.port,
    )  # fmt: skip


def fell_off_bus(world: World, node: str, gpu: str, **kw: Any) -> None:
    """Each test its own GPU: an alert is a new one for Alertmanager (a test's leftovers never hold back the next)."""
    # A resolution (ends_at, no starts_at) starts a second before it ends: read after ends_at, "now" can be the
    # later stamp, and Alertmanager refuses an alert that starts after it ends.
    starts_at = kw["ends_at"] - 1 if "ends_at" in kw else time.time()
    post_alert(world.managers, page(CLUSTER, node, gpu=gpu), **{"starts_at": starts_at, **kw})


def both_managers(rem: Remediator, node: str) -> list[dict[str, Any]]:
    """The decisions on ``node`` once both Alertmanagers' notifications have arrived. A test waits for them before
    it ends: a notification its remediator did not take is retried to the next test's (the same webhook port),
    which would act on an alert resolved long ago."""
    return wait_for(
        lambda: len(found := rem.decisions(node=node)) >= 2 and found,
        what=f"both Alertmanagers' notifications on {node}\n{rem.log()[-1500:]}",
    )


def events(kube: FakeKubeApi, node: str) -> list[dict[str, Any]]:
    return kube.events_for(node)


def test_a_lost_gpu_sets_the_condition_the_taint_the_cordon_and_one_event(
    world: World, kube: FakeKubeApi, tmp_path: Path
) -> None:
    node = NODES[1]
    with acting(world, kube, tmp_path) as rem:
        fell_off_bus(world, node, "1")
        wait_for(
            lambda: (kube.condition(node, CONDITION_TYPE) or {}).get("status") == "False",
            timeout=BOUND_S + 5,
            what=f"{CONDITION_TYPE}=False on {node}\n{rem.log()[-1500:]}",
        )
        condition = kube.condition(node, CONDITION_TYPE)
        assert condition is not None
        assert (condition["reason"], condition["message"]) == ("GPUFellOffBus", f"[gpuscope] GPUFellOffBus: {SUMMARY}")
        assert {"key": TAINT_KEY, "value": "GPUFellOffBus", "effect": "NoSchedule"} in kube.taints(node)
        obj = kube.node(node)
        assert obj["spec"]["unschedulable"] is True
        assert json.loads(obj["metadata"]["annotations"][ANNOTATION])["cordoned"] is True
        assert kube.condition(node, "Ready") == {"type": "Ready", "status": "True", "reason": "KubeletReady"}
        # The second Alertmanager's notification arrives too, and changes nothing.
        wait_decision(rem, node=node, result="already")
        assert len(rem.decisions(node=node, result="done")) == 1
        [event] = events(kube, node)
        assert (event["type"], event["reason"], event["source"]["component"]) == (
            "Warning",
            "GPUFellOffBus",
            "gpuscope-remediate",
        )
        assert {n for n in NODES if kube.taints(n)} == {node}
        kinds = {(m, p, t) for m, p, t in kube.writes if m != "GET" and "/leases" not in p}
        assert kinds == {
            ("PATCH", f"/api/v1/nodes/{node}", "application/merge-patch+json"),
            ("PATCH", f"/api/v1/nodes/{node}/status", "application/strategic-merge-patch+json"),
            ("POST", "/api/v1/namespaces/gpu-monitoring/events", "application/json"),
        }
        assert 'gpuscope_remediation_actions_total{action="taint",result="done"} 1' in rem.metrics()
    fell_off_bus(world, node, "1", ends_at=time.time())  # resolved: the next test's alert on this node is a new one


def test_a_correlated_failure_acts_on_the_budget_and_pages_once(
    world: World, kube: FakeKubeApi, tmp_path: Path
) -> None:
    half = NODES[:3]
    with acting(world, kube, tmp_path) as rem:
        for node in half:
            fell_off_bus(world, node, "2")
        wait_decision(rem, result="over_budget")
        wait_for(lambda: len(rem.decisions(action="taint", result="done")) == 2, what="two nodes tainted")
        tainted = {n for n in NODES if kube.taints(n)}
        assert len(tainted) == 2 and tainted <= set(half)
        wait_for(lambda: world.pages.alerts(BUDGET_ALERT), timeout=30, what="the budget page")
        [paged] = world.pages.alerts(BUDGET_ALERT)
        assert paged["labels"]["cluster"] == CLUSTER and paged["labels"]["severity"] == "page"
        # A fourth node fails: over budget too, and no second page.
        fell_off_bus(world, NODES[3], "2")
        wait_decision(rem, node=NODES[3], result="over_budget")
        metrics = rem.metrics()
        assert 'gpuscope_remediation_actions_total{action="page",result="done"} 1' in metrics
        assert f'gpuscope_remediation_budget_nodes_in_use{{cluster="{CLUSTER}"}} 2' in metrics
        assert f'gpuscope_remediation_budget_nodes_limit{{cluster="{CLUSTER}"}} 2' in metrics
        assert len(world.pages.alerts(BUDGET_ALERT)) == 1
        assert {n for n in NODES if kube.taints(n)} == tainted
    for node in NODES[:4]:  # resolved, so the next test starts from a quiet Alertmanager
        fell_off_bus(world, node, "2", ends_at=time.time())


def test_a_persons_cordon_is_left_alone_and_a_return_undoes_only_ours(
    world: World, kube: FakeKubeApi, tmp_path: Path
) -> None:
    theirs, ours = NODES[4], NODES[5]
    kube.person_cordon(theirs)
    with acting(world, kube, tmp_path, return_to_service={"after": "2s"}) as rem:
        started = time.time()
        fell_off_bus(world, theirs, "3", starts_at=started)
        fell_off_bus(world, ours, "3", starts_at=started)
        assert "cordoned" in wait_decision(rem, node=theirs, result="persons")["detail"]
        wait_decision(rem, node=ours, result="done")
        assert kube.taints(theirs) == [] and kube.condition(theirs, CONDITION_TYPE) is None
        assert ANNOTATION not in kube.node(theirs)["metadata"]["annotations"]
        kube.person_taint(ours, "example.com/maintenance")
        fell_off_bus(world, ours, "3", starts_at=started, ends_at=time.time())  # resolved
        fell_off_bus(world, theirs, "3", starts_at=started, ends_at=time.time())
        wait_decision(rem, node=ours, action="return", result="done")
        assert kube.taints(ours) == [{"key": "example.com/maintenance", "effect": "NoSchedule"}]
        assert not kube.node(ours)["spec"].get("unschedulable")
        assert (kube.condition(ours, CONDITION_TYPE) or {}).get("status") == "True"
        assert ANNOTATION not in kube.node(ours)["metadata"]["annotations"]
        assert [e["type"] for e in events(kube, ours)] == ["Warning", "Normal"]
        assert ("PATCH", f"/api/v1/nodes/{ours}", "application/json-patch+json") in kube.writes
        assert kube.node(theirs)["spec"]["unschedulable"] is True  # never undone


def test_a_dry_run_reads_and_writes_nothing(world: World, kube: FakeKubeApi, tmp_path: Path) -> None:
    node = NODES[0]
    with remediator(tmp_path, policy(world), env=kube.env(), port=world.port) as rem:
        started = time.time()
        fell_off_bus(world, node, "4", starts_at=started)
        decision = wait_decision(rem, node=node, result="would")
        assert decision["dry_run"] is True and decision["line"] == f"would taint {node}: GPUFellOffBus"
        assert [d["result"] for d in both_managers(rem, node)] == ["would", "already"]
        assert "gpuscope_remediation_dry_run 1" in rem.metrics()
    assert kube.requests == [] and kube.taints(node) == []
    fell_off_bus(world, node, "4", starts_at=started, ends_at=time.time())


def test_a_node_changed_meanwhile_is_read_again_and_a_missing_grant_is_one_line(
    world: World, kube: FakeKubeApi, tmp_path: Path
) -> None:
    node, denied = NODES[2], NODES[3]
    kube.meddle[node] = 2  # two 409 Conflicts in a row, then the write goes through
    with acting(world, kube, tmp_path) as rem:
        started = time.time()
        fell_off_bus(world, node, "5", starts_at=started)
        wait_decision(rem, node=node, result="done")
        assert {"key": TAINT_KEY, "value": "GPUFellOffBus", "effect": "NoSchedule"} in kube.taints(node)
        assert kube.node(node)["metadata"]["labels"] == {"meddled": "yes"}
        patches = [w for w in kube.writes if w[:2] == ("PATCH", f"/api/v1/nodes/{node}")]
        assert len(patches) == 3
        kube.deny("patch", "nodes/status")
        fell_off_bus(world, denied, "5", starts_at=started)
        failed = wait_decision(rem, node=denied, result="failed")
        assert "HTTP 403" in failed["detail"] and "grant" in failed["detail"]
        assert [d["result"] for d in both_managers(rem, node)] == ["done", "already"]
        assert both_managers(rem, denied)[0]["result"] == "failed"
    for n in (node, denied):
        fell_off_bus(world, n, "5", starts_at=started, ends_at=time.time())


def test_only_the_lease_holder_acts(world: World, kube: FakeKubeApi, tmp_path: Path) -> None:
    with acting(world, kube, tmp_path / "a") as first:
        wait_for(lambda: "gpuscope_remediation_leader 1" in first.metrics(), what="the first remediator leading")
        with remediator(
            tmp_path / "b", policy(world), "--apply", env={**kube.env(), "POD_NAME": "second"}, name="second"
        ) as second:
            wait_for(lambda: "standing by" in second.log(), what=f"the second finding the Lease held\n{second.log()}")
            assert "gpuscope_remediation_leader 0" in second.metrics()
            body = {"version": "4", "status": "firing", "receiver": "r", "alerts": []}
            answer = httpx.post(
                f"{second.url}/webhook", json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10
            )
            assert answer.status_code == 503 and "not the leader" in answer.text
    [lease] = kube.objects["leases"].values()
    assert lease["spec"]["holderIdentity"] != "second" and lease["spec"]["leaseDurationSeconds"] == 15
