"""Fleet ingest and the cold tier's write reduction, from one run.

``gpuscope sim`` serves N nodes x 8 simulated H100s, each an exporter on its own loopback address, exposing a
production-sized field list (100 metrics per GPU: ``bench/fields-100.csv``). One real Prometheus runs the exact config
``gpuscope generate`` writes for that fleet (15 s scrape, the generated recording rules and alerts, remote_write of
the rollups-only cold tier to a second Prometheus standing in for Mimir). After a warm-up, a measurement window:

- samples/s ingested (head appends, and the scraped part of them), scrape duration p50/p99 over every scrape of
  the window, CPU and RSS of the sim and of Prometheus from /proc;
- head series against ``gpuscope budget``'s prediction for the same fleet spec;
- samples scraped against samples remote-written, and remote_write bytes/s;
- the long-term store with ``cold_tier: full``: the same Prometheus also remote-writes every sample to
  VictoriaMetrics (the Debian package's single node, run with the flags ``gpuscope generate`` writes for the
  ``victoriametrics`` topology) and to a second Prometheus remote-write receiver, the stand-in the local stack uses
  for Mimir; for each, side by side in the same run: ingest rate, CPU, RSS, and bytes per sample on disk.

Baselines: the back-of-envelope figures (~53k samples/s for 1,000 nodes; a 20x write reduction from rollups)
and ``gpuscope budget``'s prediction; the fair comparison for the write reduction is writing every sample (the
``cold_tier: full`` alternative), which is exactly the samples Prometheus ingests.

Usage: ``python bench/fleet_ingest.py [--quick] [--nodes N] [--window S]`` (``bench/run.py`` runs it for make).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from common import (
    GPUSCOPE,
    REPO,
    ProcWatch,
    Prom,
    Section,
    child,
    ensure_running,
    free_port,
    gpuscope,
    in_workdir,
    load_average,
    percentile,
    print_sections,
    prometheus_cmd,
    wait_for,
    wait_ready,
    wait_sim_healthy,
)
from gpuscope.generate.victoriametrics import relabel_config, single_node_args
from gpuscope.rules import COLD_TIER_REGEX
from gpuscope.runner.binaries import find_binary
from gpuscope.runner.children import with_flags
from gpuscope.spec.load import load_fleet

FIELDS_CSV = REPO / "bench" / "fields-100.csv"
BASE_ADDRESS = (127, 210)  # 127.210.0.1 ...: clear of `gpuscope up` (127.20+) and the tests' random blocks
SIZING_SAMPLES_PER_S_1K = 53_000  # back-of-envelope sizing: 100 metrics x 8 GPUs / 15 s x 1,000 nodes
ROLLUP_GROUPS = {"gpuscope-rollup-5m.rules": 300.0, "gpuscope-rollup-1h.rules": 3600.0}


@dataclass(frozen=True)
class IngestConfig:
    nodes: int
    window_s: int
    warmup_s: int
    quick: bool


QUICK = IngestConfig(nodes=100, window_s=120, warmup_s=30, quick=True)
# 600 s = two whole periods of the 5 m rollup group, so the remote-write counters see exactly two evaluations.
FULL = IngestConfig(nodes=1000, window_s=600, warmup_s=60, quick=False)


def targets(nodes: int, port: int) -> list[str]:
    """Where ``gpuscope sim --base-address 127.210.0.1`` puts its nodes: consecutive addresses."""
    a, b = BASE_ADDRESS
    first = (a << 24) + (b << 16) + 1
    return [
        f"{(n >> 24) & 255}.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}:{port}" for n in range(first, first + nodes)
    ]


def spec_yaml(hosts: list[str], prom_a: int, receiver: str) -> str:
    quoted = ", ".join(f'"{h}"' for h in hosts)
    return f"""# Written by bench/fleet_ingest.py: the fleet being measured, as a user would declare it.
name: bench-ingest
clusters:
  - name: bench
    kind: baremetal
    node_groups: [{{name: h100, gpu_model: h100, gpus_per_node: 8, nodes: {len(hosts)}, hosts: [{quoted}]}}]
    endpoints:
      prometheus_a: 127.0.0.1:{prom_a}
      prometheus_b: 127.0.0.1:{free_port()}
      alertmanagers: [127.0.0.1:{free_port()}]
      pushgateway: 127.0.0.1:{free_port()}
scrape_interval: 15s
scrape_timeout: 10s
evaluation_interval: 15s
long_term_store: mimir
remote_write_url: {receiver}/api/v1/write
remote_write_token_file: null
retention: {{cold_tier: rollups, rollup_resolution: 5m}}
exporter:
  collectors: {FIELDS_CSV}
  # The simulated nodes have no kubelet: attribution series cannot exist here (part 2 measures them).
  workload_labels: "off"
budget:
  node_exporter_series_per_node: 0   # no node-exporter runs in this benchmark
receivers:
  infra: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  platform: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  workload: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
"""


def _pending_rollup_series(prom: Prom) -> tuple[int, dict[str, int]]:
    """Series the cold-tier groups write per evaluation, counted by running their rules' expressions now; and how
    many of them are not in the head yet because the group has not evaluated since start."""
    per_group: dict[str, int] = {}
    pending = 0
    for group in prom.api("/api/v1/rules?type=record")["groups"]:
        if group["name"] not in ROLLUP_GROUPS:
            continue
        count = 0
        for rule in group["rules"]:
            count += int(prom.scalar(f"count({rule['query']})") or 0)
        per_group[group["name"]] = count
        if group["lastEvaluation"].startswith("0001-01-01"):
            pending += count
    return pending, per_group


# The extra remote_write queues of the store comparison: every sample, no write_relabel_configs.
FULL_QUEUES = {"full-victoriametrics": "vm", "full-stand-in": "stand_in"}


def _add_full_queues(config: Path, vm_url: str, stand_in_url: str) -> None:
    data = yaml.safe_load(config.read_text())
    queue = dict(data["remote_write"][0]["queue_config"])
    data["remote_write"] += [
        {"name": name, "url": url, "queue_config": queue, "metadata_config": {"send": False}}
        for name, url in (("full-victoriametrics", vm_url), ("full-stand-in", stand_in_url))
    ]
    config.write_text(yaml.safe_dump(data, sort_keys=False))


def victoria_metrics_cmd(spec: Path, data: Path, port: int) -> list[str]:
    """The single node with the generated flags (15 s dedup, replica label dropped), on loopback in ``data``."""
    loaded = load_fleet(str(spec)).spec.model_copy(update={"long_term_store": "victoriametrics"})
    relabel = data.parent / "relabel.yml"
    relabel.write_text(yaml.safe_dump(relabel_config()))
    args = with_flags(
        single_node_args(loaded),
        {"-storageDataPath": str(data), "-httpListenAddr": f"127.0.0.1:{port}", "-relabelConfig": str(relabel)},
    )
    return [find_binary("victoria-metrics"), *args]


def du_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _scrape_durations(prom: Prom, window_s: int) -> list[float]:
    result = prom.query(f'scrape_duration_seconds{{job="dcgm-exporter"}}[{window_s}s]')
    return [float(v) for series in result for _, v in series["values"]]


def measure(cfg: IngestConfig, workdir: Path) -> dict[str, Any]:
    port = free_port()
    hosts = targets(cfg.nodes, port)
    out: dict[str, Any] = {"nodes": cfg.nodes, "gpus": cfg.nodes * 8, "window_s": cfg.window_s}
    recv_port, prom_port = free_port(), free_port()
    recv_dir = workdir / "receiver"
    recv_dir.mkdir(parents=True)
    (recv_dir / "prometheus.yml").write_text("global: {scrape_interval: 1m}\n")
    receiver = Prom(f"http://127.0.0.1:{recv_port}")
    full_dir, vm_dir = workdir / "stand-in", workdir / "victoria-metrics"
    full_dir.mkdir()
    vm_dir.mkdir()
    (full_dir / "prometheus.yml").write_text("global: {scrape_interval: 1m}\n")
    full_port, vm_port = free_port(), free_port()
    stand_in, vm = Prom(f"http://127.0.0.1:{full_port}"), Prom(f"http://127.0.0.1:{vm_port}")
    spec = workdir / "fleet.yaml"
    spec.write_text(spec_yaml(hosts, prom_port, receiver.url))
    budget = json.loads(gpuscope("budget", str(spec), "--json"))["clusters"][0]
    gpuscope("generate", str(spec), "-o", str(workdir / "bundle"))
    config = workdir / "bundle" / "clusters" / "bench" / "prometheus-a.yml"
    _add_full_queues(config, f"{vm.url}/api/v1/write", f"{stand_in.url}/api/v1/write")
    a, b = BASE_ADDRESS
    sim_cmd = [
        *GPUSCOPE,
        "sim",
        "--nodes",
        str(cfg.nodes),
        "--collectors",
        str(FIELDS_CSV),
        "--base-address",
        f"{a}.{b}.0.1",
        "--port",
        str(port),
        "--hostname-prefix",
        "bench-node",
        "--workload-labels",
        "off",
    ]
    with (
        child(
            prometheus_cmd(
                recv_dir / "prometheus.yml", recv_dir / "data", recv_port, "--web.enable-remote-write-receiver"
            ),
            recv_dir / "log",
            "receiver",
        ) as recv_proc,
        child(
            prometheus_cmd(
                full_dir / "prometheus.yml", full_dir / "data", full_port, "--web.enable-remote-write-receiver"
            ),
            full_dir / "log",
            "stand-in",
        ) as full_proc,
        child(victoria_metrics_cmd(spec, vm_dir / "data", vm_port), vm_dir / "log", "victoria-metrics") as vm_proc,
        child(sim_cmd, workdir / "sim.log", "gpuscope sim") as sim_proc,
    ):
        wait_ready(receiver, recv_proc, recv_dir / "log")
        wait_ready(stand_in, full_proc, full_dir / "log")
        wait_ready(vm, vm_proc, vm_dir / "log")
        started = time.monotonic()

        wait_sim_healthy(sim_proc, workdir / "sim.log", hosts, 300, f"{cfg.nodes} simulated nodes healthy")
        out["sim_ready_s"] = time.monotonic() - started
        plog = workdir / "prometheus.log"
        with child(prometheus_cmd(config, workdir / "data", prom_port), plog, "prometheus") as prom_proc:
            prom = Prom(f"http://127.0.0.1:{prom_port}")
            wait_ready(prom, prom_proc, plog)
            wait_for(
                lambda: prom.scalar('count(up{job="dcgm-exporter"} == 1)') == cfg.nodes,
                timeout=120,
                what=f"all {cfg.nodes} exporter targets up",
            )
            time.sleep(cfg.warmup_s)
            stores = {"vm": (vm, ProcWatch(vm_proc.pid)), "stand_in": (stand_in, ProcWatch(full_proc.pid))}
            out |= _window(cfg, prom, ProcWatch(sim_proc.pid), ProcWatch(prom_proc.pid), sim_proc, workdir, stores)
            out["stores"] = _stores_after(prom, stores, vm_dir / "data", full_dir / "data")
            out["receiver_rss_mib"] = ProcWatch(recv_proc.pid).rss_mib()
            out["receiver_series"] = receiver.own_metric("prometheus_tsdb_head_series")
    out["budget"] = budget
    return out


VM_PARTS = ("storage/small", "storage/big")
STORE_INGESTED = {
    "vm": ("vm_rows_inserted_total", {"type": "promremotewrite"}),
    "stand_in": ("prometheus_tsdb_head_samples_appended_total", {}),
}


def _ingested(key: str, store: Prom) -> float:
    name, labels = STORE_INGESTED[key]
    return store.own_metric(name, **labels)


def _window(
    cfg: IngestConfig,
    prom: Prom,
    sim: ProcWatch,
    pw: ProcWatch,
    sim_proc: Any,
    workdir: Path,
    stores: dict[str, tuple[Prom, ProcWatch]],
) -> dict[str, Any]:
    """The measurement window: counters read directly from Prometheus's (and the stores') /metrics at both ends."""
    counters = (
        "prometheus_tsdb_head_samples_appended_total",
        "prometheus_remote_storage_samples_total",
        "prometheus_remote_storage_bytes_total",
    )
    load0 = load_average()
    rollups = {"remote_name": "long-term-store"}  # the cold-tier queue, not the store comparison's
    before = {c: prom.own_metric(c, **(rollups if "remote" in c else {})) for c in counters}
    stored_before = {k: _ingested(k, s) for k, (s, _) in stores.items()}
    sim.start_window()
    pw.start_window()
    for _, watch in stores.values():
        watch.start_window()
    t0 = time.monotonic()
    rss_sim: list[float] = []
    rss_prom: list[float] = []
    while (elapsed := time.monotonic() - t0) < cfg.window_s:
        ensure_running(sim_proc, "gpuscope sim", workdir / "sim.log")
        rss_sim.append(sim.rss_mib())
        rss_prom.append(pw.rss_mib())
        time.sleep(min(10.0, cfg.window_s - elapsed))
    elapsed = time.monotonic() - t0
    after = {c: prom.own_metric(c, **(rollups if "remote" in c else {})) for c in counters}
    store_stats = {
        k: {
            "ingested_per_s": (_ingested(k, s) - stored_before[k]) / elapsed,
            "cpu_pct": watch.cpu_percent(),
            "rss_mib": watch.rss_mib(),
            "peak_mib": watch.peak_rss_mib(),
        }
        for k, (s, watch) in stores.items()
    }
    out: dict[str, Any] = {
        "sim_cpu_pct": sim.cpu_percent(),
        "prom_cpu_pct": pw.cpu_percent(),
        "sim_rss_mib": statistics.median(rss_sim),
        "sim_peak_mib": sim.peak_rss_mib(),
        "prom_rss_mib": rss_prom[-1],
        "prom_peak_mib": pw.peak_rss_mib(),
        "load": f"{load0} at start, {load_average()} at end",
        "elapsed_s": elapsed,
        "store_window": store_stats,
    }
    delta = {c: after[c] - before[c] for c in counters}
    out["appended_per_s"] = delta[counters[0]] / elapsed
    out["rw_samples"] = delta[counters[1]]
    out["rw_bytes"] = delta[counters[2]]
    out["rw_samples_since_start"] = after[counters[1]]
    out["rw_bytes_since_start"] = after[counters[2]]
    window = cfg.window_s
    out["scraped_per_s"] = (prom.scalar(f"sum(sum_over_time(scrape_samples_scraped[{window}s]))") or 0) / window
    out["exporter_scraped_per_s"] = (
        prom.scalar(f'sum(sum_over_time(scrape_samples_scraped{{job="dcgm-exporter"}}[{window}s]))') or 0
    ) / window
    durations = _scrape_durations(prom, window)
    out["scrapes"] = len(durations)
    out["scrape_p50_ms"] = percentile(durations, 0.5) * 1e3
    out["scrape_p99_ms"] = percentile(durations, 0.99) * 1e3
    out["scrape_max_ms"] = max(durations) * 1e3
    out["head_series"] = prom.own_metric("prometheus_tsdb_head_series")
    out["pending_rollups"], out["rollup_series"] = _pending_rollup_series(prom)
    out["cold_series"] = prom.scalar(f'count({{__name__=~"{COLD_TIER_REGEX}"}})') or 0
    out["targets_down"] = prom.scalar('count(up{job="dcgm-exporter"} == 0)') or 0
    out["rule_eval_failures"] = prom.own_metric("prometheus_rule_evaluation_failures_total")
    return out


def _stores_after(prom: Prom, stores: dict[str, tuple[Prom, ProcWatch]], vm_data: Path, stand_in_data: Path) -> Any:
    """Samples each store received since start and the bytes its data directory holds for them."""
    sent = {
        key: prom.own_metric("prometheus_remote_storage_samples_total", remote_name=name)
        for name, key in FULL_QUEUES.items()
    }
    vm, _ = stores["vm"]
    stand_in, _ = stores["stand_in"]
    return {
        "vm": {
            "sent": sent["vm"],
            "received": _ingested("vm", vm),
            "disk_bytes": du_bytes(vm_data),
            # its own accounting: the sample parts (compressed) over the rows they hold, and the index apart
            "sample_bytes": sum(vm.own_metric("vm_data_size_bytes", type=t) for t in VM_PARTS),
            "sample_rows": sum(vm.own_metric("vm_rows", type=t) for t in VM_PARTS),
            "index_bytes": vm.own_metric("vm_data_size_bytes", type="indexdb"),
            "series": vm.scalar('count({__name__!=""})') or 0,
        },
        "stand_in": {
            "sent": sent["stand_in"],
            "received": _ingested("stand_in", stand_in),
            "disk_bytes": du_bytes(stand_in_data),
            "series": stand_in.own_metric("prometheus_tsdb_head_series"),
        },
    }


def _store_section(cfg: IngestConfig, r: dict[str, Any], command: str) -> Section:
    section = Section(
        f"Long-term store, cold_tier: full: VictoriaMetrics beside the Prometheus receiver stand-in, {cfg.nodes:,} "
        "nodes",
        command,
        "Same run, same Prometheus: besides the rollups queue it remote-writes every sample twice, to "
        "VictoriaMetrics 1.79 (Debian's single node, run with the generated `victoriametrics` flags: "
        "-dedup.minScrapeInterval=15s, the replica label dropped, -retentionPeriod, self-scrape) and to a "
        "Prometheus 2.42 with --web.enable-remote-write-receiver (the stand-in for Mimir). CPU in % of one core. "
        "Bytes per sample on disk: the data directory's size over the samples received since start (neither has "
        "compacted a long-lived block yet: VictoriaMetrics merges its parts continuously, Prometheus keeps the "
        "WAL and head chunks until its first 2 h block). A short run holds few samples per series, so the "
        "per-series index weighs more than it does once series are long-lived; the sample data alone is shown too.",
        ("measurement", "VictoriaMetrics", "Prometheus receiver (stand-in)"),
    )
    w, after = r["store_window"], r["stores"]
    vm, si = after["vm"], after["stand_in"]
    section.rows += [
        (
            "samples ingested/s over the window",
            f"{w['vm']['ingested_per_s']:,.0f}",
            f"{w['stand_in']['ingested_per_s']:,.0f}",
        ),
        ("CPU", f"{w['vm']['cpu_pct']:.0f}% of a core", f"{w['stand_in']['cpu_pct']:.0f}% of a core"),
        (
            "RSS at the end (peak)",
            f"{w['vm']['rss_mib']:,.0f} MiB ({w['vm']['peak_mib']:,.0f})",
            f"{w['stand_in']['rss_mib']:,.0f} MiB ({w['stand_in']['peak_mib']:,.0f})",
        ),
        (
            "bytes per sample on disk (data dir / samples received)",
            f"{vm['disk_bytes'] / max(1, vm['received']):.2f} B",
            f"{si['disk_bytes'] / max(1, si['received']):.2f} B (WAL + head chunks)",
        ),
        (
            "of which: sample data per sample, index per series",
            f"{vm['sample_bytes'] / max(1, vm['sample_rows']):.2f} B/sample, "
            f"{vm['index_bytes'] / max(1, vm['series']):.0f} B/series",
            "not separable before the first 2 h block",
        ),
        (
            "samples received since start / sent by the queue",
            f"{vm['received']:,.0f} / {vm['sent']:,.0f}",
            f"{si['received']:,.0f} / {si['sent']:,.0f}",
        ),
        ("series held", f"{vm['series']:,.0f}", f"{si['series']:,.0f}"),
    ]
    return section


def sections(cfg: IngestConfig, r: dict[str, Any], command: str) -> list[Section]:
    b = r["budget"]
    scale = "" if not cfg.quick else f" (quick: {cfg.nodes} nodes, {cfg.window_s} s window — scaled down)"
    target = SIZING_SAMPLES_PER_S_1K * cfg.nodes / 1000
    predicted_head = b["head_series"]
    head = r["head_series"] + r["pending_rollups"]
    err = 100 * (head - predicted_head) / predicted_head
    ingest = Section(
        f"Fleet ingest: {cfg.nodes:,} nodes x 8 GPUs, one Prometheus, 15 s scrape{scale}",
        command,
        "One real Prometheus 2.42 on the config `gpuscope generate` writes for this fleet (generated rules and "
        "alerts evaluated, rollups remote-written), scraping `gpuscope sim` with about 100 metrics per GPU "
        "(`bench/fields-100.csv`: 100 metrics x 8 GPUs per node). Compared with the back-of-envelope ~53k "
        "samples/s per 1,000 nodes (scaled to the node count) and with `gpuscope budget` for the same fleet "
        "spec: the figures a user would plan with. CPU in % of one core; both processes share this machine's cores.",
        ("measurement", "result", "compared with"),
    )
    ingest.rows += [
        (
            "samples/s ingested (head appends: scrapes + recording rules)",
            f"{r['appended_per_s']:,.0f}",
            f"estimate ~{target:,.0f}/s; budget {b['samples_per_second']:,.0f}/s",
        ),
        (
            "of which scraped (all jobs / exporters only)",
            f"{r['scraped_per_s']:,.0f} / {r['exporter_scraped_per_s']:,.0f}",
            f"exporters: {cfg.nodes:,} x {b['exporter_series'] / max(1, cfg.nodes):.0f} series / 15 s "
            f"= {b['exporter_series'] / 15:,.0f}",
        ),
        (
            "scrape duration, every exporter scrape of the window",
            f"p50 {r['scrape_p50_ms']:.1f} ms, p99 {r['scrape_p99_ms']:.1f} ms, max {r['scrape_max_ms']:.0f} ms "
            f"({r['scrapes']:,} scrapes)",
            "scrape_timeout 10 s",
        ),
        (
            "gpuscope sim: CPU, RSS (median over the window), peak RSS",
            f"{r['sim_cpu_pct']:.0f}% of a core, {r['sim_rss_mib']:,.0f} MiB, peak {r['sim_peak_mib']:,.0f} MiB",
            f"{cfg.nodes:,} exporters in one process",
        ),
        (
            "Prometheus: CPU, RSS at the end, peak RSS",
            f"{r['prom_cpu_pct']:.0f}% of a core, {r['prom_rss_mib']:,.0f} MiB, peak {r['prom_peak_mib']:,.0f} MiB",
            f"budget's head memory {b['head_memory_bytes'] / 2**20:,.0f} MiB "
            f"({b['head_memory_bytes'] / max(1, b['head_series']):,.0f} B/series)",
        ),
        (
            "head series (prometheus_tsdb_head_series)",
            f"{head:,.0f}"
            + (f" (incl. {r['pending_rollups']:,} rollups not yet evaluated)" if r["pending_rollups"] else ""),
            f"budget {predicted_head:,} ({err:+.1f}%; target ±5%)",
        ),
    ]
    ingest.notes.append(
        f"{r['nodes']:,} simulated nodes healthy {r['sim_ready_s']:.0f} s after start; window {r['elapsed_s']:.0f} s "
        f"after all targets were up and a {cfg.warmup_s} s warm-up; targets down at the end: {r['targets_down']:.0f}; "
        f"rule evaluation failures: {r['rule_eval_failures']:.0f}; load average {r['load']}."
    )
    ingest.notes.append(
        "Head series counted against the budget include the cold-tier rollups; where the 5 m rollup group had not "
        "yet run when the window closed, the series it writes (counted by running its rules' expressions) are added."
        if r["pending_rollups"]
        else "Every rule group, the 5 m rollups included, had been evaluated when head series were read."
    )
    return [ingest, _cold_section(cfg, r, command), _store_section(cfg, r, command)]


def _cold_section(cfg: IngestConfig, r: dict[str, Any], command: str) -> Section:
    b = r["budget"]
    per_eval = r["rollup_series"]
    computed = sum(n / ROLLUP_GROUPS[g] for g, n in per_eval.items())
    window = r["elapsed_s"]
    measured = r["rw_samples"] / window
    # Only a window of whole 5 m periods holds a known number of rollup evaluations (one per period).
    whole_periods = cfg.window_s >= 300 and cfg.window_s % 300 == 0
    written = measured if whole_periods and r["rw_samples"] else computed
    ratio = r["scraped_per_s"] / written if written else float("inf")
    ratio_appended = r["appended_per_s"] / written if written else float("inf")
    bytes_per_sample = (
        r["rw_bytes"] / r["rw_samples"]
        if r["rw_samples"]
        else (r["rw_bytes_since_start"] / r["rw_samples_since_start"] if r["rw_samples_since_start"] else 0.0)
    )
    cold = Section(
        f"Cold-tier write reduction: rollups-only remote_write, {cfg.nodes:,} nodes",
        command,
        "Same run. Samples Prometheus scraped against samples it remote-wrote with `cold_tier: rollups` (the "
        "generated `write_relabel_configs` keep only the `*_rollup5m`/`*_rollup1h` recording rules). The fair "
        "baseline is `cold_tier: full`, which writes every ingested sample: the scraped samples, plus the "
        "recording rules' output. Rollups are expected to cut writes at least 20x.",
        ("measurement", "result", "compared with"),
    )
    how = (
        f"counter over {window:.0f} s = {window / 300:.0f} whole 5 m rollup periods"
        if whole_periods and r["rw_samples"]
        else "computed: series per evaluation of each rollup group / its interval"
    )
    cold.rows += [
        ("samples remote-written/s", f"{written:,.1f}", how),
        (
            "rollup series per evaluation (5 m group / 1 h group)",
            " / ".join(f"{per_eval.get(g, 0):,}" for g in ROLLUP_GROUPS),
            f"written at 5 m / 1 h: {computed:,.1f} samples/s; budget {b['remote_write_samples_per_second']:,.1f}/s",
        ),
        (
            "write reduction: scraped / remote-written",
            f"{ratio:,.0f}x",
            "target >= 20x",
        ),
        ("ingested (incl. rule outputs) / remote-written", f"{ratio_appended:,.0f}x", "what cold_tier: full writes"),
        (
            "remote_write bytes/s (prometheus_remote_storage_bytes_total)",
            f"{written * bytes_per_sample:,.1f} B/s ({bytes_per_sample:.1f} B/sample)"
            if bytes_per_sample
            else "n/a (nothing sent yet)",
            f"budget {b['remote_write_bytes_per_second']:,.1f} B/s "
            f"({b['remote_write_bytes_per_second'] / max(1e-9, b['remote_write_samples_per_second']):.0f} B/sample); "
            "cold_tier: full, "
            f"estimated at the same B/sample: {r['appended_per_s'] * bytes_per_sample:,.0f} B/s",
        ),
    ]
    cold.notes.append(
        f"The receiver (a Prometheus with --web.enable-remote-write-receiver, standing in for Mimir) held "
        f"{r['receiver_series']:,.0f} series at the end, {r['receiver_rss_mib']:,.0f} MiB RSS."
    )
    if not whole_periods:
        cold.notes.append(
            "Window not a whole number of 5 m periods: the remote-write counter moved by "
            f"{r['rw_samples']:,.0f} samples in the {window:.0f} s window (it holds 0 or 1 evaluation of the 5 m "
            "group, depending on where the group's slot fell); the rate above is computed from the rollup series "
            "count instead. make bench-full measures it over two whole 5 m periods."
        )
    return cold


def run(cfg: IngestConfig, command: str, keep: bool = False) -> list[Section]:
    return sections(cfg, in_workdir("ingest", keep, lambda workdir: measure(cfg, workdir)), command)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 nodes, 120 s window (make bench)")
    parser.add_argument("--nodes", type=int, help="override the node count")
    parser.add_argument("--window", type=int, help="override the measurement window, seconds")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (bundle, data, logs)")
    args = parser.parse_args()
    cfg = QUICK if args.quick else FULL
    if args.nodes is not None:
        if not 1 <= args.nodes <= 60000:
            parser.error("--nodes must be between 1 and 60000")
        cfg = IngestConfig(args.nodes, cfg.window_s, cfg.warmup_s, cfg.quick)
    if args.window is not None:
        if args.window < 30:
            parser.error("--window must be at least 30 seconds")
        cfg = IngestConfig(cfg.nodes, args.window, cfg.warmup_s, cfg.quick)
    command = " ".join(["python bench/fleet_ingest.py", *sys.argv[1:]])
    print_sections("fleet_ingest", lambda: run(cfg, command, args.keep))


if __name__ == "__main__":
    main()
