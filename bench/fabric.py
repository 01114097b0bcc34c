"""Fabric costs on the exporter side (issue 52 item 8): series per node with NVSwitches and NVLinks on, the
render cost of one collection, and a real exporter process's RSS and scrape time, on a simulated HGX H100 node
(8 GPUs, 4 NVSwitches, ``-s f``) and a simulated GB200 NVL72 compute tray (4 GPUs, no switch of its own).

Each case runs twice: the default collectors list alone (the baseline), then with ``bench/fabric-fields.csv``
appended (every NVSwitch, switch-port and per-link field the simulator serves). Scrapes are sequential (one
scraper, gzip), so the figure is the server's time per scrape, not queueing.

Usage: ``python bench/fabric.py [--quick] [--append docs/benchmarks.md]``.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from bench.common import machine, utc_now  # noqa: E402

from gpuscope.backends.sim import SimNode, SimNodeConfig  # noqa: E402
from gpuscope.exporter.devices import SWITCH_FLAG, parse_devices  # noqa: E402
from gpuscope.exporter.render import render_dcgm  # noqa: E402
from gpuscope.exporter.settings import ExporterSettings, make_runtime  # noqa: E402
from gpuscope.fields.collectors import default_counters_text, parse_collectors  # noqa: E402
from gpuscope.hardware.models import model_by_key  # noqa: E402

FABRIC_CSV = REPO / "bench" / "fabric-fields.csv"
CASES = (("HGX H100 node (8 GPUs, 4 NVSwitches, -s f)", "h100"), ("GB200 NVL72 tray (4 GPUs)", "gb200"))


def _csv(fabric: bool) -> str:
    return default_counters_text() + ("\n" + FABRIC_CSV.read_text() if fabric else "")


def _series_and_render(model: str, fabric: bool, quick: bool) -> tuple[int, int, float]:
    """(series, of which switch/port/link series, render ms per collection) in-process."""
    m = model_by_key(model)
    sim = SimNode(SimNodeConfig("bench-node", m, m.gpus_per_node, workload="training"))
    settings = ExporterSettings(
        collectors=parse_collectors(_csv(fabric), "bench.csv"), switches=parse_devices("f", SWITCH_FLAG)
    )
    runtime = make_runtime(sim, settings, "bench-node")
    snapshot = runtime.collector.collect()
    text = render_dcgm(snapshot, runtime.render_config)
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    fabric_series = sum(1 for ln in lines if "nvlink=" in ln or "nvswitch=" in ln)
    n = 20 if quick else 100
    t0 = time.perf_counter()
    for _ in range(n):
        render_dcgm(runtime.collector.collect(), runtime.render_config)
    runtime.close()
    return len(lines), fabric_series, (time.perf_counter() - t0) / n * 1e3


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _process(model: str, fabric: bool, quick: bool) -> tuple[float, float, float, int]:
    """(RSS MiB after the scrapes, scrape p50 ms, p99 ms, body bytes) of a real exporter process."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "fields.csv"
        csv.write_text(_csv(fabric))
        cmd = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "--sim-model", model]
        cmd += ["-f", str(csv), "-s", "f", "-a", f"127.0.0.1:{port}", "-c", "15000"]
        proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.time() + 120
            while time.time() < deadline:
                try:
                    if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.2)
            latencies = []
            size = 0
            with httpx.Client(headers={"Accept-Encoding": "gzip"}) as client:
                for _ in range(100 if quick else 500):
                    t0 = time.perf_counter()
                    body = client.get(f"{url}/metrics").content
                    latencies.append(time.perf_counter() - t0)
                    size = len(body)
            rss = _rss_mib(proc.pid)
        finally:
            proc.terminate()
            proc.wait(20)
    latencies.sort()
    return rss, statistics.median(latencies) * 1e3, latencies[int(len(latencies) * 0.99) - 1] * 1e3, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer renders and scrapes")
    parser.add_argument("--append", help="append the results to this markdown file")
    args = parser.parse_args()
    rows = []
    for label, model in CASES:
        for fabric in (False, True):
            series, fabric_series, render_ms = _series_and_render(model, fabric, args.quick)
            rss, p50, p99, size = _process(model, fabric, args.quick)
            what = "default list + fabric fields" if fabric else "default list"
            rows.append(
                f"| {label}, {what} | {series:,} ({fabric_series:,} switch/port/link) | {render_ms:.2f} ms | "
                f"{p50:.2f} / {p99:.2f} ms | {size / 1024:.1f} KiB | {rss:.1f} MiB |"
            )
    out = "\n".join(
        [
            f"### Fabric costs — {utc_now()}",
            "",
            f"Machine: {machine()}. Command: `python bench/fabric.py{' --quick' if args.quick else ''}`.",
            "",
            "| node, fields | series | collect + render | scrape p50 / p99 (sequential, gzip asked) | body | RSS |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    print(out)
    if args.append:
        with open(args.append, "a", encoding="utf-8") as f:
            f.write("\n" + out)


if __name__ == "__main__":
    main()
