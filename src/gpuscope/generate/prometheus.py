"""Per-cluster Prometheus HA pair configs (replicas differ only in their replica label) and scrape targets.

Scrape jobs: the GPU exporters (``job="dcgm-exporter"``), node-exporter, the Pushgateway (``honor_labels``) and
Prometheus itself (each replica scrapes both, so either can see its peer down). Limits come from the budget,
external labels identify the cluster and replica, the replica label is dropped before alerts leave so
Alertmanager deduplicates the pair, and remote_write (Mimir, VictoriaMetrics) keeps only the cold-tier rollups
when the cold tier is rollups-only.
"""

from __future__ import annotations

import math
from typing import Any

from gpuscope.generate import victoriametrics as vm
from gpuscope.generate.budget_report import ClusterBudget
from gpuscope.generate.host_scrape import host_scrape_jobs
from gpuscope.ruleconfig.config import EXPORTER_JOB
from gpuscope.rules import COLD_TIER_REGEX
from gpuscope.spec.fleet import LABEL_LIMIT, Cluster, FleetSpec

RULE_PATHS = ("rules/gpuscope-recording.yaml", "rules/gpuscope-alerts.yaml")


def choose_store(spec: FleetSpec) -> tuple[str, str]:
    """The long-term store and why: the decision matrix of docs/architecture.md, "Long-term store"."""
    n = len(spec.clusters)
    if spec.long_term_store != "auto":
        return spec.long_term_store, f"set in the fleet spec (long_term_store: {spec.long_term_store})"
    if spec.tenants or n > 10:
        why = "tenants are declared" if spec.tenants else f"{n} clusters (more than 10)"
        return "mimir", f"{why}: Mimir gives per-tenant limits and isolation"
    if n < 5:
        return "federation", f"{n} cluster(s), fewer than 5: federating rollups needs no new infrastructure"
    return "thanos", f"{n} clusters with Prometheus everywhere: Thanos adds long-term storage with minimal change"


REMOTE_WRITE_STORES = ("mimir", "victoriametrics")
THANOS_SIDECAR = "localhost:10902"


def replica_label(store: str) -> str:
    """Mimir's HA tracker reads ``__replica__``; Thanos, VictoriaMetrics and federation a plain ``replica``."""
    return "__replica__" if store == "mimir" else vm.REPLICA_LABEL


def _exporter_targets(cluster: Cluster) -> list[str]:
    targets = []
    for group in cluster.node_groups:
        if group.hosts:
            targets += list(group.hosts)
        else:
            port = cluster.endpoints.exporter_port
            targets += [f"{cluster.name}-{group.name}-{i:04d}:{port}" for i in range(group.nodes)]
    return targets


def targets_files(cluster: Cluster) -> dict[str, list[dict[str, Any]]]:
    """file_sd JSON for the exporters (edit or regenerate from your inventory); node-exporter and cAdvisor
    targets: ``generate/host_scrape.py``."""
    return {"targets/dcgm-exporter.json": [{"targets": _exporter_targets(cluster), "labels": {}}]}


def _queue_config(samples_per_second: float) -> dict[str, Any]:
    # A shard sends about 10 batches a second. After an outage of the store the WAL backlog drains only at the
    # headroom above the live rate: 10x the expected throughput drains an outage in a ninth of its length (2x
    # would take as long as the outage), and at least 4 shards keep a small rollup stream from stalling.
    per_send = 2000
    shards = max(4, min(200, math.ceil(10 * samples_per_second / (per_send * 10))))
    return {"capacity": per_send * 5, "max_shards": shards, "min_shards": 1, "max_samples_per_send": per_send}


def _remote_write(spec: FleetSpec, cluster: Cluster, budget: ClusterBudget, store: str) -> list[dict[str, Any]]:
    entry: dict[str, Any] = {"name": "long-term-store"}
    if store == "victoriametrics":
        entry["url"] = vm.write_url(spec)
    else:
        entry["url"] = spec.remote_write_url
        entry["headers"] = {"X-Scope-OrgID": cluster.tenant or _tenant_of(spec, cluster)}
    entry |= {
        "queue_config": _queue_config(budget.remote_write_samples_per_second),
        "metadata_config": {"send": False},
    }
    if spec.remote_write_token_file and store == "mimir":
        entry["authorization"] = {"type": "Bearer", "credentials_file": spec.remote_write_token_file}
    if spec.retention.cold_tier == "rollups":
        entry["write_relabel_configs"] = [
            {"source_labels": ["__name__"], "regex": COLD_TIER_REGEX, "action": "keep"},
        ]
    return [entry]


def _tenant_of(spec: FleetSpec, cluster: Cluster) -> str:
    for tenant in spec.tenants:
        if cluster.name in tenant.clusters:
            return tenant.name
    return cluster.name


def prometheus_config(
    spec: FleetSpec, cluster: Cluster, replica: str, budget: ClusterBudget, store: str
) -> dict[str, Any]:
    """The full prometheus.yml of one replica."""
    rlabel = replica_label(store)
    ep = cluster.endpoints
    dcgm_job: dict[str, Any] = {
        "job_name": EXPORTER_JOB,
        "scrape_interval": spec.scrape_interval,
        "scrape_timeout": spec.scrape_timeout,
        "file_sd_configs": [{"files": ["targets/dcgm-exporter.json"]}],
        "sample_limit": budget.sample_limit_per_exporter,
        "label_limit": LABEL_LIMIT,
    }
    if spec.exporter.drop_labels:
        dcgm_job["metric_relabel_configs"] = [{"action": "labeldrop", "regex": "|".join(spec.exporter.drop_labels)}]
    config: dict[str, Any] = {
        "global": {
            "scrape_interval": spec.scrape_interval,
            "scrape_timeout": spec.scrape_timeout,
            "evaluation_interval": spec.evaluation_interval,
            "external_labels": {"cluster": cluster.name, rlabel: replica},
        },
        "rule_files": list(RULE_PATHS),
        "alerting": {
            "alert_relabel_configs": [{"action": "labeldrop", "regex": rlabel}],
            "alertmanagers": [{"api_version": "v2", "static_configs": [{"targets": list(ep.alertmanagers)}]}],
        },
        "scrape_configs": [
            dcgm_job,
            *host_scrape_jobs(spec, cluster),  # node-exporter, kube-state-metrics, cAdvisor
            {"job_name": "pushgateway", "honor_labels": True, "static_configs": [{"targets": [ep.pushgateway]}]},
            {
                "job_name": "prometheus",
                "static_configs": [{"targets": [ep.prometheus_a, ep.prometheus_b]}],
            },
        ],
    }
    if store == "thanos":
        # The sidecar beside each replica (its --http-address): block uploads on the Pipeline dashboard.
        config["scrape_configs"].append(
            {"job_name": "thanos-sidecar", "static_configs": [{"targets": [THANOS_SIDECAR]}]}
        )
    if store in REMOTE_WRITE_STORES:
        config["remote_write"] = _remote_write(spec, cluster, budget, store)
    return config


def federation_config(spec: FleetSpec, match: list[str]) -> dict[str, Any]:
    """The global Prometheus scraping every cluster's /federate for the rollups (hierarchical federation)."""
    jobs = [
        {
            "job_name": f"federate-{cluster.name}",
            "honor_labels": True,
            "metrics_path": "/federate",
            "params": {"match[]": match},
            "scrape_interval": "1m",
            "scrape_timeout": "50s",
            "static_configs": [{"targets": [cluster.endpoints.prometheus_a, cluster.endpoints.prometheus_b]}],
        }
        for cluster in spec.clusters
    ]
    return {
        "global": {"scrape_interval": "1m", "evaluation_interval": "1m", "external_labels": {"tier": "global"}},
        "rule_files": ["rules/gpuscope-fleet.yaml"],
        "scrape_configs": [*jobs, {"job_name": "prometheus", "static_configs": [{"targets": [spec.global_endpoint]}]}],
    }
