"""The long-term store of the chosen topology (docs/architecture.md, "Long-term store"): federation, Thanos or Mimir.

VictoriaMetrics, the fourth topology, has its own module (``generate.victoriametrics``).

- federation: a global Prometheus scraping each cluster's ``/federate`` for the rollups, plus the Phase 1
  floor signals (exporter ``up`` and GPU temperature) so the global store can answer "is every GPU reporting".
- thanos: sidecar, query and compactor arguments and an object-store config; Prometheus needs 2 h blocks. Every
  address a Thanos component listens on is set in its args, so the links to it (Grafana's global data source,
  Query's store endpoints) name a real listener.
- mimir: remote_write is in each cluster's Prometheus config; here, per-tenant limits sized from the budget and
  the Mimir settings the bundle relies on: the HA tracker that deduplicates the replica pairs, and tenant
  federation whenever one query spans several tenants (Grafana's global data source sends ``X-Scope-OrgID: a|b``).

``global_query`` is where the global data source of each topology points, and which headers it must send.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from gpuscope.durations import prometheus_seconds
from gpuscope.generate.budget_report import BudgetReport
from gpuscope.generate.prometheus import federation_config
from gpuscope.ruleconfig.config import EXPORTER_JOB
from gpuscope.rules import COLD_TIER_REGEX
from gpuscope.spec.fleet import FleetSpec

FEDERATE_MATCH = [
    f'{{__name__=~"{COLD_TIER_REGEX}"}}',
    '{__name__=~"cluster:.+|node:.+"}',
    f'up{{job="{EXPORTER_JOB}"}}',
    f'DCGM_FI_DEV_GPU_TEMP{{job="{EXPORTER_JOB}"}}',
    # the fleet page's firing alerts and head series per Prometheus
    'ALERTS{alertstate="firing"}',
    "prometheus_tsdb_head_series",
]


# Thanos Query's listeners, set explicitly in its args (the global data source names the HTTP one).
THANOS_QUERY_HOST = "thanos-query"
THANOS_HTTP_PORT = 10902
THANOS_GRPC_PORT = 10901
# The HA tracker takes the memberlist KV store from Mimir 2.17 on; older Mimir needs consul or etcd there.
MIMIR_MIN_VERSION = "2.17"
# Grafana joins several tenants with "|"; Mimir answers such a query only with tenant federation enabled.
TENANT_SEPARATOR = "|"


@dataclass(frozen=True, slots=True, kw_only=True)
class GlobalQuery:
    """Where the global view is queried, and the headers the endpoint needs."""

    url: str
    headers: tuple[tuple[str, str], ...] = ()


def mimir_tenants(spec: FleetSpec) -> list[str]:
    """Every tenant the clusters write to (declared tenants, else one per cluster)."""
    names = [t.name for t in spec.tenants] or [c.tenant or c.name for c in spec.clusters]
    return sorted(set(names), key=names.index)


def _mimir_query_url(push_url: str) -> str:
    """Mimir serves PromQL under ``/prometheus`` on the host that takes ``/api/v1/push``."""
    match = re.match(r"^(https?://[^/]+)", push_url)
    return f"{match.group(1) if match else push_url}/prometheus"


def global_query(spec: FleetSpec, store: str) -> GlobalQuery:
    """The global data source of the chosen topology: federation's Prometheus, Thanos Query, Mimir or
    VictoriaMetrics."""
    if store == "mimir":
        tenants = TENANT_SEPARATOR.join(mimir_tenants(spec))
        return GlobalQuery(url=_mimir_query_url(spec.remote_write_url), headers=(("X-Scope-OrgID", tenants),))
    if store == "thanos":
        return GlobalQuery(url=f"http://{THANOS_QUERY_HOST}:{THANOS_HTTP_PORT}")
    if store == "victoriametrics":
        return GlobalQuery(url=spec.victoriametrics.query_url)  # the single node, or vmselect
    return GlobalQuery(url=f"http://{spec.global_endpoint}")


def federation_files(spec: FleetSpec, fleet_rules: str) -> dict[str, Any]:
    return {
        "global/prometheus.yml": federation_config(spec, FEDERATE_MATCH),
        "global/rules/gpuscope-fleet.yaml": fleet_rules,
    }


def _retention(duration: str) -> str:
    return f"{math.ceil(prometheus_seconds(duration) / 86400)}d"


def thanos_files(spec: FleetSpec) -> dict[str, Any]:
    endpoints = [
        f"{thanos_sidecar_host(cluster.name, r)}:{THANOS_GRPC_PORT}" for cluster in spec.clusters for r in ("a", "b")
    ]
    r = spec.retention
    # Thanos needs local retention of at least three 2 h blocks.
    local = r.hot if prometheus_seconds(r.hot) >= 6 * 3600 else "6h"
    return {
        "global/thanos/objstore.yml": {
            "type": "S3",
            "config": {
                "bucket": f"{spec.name}-metrics",
                "endpoint": "s3.amazonaws.com",
                "region": "us-east-1",
                "aws_sdk_auth": True,
            },
        },
        "global/thanos/sidecar.args": "\n".join(
            [
                "sidecar",
                "--tsdb.path=/prometheus",
                "--prometheus.url=http://localhost:9090",
                "--objstore.config-file=/etc/thanos/objstore.yml",
                f"--grpc-address=0.0.0.0:{THANOS_GRPC_PORT}",
                f"--http-address=0.0.0.0:{THANOS_HTTP_PORT}",
            ]
        )
        + "\n",
        "global/thanos/query.args": "\n".join(
            [
                "query",
                f"--http-address=0.0.0.0:{THANOS_HTTP_PORT}",
                f"--grpc-address=0.0.0.0:{THANOS_GRPC_PORT}",
                "--query.replica-label=replica",
                *(f"--endpoint={e}" for e in endpoints),
            ]
        )
        + "\n",
        "global/thanos/compactor.args": "\n".join(
            [
                "compact",
                "--wait",
                "--objstore.config-file=/etc/thanos/objstore.yml",
                "--deduplication.replica-label=replica",
                f"--retention.resolution-raw={_retention(r.warm)}",
                f"--retention.resolution-5m={_retention(r.cold)}",
                f"--retention.resolution-1h={_retention(r.cold)}",
            ]
        )
        + "\n",
        "global/thanos/prometheus-flags.args": "\n".join(
            [
                "--storage.tsdb.min-block-duration=2h",
                "--storage.tsdb.max-block-duration=2h",
                f"--storage.tsdb.retention.time={local}",
                "--web.enable-lifecycle",
            ]
        )
        + "\n",
    }


def thanos_sidecar_host(cluster: str, replica: str) -> str:
    """The sidecar next to one Prometheus replica (Query's store endpoint for it)."""
    return f"{cluster}-prometheus-{replica}-sidecar"


def mimir_config(spec: FleetSpec) -> dict[str, Any]:
    """The part of Mimir's configuration the bundle depends on (merge it into the deployment's own)."""
    config: dict[str, Any] = {
        "multitenancy_enabled": True,
        "distributor": {"ha_tracker": {"enable_ha_tracker": True, "kvstore": {"store": "memberlist"}}},
        "runtime_config": {"file": "/etc/mimir/runtime-overrides.yaml"},
    }
    if len(mimir_tenants(spec)) > 1:
        config["tenant_federation"] = {"enabled": True}
    return config


def mimir_files(spec: FleetSpec, budget: BudgetReport) -> dict[str, Any]:
    by_cluster = {c.cluster: c for c in budget.clusters}
    tenants = [(t.name, t.clusters, t.max_series) for t in spec.tenants] or [
        (c.tenant or c.name, (c.name,), None) for c in spec.clusters
    ]
    overrides: dict[str, Any] = {}
    for name, clusters, max_series in tenants:
        rollups = spec.retention.cold_tier == "rollups"
        series = sum(
            math.ceil(
                by_cluster[c].remote_write_samples_per_second * prometheus_seconds(spec.retention.rollup_resolution)
            )
            if rollups
            else by_cluster[c].head_series
            for c in clusters
        )
        rate = sum(by_cluster[c].remote_write_samples_per_second for c in clusters)
        overrides[name] = {
            "max_global_series_per_user": max_series or max(150_000, math.ceil(series * 1.5)),
            "ingestion_rate": max(10_000, math.ceil(rate * 2)),
            "ingestion_burst_size": max(200_000, math.ceil(rate * 20)),
            "max_label_names_per_series": 30,
            "accept_ha_samples": True,
            "ha_cluster_label": "cluster",
            "ha_replica_label": "__replica__",
            "compactor_blocks_retention_period": _retention(spec.retention.cold),
        }
    return {
        "global/mimir/runtime-overrides.yaml": {"overrides": overrides},
        "global/mimir/mimir.yaml": mimir_config(spec),
    }
