"""Concurrent scrapes share one collection and one render (dcgm-exporter 4.8.4's request coalescing, PR #745),
through the real CLI: with an hour between collections, 32 concurrent ``/metrics`` requests, more than
``--max-concurrent-scrapes 1`` admits in dcgm-exporter, are all answered 200 with the same collection's bytes."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from tests.support.exporter_process import GPUSCOPE, exporter_process
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e


def _dcgm_part(text: str) -> str:
    """The rendered DCGM families: what one collection's render holds (the self-metrics tail is per scrape)."""
    return "\n".join(line for line in text.splitlines() if line.startswith("DCGM_FI_"))


def test_concurrent_scrapes_are_served_one_render(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [*GPUSCOPE, "exporter", "--backend", "sim", "-a", f"127.0.0.1:{port}", "-c", "3600000"]
    command += ["--max-concurrent-scrapes", "1"]
    with exporter_process(command, url, tmp_path) as exporter:
        wait_for(lambda: "DCGM_FI_DEV_GPU_TEMP{" in exporter.get("/metrics").text, what="the first collection")
        with ThreadPoolExecutor(max_workers=32) as pool:
            answers = list(pool.map(lambda _: httpx.get(f"{url}/metrics", timeout=30), range(32)))
        log = exporter.log()
    assert [a.status_code for a in answers] == [200] * 32
    assert len({_dcgm_part(a.text) for a in answers}) == 1
    counts = [re.findall(r"^gpuscope_exporter_collections_total (\d+)$", a.text, re.M) for a in answers]
    assert counts == [["1"]] * 32  # no scrape collected
    assert "--max-concurrent-scrapes is accepted and has no effect" in log
