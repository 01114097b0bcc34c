"""TLS, mTLS and basic auth from a web config, checked with a real HTTPS client against a served exporter."""

from __future__ import annotations

import asyncio
import socket
import ssl
from pathlib import Path

import httpx
import pytest

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from gpuscope.httpd.auth import MAX_PENDING, PER_CLIENT, BasicAuth, Verdict
from gpuscope.httpd.webconfig import WebConfig, load_web_config
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


def _basic(user: str, password: str) -> str:
    return httpx.BasicAuth(user, password)._auth_header


def test_bcrypt_cache_and_unknown_users() -> None:
    auth = BasicAuth({"prometheus": bcrypt_hash("s3cret", rounds=5).encode()})
    assert auth.dummy_cost == 5  # unknown users cost what the configured hashes cost: no user-name oracle

    async def run() -> list[Verdict]:
        results = [await auth.check(_basic("prometheus", "s3cret")) for _ in range(5)]
        results += [await auth.check(_basic("prometheus", "wrong")) for _ in range(2)]
        results.append(await auth.check(_basic("ghost", "s3cret")))
        return results

    assert asyncio.run(run()) == [Verdict.OK] * 5 + [Verdict.DENIED] * 3
    # One bcrypt run for five good checks, one for a wrong password repeated; an unknown user still costs one.
    assert auth.bcrypt_checks == 1 + 1 + 1


def test_a_wrong_password_flood_cannot_starve_a_valid_login() -> None:
    auth = BasicAuth({"prometheus": bcrypt_hash("s3cret").encode()})
    good = _basic("prometheus", "s3cret")

    async def run() -> None:
        assert await auth.check(good, client="10.0.0.1") is Verdict.OK
        before = auth.bcrypt_checks
        # 50 attacker addresses, 4 fresh guesses each, all arriving at once: the queue takes its bound, each address
        # its share, and the rest are answered "busy" without any bcrypt work.
        flood = [
            asyncio.create_task(auth.check(_basic("prometheus", f"guess-{i}"), client=f"10.1.0.{i % 50}"))
            for i in range(200)
        ]
        await asyncio.sleep(0)  # every attempt has been queued or refused; no bcrypt has run yet
        assert auth.pending == MAX_PENDING
        assert await auth.check(good, client="10.0.0.1") is Verdict.OK  # answered from the cache, queue full
        verdicts = await asyncio.gather(*flood)
        assert verdicts.count(Verdict.DENIED) == MAX_PENDING
        assert verdicts.count(Verdict.BUSY) == 200 - MAX_PENDING
        assert auth.bcrypt_checks - before == MAX_PENDING and auth.pending == 0
        # One address gets its share of the queue, no more; another address still gets in.
        mine = [asyncio.create_task(auth.check(_basic("prometheus", f"x{i}"), client="10.2.0.1")) for i in range(3)]
        other = asyncio.create_task(auth.check(_basic("prometheus", "s3cret-new"), client="10.2.0.2"))
        await asyncio.sleep(0)
        assert auth.pending == PER_CLIENT + 1
        assert list(await asyncio.gather(*mine)).count(Verdict.BUSY) == 3 - PER_CLIENT
        assert await other is Verdict.DENIED

    asyncio.run(run())


def test_queued_checks_of_clients_that_hung_up_are_dropped() -> None:
    auth = BasicAuth({"prometheus": bcrypt_hash("s3cret").encode()})

    async def run() -> list[Verdict]:
        gone = [
            asyncio.create_task(auth.check(_basic("prometheus", f"g{i}"), client=f"c{i}", alive=lambda: False))
            for i in range(20)
        ]
        # Two clients sending the same (valid) credential at once share one bcrypt run.
        pair = [asyncio.create_task(auth.check(_basic("prometheus", "s3cret"), client=c)) for c in ("a", "b")]
        return await asyncio.gather(*gone, *pair)

    assert asyncio.run(run()) == [Verdict.DENIED] * 20 + [Verdict.OK] * 2
    assert auth.dropped == 20 and auth.bcrypt_checks == 1


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
