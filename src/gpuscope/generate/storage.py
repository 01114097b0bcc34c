"""The long-term store of the chosen topology (docs/architecture.md, "Long-term store"): federation, Thanos or Mimir.

- federation: a global Prometheus scraping each cluster's ``/federate`` for the rollups, plus the Phase 1
  floor signals (exporter ``up`` and GPU temperature) so the global store can answer "is every GPU reporting".
- thanos: sidecar, query and compactor arguments and an object-store config; Prometheus needs 2 h blocks.
- mimir: remote_write is in each cluster's Prometheus config; here, per-tenant limits sized from the budget and
  the HA-tracker settings that deduplicate the replica pairs.
"""

from __future__ import annotations

import math
from typing import Any

from gpuscope.generate.budget import BudgetReport
from gpuscope.generate.prometheus import EXPORTER_JOB, federation_config
from gpuscope.rules import COLD_TIER_REGEX
from gpuscope.spec.fleet import FleetSpec, seconds

FEDERATE_MATCH = [
    f'{{__name__=~"{COLD_TIER_REGEX}"}}',
    '{__name__=~"cluster:.+|node:.+"}',
    f'up{{job="{EXPORTER_JOB}"}}',
    f'DCGM_FI_DEV_GPU_TEMP{{job="{EXPORTER_JOB}"}}',
    # the fleet page's firing alerts and head series per Prometheus
    'ALERTS{alertstate="firing"}',
    "prometheus_tsdb_head_series",
]


def federation_files(spec: FleetSpec, fleet_rules: str) -> dict[str, Any]:
    return {
        "global/prometheus.yml": federation_config(spec, FEDERATE_MATCH),
        "global/rules/gpuscope-fleet.yaml": fleet_rules,
    }


def _retention(duration: str) -> str:
    return f"{math.ceil(seconds(duration) / 86400)}d"


def thanos_files(spec: FleetSpec) -> dict[str, Any]:
    endpoints = [f"{cluster.name}-prometheus-{r}-sidecar:10901" for cluster in spec.clusters for r in ("a", "b")]
    r = spec.retention
    # Thanos needs local retention of at least three 2 h blocks.
    local = r.hot if seconds(r.hot) >= 6 * 3600 else "6h"
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
                "--grpc-address=0.0.0.0:10901",
                "--http-address=0.0.0.0:10902",
            ]
        )
        + "\n",
        "global/thanos/query.args": "\n".join(
            ["query", "--query.replica-label=replica", *(f"--endpoint={e}" for e in endpoints)]
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


def mimir_files(spec: FleetSpec, budget: BudgetReport) -> dict[str, Any]:
    by_cluster = {c.cluster: c for c in budget.clusters}
    tenants = [(t.name, t.clusters, t.max_series) for t in spec.tenants] or [
        (c.tenant or c.name, (c.name,), None) for c in spec.clusters
    ]
    overrides: dict[str, Any] = {}
    for name, clusters, max_series in tenants:
        rollups = spec.retention.cold_tier == "rollups"
        series = sum(
            math.ceil(by_cluster[c].remote_write_samples_per_second * seconds(spec.retention.rollup_resolution))
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
        "global/mimir/ha-tracker.yaml": {
            "distributor": {"ha_tracker": {"enable_ha_tracker": True, "kvstore": {"store": "memberlist"}}}
        },
    }
