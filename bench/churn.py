"""Cardinality under pod churn: the exporter's ``info`` mode against ``labels`` mode.

N simulated nodes x 8 H100s (``gpuscope sim -k``), each node with its own kubelet (the tests' real gRPC
PodResources server, on a unix socket) listing one inference pod per GPU. Every pod restarts once a minute —
the "bad CD pipeline restarts inference pods every minute" failure mode — nodes staggered across the minute. One real
Prometheus per mode runs the config and rules ``gpuscope generate`` writes for the fleet with that mode.

``labels`` is dcgm-exporter's behaviour (pod, namespace, container labels on every series of an allocated GPU), so
it is the baseline a user would otherwise run; ``info`` is gpuscope's default (one ``gpuscope_gpu_workload_info``
series per allocation). Same fleet, same restarts, same collectors list (dcgm-exporter's default), same rules
generator: only the mode differs. The two modes run side by side, each with its own sim and Prometheus; the
figures compared (series counts, memory) do not depend on CPU timing.

Usage: ``python bench/churn.py [--quick] [--nodes N] [--minutes M]`` (``bench/run.py`` runs it for make).
"""

from __future__ import annotations

import argparse
import datetime as dt
import heapq
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO)]  # the tests' kubelet, and gpuscope from the checkout

from tests.support.kubelet import FakeKubelet, pod  # noqa: E402

from common import (  # noqa: E402
    GPUSCOPE,
    ProcWatch,
    Prom,
    Section,
    child,
    free_port,
    gpuscope,
    in_workdir,
    load_average,
    print_sections,
    prometheus_cmd,
    wait_for,
    wait_ready,
    wait_sim_healthy,
)

GPUS = 8
MODES = ("info", "labels")
BASES = {"info": (127, 215), "labels": (127, 216)}  # each mode's nodes on their own loopback block


@dataclass(frozen=True)
class ChurnConfig:
    nodes: int
    duration_s: int
    restart_every_s: int
    quick: bool


QUICK = ChurnConfig(nodes=20, duration_s=150, restart_every_s=60, quick=True)
FULL = ChurnConfig(nodes=100, duration_s=1800, restart_every_s=60, quick=False)


def hostname(mode: str, index: int) -> str:
    return f"churn-{mode}-{index:04d}"


def gpu_pods(node: int, generation: int) -> list[Any]:
    """One inference pod per GPU (GKE-style device names), renamed at every restart as a Deployment's pods are."""
    return [
        pod("serving", f"infer-{node:04d}-{gpu}-{generation:x}", ("server", "nvidia.com/gpu", [f"nvidia{gpu}"]))
        for gpu in range(GPUS)
    ]


class Churner:
    """Restarts every pod of every node once per period, node ``i`` at ``i/N`` of the period."""

    def __init__(self, kubelets: list[FakeKubelet], period_s: float) -> None:
        self.kubelets = kubelets
        self.period_s = period_s
        self.restarts = 0
        self._generation = [0] * len(kubelets)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="churn", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        n = len(self.kubelets)
        now = time.monotonic()
        heap = [(now + self.period_s * (i + 1) / n, i) for i in range(n)]
        heapq.heapify(heap)
        while not self._stop.is_set():
            due, i = heap[0]
            if self._stop.wait(max(0.0, due - time.monotonic())):
                return
            heapq.heapreplace(heap, (due + self.period_s, i))
            self._generation[i] += 1
            self.kubelets[i].set_pods(gpu_pods(i, self._generation[i]))
            self.restarts += GPUS


def spec_yaml(mode: str, hosts: list[str], prom_a: int, restarts_per_hour: float) -> str:
    quoted = ", ".join(f'"{h}"' for h in hosts)
    return f"""# Written by bench/churn.py: the fleet being measured, as a user would declare it.
name: bench-churn-{mode}
clusters:
  - name: churn-{mode}
    kind: baremetal
    pod_restarts_per_hour: {restarts_per_hour:g}
    node_groups: [{{name: h100, gpu_model: h100, gpus_per_node: {GPUS}, nodes: {len(hosts)}, hosts: [{quoted}]}}]
    endpoints:
      prometheus_a: 127.0.0.1:{prom_a}
      prometheus_b: 127.0.0.1:{free_port()}
      alertmanagers: [127.0.0.1:{free_port()}]
      pushgateway: 127.0.0.1:{free_port()}
exporter: {{workload_labels: {mode}}}
budget: {{node_exporter_series_per_node: 0}}
receivers:
  infra: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  platform: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  workload: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
"""


def run_mode(mode: str, cfg: ChurnConfig, workdir: Path, progress: Callable[[str], None]) -> dict[str, Any]:
    """One mode, end to end: kubelets, sim, Prometheus on the generated bundle, churn, readings."""
    workdir.mkdir(parents=True)
    port, prom_port = free_port(), free_port()
    a, b = BASES[mode]
    hosts = [f"{a}.{b}.{i // 256}.{i % 256 + 1}:{port}" for i in range(cfg.nodes)]
    spec = workdir / "fleet.yaml"
    spec.write_text(spec_yaml(mode, hosts, prom_port, cfg.nodes * GPUS * 3600 / cfg.restart_every_s))
    gpuscope("generate", str(spec), "-o", str(workdir / "bundle"))
    # Unix socket paths are limited to ~107 bytes: keep the kubelets' directory short.
    sockets = Path(tempfile.mkdtemp(prefix=f"k{mode[0]}-"))
    kubelets = [FakeKubelet(str(sockets / f"{hostname(mode, i)}.sock")) for i in range(cfg.nodes)]
    for i, kubelet in enumerate(kubelets):
        kubelet.set_pods(gpu_pods(i, 0))
        kubelet.start()
    churner = Churner(kubelets, cfg.restart_every_s)
    sim_cmd = [
        *GPUSCOPE,
        "sim",
        "--nodes",
        str(cfg.nodes),
        "--base-address",
        f"{a}.{b}.0.1",
        "--port",
        str(port),
        "--hostname-prefix",
        f"churn-{mode}",
        "-k",
        "--pod-resources-kubelet-socket",
        f"{sockets}/{{hostname}}.sock",
        "--workload-labels",
        mode,
    ]
    out: dict[str, Any] = {"mode": mode}
    try:
        with child(sim_cmd, workdir / "sim.log", f"gpuscope sim ({mode})") as sim_proc:
            wait_sim_healthy(sim_proc, workdir / "sim.log", hosts, 180, f"{cfg.nodes} simulated nodes ({mode} mode)")
            config = workdir / "bundle" / "clusters" / f"churn-{mode}" / "prometheus-a.yml"
            plog = workdir / "prometheus.log"
            with child(prometheus_cmd(config, workdir / "data", prom_port), plog, f"prometheus ({mode})") as prom_proc:
                prom = Prom(f"http://127.0.0.1:{prom_port}")
                wait_ready(prom, prom_proc, plog)
                wait_for(
                    lambda: prom.scalar('count(up{job="dcgm-exporter"} == 1)') == cfg.nodes,
                    timeout=120,
                    what=f"all {cfg.nodes} targets up ({mode} mode)",
                )
                # Two scrapes of every target before the churn starts: the steady state it is compared with.
                time.sleep(30)
                out |= _churn_window(cfg, prom, ProcWatch(prom_proc.pid), ProcWatch(sim_proc.pid), churner, progress)
    finally:
        churner.stop()
        for kubelet in kubelets:
            kubelet.stop()
        shutil.rmtree(sockets, ignore_errors=True)
    return out


def _churn_window(
    cfg: ChurnConfig, prom: Prom, pw: ProcWatch, sim: ProcWatch, churner: Churner, progress: Callable[[str], None]
) -> dict[str, Any]:
    created0 = prom.own_metric("prometheus_tsdb_head_series_created_total")
    out: dict[str, Any] = {
        "head_before": prom.own_metric("prometheus_tsdb_head_series"),
        "rss_before": pw.rss_mib(),
        "load_start": load_average(),
    }
    churner.start()
    out["churn_start"] = time.time()
    t0 = time.monotonic()
    trace: list[tuple[float, float]] = []
    next_report = 0.0
    while (elapsed := time.monotonic() - t0) < cfg.duration_s:
        time.sleep(min(30.0, cfg.duration_s - elapsed))
        trace.append((time.monotonic() - t0, prom.own_metric("prometheus_tsdb_head_series")))
        if trace[-1][0] >= next_report:
            progress(f"{trace[-1][0] / 60:.0f} min: {trace[-1][1]:,.0f} head series")
            next_report += 300
    churner.stop()
    out |= {
        "elapsed_s": time.monotonic() - t0,
        "restarts": churner.restarts,
        "created": prom.own_metric("prometheus_tsdb_head_series_created_total") - created0,
        "head": prom.own_metric("prometheus_tsdb_head_series"),
        "rss": pw.rss_mib(),
        "peak": pw.peak_rss_mib(),
        "sim_rss": sim.rss_mib(),
        "trace": trace,
        "load_end": load_average(),
        "scrape_p99_ms": 1e3
        * (
            prom.scalar(
                f'quantile(0.99, quantile_over_time(0.99, scrape_duration_seconds{{job="dcgm-exporter"}}'
                f"[{cfg.duration_s}s]))"
            )
            or 0
        ),
        "from_scrapes": prom.scalar(
            f'sum(sum_over_time(scrape_series_added{{job="dcgm-exporter"}}[{round(time.monotonic() - t0)}s]))'
        )
        or 0.0,
        "churn_alert": _churn_alert(prom, out["churn_start"]),
    }
    return out


def _churn_alert(prom: Prom, churn_start: float) -> str:
    """The generated PrometheusSeriesChurnHigh alert's state in this Prometheus (no Alertmanager here), and when
    it became active relative to the churn's start. A fresh Prometheus creates all its series at once, which the
    alert's 10 m rate also counts as churn: an alert active from before the churn began is that start-up."""
    for alert in prom.api("/api/v1/alerts")["alerts"]:
        if alert["labels"].get("alertname") == "PrometheusSeriesChurnHigh":
            active = dt.datetime.fromisoformat(alert["activeAt"].replace("Z", "+00:00")).timestamp()
            return f"{alert['state']}, active from churn start {(active - churn_start) / 60:+.1f} min"
    return "not active"


def section(cfg: ChurnConfig, results: dict[str, dict[str, Any]], command: str) -> Section:
    info, labels = results["info"], results["labels"]
    scale = f" (quick: {cfg.nodes} nodes, {cfg.duration_s / 60:g} min — scaled down)" if cfg.quick else ""
    s = Section(
        f"Cardinality under churn: {cfg.nodes} nodes x 8 GPUs, every pod restarting every minute for "
        f"{cfg.duration_s / 60:g} min{scale}",
        command,
        "Same fleet, pods, restart schedule, collectors list (dcgm-exporter's default) and generated rules in both "
        "columns; only the exporter's `--workload-labels` differs. `labels` is what dcgm-exporter does (pod labels "
        "on every GPU series), the baseline a user would otherwise run. Each mode has its own sim and Prometheus "
        "(run side by side). Series created and head series are Prometheus's own `prometheus_tsdb_head_series_*`; "
        "RSS from /proc.",
        ("measurement", "info (gpuscope default)", "labels (dcgm-exporter)", "labels / info"),
    )

    def row(name: str, key: str, fmt: str = "{:,.0f}") -> tuple[str, str, str, str]:
        x, y = info[key], labels[key]
        return (name, fmt.format(x), fmt.format(y), f"{y / x:.1f}x" if x else "n/a")

    s.rows += [
        row("pod restarts (GPU pods renamed)", "restarts"),
        row("head series before the churn", "head_before"),
        row("head series created during the churn", "created"),
        row("  of which by scrapes of the exporters (scrape_series_added)", "from_scrapes"),
        row("head series at the end", "head"),
        row("Prometheus RSS before the churn (MiB)", "rss_before"),
        row("Prometheus RSS at the end (MiB)", "rss"),
        row("Prometheus peak RSS (MiB)", "peak"),
        row("gpuscope sim RSS at the end (MiB)", "sim_rss"),
    ]
    hours = cfg.duration_s / 3600
    ratio = [results[m]["created"] / hours / results[m]["head"] for m in MODES]
    s.rows.append(("series created per hour / head series (churn alert fires > 0.5)", *(f"{x:.1f}" for x in ratio), ""))
    if not cfg.quick:  # a quick run is shorter than the alert's 10 m window plus its 15 m for:
        s.rows.append(("PrometheusSeriesChurnHigh (generated rule)", info["churn_alert"], labels["churn_alert"], ""))
    for mode in MODES:
        r = results[mode]
        marks = ", ".join(f"{t / 60:.1f} min {v / 1000:,.0f}k" for t, v in r["trace"][4::5] or r["trace"][-1:])
        s.notes.append(f"{mode}: head series over time: {marks}; scrape p99 {r['scrape_p99_ms']:.1f} ms.")
    s.notes.append(f"Load average {info['load_start']} at the start, {info['load_end']} at the end.")
    return s


def _printer(mode: str) -> Callable[[str], None]:
    return lambda line: print(f"  churn {mode}: {line}", flush=True)


def run(cfg: ChurnConfig, command: str, keep: bool = False) -> list[Section]:
    def both_modes(workdir: Path) -> dict[str, dict[str, Any]]:
        with ThreadPoolExecutor(max_workers=2) as pool:
            futures = {mode: pool.submit(run_mode, mode, cfg, workdir / mode, _printer(mode)) for mode in MODES}
            return {mode: f.result() for mode, f in futures.items()}

    return [section(cfg, in_workdir("churn", keep, both_modes), command)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 nodes for 2.5 minutes (make bench)")
    parser.add_argument("--nodes", type=int, help="override the node count")
    parser.add_argument("--minutes", type=int, help="override the churn duration")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (bundles, data, logs)")
    args = parser.parse_args()
    cfg = QUICK if args.quick else FULL
    if args.nodes is not None:
        if not 1 <= args.nodes <= 5000:
            parser.error("--nodes must be between 1 and 5000")
        cfg = ChurnConfig(args.nodes, cfg.duration_s, cfg.restart_every_s, cfg.quick)
    if args.minutes is not None:
        if args.minutes < 1:
            parser.error("--minutes must be at least 1")
        cfg = ChurnConfig(cfg.nodes, args.minutes * 60, cfg.restart_every_s, cfg.quick)
    command = " ".join(["python bench/churn.py", *sys.argv[1:]])
    print_sections("churn", lambda: run(cfg, command, args.keep))


if __name__ == "__main__":
    main()
