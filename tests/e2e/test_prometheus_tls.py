"""A real Prometheus scrapes the exporter over TLS with a client certificate and basic auth."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from gpuscope.backends.sim import SimNode, SimNodeConfig
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import model_by_key
from gpuscope.httpd.webconfig import load_web_config
from tests.support.certs import CertAuthority, bcrypt_hash
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for
from tests.support.prom import run_prometheus

pytestmark = pytest.mark.e2e


def test_prometheus_scrapes_with_mtls_and_basic_auth(tmp_path: Path) -> None:
    ca = CertAuthority(tmp_path, "ca")
    ca.issue("server", server=True, ips=("127.0.0.1",))
    prom_cert = ca.issue("prometheus", server=False, dns=("prometheus.example",))
    (tmp_path / "web.yml").write_text(
        "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
        "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n  min_version: TLS12\n"
        f"basic_auth_users:\n  prometheus: {bcrypt_hash('scrape-pw')}\n"
    )
    sim = SimNode(SimNodeConfig("node-tls", model_by_key("h100"), 2))
    lst = Listener(
        "127.0.0.1",
        free_port(),
        make_runtime(sim, ExporterSettings(collectors=load_collectors(None), interval_s=1.0), "node-tls"),
    )
    tls = {"ca_file": str(ca.path), "cert_file": str(prom_cert.cert), "key_file": str(prom_cert.key)}
    target = {"targets": [f"127.0.0.1:{lst.port}"]}

    def job(name: str, password: str, client_cert: bool = True) -> dict[str, object]:
        tls_config = tls if client_cert else {"ca_file": str(ca.path)}
        return {
            "job_name": name,
            "scheme": "https",
            "tls_config": tls_config,
            "basic_auth": {"username": "prometheus", "password": password},
            "static_configs": [target],
        }

    config = {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "scrape_configs": [
            job("dcgm-exporter", "scrape-pw"),
            job("wrong-password", "guess"),
            job("no-client-cert", "scrape-pw", client_cert=False),
        ],
    }
    with (
        serving([lst], 1.0, web_config=load_web_config(str(tmp_path / "web.yml"))),
        run_prometheus(config, tmp_path / "prom") as prom,
    ):
        wait_for(lambda: prom.query('up{job="dcgm-exporter"} == 1'), timeout=60, what="the TLS target up")
        temps = wait_for(
            lambda: len(r := prom.query('DCGM_FI_DEV_GPU_TEMP{job="dcgm-exporter"}')) == 2 and r, what="temps"
        )
        assert {s["metric"]["Hostname"] for s in temps} == {"node-tls"}
        for refused in ("wrong-password", "no-client-cert"):
            wait_for(partial(prom.query, f'up{{job="{refused}"}} == 0'), timeout=60, what=f"{refused} down")
        errors = {t["labels"]["job"]: t["lastError"] for t in prom.targets()}
        assert "401" in errors["wrong-password"]
        assert errors["dcgm-exporter"] == ""
        assert errors["no-client-cert"]  # the handshake was refused
