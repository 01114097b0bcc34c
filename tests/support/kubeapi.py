"""A Kubernetes API server stand-in: real HTTPS on loopback, serving ConfigMaps to a bearer token.

It answers ``GET /api/v1/namespaces/<ns>/configmaps/<name>`` as the API server does (a ConfigMap object, or a
404/401/403 Status), and writes the service-account directory (``token``, ``ca.crt``) a pod would have.
"""

from __future__ import annotations

import json
import re
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.support.certs import CertAuthority

_PATH = re.compile(r"^/api/v1/namespaces/([^/]+)/configmaps/([^/]+)$")


@dataclass
class FakeKubeApi:
    host: str
    port: int
    sa_dir: Path
    token: str
    configmaps: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    readable_namespaces: set[str] | None = None  # None: the token may read every namespace
    requests: list[str] = field(default_factory=list)

    def env(self) -> dict[str, str]:
        """What a pod's environment says about the API server, plus where this service account lives."""
        return {
            "KUBERNETES_SERVICE_HOST": self.host,
            "KUBERNETES_SERVICE_PORT": str(self.port),
            "GPUSCOPE_SERVICEACCOUNT_DIR": str(self.sa_dir),
        }


def _status(code: int, reason: str, message: str) -> bytes:
    return json.dumps(
        {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message, "reason": reason, "code": code}
    ).encode()


@contextmanager
def fake_kube_api(workdir: Path) -> Iterator[FakeKubeApi]:
    ca = CertAuthority(workdir, "kube-ca")
    issued = ca.issue("kube-apiserver", server=True, ips=("127.0.0.1",))
    sa_dir = workdir / "serviceaccount"
    sa_dir.mkdir()
    token = "test-service-account-token"
    (sa_dir / "token").write_text(token + "\n")
    (sa_dir / "ca.crt").write_bytes(ca.path.read_bytes())

    api: FakeKubeApi

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def _send(self, code: int, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            api.requests.append(self.path)
            if self.headers.get("Authorization") != f"Bearer {api.token}":
                self._send(401, _status(401, "Unauthorized", "Unauthorized"))
                return
            match = _PATH.match(self.path)
            if match is None:
                self._send(404, _status(404, "NotFound", "the server could not find the requested resource"))
                return
            namespace, name = match.groups()
            if api.readable_namespaces is not None and namespace not in api.readable_namespaces:
                self._send(403, _status(403, "Forbidden", f'configmaps "{name}" is forbidden'))
                return
            data = api.configmaps.get((namespace, name))
            if data is None:
                self._send(404, _status(404, "NotFound", f'configmaps "{name}" not found'))
                return
            body = {
                "kind": "ConfigMap",
                "apiVersion": "v1",
                "metadata": {"name": name, "namespace": namespace},
                "data": data,
            }
            self._send(200, json.dumps(body).encode())

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(issued.cert, issued.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    api = FakeKubeApi("127.0.0.1", server.server_address[1], sa_dir, token)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)
