"""The remediator against its own inputs, through a real ``gpuscope remediate`` process (its CLI, its webhook) and,
where it acts, the test's hostile API server (``tests/support/kubeapi.py``). Each case once stopped the planning
worker silently, acted outside the fleet, grew without bound, or started without a word where it should not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from gpuscope.remediate.kubernetes import PAGE_LIMIT
from gpuscope.remediate.ledger import SEEN_PER_NODE
from tests.support.kubeapi import FakeKubeApi, fake_kube_api
from tests.support.net import free_port, wait_for
from tests.support.remediate import TOKEN, Remediator, notification, remediator, wait_decision

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(240)]

POLICY: dict[str, Any] = {"clusters": [{"name": "gpu-k", "kind": "kubernetes", "nodes": 40}]}  # budget: 2 nodes
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def kube(tmp_path: Path) -> Iterator[FakeKubeApi]:
    (tmp_path / "kube").mkdir()
    with fake_kube_api(tmp_path / "kube") as api:
        for node in ("n1", "n2", "n3"):
            api.add_node(node)
        yield api


def post(rem: Remediator, body: dict[str, Any]) -> None:
    answer = httpx.post(f"{rem.url}/webhook", json=body, headers=AUTH, timeout=30)
    assert answer.status_code == 200, answer.text


def alert(node: str, **labels: str) -> dict[str, Any]:
    body: dict[str, Any] = notification(node)
    body["alerts"][0]["labels"].update(labels)
    return body


def cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``gpuscope remediate`` started by hand; an input problem must end it at once (a hang is the timeout)."""
    policy = tmp_path / "cli-policy.yaml"
    policy.write_text(yaml.safe_dump(POLICY))
    listen = f"--listen=127.0.0.1:{free_port()}"
    argv = [sys.executable, "-m", "gpuscope", "remediate", f"--policy={policy}", listen, *args]
    return subprocess.run(
        argv, capture_output=True, text=True, timeout=30, check=False, env={**os.environ, **(env or {})}
    )


# -- the planning worker never dies silently ----------------------------------------------------------------------


def test_an_xid_of_unicode_digits_is_ignored_and_planning_goes_on(tmp_path: Path) -> None:
    with remediator(tmp_path, POLICY) as rem:
        post(rem, alert("n1", alertname="GPUXidCritical", xid="²"))  # isdigit(), but int() raises
        wait_decision(rem, node="n1", result="ignored")
        post(rem, alert("n2"))
        wait_decision(rem, node="n2", result="would")
        assert "Traceback" not in rem.log()
        assert httpx.get(f"{rem.url}/-/ready", timeout=10).status_code == 200


def test_a_node_object_of_the_wrong_shape_is_one_failed_decision(kube: FakeKubeApi, tmp_path: Path) -> None:
    weird = json.dumps({"kind": "Node", "metadata": None, "spec": None, "status": None}).encode()

    def answer(handler: BaseHTTPRequestHandler, path: str) -> bool:
        if path != "/api/v1/nodes/n1":
            return False
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(weird)))
        handler.end_headers()
        handler.wfile.write(weird)
        return True

    kube.answer = answer
    with remediator(tmp_path, POLICY, "--apply", "--no-lease", env=kube.env()) as rem:
        post(rem, alert("n1"))
        decision = wait_decision(rem, node="n1")
        assert decision["result"] in ("refused", "failed"), decision  # no capacity read: not a GPU node
        post(rem, alert("n2"))
        wait_decision(rem, node="n2", result="done")
        assert httpx.get(f"{rem.url}/-/ready", timeout=10).status_code == 200


def test_a_state_entry_of_the_wrong_type_is_a_fresh_start(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    held = {"cluster": "gpu-k", "node": "n1", "alert": "GPUFellOffBus", "since": 1.0, "firing": 7}
    state.write_text(json.dumps({"held": [held], "seen": {}, "returns": {}, "paged": {}}))
    with remediator(tmp_path, POLICY, f"--state-file={state}") as rem:
        post(rem, alert("n1"))
        wait_decision(rem, node="n1", result="would")
        assert "unreadable" in rem.log() and "Traceback" not in rem.log()


def test_an_audit_log_on_a_full_disk_is_one_line_and_planning_goes_on(tmp_path: Path) -> None:
    audit = tmp_path / "remediate-audit.jsonl"
    audit.write_bytes(b"\n" * 65536)  # at the file size limit below: every further write fails (EFBIG)
    policy, token, port_log = tmp_path / "policy.yaml", tmp_path / "token", tmp_path / "full.log"
    policy.write_text(yaml.safe_dump(POLICY))
    token.write_text(TOKEN)
    port = free_port()
    argv = [
        "prlimit", "--fsize=65536", "--", sys.executable, "-m", "gpuscope", "remediate", f"--policy={policy}",
        f"--listen=127.0.0.1:{port}", f"--audit-log={audit}", f"--bearer-token-file={token}",
    ]  # fmt: skip
    with port_log.open("w") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"

        def ready() -> bool:
            try:
                return httpx.get(f"{url}/-/ready", timeout=5).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(ready, what=f"remediate up\n{port_log.read_text()}")
        for node in ("n1", "n2"):
            answer = httpx.post(f"{url}/webhook", json=alert(node), headers=AUTH, timeout=10)
            assert answer.status_code == 200

        def planned() -> set[str]:
            return {d["node"] for d in httpx.get(f"{url}/api/v1/decisions", timeout=5).json()}

        wait_for(lambda: planned() >= {"n1", "n2"}, what=f"both planned\n{port_log.read_text()}")
        log = port_log.read_text()
        assert log.count("cannot write the audit log") == 1 and "Traceback" not in log
        assert httpx.get(f"{url}/-/ready", timeout=5).status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)


# -- out of the fleet, and names that are no node ------------------------------------------------------------------


def test_the_control_plane_node_is_never_tainted(kube: FakeKubeApi, tmp_path: Path) -> None:
    kube.add_node("control-plane", gpus=0)
    kube.add_node("dra-node", labels={"nvidia.com/gpu.present": "true"}, gpus=0)  # GPUs through DRA: no capacity
    with remediator(tmp_path, POLICY, "--apply", "--no-lease", env=kube.env()) as rem:
        post(rem, alert("control-plane"))
        decision = wait_decision(rem, node="control-plane")
        assert (decision["action"], decision["result"]) == ("taint", "refused"), decision
        assert "no nvidia.com/gpu capacity" in decision["detail"]
        post(rem, alert("dra-node"))
        wait_decision(rem, node="dra-node", result="done")
    assert kube.taints("control-plane") == [] and not kube.node("control-plane")["spec"].get("unschedulable")


@pytest.mark.parametrize("name", ["..", ".", "n1/status", "a/../../namespaces"])
def test_a_node_name_that_is_a_path_never_reaches_the_api(kube: FakeKubeApi, tmp_path: Path, name: str) -> None:
    with remediator(tmp_path, POLICY, "--apply", "--no-lease", env=kube.env()) as rem:
        post(rem, alert(name))
        decision = wait_decision(rem, result="refused")
        assert "is not a node name" in decision["detail"]
    assert not [r for r in kube.requests if r.startswith("/api/v1/nodes/")], kube.requests


def test_a_newline_in_a_node_label_never_forges_a_log_line(tmp_path: Path) -> None:
    forged = "n1\n2027-01-01 00:00:00 INFO gpuscope.remediate: returned every node"
    with remediator(tmp_path, POLICY) as rem:
        post(rem, alert(forged))
        wait_decision(rem, result="refused")
        post(rem, alert("n2"))
        wait_decision(rem, node="n2", result="would")
        lines = rem.log().splitlines()
    assert not [line for line in lines if line.startswith("2027-01-01")]
    assert any("returned every node" in line and "\\n" in line for line in lines)


# -- bounds --------------------------------------------------------------------------------------------------------


def test_node_lists_are_read_in_pages(kube: FakeKubeApi, tmp_path: Path) -> None:
    for i in range(PAGE_LIMIT * 2 + 10):
        kube.add_node(f"g{i:04d}")
    policy = {"clusters": [{"name": "gpu-k", "kind": "kubernetes", "budget": {"max_percent": 1}}]}  # counts nodes
    with remediator(tmp_path, policy, "--apply", "--no-lease", env=kube.env()) as rem:
        post(rem, alert("n1"))
        wait_decision(rem, node="n1", result="done")
    lists = [r for r in kube.requests if r.startswith("/api/v1/nodes?")]
    assert lists and all(f"limit={PAGE_LIMIT}" in r for r in lists)
    assert any("continue=" in r for r in lists)
    assert "/api/v1/nodes" not in kube.requests  # never the whole list in one answer


def test_the_state_file_is_bounded_per_node(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    with remediator(tmp_path, POLICY, f"--state-file={state}") as rem:
        post(rem, alert("n1"))
        wait_decision(rem, node="n1", result="would")
        for batch in range(3):  # 1,500 distinct occurrences of alerts on the node already held
            body = alert("n1")
            body["alerts"] = [
                {**body["alerts"][0], "fingerprint": f"fp-{batch}-{i}", "startsAt": f"2027-01-01T00:{i // 60:02d}:00Z"}
                for i in range(500)
            ]
            post(rem, body)
        wait_for(lambda: len(rem.decisions(node="n1", result="already")) >= 1500, what="every alert planned")
    saved = json.loads(state.read_text())
    assert [len(per) for per in saved["seen"].values()] == [SEEN_PER_NODE]
    assert len(state.read_bytes()) < 16 * 1024


def test_a_large_valid_notification_is_read_whole(tmp_path: Path) -> None:
    body: dict[str, Any] = notification(*(f"n{i}" for i in range(300)))
    for i, a in enumerate(body["alerts"]):
        a["annotations"] = {"summary": "lost", "description": f"{i} " + "d" * 2200}
    size = len(json.dumps(body))
    assert 600 * 1024 < size < 1024 * 1024
    with remediator(tmp_path, POLICY) as rem:
        answer = httpx.post(f"{rem.url}/webhook", content=json.dumps(body).encode(), headers=AUTH, timeout=30)
        assert answer.status_code == 200, answer.text
        assert answer.json()["alerts"] == 300


# -- start-up and auth ---------------------------------------------------------------------------------------------


def test_apply_without_authentication_is_refused_at_start(kube: FakeKubeApi, tmp_path: Path) -> None:
    done = cli(tmp_path, "--apply", "--no-lease", env=kube.env())
    assert done.returncode == 2, done.stderr
    assert "--apply needs authentication" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_insecure_no_auth_starts_with_a_warning(kube: FakeKubeApi, tmp_path: Path) -> None:
    with remediator(tmp_path, POLICY, "--apply", "--no-lease", "--insecure-no-auth", env=kube.env(), token=None) as rem:
        assert "--insecure-no-auth: anyone who can reach" in rem.log()
        answer = httpx.post(f"{rem.url}/webhook", json=alert("n1"), timeout=10)
        assert answer.status_code == 200


@pytest.mark.parametrize("flag", ["--state-file", "--audit-log"])
def test_a_fifo_in_place_of_a_file_is_refused_at_start(tmp_path: Path, flag: str) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = cli(tmp_path, f"{flag}={fifo}")
    assert done.returncode == 2, done.stderr
    assert flag in done.stderr and "not a regular file" in done.stderr and "Traceback" not in done.stderr


def test_a_state_file_nesting_bomb_is_one_line(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    state.write_text('{"held": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with remediator(tmp_path, POLICY, f"--state-file={state}") as rem:
        post(rem, alert("n1"))
        wait_decision(rem, node="n1", result="would")
        assert "unreadable" in rem.log() and "Traceback" not in rem.log()


def test_an_alert_without_a_fingerprint_returns_its_node(tmp_path: Path) -> None:
    policy = {**POLICY, "return_to_service": {"after": "1s"}}
    with remediator(tmp_path, policy) as rem:
        firing = alert("n1")
        del firing["alerts"][0]["fingerprint"]
        post(rem, firing)
        wait_decision(rem, node="n1", result="would")
        resolved = json.loads(json.dumps(firing))
        resolved["status"] = resolved["alerts"][0]["status"] = "resolved"
        post(rem, resolved)
        wait_decision(rem, node="n1", action="return", result="would")
