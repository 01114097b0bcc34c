"""gpuscope's exporter and nvitop-exporter side by side, in one run, on the same fake NVML (8 fake H100s).

Both run as real processes under ``tests/fakenvml/module.py``, which puts the same fake ``pynvml`` in each and counts
every NVML call at the module boundary (so both are counted alike). Both collect every second: ``gpuscope exporter
--backend nvml -c 1000`` with its default flags otherwise, and ``nvitop-exporter --interval 1``. The measurements are
interleaved, so machine load falls on both alike:

1. steady state for ``--duration`` seconds (default 180): each exporter scraped once every 5 s, alternately; its CPU
   time over this phase (seconds per minute) and its RSS at the end of it ("RSS after 3 min");
2. sequential scrapes, alternating one to each, ``--sequential`` of each (gzip asked, as Prometheus does);
3. ``--scrapers`` concurrent scrapers (default 20) on one exporter at a time, in alternating rounds;
4. from the fake: NVML calls per collection (median over the run's collections, the first left out: it opens the
   GPUs); from the processes: modules loaded (their ``sys.modules`` at exit) and the series one scrape returns.

nvitop-exporter is not a gpuscope dependency; it is installed in a virtual environment of its own, pinned by
``bench/requirements-nvitop.txt`` (the bench says how when it is missing).

Usage: ``python bench/exporter_vs_nvitop.py [--duration 180] [--nvitop-python .venv-nvitop/bin/python]
[--append docs/benchmarks.md]``.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parents[1]
DEFAULT_NVITOP_PYTHON = REPO / ".venv-nvitop" / "bin" / "python"
INSTALL = (
    "python3 -m venv .venv-nvitop && .venv-nvitop/bin/pip install -r bench/requirements-nvitop.txt "
    "(then pass --nvitop-python .venv-nvitop/bin/python, the default)"
)
NODE = "hgx-h100"  # 8 H100 SXM (tests/fakenvml/nodes/hgx-h100.yaml)
STEADY_SCRAPE_S = 5.0


@dataclass
class Exporter:
    name: str
    argv: list[str]
    url: str
    ready_path: str
    workdir: Path
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    sequential: list[float] = field(default_factory=list)
    concurrent: list[float] = field(default_factory=list)

    @property
    def calls_file(self) -> Path:
        return self.workdir / f"{self.name}-calls.json"

    @property
    def modules_file(self) -> Path:
        return self.workdir / f"{self.name}-modules.txt"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self) -> None:
        log = (self.workdir / f"{self.name}.log").open("wb")
        self.proc = subprocess.Popen(self.argv, cwd=REPO, env=self.env, stdout=log, stderr=subprocess.STDOUT)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)  # both end through their own shutdown path: the call log is written
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def cpu_s(self) -> float:
        stat = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")

    def log(self) -> str:
        return (self.workdir / f"{self.name}.log").read_text(errors="replace")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _launcher(python: str, exporter: str, workdir: Path) -> list[str]:
    return [
        python,
        "-m",
        "tests.fakenvml.module",
        "--node",
        NODE,
        "--calls",
        str(workdir / f"{exporter}-calls.json"),
        "--modules",
        str(workdir / f"{exporter}-modules.txt"),
        "--",
        "-m",
    ]


def _exporters(nvitop_python: str, workdir: Path) -> tuple[Exporter, Exporter]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DCGM_", "GPUSCOPE_", "KUBERNETES_", "NODE_NAME"))}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), str(REPO)])
    ours_port, theirs_port = _free_port(), _free_port()
    ours = Exporter(
        "gpuscope",
        [
            *_launcher(sys.executable, "gpuscope", workdir),
            "gpuscope",
            "exporter",
            "--backend",
            "nvml",
            "-a",
            f"127.0.0.1:{ours_port}",
            "-c",
            "1000",
        ],
        f"http://127.0.0.1:{ours_port}",
        "/health",
        workdir,
        env,
    )
    theirs = Exporter(
        "nvitop-exporter",
        [
            *_launcher(nvitop_python, "nvitop-exporter", workdir),
            "nvitop_exporter",
            "--bind-address",
            "127.0.0.1",
            "--port",
            str(theirs_port),
            "--interval",
            "1",
        ],
        f"http://127.0.0.1:{theirs_port}",
        "/metrics",
        workdir,
        # nvitop-exporter's own modules come from its environment; the fake and gpuscope's tree from the repository.
        env | {"PYTHONPATH": str(REPO)},
    )
    return ours, theirs


async def _scrape(session: aiohttp.ClientSession, url: str) -> tuple[float, bytes]:
    t0 = time.perf_counter()
    async with session.get(url) as response:
        body = await response.read()
        if response.status != 200:
            raise RuntimeError(f"{url}: HTTP {response.status}")
    return time.perf_counter() - t0, body


async def _wait_ready(session: aiohttp.ClientSession, exp: Exporter, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert exp.proc is not None
        if exp.proc.poll() is not None:
            raise RuntimeError(f"{exp.name} exited with {exp.proc.returncode}:\n{exp.log()}")
        try:
            _, body = await _scrape(session, exp.url + exp.ready_path)
            metrics = body if exp.ready_path == "/metrics" else (await _scrape(session, exp.url + "/metrics"))[1]
            if metrics.count(b'UUID="GPU-') or metrics.count(b'uuid="GPU-'):
                return
        except (aiohttp.ClientError, RuntimeError):
            pass
        await asyncio.sleep(0.5)
    raise RuntimeError(f"{exp.name} never served its GPUs:\n{exp.log()}")


async def _storm(session: aiohttp.ClientSession, url: str, scrapers: int, seconds: float) -> list[float]:
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def worker() -> None:
        while time.perf_counter() < deadline:
            latency, _ = await _scrape(session, url)
            latencies.append(latency)

    await asyncio.gather(*(worker() for _ in range(scrapers)))
    return latencies


def _series(body: bytes) -> int:
    return sum(1 for line in body.decode().splitlines() if line and not line.startswith("#"))


@dataclass
class Figures:
    cpu_s_per_min: dict[str, float] = field(default_factory=dict)
    rss_steady: dict[str, float] = field(default_factory=dict)
    rss_after: dict[str, float] = field(default_factory=dict)
    series: dict[str, int] = field(default_factory=dict)
    gpu_series: dict[str, int] = field(default_factory=dict)


async def _run(ours: Exporter, theirs: Exporter, args: argparse.Namespace) -> Figures:
    both = (ours, theirs)
    figures = Figures()
    connector = aiohttp.TCPConnector(limit=args.scrapers)
    async with aiohttp.ClientSession(headers={"Accept-Encoding": "gzip"}, connector=connector) as session:
        await asyncio.gather(*(_wait_ready(session, exp) for exp in both))
        await asyncio.sleep(5)  # past start-up: every GPU opened, a few collections made
        cpu0 = {exp.name: exp.cpu_s() for exp in both}
        t0 = time.monotonic()
        print(f"steady state for {args.duration:g} s (both scraped every {STEADY_SCRAPE_S:g} s)...", flush=True)
        while (elapsed := time.monotonic() - t0) < args.duration:
            for exp in both:
                _, body = await _scrape(session, exp.url + "/metrics")
                figures.series[exp.name] = _series(body)
            await asyncio.sleep(min(STEADY_SCRAPE_S, max(0.0, args.duration - elapsed)))
        span = time.monotonic() - t0
        for exp in both:
            figures.cpu_s_per_min[exp.name] = (exp.cpu_s() - cpu0[exp.name]) / span * 60
            figures.rss_steady[exp.name] = exp.rss_mib()
        print(f"{args.sequential} sequential scrapes of each, alternating...", flush=True)
        for i in range(2 * args.sequential):
            exp = both[i % 2]
            latency, _ = await _scrape(session, exp.url + "/metrics")
            exp.sequential.append(latency)
        rounds = 4
        print(f"{args.scrapers} concurrent scrapers, {rounds} rounds of {args.storm_s / 2:g} s on each...", flush=True)
        for i in range(rounds):
            exp = both[i % 2] if i < 2 else both[1 - i % 2]  # A B B A: neither always goes first
            exp.concurrent += await _storm(session, exp.url + "/metrics", args.scrapers, args.storm_s / 2)
        for exp in both:
            figures.rss_after[exp.name] = exp.rss_mib()
            _, body = await _scrape(session, exp.url + "/metrics")
            figures.gpu_series[exp.name] = sum(
                1 for line in body.decode().splitlines() if 'UUID="GPU-' in line or 'uuid="GPU-' in line
            )
    return figures


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1e3


def _calls(exp: Exporter) -> tuple[int, int, int]:
    """(median NVML calls per collection, collections seen, calls to functions the fake does not model)."""
    log = json.loads(exp.calls_file.read_text())
    bursts = log["bursts"][1:]  # the first collection opens every GPU
    return int(statistics.median(bursts)), len(bursts), sum(log["unmodelled"].values())


def _modules(exp: Exporter) -> int:
    return len(exp.modules_file.read_text().split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=180.0, help="steady-state seconds (default 180)")
    parser.add_argument("--sequential", type=int, default=300, help="sequential scrapes of each exporter")
    parser.add_argument("--scrapers", type=int, default=20, help="concurrent scrapers")
    parser.add_argument("--storm-s", type=float, default=20.0, help="seconds of concurrent scrapes per exporter")
    parser.add_argument("--nvitop-python", default=str(DEFAULT_NVITOP_PYTHON), help="a Python with nvitop-exporter")
    parser.add_argument("--append", help="append the table to this markdown file")
    args = parser.parse_args()
    probe = (
        subprocess.run(
            [args.nvitop_python, "-c", "import nvitop_exporter, yaml, pynvml; print(nvitop_exporter.__version__)"],
            capture_output=True,
            text=True,
            check=False,
        )
        if Path(args.nvitop_python).exists()
        else None
    )
    if probe is None or probe.returncode != 0:
        sys.exit(f"nvitop-exporter is not installed for {args.nvitop_python}: {INSTALL}")
    nvitop_version = probe.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="gpuscope-vs-nvitop-") as tmp:
        ours, theirs = _exporters(args.nvitop_python, Path(tmp))
        for exp in (ours, theirs):
            exp.start()
        try:
            figures = asyncio.run(_run(ours, theirs, args))
        finally:
            for exp in (ours, theirs):
                exp.stop()
        calls = {exp.name: _calls(exp) for exp in (ours, theirs)}
        modules = {exp.name: _modules(exp) for exp in (ours, theirs)}
    a, b = ours.name, theirs.name
    minutes = args.duration / 60
    rows = [
        ("scrape p50 / p99, sequential (ms)", *(
            f"{_percentile(e.sequential, 0.5):.2f} / {_percentile(e.sequential, 0.99):.2f}" for e in (ours, theirs))),
        (f"scrape p50 / p99, {args.scrapers} concurrent scrapers (ms)", *(
            f"{_percentile(e.concurrent, 0.5):.1f} / {_percentile(e.concurrent, 0.99):.1f}" for e in (ours, theirs))),
        ("scrapes answered under concurrency", *(f"{len(e.concurrent)}" for e in (ours, theirs))),
        ("CPU, steady state (s per minute)", f"{figures.cpu_s_per_min[a]:.2f}", f"{figures.cpu_s_per_min[b]:.2f}"),
        (f"RSS after {minutes:g} min (MiB)", f"{figures.rss_steady[a]:.1f}", f"{figures.rss_steady[b]:.1f}"),
        ("RSS after the concurrent scrapes (MiB)", f"{figures.rss_after[a]:.1f}", f"{figures.rss_after[b]:.1f}"),
        ("modules loaded", f"{modules[a]}", f"{modules[b]}"),
        ("NVML calls per collection (8 GPUs)", *(
            f"{calls[n][0]}" + (f" ({calls[n][2]} unmodelled by the fake, in the run)" if calls[n][2] else "")
            for n in (a, b))),
        ("series per scrape (of them per GPU)", *(
            f"{figures.series[n]} ({figures.gpu_series[n]})" for n in (a, b))),
    ]  # fmt: skip
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    print(f"{'':<{w0}}  {a:<{w1}}  {b} {nvitop_version}")
    for key, ours_value, theirs_value in rows:
        print(f"{key:<{w0}}  {ours_value:<{w1}}  {theirs_value}")
    if args.append:
        command = f"python bench/exporter_vs_nvitop.py --duration {args.duration:g}"
        lines = [
            f"\n### Exporter vs nvitop-exporter — {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC\n",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other jobs (the load is not ours "
            f"to control; the measurements are interleaved so it falls on both), Python {platform.python_version()}."
            f" Command: `{command}`; nvitop-exporter {nvitop_version} (`bench/requirements-nvitop.txt`). Both on the "
            f"same fake NVML ({NODE}: 8 H100 SXM), collecting every second, {calls[a][1]} and {calls[b][1]} "
            "collections counted.\n",
            f"| measurement | gpuscope exporter --backend nvml | nvitop-exporter {nvitop_version} |",
            "|---|---|---|",
            *(f"| {k} | {x} | {y} |" for k, x, y in rows),
        ]
        with open(args.append, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
