"""The global-path check refined by a VictoriaMetrics store's own metrics: the HA pair stored once, nothing
ignored on ingestion. The queries are the ones ``gpuscope doctor`` sends; the answers are what such stores say
(the live answers of a real one are checked in tests/e2e/test_victoriametrics.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from gpuscope.doctor.longterm import store_queries, victoriametrics
from gpuscope.doctor.observations import LoadedConfig, Observations, Peer
from gpuscope.doctor.results import Finding, Status
from gpuscope.prom import Sample

ARRIVED = Finding(Status.PASS, "cluster gpu-a's gpu:temperature_celsius:max_rollup5m is in the global store, 3s old")
HEALTHY: dict[str, Any] = {
    "vm.present": 20,
    "vm.ingested": 1200.0,
    "vm.deduplicated": 600.0,
    "vm.ignored": 0,
    "vm.dedup_interval": "15s",
    "vm.replica_series": 0,
}


def judged(**answers: Any) -> Finding:
    said = {**HEALTHY, **answers}
    queries = store_queries("cluster", "gpu-a", "replica", "2m")
    results = {
        name: (
            (Sample({"name": "dedup.minScrapeInterval", "value": said[name]}, 1.0),)
            if name == "vm.dedup_interval"
            else (Sample({}, float(said[name])),)
        )
        for name in queries
    }
    store = Peer("http://vm:8428", None, {}, queries, results)
    # victoriametrics() reads only what the Prometheus loaded: a stand-in with just that, not a whole audit
    observed = SimpleNamespace(loaded=LoadedConfig({"cluster": "gpu-a", "replica": "a"}, ("lts",), 15.0))
    return victoriametrics(cast(Observations, observed), store, ARRIVED)


def test_a_healthy_store_passes_with_its_own_figures() -> None:
    found = judged()
    assert found.status is Status.PASS
    assert "ingests 1200 samples/s" in found.summary and "-dedup.minScrapeInterval=15s" in found.summary
    assert any("vm_deduplicated_samples_total" in e.query for e in found.evidence)


@pytest.mark.parametrize(
    ("answers", "says"),
    [
        ({"vm.replica_series": 40}, "keeps the replica label: 40 series"),
        (
            {"vm.dedup_interval": "0s"},
            "-dedup.minScrapeInterval=0s, the scrape interval is 15s: the HA pair is stored twice",
        ),
        ({"vm.dedup_interval": "1m0s"}, "not stored once per scrape"),
        ({"vm.ignored": 3.5}, "ignores 3.5 samples/s"),
    ],
)
def test_what_breaks_the_ha_pair_or_drops_samples_warns(answers: dict[str, Any], says: str) -> None:
    found = judged(**answers)
    assert found.status is Status.WARN and says in found.summary, found.summary
    assert found.fix


def test_another_store_or_missing_data_is_left_as_it_was() -> None:
    assert judged(**{"vm.present": 0}) is ARRIVED
    assert "vm.replica_series" not in store_queries("cluster", "gpu-a", None, "2m")
    # a cluster name is a PromQL string there, escaped
    assert 'cluster="a\\"b",replica!=""' in store_queries("cluster", 'a"b', "replica", "2m")["vm.replica_series"]
