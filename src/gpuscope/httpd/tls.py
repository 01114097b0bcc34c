"""Server TLS from the web config: the ``ssl.SSLContext``, client-certificate policy, and certificate reloads.

exporter-toolkit rereads its certificates on every handshake so that renewed ones (cert-manager, Vault) are picked
up without a restart. Here each handshake checks the files' modification times (a few ``stat`` calls, at most once
a second) and, when they changed, hands that and later handshakes a freshly built context; a renewal that fails
to load keeps the last good certificate and is logged.

Go's ``crypto/tls`` and Python's ``ssl`` differ in one place: OpenSSL cannot ask for a client certificate without
verifying it. ``RequestClientCert`` (asked for, never checked) therefore does not ask at all, which accepts the
same clients; ``RequireAnyClientCert`` verifies against ``client_ca_file`` and is refused without one.
"""

from __future__ import annotations

import logging
import os
import ssl
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from gpuscope.errors import UsageError
from gpuscope.inputs.files import MAX_SECRET_BYTES, MissingFile, read_bytes

log = logging.getLogger(__name__)


class ClientAuth(StrEnum):
    """exporter-toolkit's ``client_auth_type`` values (Go's ``tls.ClientAuthType`` names)."""

    NONE = "NoClientCert"
    REQUEST = "RequestClientCert"
    REQUIRE_ANY = "RequireAnyClientCert"
    VERIFY_IF_GIVEN = "VerifyClientCertIfGiven"
    REQUIRE_AND_VERIFY = "RequireAndVerifyClientCert"


TLS_VERSIONS = {
    "TLS10": ssl.TLSVersion.TLSv1,
    "TLS11": ssl.TLSVersion.TLSv1_1,
    "TLS12": ssl.TLSVersion.TLSv1_2,
    "TLS13": ssl.TLSVersion.TLSv1_3,
}


@dataclass(frozen=True, slots=True)
class Pem:
    """PEM data from a file (``path``) or given inline in the web config (``text``)."""

    path: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class TlsSettings:
    cert: Pem
    key: Pem
    client_ca: Pem | None = None
    client_auth: ClientAuth = ClientAuth.NONE
    min_version: ssl.TLSVersion = ssl.TLSVersion.TLSv1_2
    max_version: ssl.TLSVersion = ssl.TLSVersion.TLSv1_3
    prefer_server_cipher_suites: bool = True


class TlsError(Exception):
    """A TLS setting that cannot be used: ``key`` names it in the web config, ``str()`` says why."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


def build_context(settings: TlsSettings) -> ssl.SSLContext:
    """A server context for ``settings``; raises ``TlsError`` naming the offending key."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        ctx.minimum_version = settings.min_version
        ctx.maximum_version = settings.max_version
    except (ValueError, ssl.SSLError) as exc:
        raise TlsError("min_version", f"not supported by this OpenSSL: {exc}") from None
    if settings.prefer_server_cipher_suites:
        ctx.options |= ssl.OP_CIPHER_SERVER_PREFERENCE
    _load_pair(ctx, settings.cert, settings.key)
    if settings.client_ca is not None:
        _load_ca(ctx, settings.client_ca)
    ctx.verify_mode = {
        ClientAuth.NONE: ssl.CERT_NONE,
        ClientAuth.REQUEST: ssl.CERT_NONE,
        ClientAuth.VERIFY_IF_GIVEN: ssl.CERT_OPTIONAL,
        ClientAuth.REQUIRE_ANY: ssl.CERT_REQUIRED,
        ClientAuth.REQUIRE_AND_VERIFY: ssl.CERT_REQUIRED,
    }[settings.client_auth]
    return ctx


def _load_pair(ctx: ssl.SSLContext, cert: Pem, key: Pem) -> None:
    cert_key = "cert_file" if cert.path else "cert"
    key_key = "key_file" if key.path else "key"
    cert_text = _read(cert, cert_key)
    key_text = _read(key, key_key)
    # Checked here so that a wrong file gives a message, not OpenSSL's "[SSL] PEM lib (_ssl.c:3905)".
    if "-----BEGIN CERTIFICATE-----" not in cert_text:
        raise TlsError(cert_key, f"{_where(cert)} holds no PEM certificate")
    if "PRIVATE KEY-----" not in key_text:
        raise TlsError(key_key, f"{_where(key)} holds no PEM private key")
    if "ENCRYPTED" in key_text:
        raise TlsError(key_key, f"{_where(key)} is encrypted; give an unencrypted key (as exporter-toolkit needs)")
    with tempfile.TemporaryDirectory(prefix="gpuscope-tls-") as tmp:
        # ssl loads certificates from files only: inline PEM goes through a private temporary file.
        try:
            ctx.load_cert_chain(_as_file(cert, tmp, "cert.pem"), _as_file(key, tmp, "key.pem"), password=_no_password)
        except (ssl.SSLError, OSError) as exc:
            reason = getattr(exc, "reason", None)
            if reason == "KEY_VALUES_MISMATCH":
                raise TlsError(key_key, f"{_where(key)} does not match the certificate in {cert_key}") from None
            raise TlsError(cert_key, f"cannot load {_where(cert)} ({reason or exc.strerror or exc})") from None


def _read(pem: Pem, key: str) -> str:
    if pem.path is None:
        return pem.text or ""
    try:  # bounded, regular files only: /dev/zero as a certificate must not read forever
        return read_bytes(pem.path, "file", MAX_SECRET_BYTES).decode("utf-8", errors="replace")
    except MissingFile:
        raise TlsError(key, f"cannot read {pem.path}: No such file or directory") from None
    except UsageError as exc:
        raise TlsError(key, str(exc).replace(f"file {pem.path!r}", pem.path, 1)) from None


def _where(pem: Pem) -> str:
    return pem.path if pem.path is not None else "the inline PEM"


def _no_password() -> bytes:
    return b""  # never let OpenSSL prompt on a terminal for a key password


def _load_ca(ctx: ssl.SSLContext, ca: Pem) -> None:
    name = "client_ca_file" if ca.path else "client_ca"
    try:
        if ca.path is not None:
            _read(ca, name)  # a device or huge file is refused before OpenSSL reads it
            ctx.load_verify_locations(cafile=ca.path)
        else:
            ctx.load_verify_locations(cadata=ca.text)
    except OSError as exc:
        if isinstance(exc, ssl.SSLError):
            raise TlsError(name, f"{_where(ca)} holds no PEM certificate") from None
        raise TlsError(name, f"cannot read {ca.path}: {exc.strerror or exc}") from None
    except ValueError:
        raise TlsError(name, f"{_where(ca)} holds no PEM certificate") from None


def _as_file(pem: Pem, tmp: str, name: str) -> str:
    if pem.path is not None:
        return pem.path
    path = os.path.join(tmp, name)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(pem.text or "")
    return path


class ServerTls:
    """The listening context plus reloads of renewed certificate files."""

    def __init__(self, settings: TlsSettings, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self._monotonic = monotonic
        self._files = tuple(p.path for p in (settings.cert, settings.key, settings.client_ca) if p and p.path)
        self._stamp = self._mtimes()
        self._checked = monotonic()
        self._lock = threading.Lock()
        self.context = build_context(settings)  # given to the listening socket; never replaced
        self.context.sni_callback = self._on_hello
        self._current = self.context
        self.reloads = 0

    def _mtimes(self) -> tuple[int, ...]:
        stamps = []
        for path in self._files:
            try:
                stamps.append(os.stat(path).st_mtime_ns)
            except OSError:
                stamps.append(-1)
        return tuple(stamps)

    def _on_hello(self, conn: ssl.SSLObject | ssl.SSLSocket, server_name: str | None, ctx: ssl.SSLContext) -> None:
        current = self._refresh()
        if current is not self.context:
            conn.context = current

    def _refresh(self) -> ssl.SSLContext:
        with self._lock:
            now = self._monotonic()
            if now - self._checked < 1.0:
                return self._current
            self._checked = now
            stamp = self._mtimes()
            if stamp == self._stamp:
                return self._current
            self._stamp = stamp
            try:
                fresh = build_context(self.settings)
            except TlsError as exc:
                log.error("renewed TLS files cannot be used (%s: %s); keeping the previous certificate", exc.key, exc)
                return self._current
            self._current = fresh
            self.reloads += 1
            log.info("TLS certificate files changed: reloaded")
            return fresh

    def adopt(self, other: ServerTls) -> None:
        """Serve ``other``'s certificates and client checks to new connections (a reload of the web config);
        the listening context stays this one, as for renewed files."""
        with self._lock:
            self.settings = other.settings
            self._files = other._files
            self._stamp = other._stamp
            self._checked = self._monotonic()
            self._current = other.context
