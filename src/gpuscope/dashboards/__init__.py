"""Grafana dashboards L1-L5 and the telemetry pipeline, generated from the same config as the rules.

``build`` gives the dashboards as Grafana JSON models (file name -> model), ``bundle_files`` those plus the
provisioning files, as the bundle lays them out. Everything is a pure function of the options: same spec, same
bytes.

    L1 Fleet ──> L2 Cluster ──> L3 Node ──> L4 GPU
                    └────────> L5 Workload ──┘          Pipeline (the five hops, one page)
    L1, L5 ──> Efficiency (GPUs held vs used, per namespace and team)
    L2, L3 ──> Fabric (NVLink partitions, every link and NVSwitch port, what is down)
"""

from __future__ import annotations

from typing import Any

from gpuscope.bundle import to_yaml
from gpuscope.dashboards import linter, provisioning, sdk
from gpuscope.dashboards.cluster import cluster_dashboard
from gpuscope.dashboards.defaults import finalize
from gpuscope.dashboards.efficiency import efficiency_dashboard
from gpuscope.dashboards.fabric import fabric_dashboard
from gpuscope.dashboards.facts import Options
from gpuscope.dashboards.fleet import fleet_dashboard
from gpuscope.dashboards.gpu import gpu_dashboard
from gpuscope.dashboards.model import Dashboard
from gpuscope.dashboards.node import node_dashboard
from gpuscope.dashboards.options import options_for
from gpuscope.dashboards.pipeline import pipeline_dashboard
from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.workload import workload_dashboard
from gpuscope.fields.collectors import CollectorSet
from gpuscope.spec.fleet import FleetSpec

__all__ = ["Options", "build", "bundle_files", "dashboards", "options_for"]

# Where the bundle puts them; the README's loading instructions use the same paths.
DASHBOARD_DIR = "grafana/dashboards"
PROVIDER_FILE = "grafana/provisioning/dashboards/gpuscope.yaml"
DATASOURCE_FILE = "grafana/provisioning/datasources/prometheus.yaml"
LINT_FILE = f"{DASHBOARD_DIR}/.lint"  # dashboard-linter's exclusions, next to the dashboards it reads


def dashboards(options: Options) -> tuple[Dashboard, ...]:
    """The dashboards as data, before the shared defaults."""
    q = Q(options)
    return (
        fleet_dashboard(q),
        cluster_dashboard(q),
        node_dashboard(q),
        gpu_dashboard(q),
        workload_dashboard(q),
        pipeline_dashboard(q),
        efficiency_dashboard(q),
        fabric_dashboard(q),
    )


def build(options: Options) -> dict[str, dict[str, Any]]:
    """``<key>.json`` -> the Grafana dashboard JSON model."""
    return {f"{final.dashboard.key}.json": sdk.to_json(final) for final in finalize(options.fleet, dashboards(options))}


def bundle_files(
    spec: FleetSpec,
    collectors: CollectorSet,
    store: str,
    global_url: str,
    global_headers: tuple[tuple[str, str], ...] = (),
) -> dict[str, Any]:
    """The dashboards and provisioning files, keyed by bundle path; the global data source at ``global_url``."""
    files: dict[str, Any] = {
        f"{DASHBOARD_DIR}/{name}": model for name, model in build(options_for(spec, collectors, store)).items()
    }
    files[LINT_FILE] = to_yaml(linter.lint_file())
    files[PROVIDER_FILE] = provisioning.dashboards_provider(spec)
    files[DATASOURCE_FILE] = provisioning.datasources(spec, store, global_url, global_headers)
    return files
