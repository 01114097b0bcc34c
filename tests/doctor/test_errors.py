"""When doctor cannot audit: one line naming the flag and the fix, exit code 3, never a traceback.

Secured endpoints are a real Prometheus behind its own ``--web.config.file`` (TLS with a test CA, bcrypt basic
auth); the slow one is a socket that accepts connections and never answers.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import yaml

from gpuscope.runner.process import ManagedProcess
from tests.support.certs import CertAuthority, bcrypt_hash
from tests.support.cli import gpuscope_here
from tests.support.doctor import assert_cannot_audit, doctor_cli
from tests.support.net import free_port, wait_for
from tests.support.prom import binary

pytestmark = pytest.mark.timeout(300)

PASSWORD = "doctor-pw"


@contextmanager
def secured_prometheus(workdir: Path) -> Iterator[tuple[str, CertAuthority]]:
    """A Prometheus serving only HTTPS with basic auth; it scrapes nothing, so it has no GPU metrics."""
    ca = CertAuthority(workdir, "ca")
    ca.issue("server", server=True, ips=("127.0.0.1",))
    (workdir / "web.yml").write_text(
        "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
        f"basic_auth_users:\n  doctor: {bcrypt_hash(PASSWORD)}\n"
    )
    (workdir / "prometheus.yml").write_text(yaml.safe_dump({"global": {"scrape_interval": "15s"}}))
    port = free_port()
    url = f"https://127.0.0.1:{port}"
    argv = [
        binary("prometheus"),
        f"--config.file={workdir / 'prometheus.yml'}",
        f"--storage.tsdb.path={workdir / 'data'}",
        f"--web.listen-address=127.0.0.1:{port}",
        f"--web.config.file={workdir / 'web.yml'}",
    ]
    child = ManagedProcess("prometheus", argv, workdir / "prometheus.log", f"{url}/-/ready")
    child.start()
    trust = ssl.create_default_context(cafile=str(ca.path))
    try:
        wait_for(
            lambda: httpx.get(f"{url}/-/ready", verify=trust, auth=("doctor", PASSWORD)).status_code == 200,
            timeout=60,
            what="the TLS Prometheus",
        )
        yield url, ca
    finally:
        child.stop(20)


@pytest.mark.e2e
def test_tls_and_basic_auth_problems_each_name_the_flag_to_pass(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text(f"{PASSWORD}\n")
    (tmp_path / "wrong").write_text("guess\n")
    with secured_prometheus(tmp_path) as (url, ca):
        assert_cannot_audit(doctor_cli("--prometheus", url), "TLS handshake failed", "--ca-file")
        trusted = ("--prometheus", url, "--ca-file", str(ca.path))
        assert_cannot_audit(doctor_cli(*trusted), f"--prometheus {url}: answered 401 Unauthorized", "--basic-auth-user")
        wrong = doctor_cli(
            *trusted, "--basic-auth-user", "doctor", "--basic-auth-password-file", str(tmp_path / "wrong")
        )
        assert_cannot_audit(wrong, "401 Unauthorized")
        # Past TLS and auth, this Prometheus is audited and found to scrape no GPU at all.
        right = doctor_cli(*trusted, "--basic-auth-user", "doctor", "--basic-auth-password-file", str(tmp_path / "pw"))
        assert_cannot_audit(right, f"--prometheus {url} has no GPU metrics", "point --prometheus at the Prometheus")
        plain = doctor_cli("--prometheus", url.replace("https://", "http://"))
        assert_cannot_audit(plain, "not a Prometheus API", "HTTP request to an HTTPS server")


def doctor_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``gpuscope doctor`` in this process: what these tests check is what it says, not the process (each new one
    spends a second importing gpuscope)."""
    return gpuscope_here("doctor", *args)


def test_unreachable_and_silent_servers() -> None:
    port = free_port()
    assert_cannot_audit(
        doctor_here("--prometheus", f"http://127.0.0.1:{port}"), f"--prometheus http://127.0.0.1:{port}: cannot connect"
    )
    with socket.socket() as silent:  # accepts connections (the kernel's backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        done = doctor_here("--prometheus", url, "--timeout", "1")
        assert_cannot_audit(done, f"--prometheus {url}: no answer within --timeout 1s")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ((), "Missing option '--prometheus'"),
        (("--prometheus", "prometheus:9090"), "is not an http:// or https:// URL"),
        (("--prometheus", "http://p:9090", "--timeout", "0"), "--timeout"),
        (("--prometheus", "http://p:9090", "--window", "5x"), "invalid --window '5x'"),
        # Each unit once, largest first, as Prometheus parses it: 1m1m was read as 2 minutes before.
        (("--prometheus", "http://p:9090", "--window", "1m1m"), "invalid --window '1m1m'"),
        (("--prometheus", "http://p:9090", "--fleet", "/nonexistent/fleet.yaml"), "cannot read --fleet"),
        (("--prometheus", "http://p:9090", "--basic-auth-user", "u"), "needs --basic-auth-password-file"),
        (("--prometheus", "http://p:9090", "--header", "X-Scope-OrgID"), "invalid --header"),
    ],
)
def test_bad_flags_cannot_audit_either(args: tuple[str, ...], fragment: str) -> None:
    assert_cannot_audit(doctor_here(*args), fragment)
