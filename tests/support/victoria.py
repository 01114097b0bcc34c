"""A real VictoriaMetrics (the local stack's global store) holding given samples: MetricsQL answers some PromQL
differently from Prometheus (``changes`` counts a series' first sample, windows leave the start out), so queries
the stack's dashboards and report send it are tested on both, with the same samples."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.support.net import free_port, wait_for
from tests.support.prom import Prometheus, binary, serving_binary


@contextmanager
def victoria_metrics(work: Path, lines: list[str], searchable: Callable[[Prometheus], bool]) -> Iterator[Prometheus]:
    """``lines`` (OpenMetrics samples, timestamps in seconds) imported in the text format (milliseconds), queried
    once ``searchable`` says they all are."""
    url = f"http://127.0.0.1:{free_port()}"
    argv = [
        binary("victoria-metrics"),
        f"-storageDataPath={work / 'vm'}",
        f"-httpListenAddr={url.removeprefix('http://')}",
        "-search.latencyOffset=0s",  # else the newest 30 s are hidden (reference/prometheus-stack.md)
        "-retentionPeriod=100y",
    ]
    samples = [f"{head} {int(t) * 1000}" for head, t in (s.rsplit(" ", 1) for s in lines if not s.startswith("#"))]
    with serving_binary("victoria-metrics", argv, work, url):
        httpx.post(f"{url}/api/v1/import/prometheus", content="\n".join(samples) + "\n", timeout=60).raise_for_status()
        httpx.get(f"{url}/internal/force_flush", timeout=30).raise_for_status()
        prom = Prometheus(url, work)
        wait_for(lambda: searchable(prom), what="every imported sample searchable")
        yield prom
