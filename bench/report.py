"""``gpuscope report`` over a backfilled fleet of 1,000 GPUs: wall time, number of queries, bytes fetched.

Builds 30 days of 1 h chargeback rollups and the last day of raw 5 m exporter series for 125 nodes x 8 GPUs
(tests/support/reports.py's fleet, repeated), backfills them with ``promtool tsdb create-blocks-from openmetrics``,
starts Prometheus on the blocks and times a 30-day report (rollup tier) and a 1-day report (raw tier).
Usage: ``python bench/report.py [--nodes 125] [--days 30]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "src")]

from tests.support.prom import run_prometheus  # noqa: E402
from tests.support.reports import DAY, Fleet  # noqa: E402

from gpuscope.prom import Client, Endpoint, Limits  # noqa: E402
from gpuscope.report.collect import ReportRequest, collect  # noqa: E402
from gpuscope.report.html import render_html  # noqa: E402
from gpuscope.runner.binaries import find_binary  # noqa: E402

END = 1_795_305_600


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=125)
    parser.add_argument("--days", type=int, default=30)
    args = parser.parse_args()
    fleet = Fleet(start=END - args.days * DAY, end=END, raw_days=1, nodes=args.nodes)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        t0 = time.perf_counter()
        source = work / "history.om"
        source.write_text(fleet.openmetrics())
        size = source.stat().st_size
        t1 = time.perf_counter()
        promtool = [find_binary("promtool"), "tsdb", "create-blocks-from", "openmetrics", "--max-block-duration=720h"]
        subprocess.run([*promtool, str(source), str(work / "prom" / "data")], check=True, capture_output=True)
        source.unlink()
        t2 = time.perf_counter()
        print(
            f"{len(fleet.gpus)} GPUs, {args.days} days: generated {size / 1e6:.0f} MB in {t1 - t0:.1f}s, "
            f"backfilled in {t2 - t1:.1f}s"
        )
        config = {"global": {"scrape_interval": "1m"}, "scrape_configs": []}
        with run_prometheus(config, work / "prom", extra_args=("--storage.tsdb.retention.time=100y",)) as prom:
            for label, start in ((f"{args.days} d, rollup tier", END - args.days * DAY), ("1 d, raw tier", END - DAY)):
                client = Client(Endpoint(prom.url), limits=Limits(timeout_s=120))
                began = time.perf_counter()
                report = collect(client, ReportRequest(start=start, end=END, group_by="namespace"))
                fetched = time.perf_counter() - began
                page = render_html(report)
                total = time.perf_counter() - began
                client.close()
                print(
                    f"| {label} | {len(fleet.gpus)} | {total:.1f} s ({fetched:.1f} s queries) | {client.requests} | "
                    f"{client.bytes_read / 1e6:.2f} MB | {len(page) / 1e3:.0f} kB |"
                )


if __name__ == "__main__":
    main()
