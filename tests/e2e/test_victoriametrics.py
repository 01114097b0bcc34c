"""Drills on the real long-term store: ``gpuscope up --fast`` with ``long_term_store: victoriametrics`` runs the
Debian package's VictoriaMetrics and vmalert with the bundle's flags, fed by a real Prometheus HA pair.

Every count is exact and made against the replicas' own TSDBs, never against the wall clock: VictoriaMetrics keeps,
per series, the newest sample of each ``-dedup.minScrapeInterval`` interval ``(k*d, (k+1)*d]``, so the store must
hold exactly one sample for each interval in which either replica scraped, and that sample is one a replica
scraped. One small fleet (one node, two GPUs) for the dedup, replica-loss and store-outage drills, in file order;
a second one with ``cold_tier: rollups`` for the cold tier.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from gpuscope.doctor import Access, Endpoints, Status, audit
from gpuscope.rules import COLD_TIER_REGEX
from gpuscope.runner.plan import FAST_SPEEDUP
from tests.support.net import wait_for
from tests.support.upstack import UpStack, cli, running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

GPUS = 2
INTERVAL_MS = 1000  # --fast scrapes every second, and the store deduplicates at the same interval
# One GPU's temperature: in a replica (which has no cluster label: it is external, added on remote write) and in
# the store.
LOCAL = 'DCGM_FI_DEV_GPU_TEMP{Hostname="gpu-a-h100-00",gpu="0"}'
SERIES = 'DCGM_FI_DEV_GPU_TEMP{cluster="gpu-a",Hostname="gpu-a-h100-00",gpu="0"}'


def spec_text(cold_tier: str) -> str:
    hook = '{webhook: {url: "http://127.0.0.1:1/"}}'
    return f"""
name: drill
clusters:
  - name: gpu-a
    kind: baremetal
    node_groups:
      - {{name: h100, gpu_model: h100, gpus_per_node: {GPUS}, nodes: 1}}
long_term_store: victoriametrics
retention: {{cold_tier: {cold_tier}}}
receivers: {{infra: {hook}, platform: {hook}, workload: {hook}}}
"""


@contextmanager
def _stack(tmp: Path, cold_tier: str) -> Iterator[UpStack]:
    spec = tmp / "fleet.yaml"
    spec.write_text(spec_text(cold_tier))
    with running_stack(tmp / "data", str(spec)) as stack:
        wait_for(lambda: stack.status().get("floor_green_after_seconds"), timeout=90, what="the Phase 1 floor")
        yield stack


@pytest.fixture(scope="class")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UpStack]:
    with _stack(tmp_path_factory.mktemp("vm"), "full") as s:
        yield s


# --- reading samples -----------------------------------------------------------------------------------------------


def replica_samples(stack: UpStack, replica: str, start_ms: int, end_ms: int) -> list[int]:
    """Timestamps (ms) of the samples ``prometheus-<replica>`` scraped in ``(start, end]``, from its own TSDB."""
    span = math.ceil((end_ms - start_ms) / 1000) + 2
    result = stack.query(f"prometheus-{replica}@gpu-a", f"{LOCAL}[{span}s] @ {end_ms / 1000:.3f}")
    stamps = [round(float(ts) * 1000) for s in result for ts, _ in s["values"]]
    return sorted(ts for ts in stamps if start_ms < ts <= end_ms)


def store_samples(stack: UpStack, series: str, start_ms: int, end_ms: int) -> list[int]:
    """Timestamps (ms) the store holds for ``series`` in ``(start, end]``; fails if it holds more than one series."""
    response = httpx.post(
        f"{stack.url('global')}/api/v1/export",
        data={"match[]": series, "start": f"{start_ms / 1000 - 2:.3f}", "end": f"{end_ms / 1000 + 2:.3f}"},
        timeout=10,
    )
    response.raise_for_status()
    lines = [json.loads(line) for line in response.text.splitlines() if line.strip()]
    assert len(lines) <= 1, f"the HA pair is stored as {len(lines)} series: {[x['metric'] for x in lines]}"
    return sorted(ts for x in lines for ts in x["timestamps"] if start_ms < ts <= end_ms)


def interval_of(ts_ms: int) -> int:
    return -(-ts_ms // INTERVAL_MS)  # the k of (( k-1)*d, k*d]


def deduplicated(*replicas: list[int]) -> list[int]:
    """What the store must hold: the newest sample of each interval either replica scraped in."""
    newest: dict[int, int] = {}
    for ts in sorted(t for r in replicas for t in r):
        newest[interval_of(ts)] = ts
    return sorted(newest.values())


def window(before_s: float, after_s: float) -> tuple[int, int]:
    """A window in whole intervals (so it holds whole dedup intervals), in ms."""
    return (
        math.floor(before_s) * 1000 // INTERVAL_MS * INTERVAL_MS,
        math.ceil(after_s) * 1000 // INTERVAL_MS * INTERVAL_MS,
    )


def store_matches_replicas(stack: UpStack, start_ms: int, end_ms: int) -> tuple[list[int], list[int], list[int]]:
    """Wait until the store holds exactly the deduplicated union of both replicas' samples in the window.

    Remote write batches arrive a few seconds late (and after an outage, in a burst): the store converges on the
    expected set, it never holds a sample outside it. On a loaded 2-core machine (CI, two stacks and Chromium beside
    this one) a replica's batches lagged past a minute: the store held the other replica's sample for an interval
    until its newer one came, so the wait is two minutes.
    """
    a = replica_samples(stack, "a", start_ms, end_ms)
    b = replica_samples(stack, "b", start_ms, end_ms)
    expected = deduplicated(a, b)
    seen: list[int] = []

    def converged() -> bool:
        nonlocal seen
        seen = store_samples(stack, SERIES, start_ms, end_ms)
        return seen == expected or bool(set(seen) - set(a) - set(b))

    try:
        wait_for(converged, timeout=120, interval=0.5, what="the store to hold both replicas' samples")
        extra = sorted(set(seen) - set(a) - set(b))
        assert not extra, f"the store holds samples no replica scraped: {extra}"
    except AssertionError:
        missing = sorted({interval_of(t) for t in expected} - {interval_of(t) for t in seen})
        doubled = len(seen) - len({interval_of(t) for t in seen})
        raise AssertionError(
            f"store {len(seen)} samples, expected {len(expected)} (A {len(a)}, B {len(b)}): intervals missing "
            f"{missing[:10]}, {doubled} interval(s) stored twice\n{stack.log_tail()}"
        ) from None
    return a, b, seen


def remote_write_caught_up(stack: UpStack, replica: str, since_s: float) -> bool:
    """The replica's queue has sent samples scraped after ``since_s``: it reads its WAL in order, so the outage's
    backlog has been read and handed to its shards (which deliver it within their batch deadline)."""
    sent = stack.value(
        f"prometheus-{replica}@gpu-a", "max(prometheus_remote_storage_queue_highest_sent_timestamp_seconds)"
    )
    return sent is not None and sent > since_s


# --- the drills ----------------------------------------------------------------------------------------------------


class TestHaPairIntoTheStore:
    """One stack, in file order: dedup, then replica loss, then a store outage, then vmalert and the dashboard."""

    def test_the_ha_pair_is_stored_once_per_scrape_interval(self, stack: UpStack) -> None:
        def recent() -> tuple[int, int] | None:
            span = window(time.time() - 23, time.time() - 3)
            enough = all(len(replica_samples(stack, r, *span)) >= 15 for r in ("a", "b"))
            return span if enough else None

        start_ms, end_ms = wait_for(recent, timeout=60, interval=0.5, what="20 s of scrapes in both replicas")
        a, b, stored = store_matches_replicas(stack, start_ms, end_ms)
        # Both replicas really wrote (the store would otherwise be trivially deduplicated), and it kept half.
        assert len(a) >= 15 and len(b) >= 15, (len(a), len(b))
        assert len(stored) == len({interval_of(t) for t in a + b}) < len(a) + len(b)
        # Queries through the store see one series per GPU, with no replica label left.
        assert stack.value("global", 'count(DCGM_FI_DEV_GPU_TEMP{cluster="gpu-a"})') == GPUS
        assert stack.query("global", 'DCGM_FI_DEV_GPU_TEMP{replica!=""}') == []
        # and PromQL over the store counts what it stores: one sample per interval of an aligned 10 s window
        response = httpx.get(
            f"{stack.url('global')}/api/v1/query",
            params={"query": f"count_over_time({SERIES}[10s])", "time": f"{end_ms / 1000:.3f}"},
            timeout=10,
        )
        [counted] = response.json()["data"]["result"]
        assert float(counted["value"][1]) == len([t for t in stored if t > end_ms - 10_000]) <= 10

    def test_replica_loss_leaves_no_gap(self, stack: UpStack) -> None:
        stack.inject("prometheus-down", "--cluster", "gpu-a", "--replica", "a")
        stopped = time.time()
        # "A minute" compressed 15x like every --fast duration, counted in replica B's own scrapes.
        wait_for(
            lambda: len(replica_samples(stack, "b", round(stopped * 1000), round(time.time() * 1000))) >= 6,
            timeout=60,
            what="replica B scraping alone",
        )
        stack.clear()
        restarted = time.time()
        wait_for(
            lambda: replica_samples(stack, "a", round(restarted * 1000), round(time.time() * 1000)),
            timeout=60,
            what="replica A scraping again",
        )
        start_ms, end_ms = window(stopped - 3, time.time() + 2)
        wait_for(lambda: time.time() > end_ms / 1000 + 1, timeout=10, what="the window to pass")
        a, b, stored = store_matches_replicas(stack, start_ms, end_ms)
        # A's absence, from its own TSDB: the longest stretch without a sample of its own in the window.
        before, after = max(itertools.pairwise(a), key=lambda pair: pair[1] - pair[0])
        assert after - before >= 5 * INTERVAL_MS, f"replica A was not down: its longest gap is {after - before} ms"
        # The intervals wholly inside it (A's last and first samples share theirs with B's, and may win the dedup).
        inside = range(interval_of(before) + 1, interval_of(after))
        alone = [t for t in b if interval_of(t) in inside]
        assert len(alone) >= 4, alone
        # B's samples, and only they, fill A's absence: the store's series has no gap that B does not have.
        assert [t for t in stored if interval_of(t) in inside] == alone, "B's samples did not fill A's absence"

    def test_a_store_outage_is_drained_from_the_replicas_wal(self, stack: UpStack) -> None:
        stack.inject("global-down")
        stopped = time.time()
        assert [c["running"] for c in stack.status()["components"] if c["name"] == "global"] == [False]
        # "Several minutes" compressed: 15 s of replica A's own scrapes while the store is down.
        wait_for(
            lambda: len(replica_samples(stack, "a", round(stopped * 1000), round(time.time() * 1000))) >= 15,
            timeout=90,
            what="replica A scraping through the outage",
        )
        stack.clear()
        restarted = time.time()
        # Drained: each replica's queue has sent what it scraped after the store came back.
        for replica in ("a", "b"):
            wait_for(
                partial(remote_write_caught_up, stack, replica, restarted + 2),
                timeout=90,
                interval=0.5,
                what=f"replica {replica}'s remote-write backlog to drain",
            )
        start_ms, end_ms = window(stopped - 2, restarted + 2)
        a, _b, stored = store_matches_replicas(stack, start_ms, end_ms)
        outage = [t for t in a if stopped * 1000 < t <= restarted * 1000]
        assert len(outage) >= 15
        assert {interval_of(t) for t in outage} <= {interval_of(t) for t in stored}, "outage samples lost"

    def test_vmalert_evaluates_the_fleet_rules_and_the_pipeline_row_has_data(self, stack: UpStack) -> None:
        # vmalert writes the fleet-level recording rules back into the store, from the store's cluster series.
        assert wait_for(lambda: stack.value("global", 'fleet:gpus_reporting:count{tier="global"}'), what="fleet rules")
        groups = httpx.get(f"{stack.url('vmalert')}/api/v1/rules", timeout=10).json()["data"]["groups"]
        assert groups and all(r["health"] == "ok" and not r["lastError"] for g in groups for r in g["rules"])
        # Every query of the Pipeline page's long-term-store row returns data from the store itself.
        board = json.loads((stack.data_dir / "bundle/grafana/dashboards/pipeline.json").read_text())
        exprs = [t["expr"] for p in board["panels"] if p["title"].startswith("VictoriaMetrics") for t in p["targets"]]
        assert len(exprs) == 5
        for expr in exprs:
            concrete = expr.replace("$__rate_interval", "10s")
            assert wait_for(partial(stack.query, "global", concrete), timeout=30, what=concrete)

    def test_doctor_reads_the_stores_own_ingestion_and_dedup(self, stack: UpStack) -> None:
        endpoints = Endpoints(stack.url("prometheus-a@gpu-a"), global_store=stack.url("global"))

        def global_path() -> Any:
            report = audit(endpoints, Access(timeout_s=20), speedup=FAST_SPEEDUP)
            found = next(r for r in report.results if r.id == "global-path")
            return found if found.status is Status.PASS else None

        found = wait_for(global_path, timeout=60, interval=1, what="doctor's global-path check to pass")
        assert "VictoriaMetrics" in found.summary and "-dedup.minScrapeInterval=1s" in found.summary, found.summary
        assert "stores the HA pair once" in found.summary


def test_the_cold_tier_carries_only_the_rollups_the_budget_counts(tmp_path: Path) -> None:
    with _stack(tmp_path, "rollups") as stack:
        budget = json.loads(_ok(cli("budget", str(tmp_path / "fleet.yaml"), "--json")).stdout)
        bundle = yaml.safe_load((stack.data_dir / "bundle/clusters/gpu-a/prometheus-a.yml").read_text())
        assert bundle["remote_write"][0]["write_relabel_configs"][0]["regex"] == COLD_TIER_REGEX

        def rollups(component: str) -> set[tuple[tuple[str, str], ...]]:
            """Label sets as the store has them: the replica's own lack the external cluster label."""
            found = stack.query(component, f'{{__name__=~"{COLD_TIER_REGEX}"}}')
            return {tuple(sorted({"cluster": "gpu-a", **s["metric"]}.items())) for s in found}

        # The replica's own 5 m rollups (every 20 s with --fast) all arrive, under the same labels.
        local = wait_for(lambda: rollups("prometheus-a@gpu-a"), timeout=60, what="the replica's first rollups")
        wait_for(lambda: rollups("global") >= local, timeout=60, what="the rollups in the store")
        # And nothing else from the clusters: every series the store holds is a rollup, its own metrics aside.
        names = {s["metric"]["__name__"] for s in stack.query("global", '{__name__!="", job!="victoria-metrics"}')}
        assert names and all(_is_rollup(n) for n in names), sorted(n for n in names if not _is_rollup(n))
        # Counted against `gpuscope budget`: never more than it says, and short of it only by the rollups the
        # replica has not produced yet (1 h rollups, allocation rollups without jobs, uncollected fields).
        stored = rollups("global")
        rules = yaml.safe_load((stack.data_dir / "bundle/clusters/gpu-a/rules/gpuscope-recording.yaml").read_text())
        cold = {r["record"] for g in rules["groups"] for r in g["rules"] if _is_rollup(r.get("record", ""))}
        produced = {dict(labels)["__name__"] for labels in stored}
        unproduced = cold - produced
        planned = budget["long_term_series"]
        assert len(stored) <= planned <= len(stored) + GPUS * len(unproduced), (len(stored), planned, unproduced)


def _is_rollup(name: str) -> bool:
    return re.fullmatch(COLD_TIER_REGEX, name) is not None


def _ok(done: Any) -> Any:
    assert done.returncode == 0, done.stderr
    return done
