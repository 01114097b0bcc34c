"""What ``JobReporter.step()`` costs a training loop, with the Pushgateway up, down and hung.

The loop calls ``step(0.001, samples=32, loss=..., lr=...)`` as fast as it can while the reporter's thread pushes
every second (15 s in production; 1 s here so that pushing, failing and backing off — capped at 1 s — all happen
during the measurement). Reported: mean µs per step over the whole loop, and p50/p99/max of individually timed
steps (the max shows any wait on the lock the pusher thread takes to copy the numbers). Baselines: the same loop
with no telemetry, and what a user would otherwise write — ``prometheus_client.push_to_gateway`` from the training
loop every 100 steps — whose cost with a dead or hung gateway lands on the loop itself. Also: how long leaving
the ``with`` block takes when the gateway hangs.

Usage: ``python bench/jobs.py [--steps N] [--append docs/benchmarks.md]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from prometheus_client import CollectorRegistry, Gauge, push_to_gateway  # noqa: E402
from tests.support.jobs import Blackhole, run_pushgateway  # noqa: E402
from tests.support.net import free_port  # noqa: E402

from gpuscope.jobs import JobReporter  # noqa: E402

Step = Callable[[int], None]


def measure(step: Step, n: int, timed: int) -> tuple[float, float, float, float]:
    """(mean µs over ``n`` steps, then p50, p99, max µs over ``timed`` individually timed steps)."""
    start = time.perf_counter()
    for i in range(n):
        step(i)
    mean = (time.perf_counter() - start) / n * 1e6
    samples = []
    clock = time.perf_counter
    for i in range(timed):
        t0 = clock()
        step(i)
        samples.append(clock() - t0)
    samples.sort()
    return mean, statistics.median(samples) * 1e6, samples[int(0.99 * (len(samples) - 1))] * 1e6, samples[-1] * 1e6


def fmt(result: tuple[float, float, float, float]) -> str:
    mean, p50, p99, top = result
    return f"{mean:.2f} µs/step (p50 {p50:.2f}, p99 {p99:.2f}, max {top:.0f} µs)"


def reporter(gateway: str, **kw: object) -> JobReporter:
    options: dict[str, object] = {
        "gpus": ["GPU-5e1f0000-7a2b-4c3d-8e9f-a0b0c0d00000"],
        "push_interval_s": 1.0,
        "max_backoff_s": 1.0,
        "env": {},
        **kw,
    }
    return JobReporter("bench", gateway=gateway, **options)  # type: ignore[arg-type]


@contextmanager
def gateway(kind: str) -> Iterator[str]:
    if kind == "up":
        with tempfile.TemporaryDirectory() as tmp, run_pushgateway(Path(tmp)) as gw:
            yield gw.url
    elif kind == "down":
        yield f"http://127.0.0.1:{free_port()}"
    else:
        hole = Blackhole()
        try:
            yield hole.url
        finally:
            hole.close()


def reporter_row(kind: str, n: int, timed: int) -> tuple[str, str]:
    with gateway(kind) as url:
        job = reporter(url).start()
        time.sleep(1.5)  # the first pushes (and, down or hung, the first failures) are under way
        result = measure(lambda i: job.step(0.001, samples=32, loss=1.0 / (i + 1), lr=3e-4), n, timed)
        stats = job.stats
        t0 = time.perf_counter()
        job.finish()
        closing = time.perf_counter() - t0
    label = {"up": "Pushgateway up", "down": "Pushgateway down (connection refused)", "hung": "Pushgateway hung"}
    return (
        f"step() with 2 gauges, {label[kind]}",
        f"{fmt(result)}; {stats.ok} pushes ok, {stats.failed} failed during the run; leaving the block "
        f"{closing * 1e3:.0f} ms",
    )


def baseline_row(kind: str, n: int) -> tuple[str, str]:
    """prometheus_client from the training loop: a Gauge per value, push_to_gateway every 100 steps."""
    registry = CollectorRegistry()
    steps, loss = Gauge("steps", "", registry=registry), Gauge("loss", "", registry=registry)
    with gateway(kind) as url:
        address = url.removeprefix("http://")

        def step(i: int) -> None:
            steps.set(i)
            loss.set(1.0 / (i + 1))
            if i % 100 == 99:
                with suppress(OSError):
                    push_to_gateway(address, job="bench", registry=registry, timeout=5)

        start = time.perf_counter()
        for i in range(n):
            step(i)
        mean = (time.perf_counter() - start) / n * 1e6
    return f"baseline: push_to_gateway every 100 steps on the loop's thread, Pushgateway {kind}", (
        f"{mean:.2f} µs/step over {n} steps"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000, help="steps per measured loop")
    parser.add_argument("--append", help="append the results to this markdown file")
    args = parser.parse_args()
    n, timed = args.steps, min(args.steps, 200_000)
    disabled = reporter("unused", enabled=False)
    rows = [
        ("no telemetry: the loop alone", fmt(measure(lambda i: None, n, timed))),
        (
            "step() with 2 gauges, reporter disabled (enabled=False, as on other ranks)",
            fmt(measure(lambda i: disabled.step(0.001, samples=32, loss=1.0 / (i + 1), lr=3e-4), n, timed)),
        ),
    ]
    rows += [reporter_row(kind, n, timed) for kind in ("up", "down", "hung")]
    rows += [baseline_row("up", 20_000), baseline_row("down", 20_000), baseline_row("hung", 300)]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    if args.append:
        lines = [
            f"\n### Job metrics: the cost of step() — {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC\n",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}. "
            f"Command: `python bench/jobs.py --steps {n}`.\n",
            "| measurement | result |",
            "|---|---|",
            *(f"| {k} | {v} |" for k, v in rows),
        ]
        with open(args.append, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
