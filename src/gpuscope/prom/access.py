"""How to reach secured endpoints: bearer token or basic auth, TLS, extra headers, for both transports.

Secrets are read through ``gpuscope.inputs`` (bounded: a device or a huge file is refused before OpenSSL reads
it); every problem is an ``ApiUnusable`` naming the flag to fix.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from typing import Any

import httpx

from gpuscope.errors import ApiUnusable, UsageError
from gpuscope.inputs.files import MAX_SECRET_BYTES, read_text


@dataclass(frozen=True, slots=True)
class Access:
    """Credentials and TLS settings; the same apply to every URL of one run (the doctor's flags)."""

    bearer_token_file: str | None = None
    basic_auth_user: str | None = None
    basic_auth_password_file: str | None = None
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    insecure_skip_verify: bool = False
    headers: tuple[tuple[str, str], ...] = ()
    timeout_s: float = 30.0


def _read_secret(path: str, field: str) -> str:
    try:
        return read_text(path, "{" + field + "}", MAX_SECRET_BYTES).strip()
    except UsageError as exc:
        raise ApiUnusable("", exc.template).naming(*exc.refs, field) from None


def _tls(access: Access) -> ssl.SSLContext | bool:
    if access.insecure_skip_verify:
        return False
    for field, path in (("ca_file", access.ca_file), ("cert_file", access.cert_file), ("key_file", access.key_file)):
        if path is not None:
            _read_secret(path, field)  # a device or huge file is refused before OpenSSL reads it
    try:
        context = ssl.create_default_context(cafile=access.ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise ApiUnusable("", f"cannot use {{ca_file}} {access.ca_file!r}: {exc}").naming("ca_file") from None
    if access.cert_file or access.key_file:
        if not (access.cert_file and access.key_file):
            raise ApiUnusable("", "{cert_file} and {key_file} go together: pass both for a client certificate").naming(
                "cert_file", "key_file"
            )
        try:
            context.load_cert_chain(access.cert_file, access.key_file)
        except (OSError, ssl.SSLError) as exc:
            raise ApiUnusable("", f"cannot use {{cert_file}}/{{key_file}}: {exc}").naming(
                "cert_file", "key_file"
            ) from None
    return context


def client_options(access: Access) -> dict[str, Any]:
    """Keyword arguments for ``httpx.Client`` or ``httpx.AsyncClient``: credentials and TLS from ``access``."""
    headers = dict(access.headers)
    auth: httpx.BasicAuth | None = None
    if access.bearer_token_file and access.basic_auth_user:
        raise ApiUnusable("", "pass either {bearer_token_file} or {basic_auth_user}, not both").naming(
            "bearer_token_file", "basic_auth_user"
        )
    if access.bearer_token_file:
        headers["Authorization"] = f"Bearer {_read_secret(access.bearer_token_file, 'bearer_token_file')}"
    if access.basic_auth_user:
        if not access.basic_auth_password_file:
            raise ApiUnusable(
                "", "{basic_auth_user} needs {basic_auth_password_file} (a file holding the password)"
            ).naming("basic_auth_user", "basic_auth_password_file")
        password = _read_secret(access.basic_auth_password_file, "basic_auth_password_file")
        auth = httpx.BasicAuth(access.basic_auth_user, password)
    # No redirect is followed: httpx drops Authorization on a cross-origin redirect, but would send every --header
    # (X-Scope-OrgID, an API key) to whatever host the Location names. A 3xx is one error naming the Location
    # (``transport.Body``), so the user passes the URL the API really answers on.
    return {"auth": auth, "headers": headers, "verify": _tls(access), "follow_redirects": False}


def ssl_error(exc: BaseException) -> ssl.SSLError | None:
    """The TLS failure behind a transport error, if that is what it was."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def tls_reason(exc: ssl.SSLError) -> str:
    reason = getattr(exc, "verify_message", None) or exc.reason or str(exc)
    if isinstance(exc, ssl.SSLCertVerificationError):
        fix = "pass --ca-file with the CA that signed its certificate (or --insecure-skip-verify)"
    else:
        fix = "check the scheme (https:// for a TLS endpoint, http:// otherwise) and --cert-file/--key-file"
    return f"TLS handshake failed ({reason}): {fix}"
