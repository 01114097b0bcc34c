"""Dashboard queries whose answer MetricsQL could change, on the two stores the local stack queries (Prometheus and
VictoriaMetrics) with the same samples.

* The Pipeline page's "Exporter restarts in range": 0 for an exporter younger than the range that never restarted
  (MetricsQL's ``changes`` of the start time read 1 there: a series' first sample counted as a change), and each
  restart once.
* A failure signal's zero (``zeros.fallback``): the signal where there is one, a single 0 where there is none and
  the pipeline answers, nothing where it does not (MetricsQL's ``or`` filled the series a comparison filtered out
  with the 0, so every healthy GPU was listed beside the faulty one).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from gpuscope.dashboards.promql import Q
from gpuscope.dashboards.queries.pipeline import restarts
from gpuscope.dashboards.zeros import fallback
from tests.support.dashboards import options, substitute
from tests.support.prom import Prometheus, backfill, run_prometheus
from tests.support.victoria import victoria_metrics

pytestmark = pytest.mark.e2e

END = 1_795_305_600
RANGE = 3600
SCRAPE = 15
# instance -> (first scrape, restarts), seconds before END: every exporter counts collections from 0 at each start
EXPORTERS = {
    "fresh:9400": (1200, ()),  # younger than the range, never restarted
    "old:9400": (7200, ()),  # older than the range, never restarted
    "once:9400": (7200, (1800,)),
    "twice:9400": (3000, (2000, 1000)),
}


def openmetrics() -> list[str]:
    lines = [
        "# TYPE gpuscope_exporter_collections counter",
        "# TYPE gpuscope_exporter_start_time_seconds gauge",
    ]
    for instance, (since, restarted) in EXPORTERS.items():
        labels = f'job="dcgm-exporter",cluster="gpu-a",instance="{instance}"'
        starts = [END - since, *(END - r for r in restarted)]
        for t in range(END - since, END + 1, SCRAPE):
            start = max(s for s in starts if s <= t)
            lines.append(f"gpuscope_exporter_collections_total{{{labels}}} {(t - start) // 5 + 1} {t}")
            lines.append(f"gpuscope_exporter_start_time_seconds{{{labels}}} {start} {t}")
    return lines


def searchable(lines: list[str]) -> Callable[[Prometheus], bool]:
    want = sum(1 for line in lines if line.startswith("gpuscope_exporter_collections_total"))
    count = f"sum(count_over_time(gpuscope_exporter_collections_total[{2 * RANGE + 60}s]))"
    return lambda prom: sum(float(r["value"][1]) for r in prom.query(count, END)) == want


@pytest.fixture(scope="module", params=["prometheus", "victoriametrics"])
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    lines = openmetrics()
    work = tmp_path_factory.mktemp(f"restarts-{request.param}")
    if request.param == "victoriametrics":
        with victoria_metrics(work, lines, searchable(lines)) as vm:
            yield vm
        return
    config = {"global": {"scrape_interval": "1m"}, "scrape_configs": []}
    with run_prometheus(config, backfill(work, lines), extra_args=("--storage.tsdb.retention.time=100y",)) as prom:
        yield prom


def test_exporter_restarts_in_range_count_restarts_not_first_samples(store: Prometheus) -> None:
    expr = substitute(restarts(Q(options())).expr, {"cluster": ".*", "__range": f"{RANGE}s"})
    got = {r["metric"]["instance"]: float(r["value"][1]) for r in store.query(expr, END)}
    assert got == {"fresh:9400": 0, "old:9400": 0, "once:9400": 1, "twice:9400": 2}


def test_a_failure_signal_s_zero_is_right_on_both_stores(store: Prometheus) -> None:
    def answer(expr: str) -> list[tuple[dict[str, str], float]]:
        rows = [
            ({k: v for k, v in r["metric"].items() if k != "__name__"}, float(r["value"][1]))
            for r in store.query(expr, END)
        ]
        return sorted(rows, key=repr)

    counter = "gpuscope_exporter_collections_total"
    restarted = f"max by (instance) (resets({counter}[{RANGE}s]))"
    gate = f"count({counter})"
    fired, quiet = f"{restarted} > 0", f"{restarted} > 5"
    assert answer(fallback(fired, gate)) == [({"instance": "once:9400"}, 1), ({"instance": "twice:9400"}, 2)]
    assert answer(fallback(quiet, gate)) == [({}, 0)]
    assert answer(fallback(quiet, "count(no_such_series)")) == []  # nothing arrives: No data, never "none"
    assert answer(fallback(quiet, gate, (fired,))) == []  # another signal of the panel fires: no stray 0 row
