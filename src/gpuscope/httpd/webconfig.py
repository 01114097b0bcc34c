"""The web configuration file (``--web-config-file``) in Prometheus exporter-toolkit's format.

The same file a Prometheus exporter (or dcgm-exporter's Helm chart) uses works unchanged: ``tls_server_config``
(certificate and key as files or inline PEM, client CA and ``client_auth_type`` for mTLS, ``min_version`` /
``max_version``, ``client_allowed_sans``), ``basic_auth_users`` (user: bcrypt hash), ``http_server_config``
(``http2``, response ``headers``), ``rate_limit`` and ``auth_excluded_paths``. As in exporter-toolkit, unknown keys
are errors and relative paths are relative to the file. Everything, certificates included, is checked at
start-up: a problem is one line naming the file, line, key and fix, e.g.
``web.yml:4:3: tls_server_config.client_auth_type: unknown value 'Strict'; use one of NoClientCert, ...``.

Accepted but not applied (logged at start-up): ``cipher_suites`` and ``curve_preferences`` use Go's names, which
OpenSSL does not share; OpenSSL's defaults apply. ``http2`` is accepted; gpuscope serves HTTP/1.1.
"""

from __future__ import annotations

import difflib
import ipaddress
import logging
import os
import re
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import yaml

from gpuscope.errors import SpecError, UsageError
from gpuscope.escaping import first_non_header_char
from gpuscope.httpd.tls import TLS_VERSIONS, ClientAuth, Pem, ServerTls, TlsError, TlsSettings
from gpuscope.inputs import MissingFile, compose, read_text

log = logging.getLogger(__name__)

_TOP = ("tls_server_config", "http_server_config", "basic_auth_users", "rate_limit", "auth_excluded_paths")
_TLS = (
    "cert", "key", "client_ca", "cert_file", "key_file", "client_auth_type", "client_ca_file",
    "client_allowed_sans", "min_version", "max_version", "cipher_suites", "prefer_server_cipher_suites",
    "curve_preferences",
)  # fmt: skip
_TLS_KEY = "tls_server_config"
# Client auth types that need client_ca_file, and those under which every client has a certificate whose SANs
# client_allowed_sans can check.
_NEEDS_CLIENT_CA = (ClientAuth.REQUIRE_ANY, ClientAuth.VERIFY_IF_GIVEN, ClientAuth.REQUIRE_AND_VERIFY)
_REQUIRES_CLIENT_CERT = (ClientAuth.REQUIRE_ANY, ClientAuth.REQUIRE_AND_VERIFY)
_HTTP = ("http2", "headers")
_RATE = ("interval", "burst")
# exporter-toolkit's settable response headers and, where it restricts them, their allowed values.
_HEADERS: Mapping[str, tuple[str, ...]] = {
    "Content-Security-Policy": (),
    "Strict-Transport-Security": (),
    "X-Content-Type-Options": ("nosniff",),
    "X-Frame-Options": ("deny", "sameorigin"),
    "X-XSS-Protection": (),
}
_CLIENT_AUTH_ALIASES = {"": ClientAuth.NONE, "RequireClientCert": ClientAuth.REQUIRE_ANY}
_BCRYPT = re.compile(r"\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}")
_DURATION = re.compile(r"(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+")
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)")
_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_NULL = "tag:yaml.org,2002:null"
_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
HTPASSWD_HINT = "create one with: htpasswd -nBC 10 '' | tr -d ':\\n'"


@dataclass(frozen=True, slots=True)
class RateLimit:
    interval_s: float
    burst: int


@dataclass(frozen=True, slots=True)
class WebConfig:
    """What the HTTP server enforces. ``tls`` None: plain HTTP; no ``users``: no basic auth."""

    path: str
    tls: ServerTls | None = None
    users: Mapping[str, bytes] = field(default_factory=lambda: MappingProxyType({}))
    headers: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    rate_limit: RateLimit | None = None
    auth_excluded_paths: frozenset[str] = frozenset()
    allowed_sans: frozenset[str] = frozenset()  # empty: any verified client certificate


def load_web_config(path: str) -> WebConfig:
    """Read and check the whole file, certificates included; raises ``SpecError``/``UsageError``."""
    try:
        text = read_text(path, "web config file")
    except MissingFile:
        raise UsageError(f"cannot read web config file {path} ({{web_config_file}}): No such file or directory").naming(
            "web_config_file"
        ) from None
    except UsageError as exc:
        raise UsageError(f"{exc.template} ({{web_config_file}})").naming(*exc.refs, "web_config_file") from None
    return _Reader(path).config(text)


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.base = os.path.dirname(os.path.abspath(path))
        self._key_nodes: dict[int, yaml.Node] = {}  # value node id -> its key node: errors point at the key

    def error(self, node: yaml.Node, key: str, message: str) -> SpecError:
        mark = self._key_nodes.get(id(node), node).start_mark
        return SpecError(self.path, mark.line + 1, f"{key}: {message}" if key else message, mark.column + 1)

    def config(self, text: str) -> WebConfig:
        root = compose(text, self.path)  # bounded: aliases, depth, merge and complex keys refused, located
        if root is None or (root.tag == _NULL):
            return WebConfig(path=self.path)  # an empty file: plain HTTP, no auth, as exporter-toolkit
        top = self.mapping(root, "", _TOP)
        tls_node = top.get("tls_server_config")
        sans: frozenset[str] = frozenset()
        tls = None
        if tls_node is not None:
            tls, sans = self.tls(tls_node)
        users = self.users(top["basic_auth_users"]) if "basic_auth_users" in top else {}
        http = (
            self.mapping(top["http_server_config"], "http_server_config", _HTTP) if "http_server_config" in top else {}
        )
        if "http2" in http:
            self.boolean(http["http2"], "http_server_config.http2")
        headers = self.headers(http["headers"]) if "headers" in http else {}
        excluded = (
            self.strings(top["auth_excluded_paths"], "auth_excluded_paths") if "auth_excluded_paths" in top else []
        )
        for node_path in excluded:
            if not node_path.startswith("/"):
                raise self.error(
                    top["auth_excluded_paths"], "auth_excluded_paths", f"{node_path!r} is not a path (/...)"
                )
        if users and tls is None:
            log.warning("%s: basic auth without tls_server_config sends passwords in clear text", self.path)
        return WebConfig(
            path=self.path,
            tls=tls,
            users=MappingProxyType(users),
            headers=MappingProxyType(headers),
            rate_limit=self.rate_limit(top["rate_limit"]) if "rate_limit" in top else None,
            auth_excluded_paths=frozenset(excluded),
            allowed_sans=sans,
        )

    # -- sections --------------------------------------------------------------------------------------------------

    def tls(self, node: yaml.Node) -> tuple[ServerTls | None, frozenset[str]]:
        """``tls_server_config``: the server's TLS context and the client SANs it admits; None when TLS is off."""
        tls = self.mapping(node, _TLS_KEY, _TLS)
        if not tls:
            return None, frozenset()  # present but empty: TLS off, as exporter-toolkit
        cert = self.required_pem(tls, node, "cert_file", "cert")
        pem_key = self.required_pem(tls, node, "key_file", "key")
        ca = self.pem(tls, "client_ca_file", "client_ca")
        auth = self.client_auth(tls, node, ca)
        sans = self.allowed_sans(tls, auth)
        low, high = self.versions(tls, node)
        self.go_only_settings(tls)
        settings = TlsSettings(
            cert=cert,
            key=pem_key,
            client_ca=ca,
            client_auth=auth,
            min_version=low,
            max_version=high,
            prefer_server_cipher_suites=self.prefer_server_cipher_suites(tls),
        )
        try:
            server = ServerTls(settings)
        except TlsError as exc:  # the certificate, key or CA does not load: point at the key that named it
            raise self.error(tls.get(exc.key) or node, f"{_TLS_KEY}.{exc.key}", str(exc)) from None
        return server, sans

    def required_pem(self, tls: dict[str, yaml.Node], node: yaml.Node, file_key: str, inline_key: str) -> Pem:
        pem = self.pem(tls, file_key, inline_key)
        if pem is None:
            raise self.error(node, _TLS_KEY, f"missing {file_key} (or {inline_key}, inline PEM)")
        return pem

    def pem(self, tls: dict[str, yaml.Node], file_key: str, inline_key: str) -> Pem | None:
        """PEM from ``file_key`` (relative to the web config file) or ``inline_key``, never both; None if neither."""
        if file_key in tls and inline_key in tls:
            raise self.error(tls[inline_key], f"{_TLS_KEY}.{inline_key}", f"set {file_key} or {inline_key}, not both")
        if file_key in tls:
            value = self.string(tls[file_key], f"{_TLS_KEY}.{file_key}")
            if not value:
                raise self.error(tls[file_key], f"{_TLS_KEY}.{file_key}", "is empty")
            return Pem(path=os.path.join(self.base, value))
        if inline_key in tls:
            return Pem(text=self.string(tls[inline_key], f"{_TLS_KEY}.{inline_key}"))
        return None

    def client_auth(self, tls: dict[str, yaml.Node], node: yaml.Node, ca: Pem | None) -> ClientAuth:
        """``client_auth_type`` (default NoClientCert), which must agree with whether a client CA is set."""
        key = f"{_TLS_KEY}.client_auth_type"
        auth_node = tls.get("client_auth_type")
        raw = self.string(auth_node, key) if auth_node is not None else ""
        auth = _CLIENT_AUTH_ALIASES.get(raw) or next((a for a in ClientAuth if a.value == raw), None)
        where = auth_node if auth_node is not None else node
        if auth is None:
            raise self.error(where, key, f"unknown value {raw!r}; use one of {_names(ClientAuth)}")
        if ca is not None and auth is ClientAuth.NONE:
            ca_key = "client_ca_file" if "client_ca_file" in tls else "client_ca"
            raise self.error(
                tls[ca_key],
                f"{_TLS_KEY}.{ca_key}",
                "a client CA is set but client_auth_type is NoClientCert; "
                "set client_auth_type: RequireAndVerifyClientCert",
            )
        if ca is None and auth in _NEEDS_CLIENT_CA:
            raise self.error(
                where, key, f"{auth.value} needs client_ca_file, the CA that signs the client certificates"
            )
        return auth

    def allowed_sans(self, tls: dict[str, yaml.Node], auth: ClientAuth) -> frozenset[str]:
        """``client_allowed_sans``, normalised; only with a client auth type that always has a client certificate."""
        if "client_allowed_sans" not in tls:
            return frozenset()
        key = f"{_TLS_KEY}.client_allowed_sans"
        sans = self.strings(tls["client_allowed_sans"], key)
        if sans and auth not in _REQUIRES_CLIENT_CERT:
            raise self.error(
                tls["client_allowed_sans"],
                key,
                "needs client_auth_type RequireAndVerifyClientCert (or RequireAnyClientCert)",
            )
        return frozenset(normal_san(s) for s in sans)

    def versions(self, tls: dict[str, yaml.Node], node: yaml.Node) -> tuple[ssl.TLSVersion, ssl.TLSVersion]:
        """``min_version`` and ``max_version``, defaulting to TLS 1.2 and 1.3, lowest first."""
        low = self.version(tls, "min_version") or TLS_VERSIONS["TLS12"]
        high = self.version(tls, "max_version") or TLS_VERSIONS["TLS13"]
        if low > high:
            raise self.error(tls.get("min_version") or node, f"{_TLS_KEY}.min_version", "is above max_version")
        return low, high

    def go_only_settings(self, tls: dict[str, yaml.Node]) -> None:
        """``cipher_suites`` and ``curve_preferences`` are checked and accepted, but Go's names mean nothing here."""
        for name in ("cipher_suites", "curve_preferences"):
            if name in tls:
                self.strings(tls[name], f"{_TLS_KEY}.{name}")
                log.warning(
                    "%s: %s.%s is not applied (Go names); OpenSSL's defaults are used", self.path, _TLS_KEY, name
                )

    def prefer_server_cipher_suites(self, tls: dict[str, yaml.Node]) -> bool:
        node = tls.get("prefer_server_cipher_suites")
        return True if node is None else self.boolean(node, f"{_TLS_KEY}.prefer_server_cipher_suites")

    def version(self, tls: dict[str, yaml.Node], name: str) -> ssl.TLSVersion | None:
        if name not in tls:
            return None
        value = self.string(tls[name], f"{_TLS_KEY}.{name}")
        if value not in TLS_VERSIONS:
            raise self.error(
                tls[name],
                f"{_TLS_KEY}.{name}",
                f"unknown TLS version {value!r}; use one of {', '.join(TLS_VERSIONS)}",
            )
        return TLS_VERSIONS[value]

    def users(self, node: yaml.Node) -> dict[str, bytes]:
        key = "basic_auth_users"
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, key, "expected a mapping of user name to bcrypt hash")
        users: dict[str, bytes] = {}
        for name_node, hash_node in node.value:
            name = self.string(name_node, key)
            where = f"{key}.{name}"
            if ":" in name:
                raise self.error(name_node, where, "a user name cannot contain ':' (basic auth separates with it)")
            if name in users:
                raise self.error(name_node, where, "duplicate user")
            self._key_nodes[id(hash_node)] = name_node
            hashed = self.string(hash_node, where)
            match = _BCRYPT.fullmatch(hashed)
            if match is None or not 4 <= int(match[1]) <= 31:
                raise self.error(hash_node, where, f"not a bcrypt hash; {HTPASSWD_HINT}")
            users[name] = hashed.encode()
        return users

    def headers(self, node: yaml.Node) -> dict[str, str]:
        key = "http_server_config.headers"
        raw = self.mapping(node, key, tuple(_HEADERS))
        headers = {}
        for name, value_node in raw.items():
            value = self.string(value_node, f"{key}.{name}")
            bad = first_non_header_char(value)
            if bad is not None:  # CR/LF would split the response (every response carries these headers)
                raise self.error(
                    value_node,
                    f"{key}.{name}",
                    f"invalid character {bad!r} in the value: a header value is one line of printable ASCII",
                )
            allowed = _HEADERS[name]
            if allowed and value not in allowed:
                raise self.error(
                    value_node, f"{key}.{name}", f"invalid value {value!r}; use one of {', '.join(allowed)}"
                )
            if value:
                headers[name] = value
        return headers

    def rate_limit(self, node: yaml.Node) -> RateLimit | None:
        rate = self.mapping(node, "rate_limit", _RATE)
        interval = 0.0
        if "interval" in rate:
            text = self.string(rate["interval"], "rate_limit.interval")
            if text != "0" and not _DURATION.fullmatch(text):
                raise self.error(
                    rate["interval"], "rate_limit.interval", f"invalid duration {text!r}; write e.g. 1s or 500ms"
                )
            interval = sum(float(n) * _UNITS[u] for n, u in _DURATION_PART.findall(text))
        burst = self.integer(rate["burst"], "rate_limit.burst") if "burst" in rate else 0
        if burst < 0:
            raise self.error(rate["burst"], "rate_limit.burst", "must not be negative")
        return RateLimit(interval_s=interval, burst=burst) if interval > 0 else None

    # -- scalar helpers --------------------------------------------------------------------------------------------

    def mapping(self, node: yaml.Node, key: str, known: tuple[str, ...]) -> dict[str, yaml.Node]:
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, key, f"expected a mapping with the keys {', '.join(known)}")
        out: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            name = key_node.value if isinstance(key_node, yaml.ScalarNode) else repr(key_node.value)
            where = f"{key}.{name}" if key else name
            if name not in known:
                close = difflib.get_close_matches(name, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else f"; known keys: {', '.join(known)}"
                raise self.error(key_node, where, f"unknown key{hint}")
            if name in out:
                raise self.error(key_node, where, "duplicate key")
            if value_node.tag != _NULL:  # an explicit null means unset, as in Go's YAML decoding
                out[name] = value_node
                self._key_nodes[id(value_node)] = key_node
        return out

    def string(self, node: yaml.Node, key: str) -> str:
        if not isinstance(node, yaml.ScalarNode) or node.tag == _NULL:
            raise self.error(node, key, "expected a string")
        return str(node.value)

    def boolean(self, node: yaml.Node, key: str) -> bool:
        if not isinstance(node, yaml.ScalarNode) or node.tag != _BOOL:
            raise self.error(node, key, "expected true or false")
        return str(node.value).lower() in ("true", "yes", "on", "y")

    def integer(self, node: yaml.Node, key: str) -> int:
        if not isinstance(node, yaml.ScalarNode) or node.tag != _INT:
            raise self.error(node, key, "expected an integer")
        return int(str(node.value), 0)

    def strings(self, node: yaml.Node, key: str) -> list[str]:
        if not isinstance(node, yaml.SequenceNode):
            raise self.error(node, key, "expected a list of strings")
        return [self.string(item, key) for item in node.value]


def _names(enum: type[ClientAuth]) -> str:
    return ", ".join(e.value for e in enum)


def normal_san(value: str) -> str:
    """IP addresses compare by value (Go and OpenSSL print IPv6 differently); other SANs as written."""
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return value
