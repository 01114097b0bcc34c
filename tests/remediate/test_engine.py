"""The planner in a dry run (the default): every rule of the policy, on notifications as Alertmanager sends them.

A dry run never contacts a scheduler, so these need none: what it decides is what ``--apply`` would do against
schedulers that agree with it (the Slurm and Kubernetes tests show that they do).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuscope.remediate.actuator import Hold
from gpuscope.remediate.engine import Engine
from gpuscope.remediate.ledger import LedgerFile
from gpuscope.remediate.payload import AlertEvent, Delivery
from gpuscope.remediate.policy import Policy, parse_policy
from tests.support.clock import FakeClock

POLICY = """
clusters:
  - {name: hpc, kind: slurm, nodes: 10, budget: {max_nodes: 2}}
  - {name: k8s, kind: kubernetes, nodes: 40, budget: {max_nodes: 50, max_percent: 5}}
return_to_service: {after: 10m}
flap: {window: 6h, max_returns: 2}
"""


def event(
    node: str,
    alertname: str = "GPUFellOffBus",
    status: str = "firing",
    cluster: str = "hpc",
    start: int = 0,
    **labels: str,
) -> AlertEvent:
    all_labels = {"alertname": alertname, "cluster": cluster, "Hostname": node, "severity": "page", **labels}
    return AlertEvent(
        status=status,
        labels=all_labels,
        annotations={"summary": "A GPU has fallen off the bus."},
        starts_at=f"2027-01-15T08:00:{start:02d}Z",
        ends_at="0001-01-01T00:00:00Z",
        fingerprint=f"fp-{cluster}-{node}-{alertname}-{labels.get('gpu', '0')}",
    )


def deliver(engine: Engine, *events: AlertEvent) -> list[tuple[str, str, str]]:
    decisions = engine.handle(Delivery(receiver="gpuscope-remediate-hpc", status="firing", alerts=events))
    return [(d.node, d.action, d.result) for d in decisions]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def make(clock: FakeClock, policy: Policy | None = None, state: Path | None = None) -> Engine:
    return Engine(
        policy or parse_policy(POLICY),
        actuators={},
        apply=False,
        state=LedgerFile(str(state) if state else None),
        clock=clock,
    )


def test_a_dry_run_says_what_it_would_do_and_counts_it_in_the_budget(clock: FakeClock) -> None:
    engine = make(clock)
    decisions = engine.handle(Delivery(receiver="r", status="firing", alerts=(event("n1"),)))
    assert [d.line for d in decisions] == ["would drain n1: GPUFellOffBus"]
    assert decisions[0].dry_run and decisions[0].detail == "[gpuscope] GPUFellOffBus: A GPU has fallen off the bus."
    assert engine.budgets()["hpc"] == (1, 2)
    assert deliver(engine, event("k1", cluster="k8s")) == [("k1", "taint", "would")]


def test_redelivery_and_the_second_alertmanager_change_nothing(clock: FakeClock) -> None:
    engine = make(clock)
    assert deliver(engine, event("n1")) == [("n1", "drain", "would")]
    # Alertmanager B delivers the same notification; A repeats it after repeat_interval; another GPU of the node.
    assert deliver(engine, event("n1")) == [("n1", "drain", "already")]
    assert deliver(engine, event("n1"), event("n1", gpu="3")) == [("n1", "drain", "already")] * 2
    assert engine.budgets()["hpc"] == (1, 2)


def test_what_never_acts(clock: FakeClock) -> None:
    engine = make(clock)
    ignored = deliver(
        engine,
        event("n1", severity="ticket"),  # a ticket, whatever the rule says
        event("n2", alertname="GPUThermalThrottling"),  # no rule
        event("n3", cluster="elsewhere"),  # not in the policy
        event("n4", alertname="GPUXidCritical", xid="94"),  # RESTART_APP: the GPU itself is healthy
        event("n5", alertname="GPUXidCritical", xid="9999"),  # not in the catalogue
        AlertEvent(
            status="firing", labels={"alertname": "GPUFellOffBus", "cluster": "hpc", "severity": "page"},
            annotations={}, starts_at="", ends_at="", fingerprint="x",
        ),  # no node label
    )  # fmt: skip
    assert [r for _, _, r in ignored] == ["ignored"] * 6
    assert engine.budgets()["hpc"] == (0, 2)
    assert deliver(engine, event("n6", alertname="GPUXidCritical", xid="79")) == [("n6", "drain", "would")]
    assert deliver(engine, event("n7", alertname="GPUXidCritical", xid="48")) == [("n7", "drain", "would")]


def test_nvlink_and_nvswitch_pages_drain_the_node_they_name_and_leave_a_partition_to_a_person(
    clock: FakeClock,
) -> None:
    engine = make(clock)
    rack = "7c0ffee0-0000-4000-8000-0000000000a1/7"
    assert deliver(engine, event("n1", alertname="GPUNVLinkDown", partition=rack)) == [("n1", "drain", "would")]
    assert deliver(engine, event("n2", alertname="GPUNVSwitchFatalError", partition=rack)) == [("n2", "drain", "would")]
    # A switch tray of a rack: the page names the partition and no node, and nothing is drained.
    across = AlertEvent(
        status="firing", labels={"alertname": "GPUNVLinkDown", "cluster": "hpc", "severity": "page", "partition": rack},
        annotations={}, starts_at="", ends_at="", fingerprint="rack",
    )  # fmt: skip
    assert deliver(engine, across) == [("", "none", "ignored")]
    assert deliver(engine, event("n3", alertname="GPUNVLinkErrorsPerLink", severity="ticket")) == [
        ("n3", "none", "ignored")
    ]
    assert engine.budgets()["hpc"] == (2, 2)


def test_the_budget_caps_a_correlated_failure_and_pages_once(clock: FakeClock) -> None:
    engine = make(clock)
    half = [event(f"n{i}") for i in range(5)]
    decisions = engine.handle(Delivery(receiver="r", status="firing", alerts=tuple(half)))
    results = [(d.node, d.action, d.result) for d in decisions]
    assert results[:2] == [("n0", "drain", "would"), ("n1", "drain", "would")]
    assert ("n2", "drain", "over_budget") in results and ("n4", "drain", "over_budget") in results
    pages = [d for d in decisions if d.action == "page"]
    assert [(p.cluster, p.result) for p in pages] == [("hpc", "would")]  # once, and a dry run never pages
    assert engine.budgets()["hpc"] == (2, 2)
    # Redelivered: still over budget, no second page.
    again = engine.handle(Delivery(receiver="r", status="firing", alerts=tuple(half)))
    assert not [d for d in again if d.action == "page"]
    # 5% of 40 nodes is 2: the smaller limit wins.
    assert engine.budgets()["k8s"] == (0, 2)


def test_return_to_service_after_a_hold_of_good_health_and_flap_damping(clock: FakeClock) -> None:
    engine = make(clock)
    for round_ in range(3):
        assert deliver(engine, event("n1", start=round_))[0][2] == "would"
        deliver(engine, event("n1", status="resolved", start=round_))
        clock.t += 9 * 60
        assert engine.tick() == []  # not yet 10 minutes of good health
        clock.t += 60
        returned = [(d.node, d.action, d.result) for d in engine.tick()]
        if round_ < 2:
            assert returned == [("n1", "return", "would")]
        else:  # returned twice within 6 h: the third time it stays out for a person
            assert returned == []
    assert engine.budgets()["hpc"] == (1, 2)


def test_an_alert_firing_again_during_the_hold_restarts_it(clock: FakeClock) -> None:
    engine = make(clock)
    deliver(engine, event("n1"), event("n1", gpu="1"))
    deliver(engine, event("n1", status="resolved"))
    clock.t += 3600
    assert engine.tick() == []  # GPU 1's alert still fires
    deliver(engine, event("n1", gpu="1", status="resolved"))
    clock.t += 300
    deliver(engine, event("n1", start=5))  # fails again meanwhile
    deliver(engine, event("n1", start=5, status="resolved"))
    clock.t += 599
    assert engine.tick() == []
    clock.t += 1
    assert [d.result for d in engine.tick()] == ["would"]


def test_without_a_return_policy_a_person_returns_nodes(clock: FakeClock) -> None:
    engine = make(clock, parse_policy("clusters: [{name: hpc, kind: slurm}]"))
    deliver(engine, event("n1"))
    deliver(engine, event("n1", status="resolved"))
    clock.t += 86400 * 30
    assert engine.tick() == []


def test_a_restart_remembers_what_it_holds_and_what_it_saw(clock: FakeClock, tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    first = make(clock, state=state)
    deliver(first, event("n1"))
    second = make(clock, state=state)
    assert deliver(second, event("n1")) == [("n1", "drain", "already")]
    assert second.budgets()["hpc"] == (1, 2)


def test_a_damaged_state_file_is_one_log_line_and_a_fresh_start(
    clock: FakeClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    state = tmp_path / "state.json"
    state.write_text('{"held": [{"cluster": 1}]')
    engine = make(clock, state=state)
    assert engine.budgets()["hpc"] == (0, 2)
    assert [r.getMessage() for r in caplog.records if "state file" in r.getMessage()]


def test_a_hostile_summary_becomes_one_short_printable_reason() -> None:
    hold = Hold(node="n1", alert="GPUFellOffBus", summary="lost\nreason=evil\x00 " + "x" * 500)
    assert "\n" not in hold.reason and "\x00" not in hold.reason and hold.reason.isprintable()
    assert len(hold.reason) <= 200 and hold.reason.startswith("[gpuscope] ")
    assert hold.reason.startswith("[gpuscope] GPUFellOffBus: lost reason=evil x")


def test_an_earlier_versions_state_file_keeps_its_holds(clock: FakeClock, tmp_path: Path) -> None:
    # Before issue 51, ``seen`` held one entry per alert occurrence ("cluster/node/alert/fingerprint/start": time).
    state = tmp_path / "state.json"
    held = {"cluster": "hpc", "node": "n1", "alert": "GPUFellOffBus", "since": clock(), "firing": {"fp": "X"}}
    seen = {"hpc/n1/GPUFellOffBus/fp/2027-01-15T08:00:00Z": clock()}
    state.write_text(json.dumps({"held": [held], "seen": seen, "returns": {}, "paged": {}}))
    engine = make(clock, state=state)
    assert engine.budgets()["hpc"] == (1, 2)
    assert deliver(engine, event("n1")) == [("n1", "drain", "already")]
