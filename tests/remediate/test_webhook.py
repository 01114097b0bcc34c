"""The webhook from the network's side: who may deliver (bearer token, client certificates), what a hostile
payload gets (4xx and one log line, never a traceback), and the bounded queue (503 when full, so Alertmanager
retries)."""

from __future__ import annotations

import json
import re
import ssl
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.support.certs import CertAuthority
from tests.support.kubeapi import fake_kube_api
from tests.support.net import wait_for
from tests.support.remediate import TOKEN, notification, remediator, wait_decision

pytestmark = pytest.mark.e2e

POLICY = {"clusters": [{"name": "gpu-k", "kind": "kubernetes", "nodes": 4}]}
AUTH = {"Authorization": f"Bearer {TOKEN}"}


HOSTILE = [
    (b"not json", "body is not JSON"),
    (b"[1, 2]", "body is a JSON list, not Alertmanager's webhook object"),
    (
        json.dumps({"version": "4", "alerts": [{"status": "firing", "labels": {"a b": "x"}}]}).encode(),
        "not a label name",
    ),
    (json.dumps({"version": "4", "alerts": [{"status": "boom", "labels": {}}]}).encode(), "not firing or resolved"),
    (json.dumps({"version": "9", "alerts": []}).encode(), "only Alertmanager's version 4"),
]


def test_hostile_payloads_are_refused_with_one_line_each(tmp_path: Path) -> None:
    with remediator(tmp_path, POLICY) as rem:
        started = time.monotonic()
        for body, why in HOSTILE:
            answer = httpx.post(f"{rem.url}/webhook", content=body, headers=AUTH, timeout=10)
            assert answer.status_code == 400 and why in answer.json()["error"], answer.text
        deep = b'{"alerts": ' + b"[" * 5000 + b"]" * 5000 + b"}"
        assert httpx.post(f"{rem.url}/webhook", content=deep, headers=AUTH, timeout=10).status_code == 400
        huge = httpx.post(f"{rem.url}/webhook", content=b"{" + b" " * (2 * 1024 * 1024) + b"}", headers=AUTH)
        assert huge.status_code == 413
        assert httpx.post(f"{rem.url}/webhook", json=notification("n1"), timeout=10).status_code == 401
        wrong = {"Authorization": "Bearer nope"}
        assert httpx.post(f"{rem.url}/webhook", json=notification("n1"), headers=wrong, timeout=10).status_code == 401
        # still serving, and still planning
        assert httpx.post(f"{rem.url}/webhook", json=notification("n1"), headers=AUTH, timeout=10).status_code == 200
        wait_decision(rem, node="n1", result="would")
        log = rem.log()
        elapsed = time.monotonic() - started
        refused = [line for line in log.splitlines() if "refused a notification" in line]
        noted = sum(int(n) for n in re.findall(r"\((\d+) more since the last such line\)", log))
        # 8 refusals are throttled (6 x 400, 2 x 401): a burst of 5 lines, then one a second, the rest counted in
        # the next line's note. On a slow machine more seconds pass, so more lines: bound them by the time taken.
        assert 5 <= len(refused) <= 5 + int(elapsed) + 1
        assert len(refused) + noted <= 8
        assert "Traceback" not in log
        metrics = rem.metrics()
        assert 'gpuscope_remediation_webhook_requests_total{code="400"} 6' in metrics
        assert 'gpuscope_remediation_webhook_requests_total{code="401"} 2' in metrics


def test_a_full_queue_answers_503_until_it_drains(tmp_path: Path) -> None:
    (tmp_path / "kube").mkdir()
    with fake_kube_api(tmp_path / "kube") as kube:
        for n in ("n1", "n2", "n3"):
            kube.add_node(n)
        kube.stall = threading.Event()  # the API server is slow: the worker waits on its first node read
        with remediator(tmp_path, POLICY, "--apply", "--no-lease", "--queue-size=1", env=kube.env()) as rem:

            def post(node: str) -> httpx.Response:
                return httpx.post(f"{rem.url}/webhook", json=notification(node), headers=AUTH, timeout=10)

            assert post("n1").status_code == 200  # taken by the worker, which now waits on the API server
            wait_for(lambda: kube.count("/api/v1/nodes/n1") >= 1, what="the worker reading n1")
            assert post("n2").status_code == 200  # queued
            full = post("n3")
            assert full.status_code == 503 and "queue full" in full.text
            kube.stall.set()
            wait_decision(rem, node="n1", result="done")
            wait_decision(rem, node="n2", result="over_budget")  # 10% of 4 nodes: one at a time
            assert post("n3").status_code == 200  # Alertmanager's retry
            wait_decision(rem, node="n3", result="over_budget")
            assert 'gpuscope_remediation_webhook_requests_total{code="503"} 1' in rem.metrics()


def test_mutual_tls_with_the_exporters_web_config(tmp_path: Path) -> None:
    ca = CertAuthority(tmp_path, "remediate-ca")
    server = ca.issue("remediate", server=True, ips=("127.0.0.1",))
    client = ca.issue("alertmanager", server=False)
    web = tmp_path / "web.yml"
    web.write_text(
        f"tls_server_config:\n  cert_file: {server.cert}\n  key_file: {server.key}\n"
        f"  client_ca_file: {ca.path}\n  client_auth_type: RequireAndVerifyClientCert\n"
    )
    with remediator(tmp_path, POLICY, f"--web-config-file={web}", token=None, tls=True) as rem:
        context = ssl.create_default_context(cafile=str(ca.path))
        url = rem.url.replace("http://", "https://")
        with pytest.raises(httpx.HTTPError):
            httpx.post(f"{url}/webhook", json=notification("n1"), verify=context, timeout=10)
        context.load_cert_chain(str(client.cert), str(client.key))
        answer = httpx.post(f"{url}/webhook", json=notification("n1"), verify=context, timeout=10)
        assert answer.status_code == 200
        wait_decision(rem, node="n1", result="would")
