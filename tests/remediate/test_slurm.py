"""``gpuscope remediate --apply`` on a real Slurm: the whole path from a GPU falling off the bus to a drained node.

Simulated GPU nodes (their host names are the Slurm nodes' names) are scraped by a real Prometheus on the bundle's
own configuration and rules; it sends GPUFellOffBus to two real Alertmanagers (no gossip between them, so each
delivers), which deliver to a real remediator, which drains the node with ``scontrol`` on a real slurmctld while a
real batch job keeps running on it. Needs root and Debian's slurm-wlm and munge (``scripts/ensure-binaries``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpuscope.backends.sim.faults import FaultRequest, parse_fault_kind
from gpuscope.durations import prometheus_seconds
from gpuscope.exporter.server import Listener
from gpuscope.remediate.ledger import Ledger
from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.rules import alerts
from gpuscope.rules.timescale import scale
from gpuscope.simulator.control import apply_fault
from tests.support.exporters import serving
from tests.support.fleets import sim_fleet
from tests.support.net import free_port, wait_for
from tests.support.prom import Prometheus, run_prometheus_file
from tests.support.remediate import (
    SUMMARY,
    TOKEN,
    Bundle,
    Recorder,
    Remediator,
    alertmanagers,
    page,
    post_alert,
    recorder,
    remediator,
    wait_decision,
    write_bundle,
)
from tests.support.slurm import Slurm, slurm_cluster

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

CLUSTER = "gpu-s"
SPEEDUP = 15
_FELL = next(a for a in alerts(RulesConfig()) if a.name == "GPUFellOffBus")
# The alert's bound at the test's speed (1 s scrapes, rule time compressed 15x); the remediator's share is 5 s more.
BOUND_S = prometheus_seconds(scale(_FELL.bound, SPEEDUP))
REASON = f"[gpuscope] GPUFellOffBus: {_FELL.summary}"


@dataclass
class World:
    slurm: Slurm
    bundle: Bundle
    managers: list[str]
    prometheus: Prometheus
    listeners: list[Listener]
    pages: Recorder
    port: int
    root: Path

    @property
    def nodes(self) -> list[str]:
        return list(self.slurm.nodes)


def spec_text(
    targets: list[str], prom_port: int, am_ports: list[int], remediate_port: int, hook: str, token: Path
) -> str:
    hosts = ", ".join(f'"{t}"' for t in targets)
    return f"""
name: slurm-remediation
clusters:
  - name: {CLUSTER}
    kind: baremetal
    slurm: {{}}
    node_groups: [{{name: a100, gpu_model: a100, gpus_per_node: 4, nodes: {len(targets)}, hosts: [{hosts}]}}]
    endpoints:
      prometheus_a: 127.0.0.1:{prom_port}
      prometheus_b: 127.0.0.1:{free_port()}
      alertmanagers: [{", ".join(f"127.0.0.1:{p}" for p in am_ports)}]
      pushgateway: 127.0.0.1:{free_port()}
scrape_interval: 1s
scrape_timeout: 1s
evaluation_interval: 1s
speedup: {SPEEDUP}
receivers:
  infra: {{webhook: {{url: "{hook}"}}}}
  platform: {{webhook: {{url: "{hook}"}}}}
  workload: {{webhook: {{url: "{hook}"}}}}
remediation:
  bearer_token_file: {token}
  urls: {{{CLUSTER}: "http://127.0.0.1:{remediate_port}/webhook"}}
"""


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("slurm-remediation")
    fleet = sim_fleet(count=3, gpus_per_node=4, model="a100", hostname_prefix=CLUSTER)
    names = tuple(n.config.hostname for n in fleet.nodes)
    token = root / "am-token"
    token.write_text(TOKEN + "\n")
    prom_port, am_ports, port = free_port(), [free_port(), free_port()], free_port()
    with (
        slurm_cluster(root / "slurm", nodes=names, gpus=4) as slurm,
        recorder() as pages,
        serving(fleet.listeners, 1.0),
    ):
        text = spec_text([n.target for n in fleet.nodes], prom_port, am_ports, port, pages.url, token)
        bundle = write_bundle(text, root)
        config = bundle.root / "clusters" / CLUSTER / "prometheus-a.yml"
        with (
            alertmanagers(bundle.alertmanager(), root, count=2, ports=am_ports) as managers,
            run_prometheus_file(config, root / "prom", prom_port) as prom,
        ):
            wait_for(lambda: len(prom.query('up{job="dcgm-exporter"} == 1')) == 3, timeout=60, what="targets up")
            yield World(slurm, bundle, managers, prom, fleet.listeners, pages, port, root)


def acting(world: World, workdir: Path, **changes: object) -> AbstractContextManager[Remediator]:
    policy = {**world.bundle.policy(), **changes}
    return remediator(
        workdir, policy, "--apply", f"--state-file={workdir / 'state.json'}", env={"SLURM_CONF": str(world.slurm.conf)},
        port=world.port,
    )  # fmt: skip


def reason_stamp(slurm: Slurm, node: str) -> str:
    """Who set the node's reason and when, as scontrol shows it (``root@2027-...``)."""
    line = slurm.run("scontrol", "show", "node", "-o", node)
    found = re.search(r"Reason=.* \[([^\]\s]*@\d{4}-\d\d-\d\dT[\d:]+)\]", line)
    return found[1] if found else ""


def test_a_gpu_off_the_bus_drains_exactly_that_node_once_and_its_job_keeps_running(
    world: World, tmp_path: Path
) -> None:
    slurm, node = world.slurm, world.nodes[1]
    job = slurm.sbatch(node, gpus=2)
    slurm.wait_running(job)
    with acting(world, tmp_path) as rem:
        injected = time.monotonic()
        apply_fault(world.listeners[1].runtime, FaultRequest(parse_fault_kind("fell-off-bus"), gpu=2))
        try:
            wait_for(
                lambda: "DRAIN" in slurm.node(node).flags,
                timeout=BOUND_S + 5,
                interval=0.2,
                what=f"{node} drained within {BOUND_S + 5:.0f}s of the fault\n{rem.log()[-1500:]}",
            )
            drained_after = time.monotonic() - injected
            state = slurm.node(node)
            assert state.reason == REASON, state
            assert state.flags >= {"DRAIN"} and "DOWN" not in state.flags  # drain, never down
            assert slurm.job_state(job) == "RUNNING"
            assert [n for n in world.nodes if "DRAIN" in slurm.node(n).flags] == [node]
            assert node in slurm.run("sinfo", "-R", "-h", "-o", "%N %E")
            # Both Alertmanagers deliver; the second delivery (or the next GPU's) finds the node held.
            stamp = reason_stamp(slurm, node)
            wait_decision(rem, node=node, result="already")
            assert len(rem.decisions(node=node, action="drain", result="done")) == 1
            assert reason_stamp(slurm, node) == stamp
            assert 'gpuscope_remediation_actions_total{action="drain",result="done"} 1' in rem.metrics()
            # A person puts the node back while the alert still fires: gpuscope never drains it again for it.
            slurm.run("scontrol", "update", f"nodename={node}", "state=resume")
            post_alert(world.managers, page(CLUSTER, node, gpu="3"), starts_at=time.time())
            wait_decision(rem, node=node, result="already", timeout=30)
            assert "DRAIN" not in slurm.node(node).flags
            print(f"drained {drained_after:.1f}s after the fault (bound {BOUND_S:.0f}s + 5s)")
        finally:
            apply_fault(
                world.listeners[1].runtime, FaultRequest(parse_fault_kind("fell-off-bus"), gpu=2, enabled=False)
            )
            post_alert(world.managers, page(CLUSTER, node, gpu="3"), starts_at=time.time() - 60, ends_at=time.time())
    slurm.cancel_all()
    slurm.resume_all()


def test_a_persons_drain_is_never_touched(world: World, tmp_path: Path) -> None:
    slurm, node = world.slurm, world.nodes[2]
    slurm.run("scontrol", "update", f"nodename={node}", "state=drain", "reason=fan replaced, burn-in")
    before = reason_stamp(slurm, node)
    with acting(world, tmp_path, return_to_service={"after": "1s"}) as rem:
        started = time.time()
        post_alert(world.managers, page(CLUSTER, node, gpu="1"), starts_at=started)
        decision = wait_decision(rem, node=node, result="persons")
        assert "fan replaced, burn-in" in decision["detail"]
        post_alert(world.managers, page(CLUSTER, node, gpu="1"), starts_at=started, ends_at=time.time())
        wait_for(lambda: "budget_nodes_in_use" in rem.metrics(), what="metrics")
        assert not rem.decisions(node=node, action="drain", result="done")
    state = slurm.node(node)
    assert state.reason == "fan replaced, burn-in" and "DRAIN" in state.flags
    assert reason_stamp(slurm, node) == before
    slurm.resume_all()


def test_a_node_returns_after_a_hold_of_good_health_until_it_flaps(world: World, tmp_path: Path) -> None:
    slurm, node = world.slurm, world.nodes[0]
    changes = {"return_to_service": {"after": "2s"}, "flap": {"window": "1h", "max_returns": 1}}
    with acting(world, tmp_path, **changes) as rem:
        first = time.time()
        post_alert(world.managers, page(CLUSTER, node, gpu="0"), starts_at=first)
        wait_decision(rem, node=node, action="drain", result="done")
        assert slurm.node(node).reason == f"[gpuscope] GPUFellOffBus: {SUMMARY}"
        post_alert(world.managers, page(CLUSTER, node, gpu="0"), starts_at=first, ends_at=time.time())
        wait_decision(rem, node=node, action="return", result="done")
        assert "DRAIN" not in slurm.node(node).flags
        # It fails again: drained again, and this time it stays out until a person returns it.
        again = time.time()
        post_alert(world.managers, page(CLUSTER, node, gpu="1"), starts_at=again)
        wait_for(lambda: len(rem.decisions(node=node, action="drain", result="done")) == 2, what="drained again")
        assert (
            "stays out until a person returns it"
            in rem.decisions(node=node, action="drain", result="done")[1]["detail"]
        )
        post_alert(world.managers, page(CLUSTER, node, gpu="1"), starts_at=again, ends_at=time.time())
        state = tmp_path / "state.json"

        def healthy_and_held() -> bool:
            held = Ledger.from_json(state.read_text()).held.get(f"{CLUSTER}/{node}")
            return held is not None and held.healthy_since is not None and not held.auto_return

        wait_for(healthy_and_held, what="the flapping node healthy, and held for a person")
        assert "DRAIN" in slurm.node(node).flags
    slurm.resume_all()
