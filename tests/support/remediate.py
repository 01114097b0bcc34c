"""What the remediation tests share: a real ``gpuscope remediate`` process, real Alertmanagers on the bundle's own
configuration, alerts posted to them the way Prometheus posts them, and a webhook recorder for the pages."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import yaml

from gpuscope.generate.compose import generate_bundle
from gpuscope.runner.binaries import find_binary
from gpuscope.runner.process import ManagedProcess
from gpuscope.spec.load import parse_fleet
from tests.support.net import free_port, wait_for
from tests.support.prom import serving_binary

TOKEN = "remediate-test-token"
SUMMARY = "A GPU has fallen off the bus (XID 79) and stopped reporting."


def stamp(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Recorder:
    """A webhook receiver that keeps every notification (the pages' destination)."""

    url: str
    bodies: list[dict[str, Any]] = field(default_factory=list)

    def alerts(self, alertname: str, status: str = "firing") -> list[dict[str, Any]]:
        """One entry per notification carrying ``alertname`` in ``status``."""
        return [
            a
            for b in list(self.bodies)
            for a in b.get("alerts", [])
            if a["labels"].get("alertname") == alertname and a["status"] == status
        ]


@contextmanager
def recorder() -> Iterator[Recorder]:
    rec = Recorder("")

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            rec.bodies.append(json.loads(body))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    rec.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield rec
    finally:
        server.shutdown()
        server.server_close()


def fleet_spec(clusters: str, remediate_url: str, page_url: str, token_file: Path, remediation: str = "") -> str:
    """A fleet whose GPU pages go to ``remediate_url`` (every cluster) and whose infra pages to ``page_url``;
    ``remediation`` adds keys to its ``remediation:`` (one per line, YAML)."""
    return f"""
name: remediation-test
clusters:
{clusters}
speedup: 15
receivers:
  infra: {{webhook: {{url: "{page_url}"}}}}
  platform: {{webhook: {{url: "{page_url}"}}}}
  workload: {{webhook: {{url: "{page_url}"}}}}
remediation:
  bearer_token_file: {token_file}
  urls: {{{", ".join(f"{name}: {remediate_url}" for name in _names(clusters))}}}
{_indented(remediation)}"""


def _indented(lines: str) -> str:
    return "".join(f"  {line.strip()}\n" for line in lines.splitlines() if line.strip())


def _names(clusters: str) -> list[str]:
    return [line.split(":", 1)[1].strip() for line in clusters.splitlines() if line.strip().startswith("- name:")]


@dataclass(frozen=True)
class Bundle:
    root: Path

    def alertmanager(self) -> Path:
        return self.root / "alertmanager" / "alertmanager.yml"

    def policy(self) -> dict[str, Any]:
        loaded: dict[str, Any] = yaml.safe_load((self.root / "remediation" / "policy.yaml").read_text())
        return loaded


def write_bundle(spec_text: str, workdir: Path) -> Bundle:
    from gpuscope.bundle import write_bundle as write

    workdir.mkdir(parents=True, exist_ok=True)
    loaded = parse_fleet(spec_text, "fleet.yaml", workdir)
    write(generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv), str(workdir / "bundle"))
    return Bundle(workdir / "bundle")


@contextmanager
def alertmanagers(config: Path, workdir: Path, count: int = 1, ports: Sequence[int] = ()) -> Iterator[list[str]]:
    """``count`` real Alertmanagers on ``config`` (on ``ports`` when given), each on its own (no gossip: each
    delivers every notification, the harshest case for idempotency)."""
    with ExitStack() as stack:
        urls = []
        for i in range(count):
            port = ports[i] if ports else free_port()
            url = f"http://127.0.0.1:{port}"
            argv = [
                find_binary("alertmanager"),
                f"--config.file={config}",
                f"--storage.path={workdir / f'am-{i}'}",
                f"--web.listen-address=127.0.0.1:{port}",
                "--cluster.listen-address=",
            ]
            stack.enter_context(serving_binary(f"alertmanager-{i}", argv, workdir / f"am-{i}", url))
            urls.append(url)
        yield urls


def post_alert(
    urls: Sequence[str],
    labels: Mapping[str, str],
    *,
    starts_at: float,
    ends_at: float | None = None,
    summary: str = SUMMARY,
) -> None:
    """What Prometheus sends every evaluation while the alert fires (and once with ``endsAt`` past when it resolves)."""
    alert = {
        "labels": dict(labels),
        "annotations": {"summary": summary, "description": f"{labels.get('alertname')} on {labels.get('Hostname')}"},
        "startsAt": stamp(starts_at),
        "endsAt": stamp(ends_at if ends_at is not None else time.time() + 3600),
    }
    for url in urls:
        response = httpx.post(f"{url}/api/v2/alerts", json=[alert], timeout=10)
        assert response.status_code == 200, response.text


def notification(*nodes: str, status: str = "firing", cluster: str = "gpu-k") -> dict[str, object]:
    """What Alertmanager posts to the remediator's webhook: ``GPUFellOffBus`` firing (or resolved) on ``nodes``."""
    return {
        "version": "4",
        "status": status,
        "receiver": f"gpuscope-remediate-{cluster}",
        "groupLabels": {},
        "alerts": [
            {
                "status": status,
                "labels": {"alertname": "GPUFellOffBus", "cluster": cluster, "Hostname": n, "severity": "page"},
                "annotations": {"summary": "lost"},
                "startsAt": stamp(time.time()),
                "endsAt": "0001-01-01T00:00:00Z",
                "fingerprint": f"fp-{n}",
            }
            for n in nodes
        ],
    }


def page(cluster: str, node: str, alertname: str = "GPUFellOffBus", **labels: str) -> dict[str, str]:
    """The labels of a GPU page as the rules write them (the UUID matters: inhibitions match on it)."""
    gpu = labels.get("gpu", "0")
    return {
        "alertname": alertname,
        "cluster": cluster,
        "Hostname": node,
        "severity": "page",
        "owner": "infra",
        "gpu": gpu,
        "UUID": f"GPU-{node}-{gpu}",
        **labels,
    }


@dataclass
class Remediator:
    url: str
    audit_path: Path
    proc: ManagedProcess

    def audit(self) -> list[dict[str, Any]]:
        if not self.audit_path.exists():
            return []
        return [json.loads(line) for line in self.audit_path.read_text().splitlines() if line.strip()]

    def decisions(self, node: str = "", result: str = "", action: str = "") -> list[dict[str, Any]]:
        return [
            d
            for d in self.audit()
            if (not node or d["node"] == node)
            and (not result or d["result"] == result)
            and (not action or d["action"] == action)
        ]

    def metrics(self) -> str:
        return httpx.get(f"{self.url}/metrics", timeout=10).text

    def log(self) -> str:
        return self.proc.log_path.read_text(errors="replace")


@contextmanager
def remediator(
    workdir: Path,
    policy: str | Mapping[str, Any],
    *args: str,
    env: Mapping[str, str] | None = None,
    token: str | None = TOKEN,
    name: str = "remediate",
    port: int | None = None,
    tls: bool = False,
) -> Iterator[Remediator]:
    """``gpuscope remediate`` as a process of its own (as systemd or a Deployment runs it), ready on /-/ready."""
    workdir.mkdir(parents=True, exist_ok=True)
    policy_path = workdir / f"{name}-policy.yaml"
    policy_path.write_text(policy if isinstance(policy, str) else yaml.safe_dump(dict(policy)))
    port = port or free_port()
    argv = [
        sys.executable, "-m", "gpuscope", "remediate", f"--policy={policy_path}", f"--listen=127.0.0.1:{port}",
        f"--audit-log={workdir / f'{name}-audit.jsonl'}", "--debug", *args,
    ]  # fmt: skip
    if token is not None:
        (workdir / "token").write_text(token + "\n")
        argv.append(f"--bearer-token-file={workdir / 'token'}")
    if env:  # SLURM_CONF, the API server's address: what the process finds in its environment in production
        argv = ["env", *(f"{k}={v}" for k, v in env.items()), *argv]
    child = ManagedProcess(name, argv, workdir / f"{name}.log", f"http://127.0.0.1:{port}/-/ready")
    child.start()
    try:
        if tls:  # /-/ready wants a client certificate too: the line it logs once listening says it is up
            wait_for(
                lambda: "remediating" in child.log_path.read_text(), what=f"gpuscope remediate up ({child.log_path})"
            )
        else:
            assert child.wait_ready(30), f"gpuscope remediate did not start: {child.log_path.read_text()[-2000:]}"
        yield Remediator(f"http://127.0.0.1:{port}", workdir / f"{name}-audit.jsonl", child)
    finally:
        child.stop(10)


def wait_decision(rem: Remediator, timeout: float = 30, **match: str) -> dict[str, Any]:
    found: dict[str, Any] = wait_for(
        lambda: next(iter(rem.decisions(**match)), None),
        timeout=timeout,
        what=f"a decision {match}\n{rem.log()[-1500:]}",
    )
    return found
