"""Exporter benchmarks: render cost, scrape latency under concurrency, memory, and a 1,000-node simulated fleet.

Baselines, and why they are fair:
- render: prometheus_client's ``generate_latest`` over a custom collector yielding the same families, labels and
  values from the same snapshot. That is how a Python exporter is normally written (nvitop-exporter,
  dcgm-exporter-lite), so it is the alternative a user would otherwise run.
- memory: dcgm-exporter's user-reported 400-500 MiB RSS (its issues #609, #702); we cannot run it here.

Usage: ``python bench/exporter.py [--quick] [--append docs/benchmarks.md]``.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import aiohttp
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.parser import text_string_to_metric_families

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from gpuscope.backends.sim import SimNode, SimNodeConfig  # noqa: E402
from gpuscope.exporter.render import render_dcgm  # noqa: E402
from gpuscope.exporter.selfmetrics import render_self  # noqa: E402
from gpuscope.exporter.settings import ExporterSettings, make_runtime  # noqa: E402
from gpuscope.fields.collectors import load_collectors  # noqa: E402
from gpuscope.hardware.models import model_by_key, parse_mig_layout  # noqa: E402


def _runtime(mig: str):  # type: ignore[no-untyped-def]
    model = model_by_key("h100")
    layout = parse_mig_layout(model, mig) if mig else ()
    sim = SimNode(SimNodeConfig("bench-node", model, 8, layout, workload="training"))
    runtime = make_runtime(sim, ExporterSettings(collectors=load_collectors(None)), "bench-node")
    runtime.collect()
    return runtime


class _SameData:
    """A prometheus_client collector yielding exactly our exposition's families, labels and values."""

    def __init__(self, text: str) -> None:
        self.families = list(text_string_to_metric_families(text))

    def collect(self) -> Iterable[Metric]:
        for fam in self.families:
            labels = list(fam.samples[0].labels) if fam.samples else []
            cls = CounterMetricFamily if fam.type == "counter" else GaugeMetricFamily
            out = cls(fam.name, fam.documentation or "-", labels=labels)
            for sample in fam.samples:
                out.add_metric([sample.labels[k] for k in labels], sample.value)
            yield out


def _time_per_call(fn, min_time: float = 1.0) -> float:  # type: ignore[no-untyped-def]
    n, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < min_time or n < 20:
        fn()
        n += 1
    return elapsed / n


def _render_row(label: str, mig: str, quick: bool) -> tuple[str, str]:
    runtime = _runtime(mig)
    snap, cfg = runtime.published.snapshot, runtime.render_config

    def ours() -> bytes:
        return (render_dcgm(snap, cfg) + render_self(snap, cfg, 15.0, "classic")).encode()

    registry = CollectorRegistry(auto_describe=False)
    registry.register(_SameData(ours().decode()))  # type: ignore[arg-type]
    series = sum(1 for line in ours().decode().splitlines() if line and not line.startswith("#"))
    t_ours = _time_per_call(ours, 0.5 if quick else 2.0)
    t_base = _time_per_call(lambda: generate_latest(registry), 0.5 if quick else 2.0)
    return (
        f"render, {label} ({series} series)",
        f"{t_ours * 1e3:.2f} ms vs generate_latest {t_base * 1e3:.2f} ms = {t_base / t_ours:.1f}x faster",
    )


def bench_render(quick: bool) -> list[tuple[str, str]]:
    return [
        _render_row(label, mig, quick)
        for label, mig in (("8 GPUs x default list", ""), ("8 GPUs x 7 MIG instances", "1g.10gb:7"))
    ]


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _storm(url: str, scrapers: int, seconds: float) -> list[float]:
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    async with aiohttp.ClientSession(headers={"Accept-Encoding": "gzip"}) as session:

        async def worker() -> None:
            while time.perf_counter() < deadline:
                t0 = time.perf_counter()
                async with session.get(url) as response:
                    await response.read()
                latencies.append(time.perf_counter() - t0)

        await asyncio.gather(*(worker() for _ in range(scrapers)))
    return latencies


def _wait_healthy(url: str, timeout: float = 120) -> None:
    import httpx

    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} never became healthy")


def bench_scrape(quick: bool) -> list[tuple[str, str]]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "-a", f"127.0.0.1:{port}", "-c", "15000"],
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_healthy(f"{url}/health")
        idle_rss = _rss_kib(proc.pid)
        latencies = asyncio.run(_storm(f"{url}/metrics", 20, 5 if quick else 20))
        storm_rss = _rss_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(20)
    latencies.sort()
    p50 = statistics.median(latencies) * 1e3
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1e3
    return [
        (
            "scrape latency, 20 concurrent scrapers, gzip (client in a 2nd process on the same 2 cores)",
            f"p50 {p50:.2f} ms, p99 {p99:.2f} ms over {len(latencies)} scrapes",
        ),
        (
            "exporter RSS, 8 simulated H100, default list",
            f"{idle_rss / 1024:.1f} MiB idle, "
            f"{storm_rss / 1024:.1f} MiB after the scrape storm (dcgm-exporter: 400-500 MiB reported)",
        ),
    ]


def bench_fleet(quick: bool) -> list[tuple[str, str]]:
    nodes = 200 if quick else 1000
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gpuscope",
            "sim",
            "--nodes",
            str(nodes),
            "--port",
            str(port),
            "--base-address",
            "127.200.0.1",
        ],
        stderr=subprocess.DEVNULL,
    )
    try:
        started = time.time()
        _wait_healthy(f"http://127.200.0.1:{port}/health")
        last = f"127.200.{(nodes - 1) // 256}.{(nodes - 1) % 256 + 1}"
        _wait_healthy(f"http://{last}:{port}/health")
        ready = time.time() - started
        time.sleep(16)  # one full collection cycle after start-up
        stat0 = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        t0 = time.time()
        time.sleep(30 if quick else 60)
        stat1 = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = ((int(stat1[11]) + int(stat1[12])) - (int(stat0[11]) + int(stat0[12]))) / os.sysconf("SC_CLK_TCK")
        cpu_pct = 100 * cpu / (time.time() - t0)
        rss = _rss_kib(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)
    return [
        (
            f"gpuscope sim --nodes {nodes} (x 8 H100, 15 s collection, no scrapes)",
            f"all nodes healthy {ready:.1f} s after start; {cpu_pct:.1f}% of one core; RSS {rss / 1024:.0f} MiB",
        )
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, 200-node fleet")
    parser.add_argument("--append", help="append the results to this markdown file")
    args = parser.parse_args()
    rows = bench_render(args.quick) + bench_scrape(args.quick) + bench_fleet(args.quick)
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    if args.append:
        command = "python bench/exporter.py" + (" --quick" if args.quick else "")
        lines = [
            f"\n### Exporter — {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC\n",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
            f"Command: `{command}`.\n",
            "| measurement | result |",
            "|---|---|",
            *(f"| {k} | {v} |" for k, v in rows),
        ]
        with open(args.append, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
