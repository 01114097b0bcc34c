"""``-m/--configmap-data NAMESPACE:NAME``: the collectors CSV read from a Kubernetes ConfigMap, key ``metrics``.

As dcgm-exporter, through the API server with the pod's service account: ``KUBERNETES_SERVICE_HOST`` and
``KUBERNETES_SERVICE_PORT`` from the environment, the token and CA bundle from the service-account directory
(``GPUSCOPE_SERVICEACCOUNT_DIR`` overrides ``/var/run/secrets/kubernetes.io/serviceaccount``, for running outside
a pod). The pod's role needs ``get`` on that ConfigMap. One GET, bounded in time and size.
"""

from __future__ import annotations

import json
import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass

from gpuscope.errors import EnvironmentProblem, UsageError

__all__ = ["ConfigMapRef", "parse_configmap_ref", "read_configmap_csv"]

FLAG = "-m/--configmap-data (env DCGM_EXPORTER_CONFIGMAP_DATA)"
SERVICEACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
DATA_KEY = "metrics"
MAX_BYTES = 4 * 1024 * 1024  # a ConfigMap holds at most 1 MiB; anything far larger is not one
_DNS_LABEL = set("abcdefghijklmnopqrstuvwxyz0123456789-.")


@dataclass(frozen=True, slots=True)
class ConfigMapRef:
    namespace: str
    name: str

    def __str__(self) -> str:
        return f"{self.namespace}:{self.name}"


def parse_configmap_ref(text: str) -> ConfigMapRef | None:
    """``NAMESPACE:NAME``, or None for dcgm-exporter's ``none`` (read ``-f`` instead)."""
    raw = text.strip()
    if raw in ("", "none"):
        return None
    namespace, sep, name = raw.partition(":")
    for part in (namespace, name):
        if not sep or not part or not set(part) <= _DNS_LABEL or len(part) > 253:
            raise UsageError(
                f"invalid value {text!r:.80} for {FLAG}: write NAMESPACE:NAME of the ConfigMap "
                "(lower-case DNS names), e.g. gpu-operator:dcgm-metrics, or none"
            )
    return ConfigMapRef(namespace, name)


def read_configmap_csv(ref: ConfigMapRef, env: Mapping[str, str] | None = None, timeout_s: float = 10.0) -> str:
    """The CSV text under key ``metrics``; a problem is one line naming the flag and the fix."""
    # Only with -m: urllib's HTTP client (http.client, email) is 3.6 MiB of an exporter that never needs it otherwise.
    import urllib.error
    import urllib.parse
    import urllib.request

    env = os.environ if env is None else env
    host, port = env.get("KUBERNETES_SERVICE_HOST", ""), env.get("KUBERNETES_SERVICE_PORT", "")
    if not host or not port:
        raise EnvironmentProblem(
            f"{FLAG} {ref}: not running in a Kubernetes pod (KUBERNETES_SERVICE_HOST/PORT unset); "
            "use -f with a file, or run in-cluster"
        )
    sa_dir = env.get("GPUSCOPE_SERVICEACCOUNT_DIR") or SERVICEACCOUNT_DIR
    try:
        with open(os.path.join(sa_dir, "token"), encoding="utf-8") as f:
            token = f.read().strip()
        context = ssl.create_default_context(cafile=os.path.join(sa_dir, "ca.crt"))
    except (OSError, ssl.SSLError) as exc:
        raise EnvironmentProblem(
            f"{FLAG} {ref}: cannot read the service-account token or CA in {sa_dir}: {exc}; "
            "mount the pod's service account (automountServiceAccountToken)"
        ) from None
    url_host = f"[{host}]" if ":" in host else host
    path = f"/api/v1/namespaces/{urllib.parse.quote(ref.namespace)}/configmaps/{urllib.parse.quote(ref.name)}"
    request = urllib.request.Request(
        f"https://{url_host}:{port}{path}",
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s, context=context) as response:
            body = response.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as exc:
        raise UsageError(f"{FLAG} {ref}: {_http_problem(exc.code)}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise EnvironmentProblem(f"{FLAG} {ref}: cannot reach the API server at {url_host}:{port}: {reason}") from None
    if len(body) > MAX_BYTES:
        raise UsageError(f"{FLAG} {ref}: the API server answer is over {MAX_BYTES} bytes; this is not a ConfigMap")
    try:
        data = json.loads(body).get("data") or {}
    except (ValueError, AttributeError):
        raise UsageError(f"{FLAG} {ref}: the API server answer is not a ConfigMap object") from None
    text = data.get(DATA_KEY) if isinstance(data, dict) else None
    if not isinstance(text, str) or not text.strip():
        raise UsageError(
            f"{FLAG} {ref}: the ConfigMap has no {DATA_KEY!r} key; put the collectors CSV under data.{DATA_KEY}"
        )
    return text


def _http_problem(status: int) -> str:
    if status == 404:
        return "no such ConfigMap (HTTP 404): create it with the CSV under data.metrics, or fix NAMESPACE:NAME"
    if status in (401, 403):
        return (
            f"the service account may not read it (HTTP {status}): grant get on configmaps in that namespace "
            "to the exporter's service account"
        )
    return f"the API server answered HTTP {status}"
