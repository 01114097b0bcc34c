"""What the fleet-scale benchmarks share: machine facts, /proc readings, child processes, Prometheus reads, reports.

Every figure comes from a real process: CPU and memory from ``/proc/<pid>`` of the process itself (never of this
driver), series and sample counts from Prometheus's own metrics and API. Nothing here asserts anything: a
benchmark reports what it measured and the target it is compared with.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
from prometheus_client.parser import text_string_to_metric_families

REPO = Path(__file__).resolve().parents[1]
for _path in (str(REPO / "src"), str(REPO)):
    if _path not in sys.path:
        sys.path.insert(0, _path)


from tests.support.net import free_port  # noqa: E402, F401 - the tests' helpers, for the benchmarks too
from tests.support.upstack import UpStack  # noqa: E402, F401

from gpuscope.prom import Client, Endpoint, Limits, api  # noqa: E402
from gpuscope.runner.binaries import find_binary, version  # noqa: E402

GPUSCOPE = [sys.executable, "-m", "gpuscope"]
T = TypeVar("T")


class BenchError(RuntimeError):
    """A benchmark could not run (a component failed to start, a target never came up): one line for the user."""


# --- machine ---------------------------------------------------------------------------------------------------


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _mem_gib() -> float:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) / 1024 / 1024
    return 0.0


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} / {five:.2f} / {fifteen:.2f}"


def machine() -> str:
    """One line naming the machine, so a figure is never read without the hardware that produced it."""
    # "prometheus, version 2.42.0+ds (branch: ...)" -> "prometheus 2.42.0+ds"
    prom, am = (version(find_binary(b)).split(" (")[0].replace(", version", "") for b in ("prometheus", "alertmanager"))
    return (
        f"{platform.machine()}, {_cpu_model()}, {os.cpu_count()} cores, {_mem_gib():.1f} GiB RAM, "
        f"{platform.system()} {platform.release()}, Python {platform.python_version()}, {prom}, {am}"
    )


def utc_now() -> str:
    return f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC"


# --- processes ---------------------------------------------------------------------------------------------------


class ProcWatch:
    """CPU time and memory of one running process, read from ``/proc/<pid>``."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._tick = os.sysconf("SC_CLK_TCK")
        self._cpu0 = 0.0
        self._t0 = 0.0

    def cpu_seconds(self) -> float:
        # Fields after the command name (which may contain spaces): utime and stime are the 12th and 13th.
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self._tick

    def _status_kib(self, key: str) -> int:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
        return 0

    def rss_mib(self) -> float:
        return self._status_kib("VmRSS") / 1024

    def peak_rss_mib(self) -> float:
        """VmHWM: the highest RSS since the process started (the kernel keeps it, so no peak is missed)."""
        return self._status_kib("VmHWM") / 1024

    def start_window(self) -> None:
        self._cpu0, self._t0 = self.cpu_seconds(), time.monotonic()

    def cpu_percent(self) -> float:
        """CPU use since ``start_window``, in % of one core (200% = both cores of a 2-core machine)."""
        return 100 * (self.cpu_seconds() - self._cpu0) / max(1e-9, time.monotonic() - self._t0)


def wait_for(check: Callable[[], T | None], timeout: float, what: str, interval: float = 0.5) -> T:
    """Poll ``check`` until it returns something truthy, else raise BenchError naming ``what``."""
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        try:
            result = check()
            if result:
                return result
        except (httpx.HTTPError, OSError, ValueError, KeyError) as exc:
            last = exc
        time.sleep(interval)
    raise BenchError(f"timed out after {timeout:.0f}s waiting for {what}" + (f" (last error: {last})" if last else ""))


@contextmanager
def child(cmd: Sequence[str], log: Path, what: str) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``cmd`` with its output in ``log``; stop it afterwards (SIGTERM, then SIGKILL), by its own pid only."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as out:
        proc = subprocess.Popen(list(cmd), stdout=out, stderr=subprocess.STDOUT)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        if proc.returncode not in (0, -signal.SIGTERM, -signal.SIGKILL, 143, 130):
            print(f"note: {what} exited with {proc.returncode} (log {log})", file=sys.stderr)


def ensure_running(proc: subprocess.Popen[bytes], what: str, log: Path) -> None:
    if proc.poll() is not None:
        tail = " | ".join(log.read_text(errors="replace").strip().splitlines()[-3:])
        raise BenchError(f"{what} exited with {proc.returncode}: {tail}")


def wait_sim_healthy(proc: subprocess.Popen[bytes], log: Path, hosts: Sequence[str], timeout: float, what: str) -> None:
    """Wait until ``gpuscope sim``'s first and last nodes answer /health (the sim starts them in order)."""

    def healthy(host: str) -> bool:
        try:
            return httpx.get(f"http://{host}/health", timeout=5).status_code == 200
        except httpx.HTTPError:
            return False

    def fleet_healthy() -> bool:
        ensure_running(proc, "gpuscope sim", log)
        return healthy(hosts[0]) and healthy(hosts[-1])

    wait_for(fleet_healthy, timeout, what)


def gpuscope(*args: str, timeout: float = 300) -> str:
    """Run a gpuscope command the way a user does; its stdout, or BenchError with its one-line error."""
    done = subprocess.run([*GPUSCOPE, *args], capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise BenchError(f"gpuscope {' '.join(args)}: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout


# --- Prometheus --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prom:
    """A running Prometheus: its HTTP API and its own /metrics."""

    url: str

    def query(self, expr: str, timeout: float = 120) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self._data("/api/v1/query", [("query", expr)], timeout)["result"]
        return result

    def _data(self, path: str, params: list[tuple[str, str]], timeout: float) -> Any:
        with Client(Endpoint(self.url), limits=Limits(timeout_s=timeout)) as c:
            return c.run(api.raw(path, params, envelope=True))

    def scalar(self, expr: str) -> float | None:
        result = self.query(expr)
        return float(result[0]["value"][1]) if result else None

    def api(self, path: str) -> Any:
        return self._data(path, [], 60)

    def own_metric(self, name: str, **labels: str) -> float:
        """Sum of ``name``'s samples (matching ``labels``) on Prometheus's own /metrics, read directly: exact at
        the instant of the call, unlike a scraped copy that is up to one interval old."""
        text = httpx.get(f"{self.url}/metrics", timeout=30).text
        total = 0.0
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                    total += sample.value
        return total


def prometheus_cmd(config: Path, data: Path, port: int, *extra: str) -> list[str]:
    return [
        find_binary("prometheus"),
        f"--config.file={config}",
        f"--storage.tsdb.path={data}",
        f"--web.listen-address=127.0.0.1:{port}",
        *extra,
    ]


def wait_ready(prom: Prom, proc: subprocess.Popen[bytes], log: Path, timeout: float = 120) -> None:
    def ready() -> bool:
        ensure_running(proc, "prometheus", log)
        return httpx.get(f"{prom.url}/-/ready", timeout=5).status_code == 200

    wait_for(ready, timeout, f"prometheus ready at {prom.url} (log {log})")


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..1) of a non-empty sequence."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


# --- reports -----------------------------------------------------------------------------------------------------


@dataclass
class Section:
    """One benchmark's results: what it compared with what, and a table."""

    title: str
    command: str
    about: str  # what is measured, the baseline, and why it is the fair one
    headers: tuple[str, ...]
    rows: list[tuple[str, ...]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def text(self) -> str:
        widths = [
            max(len(h), *(len(r[i]) for r in self.rows)) if self.rows else len(h) for i, h in enumerate(self.headers)
        ]
        line = "  ".join(h.ljust(w) for h, w in zip(self.headers, widths, strict=True))
        out = [f"== {self.title}", f"   ({self.command})", line, "-" * len(line)]
        out += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in self.rows]
        out += [f"* {n}" for n in self.notes]
        return "\n".join(out)

    def markdown(self) -> str:
        out = [f"#### {self.title}", "", f"Command: `{self.command}`. {self.about}", ""]
        out.append("| " + " | ".join(self.headers) + " |")
        out.append("|" + "---|" * len(self.headers))
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in self.rows]
        if self.notes:
            out.append("")
            out += [f"- {n}" for n in self.notes]
        return "\n".join(out)


def append_report(path: Path, heading: str, preamble: Sequence[str], sections: Sequence[Section]) -> None:
    """Append one run's sections to the markdown report (never rewrites what earlier runs wrote)."""
    parts = [f"\n### {heading}\n", *preamble, ""]
    parts += [s.markdown() + "\n" for s in sections]
    with path.open("a", encoding="utf-8") as f:
        f.write("\n".join(parts))


def fmt_duration(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s"


def in_workdir(name: str, keep: bool, measure: Callable[[Path], T]) -> T:
    """Run ``measure`` in a fresh work directory, removed afterwards unless ``keep``; kept (and named in the
    error) when the benchmark fails, because its logs say why."""
    workdir = Path(tempfile.mkdtemp(prefix=f"gpuscope-bench-{name}-"))
    try:
        result = measure(workdir)
    except BenchError as exc:
        raise BenchError(f"{exc} (files kept in {workdir})") from None
    if not keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def print_sections(script: str, produce: Callable[[], list[Section]]) -> None:
    """A script run on its own: print its tables, or one error line and a non-zero exit."""
    try:
        for section in produce():
            print(section.text() + "\n")
    except BenchError as exc:
        sys.exit(f"{script}: error: {exc}")
