"""Issue 51, ``gpuscope report`` through the CLI against a real Prometheus (promtool-backfilled blocks) holding what
no GPU measures: 1e308 and +Inf samples are dropped from every figure and the report says how many and why (JSON,
HTML, stderr), the sums stay finite and the plots draw; an answer of 150,000 series is one line naming the query
and the limit, not a MemoryError."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from gpuscope.errors import UsageError
from gpuscope.report.collect import ReportRequest, collect
from tests.report.store import stored
from tests.support.cli import gpuscope

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]

START = 1_795_305_600
END = START + 3 * 3600
MODEL = "NVIDIA H100 80GB HBM3"
RANGE = ("--from", str(START), "--to", str(END))


def _labels(i: int) -> str:
    return (
        f'cluster="c1",job="dcgm-exporter",instance="n{i}:9400",gpu="0",UUID="GPU-{i}",Hostname="n{i}",'
        f'modelName="{MODEL}"'
    )


def absurd_store() -> list[str]:
    """Two held GPUs sampled every minute: GPU 0 ordinary (half busy, 300 W), GPU 1 with an SM activity of 1.7e308
    at every third sample and +Inf at every fifth, and an energy counter that jumps to 1.7e308 mJ."""
    times = list(range(START - 600, END + 1, 60))
    lines = ["# TYPE DCGM_FI_DEV_GPU_TEMP gauge"]
    lines += [f"DCGM_FI_DEV_GPU_TEMP{{{_labels(i)}}} 40 {t}" for i in (0, 1) for t in times]
    lines.append("# TYPE DCGM_FI_PROF_SM_ACTIVE gauge")
    for i in (0, 1):
        for n, t in enumerate(times):
            value = "0.5" if i == 0 else "1.7e308" if n % 3 == 0 else "+Inf" if n % 5 == 0 else "0.5"
            lines.append(f"DCGM_FI_PROF_SM_ACTIVE{{{_labels(i)}}} {value} {t}")
    lines.append("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION gauge")
    for i in (0, 1):
        for n, t in enumerate(times):
            energy = 1.7e308 if i == 1 and n > 60 else 1e9 + n * 60 * 300 * 1000  # mJ: 300 W
            lines.append(f"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{{{_labels(i)}}} {energy!r} {t}")
    lines.append("# TYPE gpuscope_gpu_workload_info gauge")
    for i in (0, 1):
        info = f'{_labels(i)},container="main",namespace="team-{i}",pod="p{i}"'
        lines += [f"gpuscope_gpu_workload_info{{{info}}} 1 {t}" for t in times]
    return lines


def _strict(text: str) -> Any:
    def refuse(constant: str) -> float:
        raise AssertionError(f"the report wrote {constant}: not JSON, and no number a bill can carry")

    return json.loads(text, parse_constant=refuse)


def test_absurd_and_infinite_samples_are_dropped_counted_and_said(tmp_path: Path) -> None:
    with stored(tmp_path / "store", absurd_store()) as prom:
        runs = {}
        for fmt in ("json", "html"):
            out = tmp_path / f"report.{fmt}"
            runs[fmt] = gpuscope(
                "report", "--prometheus", prom.url, *RANGE, "--price-per-kwh", "0.2", "-o", str(out), "--format", fmt
            )
            assert runs[fmt].returncode == 0 and "Traceback" not in runs[fmt].stderr, runs[fmt].stderr[-3000:]
    body = _strict((tmp_path / "report.json").read_text())
    groups = {g["group"]: g for g in body["groups"]}
    for g in groups.values():
        for key in ("gpu_hours_held", "active_gpu_hours", "energy_kwh", "energy_cost", "idle_gpu_hours"):
            assert math.isfinite(g[key]) and abs(g[key]) < 1e6, (key, g)
    # the ordinary GPU is billed as it ran: 3 h held, half busy, 300 W
    assert groups["team-0"]["gpu_hours_held"] == pytest.approx(3.0)
    assert groups["team-0"]["energy_kwh"] == pytest.approx(0.9, rel=0.02)
    dropped = {d["query"]: d for d in body["dropped"]}
    assert dropped["energy"]["beyond"] > 0 and "W" in dropped["energy"]["bound"], dropped
    assert any(d["infinite"] > 0 for d in dropped.values()), dropped
    assert all(d["description"].startswith(f"{d['query']}: ") for d in dropped.values())
    page = (tmp_path / "report.html").read_text()
    assert "Left out of every figure below" in page and "<svg" in page
    assert dropped["energy"]["description"] in page
    assert dropped["energy"]["description"] in runs["json"].stderr  # said where a CSV user sees it too


def many_gpus(count: int) -> list[str]:
    lines = ["# TYPE DCGM_FI_DEV_GPU_TEMP gauge"]
    lines += [
        f'DCGM_FI_DEV_GPU_TEMP{{job="dcgm-exporter",UUID="GPU-{i}",modelName="{MODEL}"}} 40 {END}' for i in range(count)
    ]
    lines.append("# TYPE DCGM_FI_PROF_SM_ACTIVE gauge")
    lines += [
        f'DCGM_FI_PROF_SM_ACTIVE{{job="dcgm-exporter",UUID="GPU-{i}",modelName="{MODEL}"}} 0.5 {END}'
        for i in range(count)
    ]
    return lines


def test_an_answer_of_too_many_series_is_one_error_naming_the_query_and_the_limit(tmp_path: Path) -> None:
    """The series limit per answer (100,000 by default; 150,000 GPUs' worth took a minute of this suite to store
    and query, so the same path runs here at a limit of 1,000 over 1,500 GPUs): one error naming the query and the
    limit, before the answer is summed; the CLI turns it into one line and exit 2 as every UsageError."""
    request = ReportRequest(
        start=float(START), end=float(END), tier="raw", raw_step=60, scrape_interval=60, attribution="none",
        max_series=1_000,
    )  # fmt: skip
    with (
        stored(tmp_path / "store", many_gpus(1_500)) as prom,
        prom.client() as client,
        pytest.raises(UsageError) as refused,
    ):
        collect(client, request)
    message = str(refused.value)
    assert "'utilization distribution' answered 1,500 series" in message and "(1,000)" in message, message
    assert len(message.splitlines()) == 1
