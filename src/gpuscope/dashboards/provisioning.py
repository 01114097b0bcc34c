"""Grafana provisioning files: a file provider for the dashboards and the Prometheus data sources to pick from.

Dashboards choose their data source through the ``datasource`` variable, so one set of dashboards serves the
global view (the default data source: Thanos Query, Mimir, VictoriaMetrics (single node or vmselect) or the
federating Prometheus, per the chosen store, at the URL and with the headers the store generator gives) and each
cluster's own Prometheus (replica A; the Phase 1 floor works on it alone).
"""

from __future__ import annotations

from typing import Any

from gpuscope.dashboards.defaults import uid_for
from gpuscope.spec.fleet import FleetSpec

DASHBOARDS_PATH = "/var/lib/grafana/dashboards/gpuscope"


def dashboards_provider(spec: FleetSpec) -> dict[str, Any]:
    return {
        "apiVersion": 1,
        "providers": [
            {
                "name": f"gpuscope-{spec.name}",
                "orgId": 1,
                "folder": f"GPU fleet {spec.name}",
                "folderUid": uid_for(spec.name, "folder"),
                "type": "file",
                "disableDeletion": False,
                "updateIntervalSeconds": 30,
                # Regenerate instead of editing in the UI: the next `gpuscope generate` would overwrite edits.
                "allowUiUpdates": False,
                "options": {"path": DASHBOARDS_PATH, "foldersFromFilesStructure": False},
            }
        ],
    }


def _global(spec: FleetSpec, store: str, url: str, headers: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """The default data source: the global view of the chosen store, at the address its generated config sets."""
    kind = {"mimir": "Mimir", "thanos": "Thanos"}.get(store, "Prometheus")
    json_data: dict[str, Any] = {"httpMethod": "POST", "timeInterval": spec.scrape_interval, "prometheusType": kind}
    # VictoriaMetrics answers Grafana's Prometheus data source (MetricsQL is a superset of PromQL) but is no
    # Prometheus 2.42: no version, so Grafana does not assume one's API details.
    if kind == "Prometheus" and store != "victoriametrics":
        json_data["prometheusVersion"] = "2.42.0"
    source: dict[str, Any] = {
        "name": f"{spec.name} global ({store})",
        "uid": uid_for(spec.name, "global"),
        "type": "prometheus",
        "access": "proxy",
        "url": url,
        "isDefault": True,
        "editable": False,
    }
    # Header values are secrets in Grafana's model (a tenant list may be one); names go in jsonData.
    for i, (name, value) in enumerate(headers, 1):
        json_data[f"httpHeaderName{i}"] = name
        source.setdefault("secureJsonData", {})[f"httpHeaderValue{i}"] = value
    source["jsonData"] = json_data
    return source


def datasources(
    spec: FleetSpec, store: str, global_url: str, global_headers: tuple[tuple[str, str], ...] = ()
) -> dict[str, Any]:
    clusters = [
        {
            "name": f"{spec.name} {cluster.name}",
            "uid": uid_for(spec.name, f"{cluster.name}-prom"),
            "type": "prometheus",
            "access": "proxy",
            "url": f"http://{cluster.endpoints.prometheus_a}",
            "isDefault": False,
            "editable": False,
            "jsonData": {
                "httpMethod": "POST",
                # Grafana's $__rate_interval is at least four scrape intervals: it must know the interval.
                "timeInterval": spec.scrape_interval,
                "prometheusType": "Prometheus",
                "prometheusVersion": "2.42.0",
            },
        }
        for cluster in spec.clusters
    ]
    return {"apiVersion": 1, "datasources": [_global(spec, store, global_url, global_headers), *clusters]}
