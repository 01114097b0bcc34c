"""DCGM backend benchmark: DCGM calls per collection, and collection time, against the fake libdcgm.

The call counts are deterministic (the figure to track): every DCGM call is a round trip to the host engine
(a socket round trip for a standalone ``nv-hostengine``). DCGM samples watched fields itself, so the backend's
per-collection cost is the reads of the cache: one ``dcgmEntitiesGetLatestValues`` per entity kind (GPUs, MIG
GPU instances) and one ``dcgmHealthCheck``, whatever the number of GPUs and fields. The baseline is one call per
field and GPU (``dcgmGetLatestValuesForFields`` per GPU and field, the way a per-metric wrapper works).

Collection time is measured with the fake (compiled from tests/fakedcgm with the system gcc), so it is gpuscope's
own Python and ctypes marshalling cost plus the fake's, not a host engine's.

Usage: ``python bench/dcgm.py [--append docs/benchmarks.md]``.
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
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO))

from tests.fakedcgm import FakeDcgm, build  # noqa: E402

from gpuscope.backends.base import ReadRequest  # noqa: E402
from gpuscope.backends.dcgm import DcgmBackend  # noqa: E402
from gpuscope.exporter.collector import build_request  # noqa: E402
from gpuscope.fields.catalog import ALL_FIELDS, Entity  # noqa: E402
from gpuscope.fields.collectors import load_collectors  # noqa: E402

DEFAULT = build_request(load_collectors(None)).field_ids
EVERY = frozenset(f.field_id for f in ALL_FIELDS if f.field_id > 0 and f.entity is Entity.GPU)
A100 = "NVIDIA A100-SXM4-80GB"


def _gpus(n: int) -> list[str]:
    return [f"gpu {i} GPU-{i:08x}-0000-0000-0000-000000000000 00000000:{0x10 + i:02X}:00.0 {A100}" for i in range(n)]


def _model(gpus: int, mig: bool, ids: frozenset[int]) -> list[str]:
    lines = _gpus(gpus)
    if mig:
        lines += ["gi 0 0 1 3 3g.40gb", "gi 1 0 2 3 3g.40gb", "gi 2 0 3 1 1g.10gb"]
    lines += [f"value gpu {g} {fid} i {fid + g}" for g in range(gpus) for fid in sorted(ids)]
    return lines


CASES = (
    ("8x A100 SXM, default list", 8, False, DEFAULT),
    ("8x A100 SXM, every field DCGM serves", 8, False, EVERY),
    ("A100 in MIG mode (3 GPU instances) + A100, default list", 2, True, DEFAULT),
)


def _setup(fake: FakeDcgm, gpus: int, mig: bool, ids: frozenset[int]) -> DcgmBackend:
    fake.apply("reset", *_model(gpus, mig, ids))
    return DcgmBackend(call_timeout_s=30.0)


def count_row(fake: FakeDcgm, label: str, gpus: int, mig: bool, ids: frozenset[int]) -> tuple[str, str]:
    backend = _setup(fake, gpus, mig, ids)
    request = ReadRequest(ids, health=True)
    try:
        backend.collect(request)
        first = fake.calls("")
        steady = []
        for _ in range(3):
            before = fake.calls("")
            backend.collect(request)
            steady.append(fake.calls("") - before)
    finally:
        backend.close()
    assert len(set(steady)) == 1, f"steady-state call count varies: {steady}"
    return (
        f"DCGM calls per collection: {label} ({len(ids)} fields, health on)",
        f"{steady[0]} for {gpus} GPUs = {steady[0] / gpus:g} per GPU (first collection incl. connect, discovery "
        f"and watches: {first}); baseline {len(ids)} per GPU",
    )


def time_row(fake: FakeDcgm, label: str, gpus: int, mig: bool, ids: frozenset[int], n: int = 300) -> tuple[str, str]:
    backend = _setup(fake, gpus, mig, ids)
    request = ReadRequest(ids, health=True)
    try:
        backend.collect(request)
        samples = []
        for _ in range(n):
            t0 = time.perf_counter()
            backend.collect(request)
            samples.append(time.perf_counter() - t0)
    finally:
        backend.close()
    samples.sort()
    p50, p99 = statistics.median(samples), samples[int(0.99 * (len(samples) - 1))]
    return f"collection time with the fake libdcgm: {label}", f"p50 {p50 * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms over {n}"


def measure(timed: tuple[int, ...] = (0, 1, 2)) -> list[tuple[str, str]]:
    """Every call-count row, and the time rows of the cases ``timed`` (indices into ``CASES``)."""
    with tempfile.TemporaryDirectory(prefix="gpuscope-bench-dcgm-") as work:
        library = build(Path(work))
        previous = os.environ.get("GPUSCOPE_LIBDCGM_PATH")
        os.environ["GPUSCOPE_LIBDCGM_PATH"] = str(library)
        try:
            fake = FakeDcgm(library)
            rows = [count_row(fake, *case) for case in CASES]
            rows += [time_row(fake, *CASES[i]) for i in timed]
        finally:
            if previous is None:
                del os.environ["GPUSCOPE_LIBDCGM_PATH"]
            else:
                os.environ["GPUSCOPE_LIBDCGM_PATH"] = previous
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--append", help="append the results to this markdown file")
    args = parser.parse_args()
    rows = measure()
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    if args.append:
        lines = [
            f"\n### DCGM backend — {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC\n",
            f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            "no GPU (the fake libdcgm of tests/fakedcgm, built with gcc). Command: `python bench/dcgm.py`.\n",
            "| measurement | result |",
            "|---|---|",
            *(f"| {k} | {v} |" for k, v in rows),
        ]
        with open(args.append, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
