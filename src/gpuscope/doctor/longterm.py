"""The global store as a VictoriaMetrics: what its own metrics say about the replicas' samples arriving.

The single-node server scrapes itself (``-selfScrapeInterval``, as the generated flags ask), so its counters and
its flags (the ``flag`` series) answer through the same query API as the data. Queried on every global store and
empty on any other: a store without ``vm_rows_inserted_total`` is simply not judged here.

What is judged: the HA pair stored once (the replica label must be gone from the store, and
``-dedup.minScrapeInterval`` must equal the scrape interval), and nothing dropped on ingestion (samples outside
the retention window or from the future are ignored, i.e. lost).
"""

from __future__ import annotations

from gpuscope.doctor.observations import Observations, Peer, number, vector
from gpuscope.doctor.results import Evidence, Finding, Status
from gpuscope.durations import go_seconds

ROLLUP = "cluster:gpus_reporting:count_rollup5m"  # a cold-tier rollup every gpuscope deployment records
STORE_RATE_S = 120.0  # the rate window for the store's counters, in production time (several self-scrapes)


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def store_queries(cluster_label: str, cluster: str | None, replica_label: str | None, window: str) -> dict[str, str]:
    only = f'{cluster_label}="{_quote(cluster)}"' if cluster else ""
    queries = {
        "vm.present": "count(vm_rows_inserted_total) or vector(0)",
        "vm.ingested": f'sum(rate(vm_rows_inserted_total{{type="promremotewrite"}}[{window}])) or vector(0)',
        "vm.deduplicated": f"sum(rate(vm_deduplicated_samples_total[{window}])) or vector(0)",
        "vm.ignored": f"sum(rate(vm_rows_ignored_total[{window}])) or vector(0)",
        "vm.dedup_interval": 'flag{name="dedup.minScrapeInterval"}',
    }
    if replica_label:
        sep = "," if only else ""
        queries["vm.replica_series"] = f'count({{__name__=~".+",{only}{sep}{replica_label}!=""}}) or vector(0)'
    return queries


def _seconds(duration: str) -> float | None:
    """A Go duration as the flag prints it (``15s``, ``1m0s``, ``500ms``, ``0s``); None for anything else."""
    try:
        return go_seconds(duration)
    except ValueError:
        return None


def victoriametrics(o: Observations, store: Peer, arrived: Finding) -> Finding:
    """``arrived`` (the data-arrival verdict) refined by the store's own metrics, when it is a VictoriaMetrics."""
    if "vm.present" not in store.results or store.value("vm.present") <= 0 or arrived.status is Status.FAIL:
        return arrived
    evidence = [
        *arrived.evidence,
        store.evidence("vm.ingested"),
        store.evidence("vm.deduplicated"),
        store.evidence("vm.ignored"),
    ]
    interval_s = o.loaded.scrape_interval_s
    flags = vector(store.results, "vm.dedup_interval", store.queries)
    dedup = flags[0].labels.get("value", "0s") if flags else "0s"
    evidence.append(Evidence(f"{store.queries['vm.dedup_interval']}   (at {store.url})", dedup))
    replicas = store.value("vm.replica_series") if "vm.replica_series" in store.queries else 0.0
    if "vm.replica_series" in store.queries:
        evidence.append(store.evidence("vm.replica_series"))
    where = f"VictoriaMetrics at {store.url}"
    if replicas > 0:
        return Finding(
            Status.WARN,
            f"{where} keeps the replica label: {number(replicas)} series of this cluster carry it, so the HA pair "
            "is stored twice",
            tuple(evidence),
            "Drop the replica label on ingestion (-relabelConfig with a labeldrop rule, as the bundle's "
            "global/victoriametrics/relabel.yml) so both replicas' samples meet in one series.",
        )
    seconds = _seconds(dedup)
    if interval_s and seconds != interval_s:
        return Finding(
            Status.WARN,
            f"{where} deduplicates at -dedup.minScrapeInterval={dedup}, the scrape interval is "
            f"{number(interval_s)}s: the HA pair is "
            + ("stored twice" if not seconds else "not stored once per scrape"),
            tuple(evidence),
            f"Run it with -dedup.minScrapeInterval={number(interval_s)}s (the bundle's single-node.args).",
        )
    ignored = store.value("vm.ignored")
    if ignored > 0:
        return Finding(
            Status.WARN,
            f"{where} ignores {number(ignored)} samples/s (timestamps outside -retentionPeriod or in the future)",
            tuple(evidence),
            "Check the replicas' clocks (NTP) and that -retentionPeriod covers what they send after an outage.",
        )
    return Finding(
        Status.PASS,
        f"{arrived.summary}; {where} ingests {number(round(store.value('vm.ingested'), 1))} samples/s by remote "
        f"write and stores the HA pair once (deduplicates {number(round(store.value('vm.deduplicated'), 1))}/s at "
        f"-dedup.minScrapeInterval={dedup})",
        tuple(evidence),
    )
