"""``-m/--configmap-data NAMESPACE:NAME``: the collectors CSV read from a Kubernetes ConfigMap, key ``metrics``.

As dcgm-exporter, through the API server with the pod's service account: ``KUBERNETES_SERVICE_HOST`` and
``KUBERNETES_SERVICE_PORT`` from the environment, the token and CA bundle from the service-account directory
(``GPUSCOPE_SERVICEACCOUNT_DIR`` overrides ``/var/run/secrets/kubernetes.io/serviceaccount``, for running outside a
pod). The pod's role needs ``get`` on that ConfigMap. One GET through the API server client
(``gpuscope.kube.client.fetch``): the whole read within one deadline (a server dripping a byte a second cannot hold
start-up or a reload), at most ``MAX_BYTES``, and no redirect followed, so the bearer token goes to the API server
and nowhere else. An answer that is no ConfigMap (a nesting bomb included) is one line: exit 2 at start, a failed
reload (the old list kept) on SIGHUP.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass

from gpuscope.errors import EnvironmentProblem, UsageError

__all__ = ["ConfigMapRef", "parse_configmap_ref", "read_configmap_csv"]

FLAG = "{configmap_data}"  # worded by the caller: the CLI and the reload log name -m and its env var
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
            ).naming("configmap_data")
    return ConfigMapRef(namespace, name)


def read_configmap_csv(ref: ConfigMapRef, env: Mapping[str, str] | None = None, timeout_s: float = 10.0) -> str:
    """The CSV text under key ``metrics``, read whole within ``timeout_s``; a problem is one line naming the flag
    and the fix."""
    # Only with -m: the API server client (http.client, ssl) is weight an exporter never needs otherwise.
    import urllib.parse

    from gpuscope.kube.client import SERVICEACCOUNT_DIR, ApiServer, WatchError, fetch

    env = os.environ if env is None else env
    host, port = env.get("KUBERNETES_SERVICE_HOST", ""), env.get("KUBERNETES_SERVICE_PORT", "")
    if not host or not port:
        raise EnvironmentProblem(
            f"{FLAG} {ref}: not running in a Kubernetes pod (KUBERNETES_SERVICE_HOST/PORT unset); "
            "use -f with a file, or run in-cluster"
        ).naming("configmap_data")
    if not port.isdigit():
        raise EnvironmentProblem(f"{FLAG} {ref}: KUBERNETES_SERVICE_PORT {port!r:.40} is not a port number").naming(
            "configmap_data"
        )
    sa_dir = env.get("GPUSCOPE_SERVICEACCOUNT_DIR") or SERVICEACCOUNT_DIR
    server = ApiServer(host, int(port), sa_dir)
    url_host = f"[{host}]" if ":" in host else host
    path = f"/api/v1/namespaces/{urllib.parse.quote(ref.namespace)}/configmaps/{urllib.parse.quote(ref.name)}"
    try:
        status, body = fetch(server, path, deadline_s=timeout_s, max_bytes=MAX_BYTES)
    except WatchError as exc:
        if exc.reason == "unauthorized":  # the service account's token or CA cannot be read
            raise EnvironmentProblem(
                f"{FLAG} {ref}: cannot read the service-account token or CA in {sa_dir}: {exc}; "
                "mount the pod's service account (automountServiceAccountToken)"
            ).naming("configmap_data") from None
        if exc.reason == "bad_response":
            raise UsageError(
                f"{FLAG} {ref}: the API server answer is over {MAX_BYTES} bytes; this is not a ConfigMap"
            ).naming("configmap_data") from None
        raise EnvironmentProblem(
            f"{FLAG} {ref}: cannot read it from the API server at {url_host}:{port}: {exc}"
        ).naming("configmap_data") from None
    if status != 200:
        raise UsageError(f"{FLAG} {ref}: {_http_problem(status)}").naming("configmap_data")
    try:
        document = json.loads(body)
    except RecursionError:
        raise UsageError(f"{FLAG} {ref}: the API server answer nests deeper than any ConfigMap; not read").naming(
            "configmap_data"
        ) from None
    except ValueError:
        raise UsageError(f"{FLAG} {ref}: the API server answer is not a ConfigMap object").naming(
            "configmap_data"
        ) from None
    data = document.get("data") if isinstance(document, dict) else None
    if not isinstance(document, dict) or not isinstance(data, dict | None):
        raise UsageError(f"{FLAG} {ref}: the API server answer is not a ConfigMap object").naming("configmap_data")
    text = (data or {}).get(DATA_KEY)
    if not isinstance(text, str) or not text.strip():
        raise UsageError(
            f"{FLAG} {ref}: the ConfigMap has no {DATA_KEY!r} key; put the collectors CSV under data.{DATA_KEY}"
        ).naming("configmap_data")
    return text


def _http_problem(status: int) -> str:
    if status == 404:
        return "no such ConfigMap (HTTP 404): create it with the CSV under data.metrics, or fix NAMESPACE:NAME"
    if status in (401, 403):
        return (
            f"the service account may not read it (HTTP {status}): grant get on configmaps in that namespace "
            "to the exporter's service account"
        )
    if 300 <= status < 400:
        return (
            f"the API server answered with a redirect (HTTP {status}), which is not followed: the service-account "
            "token is sent to the API server only; check KUBERNETES_SERVICE_HOST/PORT"
        )
    return f"the API server answered HTTP {status}"
