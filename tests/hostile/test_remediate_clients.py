"""The remediator's two HTTP clients against hostile servers, through a real ``gpuscope remediate --apply`` process
fed notifications on its webhook, as Alertmanager feeds it:

- the API server (``remediate/kubernetes.py``): a node read dripping a byte at a time held the remediator's one
  worker for ever (its timeout was per read), and a nesting bomb raised ``RecursionError`` where only ``ValueError``
  was caught. Both now go through ``gpuscope.kube.client.fetch`` (one deadline for the whole answer, a cap, no
  redirect): each is one failed decision saying why, and the next notification is acted on;
- Alertmanager (the budget page, ``remediate/pager.py``): posted with httpx's per-read timeout, so a dripping
  Alertmanager held the worker too. Now the post goes through ``gpuscope.prom`` (a total deadline, a capped answer):
  the page is a failed decision after its 5 s.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import httpx
import pytest

from tests.support.hostile_http import Handler, drip, hostile
from tests.support.kubeapi import FakeKubeApi, dripping, fake_kube_api, only, raw
from tests.support.remediate import TOKEN, Remediator, notification, remediator, wait_decision

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

POLICY = {"clusters": [{"name": "gpu-k", "kind": "kubernetes", "nodes": 4}]}  # 10 % of 4 nodes: one at a time
AUTH = {"Authorization": f"Bearer {TOKEN}"}
BOMB = b'{"kind":"Node","metadata":' + b"[" * 200_000 + b"]" * 200_000 + b"}"


@pytest.fixture
def kube(tmp_path: Path) -> Iterator[FakeKubeApi]:
    (tmp_path / "kube").mkdir()
    with fake_kube_api(tmp_path / "kube") as api:
        for node in ("n1", "n2", "n3"):
            api.add_node(node)
        yield api


def notify(rem: Remediator, node: str) -> None:
    answer = httpx.post(f"{rem.url}/webhook", json=notification(node), headers=AUTH, timeout=10)
    assert answer.status_code == 200, answer.text


def test_a_dripping_or_nested_api_server_answer_is_one_failed_decision(kube: FakeKubeApi, tmp_path: Path) -> None:
    started = threading.Event()
    drips, bomb = only("/api/v1/nodes/n1", dripping(started)), only("/api/v1/nodes/n2", raw(BOMB))

    def hostile_reads(handler: BaseHTTPRequestHandler, path: str) -> bool:
        return drips(handler, path) or bomb(handler, path)

    kube.answer = hostile_reads
    with remediator(tmp_path, POLICY, "--apply", "--no-lease", env=kube.env()) as rem:
        notify(rem, "n1")
        failed = wait_decision(rem, timeout=60, node="n1", result="failed")  # the deadline is 10 s
        assert started.is_set()
        assert f"GET /api/v1/nodes/n1: no whole answer from {kube.host}:{kube.port} within 10s" in failed["detail"]
        notify(rem, "n2")
        failed = wait_decision(rem, node="n2", result="failed")
        assert "GET /api/v1/nodes/n2: the API server's answer nests deeper than any" in failed["detail"]
        notify(rem, "n3")  # the worker is free: the next notification is acted on
        wait_decision(rem, node="n3", result="done")
        assert "Traceback" not in rem.log()


def test_a_dripping_alertmanager_fails_the_page_at_its_deadline(kube: FakeKubeApi, tmp_path: Path) -> None:
    posted: list[tuple[str, str, bytes]] = []

    def dripping_alertmanager(path: str, handler: Handler) -> None:
        posted.append((handler.method, path, handler.body))
        drip(path, handler)

    with (
        hostile(dripping_alertmanager) as alertmanager,
        remediator(tmp_path, POLICY, "--apply", "--no-lease", f"--alertmanager={alertmanager}", env=kube.env()) as rem,
    ):
        notify(rem, "n1")
        wait_decision(rem, node="n1", result="done")
        notify(rem, "n2")  # over the budget of one node: the budget page
        wait_decision(rem, node="n2", result="over_budget")
        failed = wait_decision(rem, timeout=60, action="page", result="failed")  # the deadline is 5 s
        assert f"--alertmanager {alertmanager}: no answer within its deadline of 5s" in failed["detail"]
        [(method, path, body)] = posted
        assert (method, path) == ("POST", "/api/v2/alerts") and b"GPURemediationBudgetExhausted" in body
        notify(rem, "n3")  # the worker is free again
        wait_decision(rem, node="n3", result="over_budget")
        assert "Traceback" not in rem.log()
