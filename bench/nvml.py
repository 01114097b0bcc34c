"""NVML backend benchmark: NVML calls per GPU per collection, and collection time, against the fake NVML.

The call counts are deterministic (the figure to track): they are what the backend asks a real driver for, and
each NVML call is a round trip to the driver, PMU or GSP that other GPU clients feel (calls serialise on the PMU/GSP).
The baseline is one NVML call per requested field and GPU, the way exporters that wrap each metric in its own
call work (no batched field values, no call shared by several fields, unsupported fields asked again).

Collection time is measured with the fake, so it is gpuscope's own Python cost plus the fake's, not the
driver's: NVML latency on real hardware is not measured here (see docs/gpu-validation.md).

Usage: ``python bench/nvml.py [--append docs/benchmarks.md]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from tests.fakenvml import FakeNvml  # noqa: E402

from gpuscope.backends.base import ReadRequest  # noqa: E402
from gpuscope.backends.nvml import NvmlBackend, Timing  # noqa: E402
from gpuscope.backends.nvml.fieldmap import served_fields  # noqa: E402
from gpuscope.exporter.collector import build_request  # noqa: E402
from gpuscope.fields.collectors import load_collectors  # noqa: E402

DEFAULT = build_request(load_collectors(None)).field_ids
CASES = (
    ("8x H100 SXM, default list", "hgx-h100", DEFAULT),
    ("8x H100 SXM, every field NVML serves", "hgx-h100", served_fields()),
    ("H100 in MIG mode (3 GPU instances) + H100, default list", "h100-mig", DEFAULT),
    ("2x A100 (no GPM), default list", "a100", DEFAULT),
    ("RTX 4090 on an R470 driver, default list", "workstation", DEFAULT),
)


class Ticker:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _backend(node: str) -> tuple[FakeNvml, NvmlBackend, Ticker]:
    fake, ticker = FakeNvml(node), Ticker()
    backend = NvmlBackend(fake, monotonic=ticker, timing=Timing(reprobe_s=1e9, mig_check_s=1e9), watch_events=False)
    return fake, backend, ticker


def _calls(fake: FakeNvml, backend: NvmlBackend, ticker: Ticker, request: ReadRequest) -> int:
    before = sum(fake.collection_calls().values())
    ticker.t += 15.0
    backend.collect(request)
    return sum(fake.collection_calls().values()) - before


def count_row(label: str, node: str, ids: frozenset[int]) -> tuple[str, str]:
    fake, backend, ticker = _backend(node)
    request = ReadRequest(ids)
    try:
        first = _calls(fake, backend, ticker, request)
        steady = [_calls(fake, backend, ticker, request) for _ in range(3)]
    finally:
        backend.close()
    gpus = len(fake.devices)
    assert len(set(steady)) == 1, f"steady-state call count varies: {steady}"
    baseline = len(ids)  # one call per requested field and GPU
    return (
        f"NVML calls per GPU per collection: {label} ({len(ids)} fields)",
        f"{steady[0] / gpus:g} (first collection incl. start-up: {first / gpus:g}); baseline {baseline}",
    )


def time_row(label: str, node: str, ids: frozenset[int], n: int = 300) -> tuple[str, str]:
    fake, backend, ticker = _backend(node)
    request = ReadRequest(ids)
    try:
        _calls(fake, backend, ticker, request)
        samples = []
        for _ in range(n):
            ticker.t += 15.0
            t0 = time.perf_counter()
            backend.collect(request)
            samples.append(time.perf_counter() - t0)
    finally:
        backend.close()
    samples.sort()
    p50, p99 = statistics.median(samples), samples[int(0.99 * (len(samples) - 1))]
    return f"collection time with the fake: {label}", f"p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms over {n}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--append", help="append the results to this markdown file")
    args = parser.parse_args()
    rows = [count_row(*case) for case in CASES]
    rows += [time_row(*CASES[0]), time_row(*CASES[1]), time_row(*CASES[2])]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    if args.append:
        lines = [
            f"\n### NVML backend — {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC\n",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            "no GPU (the fake NVML of tests/fakenvml). Command: `python bench/nvml.py`.\n",
            "| measurement | result |",
            "|---|---|",
            *(f"| {k} | {v} |" for k, v in rows),
        ]
        with open(args.append, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
