"""Grafana provisioning files: a file provider for the dashboards and the Prometheus data sources to pick from.

Dashboards choose their data source through the ``datasource`` variable, so one set of dashboards serves the
global view (the default data source: Thanos Query, Mimir or the federating Prometheus, per the chosen store)
and each cluster's own Prometheus (replica A; the Phase 1 floor works on it alone).
"""

from __future__ import annotations

import re
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


def _mimir_query_url(push_url: str) -> str:
    """Mimir serves PromQL under ``/prometheus`` on the host that takes ``/api/v1/push``."""
    match = re.match(r"^(https?://[^/]+)", push_url)
    return f"{match.group(1) if match else push_url}/prometheus"


def _global(spec: FleetSpec, store: str) -> dict[str, Any]:
    json_data: dict[str, Any] = {"httpMethod": "POST", "timeInterval": spec.scrape_interval}
    source: dict[str, Any] = {
        "name": f"{spec.name} global ({store})",
        "uid": uid_for(spec.name, "global"),
        "type": "prometheus",
        "access": "proxy",
        "isDefault": True,
        "editable": False,
    }
    if store == "mimir":
        tenants = [t.name for t in spec.tenants] or [c.tenant or c.name for c in spec.clusters]
        # Several tenants in one header ("a|b") needs Mimir's tenant federation (-tenant-federation.enabled).
        json_data |= {"prometheusType": "Mimir", "httpHeaderName1": "X-Scope-OrgID"}
        source |= {
            "url": _mimir_query_url(spec.remote_write_url),
            "secureJsonData": {"httpHeaderValue1": "|".join(tenants)},
        }
    elif store == "thanos":
        json_data |= {"prometheusType": "Thanos"}
        source["url"] = f"http://{spec.global_endpoint}"
    else:
        json_data |= {"prometheusType": "Prometheus", "prometheusVersion": "2.42.0"}
        source["url"] = f"http://{spec.global_endpoint}"
    source["jsonData"] = json_data
    return source


def datasources(spec: FleetSpec, store: str) -> dict[str, Any]:
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
    return {"apiVersion": 1, "datasources": [_global(spec, store), *clusters]}
