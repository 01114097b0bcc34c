"""Every link of a generated bundle reaches a listener a generated component has, with the headers it needs.

For each topology (federation, Thanos, Mimir with one and with several tenants, VictoriaMetrics single-node and
cluster version; bare metal and Kubernetes clusters), the Grafana data sources, each Prometheus's remote_write and
Alertmanagers, the global Prometheus's federation targets, Thanos Query's store endpoints and vmalert's data
source, remote read/write and notifiers are checked against what the bundle itself starts
(``tests/support/bundle_links.py``). A bundle with one link broken on purpose must fail the same check.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

import pytest

from gpuscope.generate.compose import generate_bundle
from gpuscope.spec.fleet import FleetSpec
from gpuscope.spec.load import parse_fleet
from tests.support.bundle_links import Files, broken_links, edit_json_or_yaml, links_of, replace_in
from tests.support.specs import ONE, fleet

TWO = (
    ONE
    + """
  - name: gpu-k
    kind: kubernetes
    node_groups:
      - {name: l40s, gpu_model: l40s, nodes: 1}
"""
)
TOPOLOGIES = {
    "federation": "",
    "thanos": "long_term_store: thanos",
    "mimir, one tenant per cluster": "long_term_store: mimir",
    "mimir, declared tenants": "tenants: [{name: team-a, clusters: [gpu-a]}, {name: team-k, clusters: [gpu-k]}]",
    "mimir, one tenant": "long_term_store: mimir\ntenants: [{name: all, clusters: [gpu-a, gpu-k]}]",
    "victoriametrics, single node": "long_term_store: victoriametrics",
    "victoriametrics, cluster version": "long_term_store: victoriametrics\nvictoriametrics: {cluster: {vmstorage: 3}}",
}


Bundle = Callable[[str], tuple[Files, FleetSpec]]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    """The bundle of ``TWO`` with ``extra``, generated once per module: the topology tests and the broken-link tests
    share seven bundles (each took half a second to generate). Read-only: a test breaks a link in a copy."""
    cache: dict[str, tuple[Files, FleetSpec]] = {}
    where = tmp_path_factory.mktemp("links")

    def generated(extra: str) -> tuple[Files, FleetSpec]:
        if extra not in cache:
            loaded = parse_fleet(fleet(TWO, extra), "fleet.yaml", where)
            files = generate_bundle(loaded.spec, loaded.collectors, loaded.collectors_csv).files
            cache[extra] = (MappingProxyType(dict(files)), loaded.spec)
        return cache[extra]

    return generated


@pytest.mark.parametrize("topology", sorted(TOPOLOGIES))
def test_every_link_of_every_topology_reaches_a_generated_listener(topology: str, bundle: Bundle) -> None:
    files, spec = bundle(TOPOLOGIES[topology])
    links = links_of(files, spec)
    protocols = {link.protocol for link in links}
    assert {"promql", "alertmanager"} <= protocols  # the check saw the links it is about
    assert broken_links(files, spec) == []


def _no_federation(data: Any) -> None:
    data.pop("tenant_federation")


def _federate_elsewhere(data: Any) -> None:
    data["scrape_configs"][0]["static_configs"][0]["targets"][1] = "prometheus-c:9090"


def _drop_tenant_header(data: Any) -> None:
    data["remote_write"][0].pop("headers")


BREAKS: dict[str, tuple[str, Callable[[Files], dict[str, str]], str]] = {
    # The three bundle defects this check exists for, put back one at a time.
    "thanos: Query without an explicit --http-address": (
        "long_term_store: thanos",
        lambda f: replace_in(f, "global/thanos/query.args", "--http-address=0.0.0.0:10902\n", ""),
        "data source 'test-fleet global (thanos)': http://thanos-query:10902 names no generated listener",
    ),
    "thanos: the global data source at the spec's global_endpoint": (
        "long_term_store: thanos",
        lambda f: replace_in(
            f,
            "grafana/provisioning/datasources/prometheus.yaml",
            "http://thanos-query:10902",
            "http://global-prometheus:9090",
        ),
        "http://global-prometheus:9090 names no generated listener",
    ),
    "mimir: two tenants in one header without tenant federation": (
        "long_term_store: mimir",
        lambda f: edit_json_or_yaml(f, "global/mimir/mimir.yaml", _no_federation),
        "X-Scope-OrgID 'gpu-a|gpu-k' spans tenants, which Mimir (query) answers only with tenant federation enabled",
    ),
    "mimir: remote_write without its tenant header": (
        "long_term_store: mimir",
        lambda f: edit_json_or_yaml(f, "clusters/gpu-a/prometheus-a.yml", _drop_tenant_header),
        "clusters/gpu-a/prometheus-a.yml: remote_write 'long-term-store': Mimir (push) needs the X-Scope-OrgID header",
    ),
    "mimir: the data source misses /prometheus": (
        "long_term_store: mimir",
        lambda f: replace_in(
            f, "grafana/provisioning/datasources/prometheus.yaml", "mimir.example.com/prometheus", "mimir.example.com"
        ),
        "misses the API path prefix /prometheus",
    ),
    "federation: a target that is no cluster's Prometheus": (
        "",
        lambda f: edit_json_or_yaml(f, "global/prometheus.yml", _federate_elsewhere),
        "global/prometheus.yml: job federate-gpu-a: prometheus-c:9090 names no generated listener",
    ),
    "thanos: a store endpoint with the wrong port": (
        "long_term_store: thanos",
        lambda f: replace_in(
            f, "global/thanos/query.args", "gpu-a-prometheus-a-sidecar:10901", "gpu-a-prometheus-a-sidecar:10902"
        ),
        "gpu-a-prometheus-a-sidecar:10902 names no generated listener",
    ),
    "victoriametrics: vmalert notifies an Alertmanager nobody runs": (
        "long_term_store: victoriametrics",
        lambda f: replace_in(
            f,
            "global/victoriametrics/vmalert.args",
            "-notifier.url=http://alertmanager-1:9093",
            "-notifier.url=http://am:9093",
        ),
        "global/victoriametrics/vmalert.args: -notifier.url: http://am:9093 names no generated listener",
    ),
    "victoriametrics cluster: the data source misses vmselect's tenant path": (
        "long_term_store: victoriametrics\nvictoriametrics: {cluster: {vmstorage: 3}}",
        lambda f: replace_in(
            f, "grafana/provisioning/datasources/prometheus.yaml", "svc:8481/select/0/prometheus", "svc:8481"
        ),
        "misses the API path prefix /select/0/prometheus",
    ),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_a_bundle_with_one_broken_link_fails_the_check(name: str, bundle: Bundle) -> None:
    extra, breaks, expected = BREAKS[name]
    files, spec = bundle(extra)
    assert broken_links(files, spec) == []
    problems = broken_links(breaks(files), spec)
    assert len(problems) == 1, problems
    assert expected in problems[0]
