"""The planning worker's liveness, in process: a worker that ends is restarted, and one that keeps dying ends the
process non-zero (``EnvironmentProblem``, exit 2), so systemd or Kubernetes restarts it, never a remediator that
answers 200 and plans nothing. The worker dies here through its leader check (a Lease keeper in production), the
one call of its loop a test can hand it."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from gpuscope.errors import EnvironmentProblem
from gpuscope.remediate.audit import AuditLog, Metrics
from gpuscope.remediate.engine import Engine
from gpuscope.remediate.policy import parse_policy
from gpuscope.remediate.server import MAX_RESTARTS, Service, serve
from tests.support.net import free_port


class Death(BaseException):
    """Nothing a turn's ``except Exception`` catches: what only the supervisor sees."""


def test_a_worker_that_keeps_dying_is_restarted_then_ends_the_process(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    policy = parse_policy("clusters: [{name: gpu-k, kind: kubernetes, nodes: 4}]\n", "policy.yaml")
    calls = 0

    def leader() -> bool:
        nonlocal calls
        calls += 1
        raise Death("the leader check blew up")

    audit = AuditLog(str(tmp_path / "audit.jsonl"))

    async def main() -> None:
        service = Service(
            engine=Engine(policy, actuators={}, apply=False),
            audit=audit,
            metrics=Metrics(),
            queue=asyncio.Queue(maxsize=4),
            token=None,
            leader=leader,
            tick_s=0.05,
        )
        await asyncio.wait_for(serve(service, "127.0.0.1", free_port(), None, asyncio.Event(), lambda: None), 20)

    try:
        with caplog.at_level(logging.ERROR), pytest.raises(EnvironmentProblem, match="died 4 times in a row"):
            asyncio.run(main())
    finally:
        audit.close()
    restarted = [r for r in caplog.records if "the planning worker died" in r.getMessage()]
    assert len(restarted) == MAX_RESTARTS and calls == MAX_RESTARTS + 1
