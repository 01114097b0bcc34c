"""TLS, mTLS and basic auth from a web config, checked with a real HTTPS client against a served exporter."""

from __future__ import annotations

import socket
import ssl
from pathlib import Path

import httpx
import pytest

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.exporter.webconfig import WebConfig, load_web_config
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from tests.support.certs import CertAuthority, Issued, bcrypt_hash
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for


class Pki:
    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.ca = CertAuthority(directory, "ca")
        self.server = self.ca.issue("server", server=True, dns=("localhost",), ips=("127.0.0.1",))
        self.client = self.ca.issue("client", server=False, dns=("prometheus.example",))
        self.other_client = self.ca.issue("other-client", server=False, dns=("intruder.example",))
        self.rogue_ca = CertAuthority(directory, "rogue-ca")
        self.rogue_client = self.rogue_ca.issue("rogue-client", server=False, dns=("prometheus.example",))

    def web_config(self, text: str) -> WebConfig:
        path = self.dir / "web.yml"
        path.write_text(f"tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n{text}")
        return load_web_config(str(path))


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture
def listener() -> Listener:
    sim = SimNode(SimNodeConfig("node-a", model_by_key("h100"), 1))
    runtime = make_runtime(sim, ExporterSettings(collectors=load_collectors(None), interval_s=0.5), "node-a")
    return Listener("127.0.0.1", free_port(), runtime)


def client(pki: Pki, cert: Issued | None = None) -> httpx.Client:
    ctx = ssl.create_default_context(cafile=str(pki.ca.path))
    if cert is not None:
        ctx.load_cert_chain(str(cert.cert), str(cert.key))
    return httpx.Client(verify=ctx, timeout=10)


@pytest.fixture
def https(listener: Listener) -> str:
    return f"https://127.0.0.1:{listener.port}"


def test_tls_serves_metrics_and_refuses_plain_http(pki: Pki, listener: Listener, https: str) -> None:
    with serving([listener], 0.5, web_config=pki.web_config("")), client(pki) as c:
        wait_for(lambda: c.get(f"{https}/health").status_code == 200, what="healthy over TLS")
        assert "DCGM_FI_DEV_GPU_TEMP{" in c.get(f"{https}/metrics").text
        with pytest.raises(httpx.ConnectError):  # the server's certificate is not from a CA the client trusts
            httpx.get(f"{https}/metrics", timeout=5)
        # Plain HTTP on the TLS port: a 400 that says what to fix (as Go's server answers), then the TLS port
        # still serves TLS.
        plain = httpx.get(f"http://127.0.0.1:{listener.port}/metrics", timeout=5)
        assert plain.status_code == 400
        assert plain.text == "Client sent an HTTP request to an HTTPS server.\n"
        assert c.get(f"{https}/health").status_code == 200


def test_mtls_requires_a_client_certificate_from_the_ca(pki: Pki, listener: Listener, https: str) -> None:
    config = pki.web_config("  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n")
    with serving([listener], 0.5, web_config=config):
        with client(pki, pki.client) as c:
            assert c.get(f"{https}/metrics").status_code == 200
        for cert in (None, pki.rogue_client):  # no certificate, or one from another CA: the handshake fails
            with client(pki, cert) as c, pytest.raises(httpx.TransportError):
                c.get(f"{https}/metrics")


def test_client_allowed_sans(pki: Pki, listener: Listener, https: str) -> None:
    config = pki.web_config(
        "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n"
        "  client_allowed_sans: [prometheus.example]\n"
    )
    with serving([listener], 0.5, web_config=config):
        with client(pki, pki.client) as c:
            assert c.get(f"{https}/metrics").status_code == 200
        with client(pki, pki.other_client) as c:
            assert c.get(f"{https}/metrics").status_code == 403


def test_basic_auth_bcrypt_with_cache(pki: Pki, listener: Listener, https: str) -> None:
    config = pki.web_config(
        f"basic_auth_users:\n  prometheus: {bcrypt_hash('s3cret')}\n"
        "auth_excluded_paths: [/health]\n"
        "http_server_config:\n  headers:\n    X-Frame-Options: deny\n"
    )
    with serving([listener], 0.5, web_config=config), client(pki) as c:
        denied = c.get(f"{https}/metrics")
        assert denied.status_code == 401 and denied.headers["WWW-Authenticate"] == "Basic"
        assert denied.headers["X-Frame-Options"] == "deny"  # configured headers on every response
        for auth in (("prometheus", "wrong"), ("nobody", "s3cret"), ("prometheus", "")):
            response = c.get(f"{https}/metrics", auth=auth)
            assert response.status_code == 401 and response.headers["WWW-Authenticate"] == "Basic"
        assert c.get(f"{https}/metrics", headers={"Authorization": "Basic !!notbase64"}).status_code == 401
        assert c.get(f"{https}/health").status_code in (200, 503)  # excluded from auth
        for _ in range(5):
            ok = c.get(f"{https}/metrics", auth=("prometheus", "s3cret"))
            assert ok.status_code == 200 and "DCGM_FI_DEV_GPU_TEMP{" in ok.text
        assert ok.headers["X-Frame-Options"] == "deny"


def test_bcrypt_cache_and_unknown_users() -> None:
    import asyncio

    from gpuscope.exporter.auth import BasicAuth

    auth = BasicAuth({"prometheus": bcrypt_hash("s3cret").encode()})
    header = httpx.BasicAuth("prometheus", "s3cret")._auth_header

    async def run() -> list[bool]:
        results = [await auth.check(header) for _ in range(5)]
        results.append(await auth.check(httpx.BasicAuth("prometheus", "wrong")._auth_header))
        results.append(await auth.check(httpx.BasicAuth("prometheus", "wrong")._auth_header))
        results.append(await auth.check(httpx.BasicAuth("ghost", "s3cret")._auth_header))
        return results

    assert asyncio.run(run()) == [True] * 5 + [False] * 3
    # One bcrypt run for five good checks; wrong passwords are never cached; an unknown user still costs one.
    assert auth.bcrypt_checks == 1 + 2 + 1


def test_rate_limit(pki: Pki, listener: Listener, https: str) -> None:
    config = pki.web_config("rate_limit:\n  interval: 1h\n  burst: 2\n")
    with serving([listener], 0.5, web_config=config), client(pki) as c:
        codes = [c.get(f"{https}/metrics").status_code for _ in range(3)]
        assert codes == [200, 200, 429]


def served_serial(port: int, ca: Path) -> int:
    ctx = ssl.create_default_context(cafile=str(ca))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
        ctx.wrap_socket(raw, server_hostname="127.0.0.1") as tls,
    ):
        der = tls.getpeercert(binary_form=True)
    from cryptography import x509

    assert der is not None
    return x509.load_der_x509_certificate(der).serial_number


def test_renewed_certificate_files_are_picked_up(tmp_path: Path, listener: Listener) -> None:
    ca = CertAuthority(tmp_path, "ca")
    first = ca.issue("server", server=True, ips=("127.0.0.1",))
    (tmp_path / "web.yml").write_text("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n")
    config = load_web_config(str(tmp_path / "web.yml"))
    from cryptography import x509

    old = x509.load_pem_x509_certificate(first.cert.read_bytes()).serial_number
    with serving([listener], 0.5, web_config=config):
        assert served_serial(listener.port, ca.path) == old
        renewed = ca.issue("server", server=True, ips=("127.0.0.1",))  # same file names, new certificate
        new = x509.load_pem_x509_certificate(renewed.cert.read_bytes()).serial_number
        wait_for(lambda: served_serial(listener.port, ca.path) == new, what="the renewed certificate")
        (tmp_path / "server.key").write_text("broken")  # a bad renewal keeps the last good certificate
        assert served_serial(listener.port, ca.path) == new
    assert config.tls is not None and config.tls.reloads == 1
