"""``gpuscope report`` against a real Prometheus holding three weeks of backfilled history (promtool blocks).

The numbers must match what the generator put in (GPU-hours, active GPU-hours, kWh within 1%), the forecast the
growth it was made with, and the tier switch must read raw series for a week and rollups for three weeks.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gpuscope.cli import main
from gpuscope.runner.binaries import find_binary
from tests.support.prom import Prometheus, run_prometheus
from tests.support.reports import DAY, GPUS, GROWTH_EVERY_DAYS, MODEL, Fleet

pytestmark = pytest.mark.e2e

END = 1_795_305_600  # 2026-11-22T00:00Z, a fixed past instant: deterministic steps
FLEET = Fleet(start=END - 21 * DAY, end=END, raw_days=7)


@pytest.fixture(scope="module")
def prom(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    work = tmp_path_factory.mktemp("backfill")
    source = work / "history.om"
    source.write_text(FLEET.openmetrics())
    data = work / "prom" / "data"
    subprocess.run(
        [
            find_binary("promtool"),
            "tsdb",
            "create-blocks-from",
            "openmetrics",
            "--max-block-duration=720h",
            str(source),
            str(data),
        ],
        check=True,
        capture_output=True,
    )
    source.unlink()
    with run_prometheus(
        {"global": {"scrape_interval": "1m"}, "scrape_configs": []},
        work / "prom",
        extra_args=("--storage.tsdb.retention.time=100y",),
    ) as p:
        yield p


def report(prom: Prometheus, tmp_path: Path, *args: str, fmt: str = "json") -> tuple[int, dict[str, Any] | str]:
    out = tmp_path / f"report.{fmt}"
    code = main(["report", "--prometheus", prom.url, "-o", str(out), "--format", fmt, *args])
    if code != 0 or not out.exists():
        return code, ""
    text = out.read_text()
    return code, json.loads(text) if fmt == "json" else text


def close(actual: float, expected: float) -> bool:
    return abs(actual - expected) <= 0.01 * abs(expected)


def check_groups(body: dict[str, Any], truth: dict[str, tuple[float, float, float]]) -> None:
    rows = {r["group"]: r for r in body["groups"]}
    assert set(rows) == set(truth)
    for group, (held, active, kwh) in truth.items():
        row = rows[group]
        assert close(row["gpu_hours_held"], held), (group, row["gpu_hours_held"], held)
        assert close(row["active_gpu_hours"], active), (group, row["active_gpu_hours"], active)
        assert close(row["energy_kwh"], kwh), (group, row["energy_kwh"], kwh)
        assert close(row["efficiency"], active / held)


def test_week_from_raw_series_matches_the_generated_truth(prom: Prometheus, tmp_path: Path) -> None:
    start = END - 7 * DAY
    code, body = report(
        prom,
        tmp_path,
        "--from", str(start), "--to", str(END), "--group-by", "team",
        "--price-per-kwh", "0.2", "--gpu-hour-cost", f"{MODEL}=2.5",
    )  # fmt: skip
    assert code == 0 and isinstance(body, dict)
    assert body["range"]["tier"] == "raw" and body["range"]["step_seconds"] == 300
    truth = FLEET.truth(start, END, "team")
    check_groups(body, truth)
    research = next(r for r in body["groups"] if r["group"] == "research")
    held, active, kwh = truth["research"]
    assert close(research["idle_cost"], (held - active) * 2.5)
    assert close(research["energy_cost"], kwh * 0.2)
    # Activity source: the node without profiling counters falls back to NVML utilization.
    assert body["activity_source"] == {"profiling": 16, "gpus": 24}
    expected = {"<10%": 0, "10-50%": 0, ">50%": 0}
    for gpu in GPUS:
        m = FLEET.mean_activity(gpu, start, END)
        expected["<10%" if m < 0.1 else "10-50%" if m <= 0.5 else ">50%"] += 1
    assert body["distribution"] == expected
    kinds = [(i["kind"], i["subject"]) for i in body["incidents"]]
    assert kinds.count(("zombie memory", f"Hostname=gpu-node-2 UUID={GPUS[-1].uuid}")) == 1
    zombie = next(i for i in body["incidents"] if i["kind"] == "zombie memory")
    assert zombie["end"] - zombie["start"] == 4 * 3600
    idle = {i["subject"] for i in body["incidents"] if i["kind"] == "allocated but idle"}
    assert idle == {f"namespace=research pod=notebook-0 UUID={g.uuid}" for g in GPUS if g.node == 1 and g.index >= 4}


def test_jobs_are_pods_with_their_gpu_hours(prom: Prometheus, tmp_path: Path) -> None:
    start = END - 3 * DAY
    code, body = report(prom, tmp_path, "--from", str(start), "--to", str(END), "--group-by", "job")
    assert code == 0 and isinstance(body, dict)
    check_groups(body, FLEET.truth(start, END, "job"))


def test_three_weeks_read_the_rollups_and_forecast_the_growth(prom: Prometheus, tmp_path: Path) -> None:
    start = END - 21 * DAY
    code, body = report(prom, tmp_path, "--from", str(start), "--to", str(END), "--group-by", "namespace")
    assert code == 0 and isinstance(body, dict)
    assert body["range"]["tier"] == "rollup" and body["range"]["step_seconds"] == 3600
    assert body["incidents"] is None  # per-GPU incidents need the raw tier
    check_groups(body, FLEET.truth(start, END, "namespace"))
    f = body["forecast"]
    rate = 1 / GROWTH_EVERY_DAYS  # the growth team adds one GPU every three days
    assert abs(f["slope_per_day"] - rate) <= 0.1 * rate
    assert f["capacity"] == len(GPUS)
    # the distribution read from the rollups counts the GPUs capacity counts (each weighed by its share)
    unread = body["distribution_detail"]["no_reading_gpus"]
    assert sum(body["distribution"].values()) + unread == pytest.approx(len(GPUS)) and unread == 0
    truth = FLEET.full_on_trend()
    assert f["full_low"] < truth < f["full_high"]
    # A line fitted through stairs lags their midpoints a little (the sawtooth residuals pull the slope down).
    assert abs(f["full_at"] - truth) <= DAY


def test_html_is_self_contained_and_names_its_tier_and_queries(prom: Prometheus, tmp_path: Path) -> None:
    code, text = report(prom, tmp_path, "--from", str(END - 2 * DAY), "--to", str(END), fmt="html")
    assert code == 0 and isinstance(text, str)
    assert "read from raw exporter series (300 s steps)" in text
    assert text.count("<svg") >= 4
    # Nothing to fetch when it is opened: no scripts, stylesheets, images or fonts by reference.
    assert not re.search(r"<script|<link|<img|<iframe|(src|href)=\"(?!#)|url\((?!#)", text)
    assert "gpuscope_gpu_workload_info" in text and "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--from", str(END - 100 * DAY), "--to", str(END - 90 * DAY)), "no GPU series"),
        (("--from", str(END - DAY), "--to", str(END), "--group-by", "owner"), "--group-by 'owner'"),
        (("--from", str(END - DAY), "--to", str(END), "--group-by", "team", "--team-label", "squad"), "squad"),
        (("--from", str(END - DAY), "--to", str(END), "--gpu-hour-cost", "NVIDIA B200=9"), "has no 'NVIDIA B200'"),
        (("--from", str(END), "--to", str(END - DAY)), "--from must be before --to"),
        (("--from", "last tuesday"), "--from 'last tuesday'"),
        (("--from", str(END - DAY), "--to", str(END), "--gpu-hour-cost", "2.5"), "write MODEL=PRICE"),
        (("--from", str(END - 30 * DAY), "--to", str(END), "--group-by", "job"), "carry namespace, team, cluster only"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_no_file(
    prom: Prometheus, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _ = report(prom, tmp_path, *args)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # neither the report nor its temporary file


def test_prometheus_timing_out_leaves_no_file(
    prom: Prometheus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A real Prometheus gives up on the query itself: its per-query timeout is the one we pass.
    code, _ = report(prom, tmp_path, "--from", str(END - 7 * DAY), "--to", str(END), "--timeout", "0.000001")
    err = capsys.readouterr().err
    assert code == 3 and "--timeout" in err and len(err.strip().splitlines()) == 1  # an API that gave no answer
    assert list(tmp_path.iterdir()) == []
