"""The remediator's safety holds against what an Alertmanager payload carries, on a real Slurm (munged, slurmctld
and a slurmd per node on loopback, ``tests/support/slurm.py``), notifications posted to a real ``gpuscope remediate
--apply`` process's webhook as Alertmanager posts them:

- a summary imitating what Slurm appends to a reason (``[ops@2026-01-01T00:00:00]``) hid gpuscope's suffix mark, so
  its own drain read as a person's, the budget was freed and the next node drained;
- a remediator started without its state planned the first notification before re-adopting the holds marked on
  the nodes, so a budget of one drained a second node;
- a GPU alert naming a node without GPUs (a login host) drained it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.remediate import TOKEN, Remediator, notification, remediator, wait_decision
from tests.support.slurm import Slurm, slurm_cluster

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

CLUSTER = "gpu-h"
GPU_NODES = ("gpu-h-00", "gpu-h-01", "gpu-h-02")
LOGIN = "login-h"
POLICY = {"clusters": [{"name": CLUSTER, "kind": "slurm", "budget": {"max_nodes": 1}}]}
FORGED = "lost [ops@2026-01-01T00:00:00]"


@pytest.fixture(scope="module")
def slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Slurm]:
    root = tmp_path_factory.mktemp("slurm-hostile")
    with slurm_cluster(root / "slurm", nodes=(*GPU_NODES, LOGIN), gpus=2, cpu_only=(LOGIN,)) as cluster:
        yield cluster


@pytest.fixture(autouse=True)
def all_in_service(slurm: Slurm) -> Iterator[None]:
    yield
    slurm.resume_all()


def acting(slurm: Slurm, workdir: Path, state: Path) -> AbstractContextManager[Remediator]:
    return remediator(workdir, POLICY, "--apply", f"--state-file={state}", env={"SLURM_CONF": str(slurm.conf)})


def deliver(rem: Remediator, node: str, summary: str = "lost") -> None:
    body: dict[str, Any] = notification(node, cluster=CLUSTER)
    body["alerts"][0]["annotations"]["summary"] = summary
    body["alerts"][0]["fingerprint"] = f"fp-{node}-{time.monotonic_ns()}"
    answer = httpx.post(f"{rem.url}/webhook", json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
    assert answer.status_code == 200, answer.text


def drained(slurm: Slurm) -> list[str]:
    return [n for n in slurm.nodes if "DRAIN" in slurm.node(n).flags]


def test_a_summary_imitating_slurms_stamp_cannot_free_the_budget(slurm: Slurm, tmp_path: Path) -> None:
    first, second = GPU_NODES[0], GPU_NODES[1]
    with acting(slurm, tmp_path, tmp_path / "state.json") as rem:
        deliver(rem, first, FORGED)
        wait_decision(rem, node=first, result="done")
        reason = slurm.node(first).reason
        assert reason.startswith("[gpuscope] GPUFellOffBus: lost") and "[ops@" not in reason, reason
        deliver(rem, second)
        wait_decision(rem, node=second, result="over_budget")
        assert drained(slurm) == [first]
        assert not rem.decisions(action="return", result="persons")  # never mistaken for a person's drain


def test_a_restart_without_state_re_adopts_holds_before_planning(slurm: Slurm, tmp_path: Path) -> None:
    first, second = GPU_NODES[1], GPU_NODES[2]
    with acting(slurm, tmp_path / "a", tmp_path / "a" / "state.json") as rem:
        deliver(rem, first)
        wait_decision(rem, node=first, result="done")
    # The state is lost (the generated Deployment keeps it on an emptyDir); a notification arrives at once.
    with acting(slurm, tmp_path / "b", tmp_path / "b" / "state.json") as rem:
        deliver(rem, second)
        decision = wait_decision(rem, node=second)
        assert decision["result"] == "over_budget", decision
        assert drained(slurm) == [first]


def test_a_node_without_gpus_is_refused(slurm: Slurm, tmp_path: Path) -> None:
    with acting(slurm, tmp_path, tmp_path / "state.json") as rem:
        deliver(rem, LOGIN)
        decision = wait_decision(rem, node=LOGIN)
        assert (decision["action"], decision["result"]) == ("drain", "refused"), decision
        assert "not a GPU node" in decision["detail"]
        assert drained(slurm) == []
