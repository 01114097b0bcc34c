"""The web config file: exporter-toolkit's format, and one exact line for every kind of mistake."""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest

from gpuscope.errors import SpecError, UsageError
from gpuscope.flagnames import flag_names
from gpuscope.httpd.tls import ClientAuth
from gpuscope.httpd.webconfig import load_web_config
from tests.support.certs import CertAuthority, bcrypt_hash

TLS = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
AUTH = ", ".join(a.value for a in ClientAuth)


@pytest.fixture(scope="module")
def tls_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("webconfig")
    ca = CertAuthority(d, "ca")
    ca.issue("server", server=True, ips=("127.0.0.1",))
    ca.issue("other", server=True)
    (d / "empty.pem").write_text("")
    return d


CASES = [
    ("tls_config:\n  cert_file: a\n", "1:1: tls_config: unknown key (did you mean 'tls_server_config'?)"),
    ("- cert_file\n", "1:1: expected a mapping with the keys tls_server_config, http_server_config, "
     "basic_auth_users, rate_limit, auth_excluded_paths"),
    ("tls_server_config:\n  cert_file: [a\n", "3:1: invalid YAML: expected ',' or ']', but got '<stream end>'"),
    ("tls_server_config:\n  cert_file: server.crt\n", "1:1: tls_server_config: missing key_file (or key, inline PEM)"),
    ("tls_server_config:\n  key_file: server.key\n", "1:1: tls_server_config: missing cert_file (or cert, inline PEM)"),
    (TLS + "  cert: inline\n", "4:3: tls_server_config.cert: set cert_file or cert, not both"),
    (TLS + "  certfile: x\n", "4:3: tls_server_config.certfile: unknown key (did you mean 'cert_file'?)"),
    ("tls_server_config:\n  cert_file: none.crt\n  key_file: server.key\n",
     "2:3: tls_server_config.cert_file: cannot read {d}/none.crt: No such file or directory"),
    ("tls_server_config:\n  cert_file: empty.pem\n  key_file: server.key\n",
     "2:3: tls_server_config.cert_file: {d}/empty.pem holds no PEM certificate"),
    ("tls_server_config:\n  cert_file: server.crt\n  key_file: server.crt\n",
     "3:3: tls_server_config.key_file: {d}/server.crt holds no PEM private key"),
    ("tls_server_config:\n  cert_file: server.crt\n  key_file: other.key\n",
     "3:3: tls_server_config.key_file: {d}/other.key does not match the certificate in cert_file"),
    (TLS + "  client_auth_type: Strict\n",
     f"4:3: tls_server_config.client_auth_type: unknown value 'Strict'; use one of {AUTH}"),
    (TLS + "  client_ca_file: ca.crt\n",
     "4:3: tls_server_config.client_ca_file: a client CA is set but client_auth_type is NoClientCert; "
     "set client_auth_type: RequireAndVerifyClientCert"),
    (TLS + "  client_auth_type: RequireAndVerifyClientCert\n",
     "4:3: tls_server_config.client_auth_type: RequireAndVerifyClientCert needs client_ca_file, "
     "the CA that signs the client certificates"),
    (TLS + "  client_auth_type: RequireAnyClientCert\n",
     "4:3: tls_server_config.client_auth_type: RequireAnyClientCert needs client_ca_file, "
     "the CA that signs the client certificates"),
    (TLS + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: empty.pem\n",
     "5:3: tls_server_config.client_ca_file: {d}/empty.pem holds no PEM certificate"),
    (TLS + "  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: ca.crt\n  client_allowed_sans: [a]\n",
     "6:3: tls_server_config.client_allowed_sans: needs client_auth_type RequireAndVerifyClientCert "
     "(or RequireAnyClientCert)"),
    (TLS + "  min_version: TLS14\n",
     "4:3: tls_server_config.min_version: unknown TLS version 'TLS14'; use one of TLS10, TLS11, TLS12, TLS13"),
    (TLS + "  min_version: TLS13\n  max_version: TLS12\n", "4:3: tls_server_config.min_version: is above max_version"),
    (TLS + "  prefer_server_cipher_suites: maybe\n",
     "4:3: tls_server_config.prefer_server_cipher_suites: expected true or false"),
    ("basic_auth_users:\n  alice: secret\n",
     "2:3: basic_auth_users.alice: not a bcrypt hash; create one with: htpasswd -nBC 10 '' | tr -d ':\\n'"),
    ("basic_auth_users:\n  - alice\n", "1:1: basic_auth_users: expected a mapping of user name to bcrypt hash"),
    ("basic_auth_users:\n  'a:b': {hash}\n",
     "2:3: basic_auth_users.a:b: a user name cannot contain ':' (basic auth separates with it)"),
    ("http_server_config:\n  headers:\n    X-Frame-Options: allow\n",
     "3:5: http_server_config.headers.X-Frame-Options: invalid value 'allow'; use one of deny, sameorigin"),
    ("http_server_config:\n  headers:\n    Server: gpuscope\n",
     "3:5: http_server_config.headers.Server: unknown key; known keys: Content-Security-Policy, "
     "Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, X-XSS-Protection"),
    ("http_server_config:\n  http2: sometimes\n", "2:3: http_server_config.http2: expected true or false"),
    ("rate_limit:\n  interval: fast\n  burst: 5\n",
     "2:3: rate_limit.interval: invalid duration 'fast'; write e.g. 1s or 500ms"),
    ("rate_limit:\n  interval: 1s\n  burst: many\n", "3:3: rate_limit.burst: expected an integer"),
    ("auth_excluded_paths: [health]\n", "1:1: auth_excluded_paths: 'health' is not a path (/...)"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "message"), CASES, ids=[m.split(":", 3)[2].strip() + f"-{i}" for i, (_, m) in enumerate(CASES)]
)
def test_malformed_files_are_one_exact_line(tls_dir: Path, text: str, message: str) -> None:
    path = tls_dir / "web.yml"
    path.write_text(text.replace("{hash}", bcrypt_hash("x")))
    with pytest.raises(SpecError) as err:
        load_web_config(str(path))
    assert str(err.value) == f"{path}:{message.replace('{d}', str(tls_dir))}"
    assert "\n" not in str(err.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as err:
        load_web_config(str(tmp_path / "web.yml"))
    assert err.value.worded(flag_names("exporter")) == (
        f"cannot read web config file {tmp_path / 'web.yml'} (--web-config-file): No such file or directory"
    )


def test_a_complete_file(tls_dir: Path) -> None:
    path = tls_dir / "full.yml"
    hashed = bcrypt_hash("pw")
    path.write_text(
        TLS + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n  min_version: TLS13\n"
        "  client_allowed_sans: [prometheus.example, 10.0.0.1]\n  cipher_suites: [TLS_AES_128_GCM_SHA256]\n"
        "http_server_config:\n  http2: false\n  headers:\n    X-Frame-Options: deny\n"
        f"basic_auth_users:\n  prometheus: {hashed}\n"
        "rate_limit:\n  interval: 100ms\n  burst: 10\n"
        "auth_excluded_paths: [/health]\n"
    )
    config = load_web_config(str(path))
    assert config.tls is not None
    assert config.tls.context.verify_mode is ssl.CERT_REQUIRED
    assert config.tls.context.minimum_version is ssl.TLSVersion.TLSv1_3
    assert config.tls.settings.client_auth is ClientAuth.REQUIRE_AND_VERIFY
    assert config.allowed_sans == {"prometheus.example", "10.0.0.1"}
    assert config.users == {"prometheus": hashed.encode()}
    assert config.headers == {"X-Frame-Options": "deny"}
    assert config.rate_limit is not None and (config.rate_limit.interval_s, config.rate_limit.burst) == (0.1, 10)
    assert config.auth_excluded_paths == {"/health"}


def test_inline_pem_empty_files_and_aliases(tls_dir: Path) -> None:
    path = tls_dir / "inline.yml"
    cert, key = (tls_dir / "server.crt").read_text(), (tls_dir / "server.key").read_text()
    ca = (tls_dir / "ca.crt").read_text()

    def block(text: str) -> str:
        return "|\n" + "".join(f"    {line}\n" for line in text.splitlines())

    path.write_text(
        f"tls_server_config:\n  cert: {block(cert)}  key: {block(key)}  client_ca: {block(ca)}"
        "  client_auth_type: RequireClientCert\n"
    )
    config = load_web_config(str(path))
    assert config.tls is not None and config.tls.settings.client_auth is ClientAuth.REQUIRE_ANY
    assert config.tls.context.verify_mode is ssl.CERT_REQUIRED
    for text in ("", "tls_server_config:\n", "tls_server_config: {}\nbasic_auth_users: {}\n"):
        path.write_text(text)
        empty = load_web_config(str(path))
        assert empty.tls is None and not empty.users  # exporter-toolkit: plain HTTP, no auth
