"""The doctor's HTTP client for Prometheus-compatible and Alertmanager APIs: auth, TLS, one deadline for the audit.

Every call is read-only (GET) and bounded by the audit's deadline (``--timeout``), body included: the request runs
on a daemon thread that the caller stops waiting for when the deadline passes, so a server dripping one byte a
second ends the audit in time instead of hanging it. Every body is read up to a size cap (after decompression),
so a huge or endless answer is one line, not gigabytes. Failures are sorted by what the user can do about them:

- the endpoint is down (refused, timed out, 5xx): ``EndpointDown``, which a check may report as its finding
  (replica B being down is what the HA check is for);
- doctor cannot talk to it as configured (TLS, 401/403, a URL that is not that API, a redirect loop, an answer too
  big or of the wrong shape): ``AuditError``, one line naming the flag and the fix.
"""

from __future__ import annotations

import json
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from gpuscope.doctor.model import Sample, Vector
from gpuscope.errors import AuditError, UsageError
from gpuscope.inputs.files import MAX_SECRET_BYTES, read_text

# The largest API answer an audit reads: /api/v1/targets of a 5,000-node cluster is about 10 MiB.
MAX_BODY_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Access:
    """How to reach secured endpoints; the same credentials and TLS settings apply to every URL given."""

    bearer_token_file: str | None = None
    basic_auth_user: str | None = None
    basic_auth_password_file: str | None = None
    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None
    insecure_skip_verify: bool = False
    headers: tuple[tuple[str, str], ...] = ()
    timeout_s: float = 30.0


class EndpointDown(Exception):
    """The endpoint did not answer usefully (refused, timed out, 5xx); ``str()`` says how."""


class QueryFailed(Exception):
    """Prometheus rejected or failed one query; the rest of the audit goes on."""


class Deadline:
    """The whole audit's time budget: each request gets what is left of ``--timeout``."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._end = clock() + seconds

    def remaining(self) -> float:
        return self._end - self._clock()


def _read_secret(path: str, flag: str) -> str:
    try:
        return read_text(path, flag, MAX_SECRET_BYTES).strip()
    except UsageError as exc:
        raise AuditError(str(exc)) from None


def _tls(access: Access) -> ssl.SSLContext | bool:
    if access.insecure_skip_verify:
        return False
    for flag, path in (
        ("--ca-file", access.ca_file),
        ("--cert-file", access.cert_file),
        ("--key-file", access.key_file),
    ):
        if path is not None:
            _read_secret(path, flag)  # a device or huge file is refused before OpenSSL reads it
    try:
        context = ssl.create_default_context(cafile=access.ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise AuditError(f"cannot use --ca-file {access.ca_file!r}: {exc}") from None
    if access.cert_file or access.key_file:
        if not (access.cert_file and access.key_file):
            raise AuditError("--cert-file and --key-file go together: pass both for a client certificate")
        try:
            context.load_cert_chain(access.cert_file, access.key_file)
        except (OSError, ssl.SSLError) as exc:
            raise AuditError(f"cannot use --cert-file/--key-file: {exc}") from None
    return context


def make_client(access: Access) -> httpx.Client:
    """One client for every endpoint (connection reuse); credentials and TLS from ``access``."""
    headers = dict(access.headers)
    auth: httpx.BasicAuth | None = None
    if access.bearer_token_file and access.basic_auth_user:
        raise AuditError("pass either --bearer-token-file or --basic-auth-user, not both")
    if access.bearer_token_file:
        headers["Authorization"] = f"Bearer {_read_secret(access.bearer_token_file, '--bearer-token-file')}"
    if access.basic_auth_user:
        if not access.basic_auth_password_file:
            raise AuditError("--basic-auth-user needs --basic-auth-password-file (a file holding the password)")
        password = _read_secret(access.basic_auth_password_file, "--basic-auth-password-file")
        auth = httpx.BasicAuth(access.basic_auth_user, password)
    # A redirect is followed (a proxy moving /api), but never to another host with our credentials: httpx drops
    # the Authorization header on cross-origin redirects.
    return httpx.Client(auth=auth, headers=headers, verify=_tls(access), follow_redirects=True)


def _ssl_error(exc: BaseException) -> ssl.SSLError | None:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line[:160]


class Api:
    """One endpoint, named by the flag that gave it so that every error says which flag to fix."""

    def __init__(self, flag: str, url: str, client: httpx.Client, deadline: Deadline, kind: str) -> None:
        if not url.startswith(("http://", "https://")):
            raise AuditError(f"{flag} {url!r} is not an http:// or https:// URL; pass e.g. http://prometheus:9090")
        self.flag = flag
        self.url = url.rstrip("/")
        self.client = client
        self.deadline = deadline
        self.kind = kind  # "Prometheus", "Alertmanager", "Prometheus-compatible query": the API expected

    def where(self) -> str:
        return f"{self.flag} {self.url}"

    def get(self, path: str, params: Mapping[str, str | list[str]] | None = None) -> Any:
        """GET ``path`` and decode JSON; raise ``EndpointDown`` or ``AuditError`` as described above."""
        left = self.deadline.remaining()
        if left <= 0:
            raise EndpointDown(self._late())
        outcome: list[tuple[httpx.Response, bytes] | BaseException] = []
        worker = threading.Thread(
            target=self._fetch_into, args=(outcome, path, params, left), name=f"doctor {self.flag}", daemon=True
        )
        worker.start()
        worker.join(left)
        if not outcome:  # still reading when the deadline passed: left behind, it ends with its read timeout
            raise EndpointDown(self._late())
        result = outcome[0]
        if isinstance(result, BaseException):
            raise result
        return self._decode(path, *result)

    def _late(self) -> str:
        return f"no answer within --timeout {self.deadline.seconds:g}s"

    def _fetch_into(
        self, outcome: list[Any], path: str, params: Mapping[str, str | list[str]] | None, left: float
    ) -> None:
        try:
            outcome.append(self._fetch(path, params, left))
        except BaseException as exc:  # handed to the waiting caller, which raises it on its own thread
            outcome.append(exc)

    def _fetch(
        self, path: str, params: Mapping[str, str | list[str]] | None, left: float
    ) -> tuple[httpx.Response, bytes]:
        try:
            with self.client.stream("GET", f"{self.url}{path}", params=params, timeout=left) as response:
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
                    raise AuditError(self._too_big(path))
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():  # decompressed: a gzip bomb meets the same cap
                    size += len(chunk)
                    if size > MAX_BODY_BYTES:
                        raise AuditError(self._too_big(path))
                    if self.deadline.remaining() <= 0:
                        raise EndpointDown(self._late())
                    chunks.append(chunk)
                return response, b"".join(chunks)
        except httpx.TimeoutException:
            raise EndpointDown(self._late()) from None
        except (httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
            raise AuditError(f"{self.where()}: not a valid URL ({exc}); pass e.g. http://prometheus:9090") from None
        except httpx.TooManyRedirects:
            raise AuditError(
                f"{self.where()}: GET {path} redirects in a loop; pass the URL the API really answers on"
            ) from None
        except httpx.DecodingError as exc:
            raise AuditError(f"{self.where()}: GET {path} sent a body that cannot be decoded ({exc})") from None
        except httpx.TransportError as exc:
            tls = _ssl_error(exc)
            if tls is not None:
                raise AuditError(self._tls_message(tls)) from None
            raise EndpointDown(f"cannot connect ({exc})") from None
        except httpx.HTTPError as exc:
            raise EndpointDown(f"request failed ({exc})") from None

    def _too_big(self, path: str) -> str:
        return (
            f"{self.where()}: GET {path} answered more than {MAX_BODY_BYTES // (1024 * 1024)} MiB; "
            f"is it {self.what}? Pass the base URL of the {self.kind}"
        )

    def _tls_message(self, exc: ssl.SSLError) -> str:
        reason = getattr(exc, "verify_message", None) or exc.reason or str(exc)
        if isinstance(exc, ssl.SSLCertVerificationError):
            fix = "pass --ca-file with the CA that signed its certificate (or --insecure-skip-verify)"
        else:
            fix = "check the scheme (https:// for a TLS endpoint, http:// otherwise) and --cert-file/--key-file"
        return f"{self.where()}: TLS handshake failed ({reason}): {fix}"

    def _decode(self, path: str, response: httpx.Response, content: bytes) -> Any:
        status = response.status_code
        text = content.decode("utf-8", errors="replace")
        if status == httpx.codes.UNAUTHORIZED:
            raise AuditError(
                f"{self.where()} answered 401 Unauthorized: pass --basic-auth-user and --basic-auth-password-file, "
                "or --bearer-token-file"
            )
        if status == httpx.codes.FORBIDDEN:
            raise AuditError(f"{self.where()} answered 403 Forbidden: these credentials may not read {path}")
        if status >= httpx.codes.INTERNAL_SERVER_ERROR:
            raise EndpointDown(f"answered {status} {response.reason_phrase}: {_first_line(text)}")
        try:
            body = json.loads(content)
        except (ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
            body = None
        if not isinstance(body, dict) and not isinstance(body, list):
            raise AuditError(self._not_api(path, status, text))
        if status in (httpx.codes.BAD_REQUEST, httpx.codes.UNPROCESSABLE_ENTITY) and isinstance(body, dict):
            raise QueryFailed(str(body.get("error") or _first_line(text)))
        if status != httpx.codes.OK:
            raise AuditError(self._not_api(path, status, text))
        return body

    def _not_api(self, path: str, status: int, text: str) -> str:
        return (
            f"{self.where()} is not {self.what}: GET {path} answered {status} "
            f"{_first_line(text)!r}; pass the base URL of the {self.kind}, e.g. http://host:port"
        )

    @property
    def what(self) -> str:
        article = "an" if self.kind[0] in "AEIOU" else "a"
        return f"{article} {self.kind} API"

    # --- Prometheus HTTP API -------------------------------------------------------------------------------------

    def prometheus(self, path: str, params: Mapping[str, str | list[str]] | None = None) -> Any:
        """``data`` of a Prometheus API answer (``{"status": "success", "data": ...}``)."""
        body = self.get(path, params)
        if not isinstance(body, dict) or body.get("status") != "success" or "data" not in body:
            raise AuditError(
                f"{self.where()} is not {self.what}: GET {path} did not answer "
                '{"status": "success", "data": ...}; pass the base URL of the Prometheus API'
            )
        return body["data"]

    def query(self, expr: str, at: float) -> Vector:
        """An instant query at ``at``: the samples of a vector (a scalar becomes one sample without labels)."""
        data = self.prometheus("/api/v1/query", {"query": expr, "time": f"{at:.3f}"})
        try:
            kind, result = data.get("resultType"), data.get("result")
            if kind == "scalar":
                return (Sample({}, float(result[1])),)
            if kind != "vector" or not isinstance(result, list):
                raise QueryFailed(f"expected an instant vector, got {kind}")
            samples = [Sample({str(k): str(v) for k, v in r["metric"].items()}, float(r["value"][1])) for r in result]
        except (AttributeError, KeyError, IndexError, TypeError, ValueError) as exc:
            raise QueryFailed(f"the answer is not a query result ({type(exc).__name__}: {exc})") from None
        return tuple(sorted(samples, key=lambda s: sorted(s.labels.items())))
