"""Fleet spec -> monitoring bundle, as pure functions: same spec, same bytes.

``generate_bundle`` composes every generator in a fixed order: per-cluster Prometheus HA configs, rules and
targets, the Alertmanager config, Kubernetes manifests, the long-term store of the chosen topology, Grafana
dashboards and provisioning, runbooks, and a README with the budget report. ``bundle.write_bundle`` is the only writer.
"""

from __future__ import annotations

from typing import Any

import yaml

from gpuscope import dashboards
from gpuscope.bundle import Bundle
from gpuscope.fields.collectors import CollectorSet
from gpuscope.generate import kubernetes as k8s
from gpuscope.generate.alertmanager import alertmanager_config
from gpuscope.generate.budget import compute_budget
from gpuscope.generate.host_scrape import host_service_monitors, host_targets_files
from gpuscope.generate.kubernetes_rbac import rbac_files
from gpuscope.generate.prometheus import choose_store, prometheus_config, targets_files
from gpuscope.generate.readme import bundle_readme
from gpuscope.generate.remediation import remediation_files
from gpuscope.generate.storage import federation_files, global_query, mimir_files, thanos_files
from gpuscope.generate.victoriametrics import victoriametrics_files
from gpuscope.rules import render_rule_files, runbooks
from gpuscope.spec.fleet import FleetSpec


def generate_bundle(spec: FleetSpec, collectors: CollectorSet, collectors_csv: str) -> Bundle:
    """Everything the fleet needs, keyed by path relative to the bundle directory."""
    budget = compute_budget(spec, collectors)
    store, reason = choose_store(spec)
    rule_files = render_rule_files(spec.rules_config())
    files: dict[str, Any] = {}
    by_name = {c.cluster: c for c in budget.clusters}
    for cluster in spec.clusters:
        base = f"clusters/{cluster.name}"
        for replica in ("a", "b"):
            files[f"{base}/prometheus-{replica}.yml"] = prometheus_config(
                spec, cluster, replica, by_name[cluster.name], store
            )
        for name in ("gpuscope-recording.yaml", "gpuscope-alerts.yaml"):
            files[f"{base}/rules/{name}"] = rule_files[name]
        for path, content in {**targets_files(cluster), **host_targets_files(spec, cluster)}.items():
            files[f"{base}/{path}"] = content
        if cluster.kind == "kubernetes":
            files.update(_kubernetes(spec, cluster, by_name[cluster.name], rule_files, collectors_csv))
    files["alertmanager/alertmanager.yml"] = alertmanager_config(spec)
    files.update(remediation_files(spec))
    if store == "federation":
        files.update(federation_files(spec, rule_files["gpuscope-fleet.yaml"]))
    elif store == "thanos":
        files.update(thanos_files(spec))
    elif store == "victoriametrics":
        files.update(victoriametrics_files(spec, rule_files["gpuscope-fleet.yaml"]))
    else:
        files.update(mimir_files(spec, budget))
    query = global_query(spec, store)
    files.update(dashboards.bundle_files(spec, collectors, store, query.url, query.headers))
    for name, text in runbooks(spec.rules_config()).items():
        files[f"runbooks/{name}"] = text
    files["budget.json"] = budget.to_json()
    files["README.md"] = bundle_readme(spec, budget, store, reason, sorted({*files, "README.md"}))
    return Bundle.of(files)


def _kubernetes(spec: FleetSpec, cluster: Any, budget: Any, rule_files: dict[str, str], csv: str) -> dict[str, Any]:
    base = f"kubernetes/{cluster.name}"
    groups = [
        g
        for name in ("gpuscope-recording.yaml", "gpuscope-alerts.yaml")
        for g in yaml.safe_load(rule_files[name])["groups"]
    ]
    return {
        f"{base}/serviceaccount.yaml": k8s.service_account(cluster, spec),
        f"{base}/configmap-collectors.yaml": k8s.collectors_configmap(cluster, spec, csv),
        f"{base}/daemonset.yaml": k8s.daemonset(spec, cluster),
        f"{base}/service.yaml": k8s.service(spec, cluster),
        f"{base}/servicemonitor.yaml": k8s.service_monitor(spec, cluster, budget),
        f"{base}/prometheusrule.yaml": k8s.prometheus_rule(spec, cluster, groups),
        f"{base}/servicemonitors-host.yaml": host_service_monitors(spec, cluster),
        f"{base}/kustomization.yaml": k8s.kustomization(cluster, spec),
        **rbac_files(spec, cluster, base),
    }
