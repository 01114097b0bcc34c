"""Cross-references of a generated bundle: every link names a listener some generated component has.

A bundle is a set of components that must find each other: Grafana's data sources, each Prometheus's
remote_write and Alertmanagers, the global Prometheus's federation targets, Thanos Query's store endpoints. This
module reads a bundle as written (path -> text) and the spec it came from, lists the listeners its generated
components have (``LISTENER_SOURCES``: where each one listens, what it serves, which headers a request needs and
which flags it was started with) and the links pointing at them (``LINK_SOURCES``), and says, one line each, which
links name nothing or miss what the endpoint needs. A topology adds itself by appending one function to each
list (a store that is generated adds its listeners, a file that points somewhere adds its links).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import yaml

from gpuscope.generate.storage import TENANT_SEPARATOR, THANOS_QUERY_HOST, thanos_sidecar_host
from gpuscope.spec.fleet import FleetSpec

Files = Mapping[str, str]
TENANT_HEADER = "X-Scope-OrgID"


@dataclass(frozen=True, slots=True, kw_only=True)
class Listener:
    """Where a generated component listens and what a request there needs."""

    component: str
    address: str  # host:port
    serves: frozenset[str]  # protocols: promql, federate, remote_write, alertmanager, store_grpc
    path_prefix: str = ""  # where its HTTP API lives (Mimir's PromQL is under /prometheus)
    needs_headers: frozenset[str] = frozenset()
    # Tenant ids joined with TENANT_SEPARATOR are answered only with tenant federation enabled.
    multi_tenant: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Link:
    """A reference from one bundle file to an endpoint."""

    source: str  # file and what in it
    target: str  # URL, or host:port for gRPC and static targets
    protocol: str
    headers: Mapping[str, str] = field(default_factory=dict)


def _yaml(files: Files, path: str) -> Any:
    return yaml.safe_load(files[path]) if path in files else None


def _args(files: Files, path: str) -> dict[str, list[str]]:
    """``--flag=value`` lines of an args file."""
    out: dict[str, list[str]] = {}
    for line in files.get(path, "").splitlines():
        if line.startswith("--") and "=" in line:
            name, value = line[2:].split("=", 1)
            out.setdefault(name, []).append(value)
    return out


def _port_of(bind: str) -> str:
    return bind.rsplit(":", 1)[1]


def _address(target: str) -> tuple[str, str]:
    """(host:port, path) of a URL or a bare host:port."""
    if "://" not in target:
        return target, ""
    parts = urlsplit(target)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.hostname}:{port}", parts.path.rstrip("/")


# --- listeners --------------------------------------------------------------------------------------------


def prometheus_listeners(files: Files, spec: FleetSpec) -> list[Listener]:
    out = []
    for cluster in spec.clusters:
        ep = cluster.endpoints
        for replica, address in (("a", ep.prometheus_a), ("b", ep.prometheus_b)):
            if f"clusters/{cluster.name}/prometheus-{replica}.yml" in files:
                out.append(
                    Listener(
                        component=f"Prometheus {cluster.name}/{replica}",
                        address=address,
                        serves=frozenset({"promql", "federate"}),
                    )
                )
    if "alertmanager/alertmanager.yml" in files:
        addresses = sorted({a for c in spec.clusters for a in c.endpoints.alertmanagers})
        out += [Listener(component="Alertmanager", address=a, serves=frozenset({"alertmanager"})) for a in addresses]
    return out


def federation_listeners(files: Files, spec: FleetSpec) -> list[Listener]:
    if "global/prometheus.yml" not in files:
        return []
    return [Listener(component="global Prometheus", address=spec.global_endpoint, serves=frozenset({"promql"}))]


def thanos_listeners(files: Files, spec: FleetSpec) -> list[Listener]:
    out = []
    # Only an address the args set counts: a default the bundle does not state is a link nobody can check.
    for bind in _args(files, "global/thanos/query.args").get("http-address", []):
        out.append(
            Listener(
                component="Thanos Query", address=f"{THANOS_QUERY_HOST}:{_port_of(bind)}", serves=frozenset({"promql"})
            )
        )
    for bind in _args(files, "global/thanos/sidecar.args").get("grpc-address", []):
        out += [
            Listener(
                component=f"Thanos sidecar {c.name}/{r}",
                address=f"{thanos_sidecar_host(c.name, r)}:{_port_of(bind)}",
                serves=frozenset({"store_grpc"}),
            )
            for c in spec.clusters
            for r in ("a", "b")
        ]
    return out


def mimir_listeners(files: Files, spec: FleetSpec) -> list[Listener]:
    config = _yaml(files, "global/mimir/mimir.yaml")
    if config is None:
        return []
    address, _ = _address(spec.remote_write_url)
    tenancy = frozenset({TENANT_HEADER}) if config.get("multitenancy_enabled", True) else frozenset()
    federated = bool((config.get("tenant_federation") or {}).get("enabled", False))
    return [
        Listener(component="Mimir (push)", address=address, serves=frozenset({"remote_write"}), needs_headers=tenancy),
        Listener(
            component="Mimir (query)",
            address=address,
            serves=frozenset({"promql"}),
            path_prefix="/prometheus",
            needs_headers=tenancy,
            multi_tenant=federated,
        ),
    ]


def _vm_args(files: Files, path: str) -> dict[str, list[str]]:
    """``-flag=value`` lines of a VictoriaMetrics args file, or a Kubernetes object's container args."""
    out: dict[str, list[str]] = {}
    if path.endswith(".args"):
        lines = files.get(path, "").splitlines()
    else:
        pod = ((_yaml(files, path) or {}).get("spec", {}).get("template", {})).get("spec", {})
        lines = [arg for container in pod.get("containers", []) for arg in container.get("args", [])]
    for line in lines:
        if line.startswith("-") and "=" in line:
            name, value = line[1:].split("=", 1)
            out.setdefault(name, []).append(value)
    return out


VM_CLUSTER = "global/victoriametrics/cluster"


def victoriametrics_listeners(files: Files, spec: FleetSpec) -> list[Listener]:
    vm = spec.victoriametrics
    out = []
    # As for Thanos: only an address the generated flags set counts.
    for bind in _vm_args(files, "global/victoriametrics/single-node.args").get("httpListenAddr", []):
        out.append(
            Listener(
                component="VictoriaMetrics",
                address=f"{vm.endpoint.rsplit(':', 1)[0]}:{_port_of(bind)}",
                serves=frozenset({"promql", "remote_write"}),
            )
        )
    if vm.cluster is not None:
        for name, serves, prefix in (
            ("vminsert", "remote_write", "/insert/0/prometheus"),
            ("vmselect", "promql", "/select/0/prometheus"),
        ):
            for bind in _vm_args(files, f"{VM_CLUSTER}/{name}-deployment.yaml").get("httpListenAddr", []):
                out.append(
                    Listener(
                        component=name,
                        address=f"{name}.{vm.cluster.namespace}.svc:{_port_of(bind)}",
                        serves=frozenset({serves}),
                        path_prefix=prefix,
                    )
                )
    return out


def _remediate_listener(component: str, host: str, args: list[str]) -> Listener | None:
    listen = next((a.split("=", 1)[1] for a in args if a.startswith("--listen=")), None)
    if listen is None:
        return None
    token = any(a.startswith("--bearer-token-file=") for a in args)
    return Listener(
        component=component,
        address=f"{host}:{_port_of(listen)}",
        serves=frozenset({"remediate_webhook"}),
        needs_headers=frozenset({"Authorization"}) if token else frozenset(),
    )


def remediation_listeners(files: Files, spec: FleetSpec) -> list[Listener]:
    """``gpuscope remediate``: the Deployment behind its Service (Kubernetes), the systemd unit on the host the
    bundle names ``gpuscope-remediate-<cluster>`` (Slurm)."""
    out = []
    for cluster in spec.clusters:
        deployment = _yaml(files, f"kubernetes/{cluster.name}/remediate/deployment.yaml")
        if deployment is not None:
            args = deployment["spec"]["template"]["spec"]["containers"][0]["command"]
            host = f"gpuscope-remediate.{cluster.namespace}.svc"
            found = _remediate_listener(f"gpuscope remediate ({cluster.name})", host, args)
            out += [found] if found else []
        unit = files.get(f"slurm/{cluster.name}/gpuscope-remediate.service", "")
        for line in unit.splitlines():
            if line.startswith("ExecStart="):
                host = f"gpuscope-remediate-{cluster.name}"
                found = _remediate_listener(f"gpuscope remediate ({cluster.name})", host, line.split())
                out += [found] if found else []
    return out


LISTENER_SOURCES: list[Callable[[Files, FleetSpec], list[Listener]]] = [
    prometheus_listeners,
    federation_listeners,
    thanos_listeners,
    mimir_listeners,
    victoriametrics_listeners,
    remediation_listeners,
]

# --- links ------------------------------------------------------------------------------------------------


def grafana_links(files: Files, spec: FleetSpec) -> list[Link]:
    path = "grafana/provisioning/datasources/prometheus.yaml"
    out = []
    for source in (_yaml(files, path) or {}).get("datasources", []):
        data, secrets = source.get("jsonData", {}), source.get("secureJsonData", {})
        headers = {
            data[key]: secrets.get(f"httpHeaderValue{key.removeprefix('httpHeaderName')}", "")
            for key in data
            if key.startswith("httpHeaderName")
        }
        out.append(
            Link(
                source=f"{path}: data source {source['name']!r}",
                target=source["url"],
                protocol="promql",
                headers=headers,
            )
        )
    return out


def prometheus_links(files: Files, spec: FleetSpec) -> list[Link]:
    out = []
    for path in sorted(p for p in files if p.startswith("clusters/") and p.endswith(".yml")):
        config = _yaml(files, path)
        for rw in config.get("remote_write", []):
            out.append(
                Link(
                    source=f"{path}: remote_write {rw.get('name', '')!r}",
                    target=rw["url"],
                    protocol="remote_write",
                    headers=rw.get("headers", {}),
                )
            )
        for am in config.get("alerting", {}).get("alertmanagers", []):
            for static in am.get("static_configs", []):
                out += [
                    Link(source=f"{path}: alertmanager", target=t, protocol="alertmanager") for t in static["targets"]
                ]
    return out


def federation_links(files: Files, spec: FleetSpec) -> list[Link]:
    config = _yaml(files, "global/prometheus.yml")
    out = []
    for job in (config or {}).get("scrape_configs", []):
        if job.get("metrics_path") == "/federate":
            for static in job.get("static_configs", []):
                out += [
                    Link(source=f"global/prometheus.yml: job {job['job_name']}", target=t, protocol="federate")
                    for t in static["targets"]
                ]
    return out


def thanos_links(files: Files, spec: FleetSpec) -> list[Link]:
    return [
        Link(source="global/thanos/query.args: --endpoint", target=e, protocol="store_grpc")
        for e in _args(files, "global/thanos/query.args").get("endpoint", [])
    ]


def vmalert_links(files: Files, spec: FleetSpec) -> list[Link]:
    path = "global/victoriametrics/vmalert.args"
    if spec.victoriametrics.cluster is not None:
        path = f"{VM_CLUSTER}/vmalert-deployment.yaml"
    args = _vm_args(files, path)
    flags = (
        ("datasource.url", "promql"),
        ("remoteRead.url", "promql"),
        ("remoteWrite.url", "remote_write"),
        ("notifier.url", "alertmanager"),
    )
    return [
        Link(source=f"{path}: -{flag}", target=url, protocol=protocol)
        for flag, protocol in flags
        for url in args.get(flag, [])
    ]


def alertmanager_links(files: Files, spec: FleetSpec) -> list[Link]:
    """Alertmanager's webhooks to gpuscope remediate (other receivers are outside the bundle)."""
    path = "alertmanager/alertmanager.yml"
    out = []
    for receiver in (_yaml(files, path) or {}).get("receivers", []):
        if not receiver["name"].startswith("gpuscope-remediate"):
            continue
        for hook in receiver.get("webhook_configs", []):
            auth = hook.get("http_config", {}).get("authorization")
            headers = {"Authorization": auth.get("credentials_file", "")} if auth else {}
            out.append(
                Link(
                    source=f"{path}: receiver {receiver['name']}",
                    target=hook["url"],
                    protocol="remediate_webhook",
                    headers=headers,
                )
            )
    return out


LINK_SOURCES: list[Callable[[Files, FleetSpec], list[Link]]] = [
    grafana_links,
    prometheus_links,
    federation_links,
    thanos_links,
    vmalert_links,
    alertmanager_links,
]

# --- the check ----------------------------------------------------------------------------------------------


def _problem(link: Link, listeners: list[Listener]) -> str | None:
    address, path = _address(link.target)
    here = [listener for listener in listeners if listener.address == address]
    if not here:
        known = ", ".join(sorted({listener.address for listener in listeners})) or "none"
        return f"{link.source}: {link.target} names no generated listener (listeners: {known})"
    serving = [listener for listener in here if link.protocol in listener.serves]
    if not serving:
        names = ", ".join(sorted({listener.component for listener in here}))
        return f"{link.source}: {link.target} is {names}, which does not serve {link.protocol}"
    fitting = [listener for listener in serving if path.startswith(listener.path_prefix)]
    if not fitting:
        prefixes = ", ".join(sorted({listener.path_prefix for listener in serving}))
        return f"{link.source}: {link.target} misses the API path prefix {prefixes}"
    listener = fitting[0]
    missing = sorted(listener.needs_headers - set(link.headers))
    if missing:
        return f"{link.source}: {listener.component} needs the {', '.join(missing)} header"
    tenants = link.headers.get(TENANT_HEADER, "")
    if TENANT_SEPARATOR in tenants and not listener.multi_tenant:
        return (
            f"{link.source}: {TENANT_HEADER} {tenants!r} spans tenants, which {listener.component} answers only "
            "with tenant federation enabled (tenant_federation.enabled)"
        )
    return None


def listeners_of(files: Files, spec: FleetSpec) -> list[Listener]:
    return [listener for source in LISTENER_SOURCES for listener in source(files, spec)]


def links_of(files: Files, spec: FleetSpec) -> list[Link]:
    return [link for source in LINK_SOURCES for link in source(files, spec)]


def broken_links(files: Files, spec: FleetSpec) -> list[str]:
    """One line per link of the bundle that does not reach a generated listener with what it needs."""
    listeners = listeners_of(files, spec)
    return [problem for link in links_of(files, spec) if (problem := _problem(link, listeners))]


def replace_in(files: Files, path: str, old: str, new: str) -> dict[str, str]:
    """The bundle with one file's text edited (for breaking a link on purpose)."""
    assert old in files[path], f"{old!r} not in {path}"
    return {**files, path: files[path].replace(old, new)}


def edit_json_or_yaml(files: Files, path: str, edit: Callable[[Any], None]) -> dict[str, str]:
    """The bundle with one structured file changed by ``edit`` (in place on the parsed document)."""
    data = json.loads(files[path]) if path.endswith(".json") else yaml.safe_load(files[path])
    edit(data)
    text = json.dumps(data) if path.endswith(".json") else yaml.safe_dump(data)
    return {**files, path: text}
