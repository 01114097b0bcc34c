"""The report on a fleet with Slurm jobs and MIG instances, read as a newcomer reads it (issue 54, item 5).

One backfilled Prometheus holds a 15-minute range of six GPUs, twice: once in gpuscope's info form
(``gpuscope_gpu_workload_info``, ``gpuscope_gpu_job_info``) and once in the labels form (``namespace``/``pod`` and
``hpc_job`` on the DCGM series, dcgm-exporter ``-k`` with ``--hpc-job-mapping-dir``, each series of a job's GPU
carrying its ``hpc_job``). Four H100s are whole GPUs, two A100s are in MIG mode: every series of a MIG GPU is
per instance (``GPU_I_ID``, ``GPU_I_PROFILE``; device-level fields repeat per instance, docs/counting.md), one
A100 fully partitioned (3g + 2g + 1g + 1g), the other with one 3g instance and four slices in none.

Held: H100 0 by the pod ml/train-0, H100 1 and 2 by Slurm job 1001, the A100's 3g instance 1 by Slurm job 1002,
the other A100's 3g instance by the pod ml/infer-0. Memory in use where nobody holds it: H100 3 and the A100's 2g
instance 5 (whose neighbour, instance 1, is held), the zombies.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpuscope.cli import main
from gpuscope.report.attribution import Dialect
from gpuscope.report.collect import Report, ReportRequest, collect
from gpuscope.report.html import time_unit
from gpuscope.ruleconfig.config import RulesConfig
from tests.report.store import report, stored
from tests.support.prom import Prometheus

pytestmark = pytest.mark.e2e

H100 = "NVIDIA H100 80GB HBM3"
A100 = "NVIDIA A100-SXM4-80GB"
START = 1_795_305_600  # 2026-11-22T00:00Z
END = START + 900  # the README's 15 minutes
SCRAPE = 15
TIMES = range(START - 600 + 5, END + 60, SCRAPE)  # one sample per 15 s sub-step of (START, END]
HOURS = (END - START) / 3600
# The scrape job each form is stored under (the info form under dcgm-exporter's own, what the CLI selects).
JOBS: dict[Dialect, str] = {"info": "dcgm-exporter", "labels": "dcgm-k"}


@dataclass(frozen=True)
class Unit:
    """A whole GPU, or one MIG instance (``instance`` and ``profile`` set), with what it reports and who holds it."""

    host: str
    gpu: int
    model: str
    activity: float  # SM active, the whole range
    used_mib: int
    instance: str = ""
    profile: str = ""
    pod: str = ""  # held by the pod ml/<pod>
    job: str = ""  # held by the Slurm job

    @property
    def uuid(self) -> str:
        return f"GPU-{self.host}-{self.gpu}"

    @property
    def share(self) -> float:
        return int(self.profile[0]) / 7 if self.profile else 1.0


FLEET = (
    Unit("node-h", 0, H100, 0.8, 4096, pod="train-0"),
    Unit("node-h", 1, H100, 0.3, 4096, job="1001"),
    Unit("node-h", 2, H100, 0.05, 4096, job="1001"),
    Unit("node-h", 3, H100, 0.0, 2048),  # a zombie: memory in use, nobody holds it
    Unit("node-a", 0, A100, 0.9, 4096, instance="1", profile="3g.40gb", job="1002"),
    Unit("node-a", 0, A100, 0.2, 2048, instance="5", profile="2g.20gb"),  # a zombie beside a held instance
    Unit("node-a", 0, A100, 0.0, 0, instance="13", profile="1g.10gb"),
    Unit("node-a", 0, A100, 0.0, 0, instance="14", profile="1g.10gb"),
    Unit("node-a", 1, A100, 0.6, 4096, instance="2", profile="3g.40gb", pod="infer-0"),  # 4 slices in no instance
)
ZOMBIES = {"Hostname=node-h UUID=GPU-node-h-3", "Hostname=node-a UUID=GPU-node-a-0 GPU_I_ID=5"}


def openmetrics() -> list[str]:
    families: dict[str, list[str]] = {
        "DCGM_FI_DEV_GPU_TEMP": [],
        "DCGM_FI_DEV_FB_USED": [],
        "DCGM_FI_PROF_SM_ACTIVE": [],
        "gpuscope_gpu_workload_info": [],
        "gpuscope_gpu_job_info": [],
    }
    for dialect, scrape_job in JOBS.items():
        for u in FLEET:
            labels = {
                "cluster": "c1",
                "job": scrape_job,
                "instance": f"{u.host}:9400",
                "gpu": str(u.gpu),
                "UUID": u.uuid,
                "modelName": u.model,
                "Hostname": u.host,
            }
            if u.instance:
                labels |= {"GPU_I_ID": u.instance, "GPU_I_PROFILE": u.profile}
            holder = {"namespace": "ml", "pod": u.pod, "container": "main"} if u.pod else {}
            job = {"hpc_job": u.job} if u.job else {}
            series = labels | holder | job if dialect == "labels" else labels
            text = ",".join(f'{k}="{v}"' for k, v in series.items())
            for name, value in (
                ("DCGM_FI_DEV_GPU_TEMP", 40.0),
                ("DCGM_FI_DEV_FB_USED", u.used_mib),
                ("DCGM_FI_PROF_SM_ACTIVE", u.activity),
            ):
                families[name] += [f"{name}{{{text}}} {value} {t}" for t in TIMES]
            if dialect == "info":
                for name, extra in (("gpuscope_gpu_workload_info", holder), ("gpuscope_gpu_job_info", job)):
                    if extra:
                        info = ",".join(f'{k}="{v}"' for k, v in (labels | extra).items() if k != "modelName")
                        families[name] += [f"{name}{{{info}}} 1 {t}" for t in TIMES]
    return [line for name, lines in families.items() for line in (f"# TYPE {name} gauge", *lines)]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    with stored(tmp_path_factory.mktemp("slurm-mig"), openmetrics()) as prom:
        yield prom


def collected(store: Prometheus, dialect: Dialect, group_by: str = "namespace") -> Report:
    request = ReportRequest(
        start=START,
        end=END,
        tier="raw",
        raw_step=SCRAPE,
        group_by=group_by,
        config=RulesConfig(exporter_selector=f'job="{JOBS[dialect]}"'),
    )
    with store.client() as client:
        return collect(client, request)


def cli(store: Prometheus, out: Path, *args: str) -> int:
    return main(["report", "--prometheus", store.url, "--from", str(START), "--to", str(END), "--step", "15",
                 "-o", str(out), *args])  # fmt: skip


@pytest.mark.parametrize("dialect", list(JOBS))
def test_a_gpu_a_slurm_job_holds_is_no_zombie_and_a_leak_beside_a_held_instance_is_one(
    store: Prometheus, dialect: Dialect
) -> None:
    """Zombie memory is memory in use on a GPU or MIG instance nobody holds: not the GPUs Slurm jobs hold (their
    gpuscope_gpu_job_info series, or hpc_job on the series), and per instance, so the held 3g instance of an A100
    neither hides the leak on its 2g neighbour nor clears it (the query read holders per GPU)."""
    got = collected(store, dialect)
    assert got.attribution.dialect == dialect
    zombies = {i.subject for i in got.incidents or () if i.kind == "zombie memory"}
    assert zombies == ZOMBIES


@pytest.mark.parametrize("dialect", list(JOBS))
def test_top_jobs_name_each_pod_and_slurm_job_with_its_gpu_hours(store: Prometheus, dialect: Dialect) -> None:
    """Each group's top jobs are its pods and Slurm jobs, each with its own GPU-hours (a MIG instance its share):
    the Slurm jobs were one nameless job, the sum of them all."""
    top = {r.group: r.top_jobs for r in collected(store, dialect).rows}
    assert set(top) == {"ml", ""}
    assert [n for n, _ in top["ml"]] == ["train-0", "infer-0"]
    assert [h for _, h in top["ml"]] == pytest.approx([HOURS, 3 / 7 * HOURS])
    assert [n for n, _ in top[""]] == ["hpc_job 1001", "hpc_job 1002"]
    assert [h for _, h in top[""]] == pytest.approx([2 * HOURS, 3 / 7 * HOURS])


def test_the_distribution_counts_gpus_as_capacity_does(store: Prometheus, tmp_path: Path) -> None:
    """GPUs by mean activity, in physical GPUs: a whole GPU 1, a MIG instance its share, the slices of a MIG GPU
    in no instance below 10%; the buckets add up to the fleet's GPUs (6, not the 9 GPUs and instances)."""
    body = report(store, tmp_path, "--from", str(START), "--to", str(END), "--step", "15")
    gpus = sum(body["capacity_by_model"].values())
    assert gpus == 6
    expected = {"<10%": 0.0, "10-50%": 0.0, ">50%": 0.0}
    for u in FLEET:
        expected["<10%" if u.activity < 0.1 else "10-50%" if u.activity <= 0.5 else ">50%"] += u.share
    expected["<10%"] += 4 / 7  # the A100 with one 3g instance: four slices do no work
    assert body["distribution"] == pytest.approx(expected)
    assert sum(body["distribution"].values()) == pytest.approx(gpus)
    detail = body["distribution_detail"]
    assert detail["whole_gpus"] == {"<10%": 2, "10-50%": 1, ">50%": 1}
    assert detail["mig_instances"] == {"<10%": 2, "10-50%": 1, ">50%": 2}
    assert detail["unpartitioned_gpus"] == pytest.approx(4 / 7) and detail["no_reading_gpus"] == 0
    out = tmp_path / "report.html"
    assert cli(store, out) == 0
    page = out.read_text()
    assert "6.00 GPUs in all" in page and "below 10%: <b>2.86</b> (2 whole GPUs, 2 MIG instances" in page


def test_one_rounding_for_the_headline_the_table_and_the_top_jobs(store: Prometheus, tmp_path: Path) -> None:
    """The headline's GPU-hours, the table's and each top job's have the same decimals, enough that a pod's
    quarter of a GPU-hour is not "(0)" and the headline is the table's sum as the table rounds it."""
    out = tmp_path / "report.html"
    assert cli(store, out) == 0
    page = out.read_text()
    card = re.search(r"<div class=card>GPU-hours held<b>([0-9.,]+)</b>", page)
    cells = re.findall(r"<tr><td>[^<]*</td><td class=n>([0-9.,]+)</td>", page)
    jobs = re.findall(r"(?:train-0|infer-0|hpc_job 100[12]) \(([0-9.,]+)\)", page)
    assert card and len(cells) == 2 and len(jobs) == 4, (card, cells, jobs)
    figures = [card.group(1), *cells, *jobs]
    assert len({len(f.partition(".")[2]) for f in figures}) == 1, figures  # one number of decimals
    held = (1 + 3 / 7 + 2 + 3 / 7) * HOURS
    assert card.group(1) == f"{held:.{len(jobs[0].partition('.')[2])}f}"
    assert "train-0 (0.25)" in page and "hpc_job 1001 (0.50)" in page


@pytest.mark.parametrize(
    ("seconds", "unit"),
    [(900, "minutes"), (7199, "minutes"), (7200, "hours"), (6 * 3600, "hours"), (7 * 86400, "days")],
)
def test_the_time_axis_unit_fits_the_range(seconds: int, unit: str) -> None:
    assert time_unit(seconds)[0] == unit


def test_the_charts_count_minutes_on_a_15_minute_report(store: Prometheus, tmp_path: Path) -> None:
    """A 15-minute report's time axes are minutes since its start (they were days, 0.000 to 0.010)."""
    out = tmp_path / "report.html"
    assert cli(store, out) == 0
    page = out.read_text()
    assert page.count("minutes since 2026-11-22 00:00 UTC") == 2 and "days since" not in page


def test_costs_say_their_currency_and_unpriced_models_are_warned_about(
    store: Prometheus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--currency is shown with every cost (HTML, CSV, JSON), "cost units" without it; the models of the fleet
    without a --gpu-hour-cost are named in one warning line on stderr with the flag that prices them, and in the
    page; a group on unpriced models only has no idle cost, not a zero one."""
    out = tmp_path / "report.html"
    assert cli(store, out, "--gpu-hour-cost", f"{H100}=4", "--price-per-kwh", "0.2", "--currency", "USD") == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and repr(A100) in err[0] and "--gpu-hour-cost" in err[0] and H100 not in err[0], err
    page = out.read_text()
    assert "idle cost (USD)" in page and "energy cost (USD)" in page
    assert re.search(r"<div class=card>idle cost<b>[0-9.,]+ USD</b>", page)
    assert f"No price for {A100}" in page
    csv_out = tmp_path / "report.csv"
    assert cli(store, csv_out, "--format", "csv", "--gpu-hour-cost", f"{H100}=4", "--currency", "€") == 0
    header, *lines = csv_out.read_text(encoding="utf-8").splitlines()
    assert header.endswith(",currency") and all(line.endswith(",€") for line in lines)
    body = report(store, tmp_path, "--from", str(START), "--to", str(END), "--step", "15", "--group-by", "job",
                  "--gpu-hour-cost", f"{H100}=4")  # fmt: skip
    assert body["prices"]["currency"] == "" and body["prices"]["unpriced_models"] == [A100]
    costs = {g["group"]: g["idle_cost"] for g in body["groups"]}
    assert costs["infer-0"] is None and costs["train-0"] == pytest.approx(4 * (1 - 0.8) * HOURS)
    capsys.readouterr()
    assert cli(store, out, "--gpu-hour-cost", f"{H100}=4") == 0
    assert "idle cost (cost units)" in out.read_text()


@pytest.mark.parametrize("value", ["US\x07D", "dollars of the United States"])
def test_a_bad_currency_is_one_line(capsys: pytest.CaptureFixture[str], value: str) -> None:
    code = main(["report", "--prometheus", "http://127.0.0.1:9", "--from", "now-1h", "--currency", value])
    err = capsys.readouterr().err.strip()
    assert code == 2 and f"--currency {value!r}" in err and "printable" in err and len(err.splitlines()) == 1, err


def test_a_currency_is_text_in_the_page(store: Prometheus, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert cli(store, out, "--gpu-hour-cost", f"{H100}=4", "--currency", "<b>€") == 0
    page = out.read_text()
    assert "idle cost (&lt;b&gt;€)" in page and "<b>€" not in page


def test_the_line_says_the_size_of_the_file_written(
    store: Prometheus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command's line gives the bytes on disk, and the bytes read from Prometheus as such (those were the only
    bytes it said, and read as the file's size)."""
    for fmt in ("html", "json"):
        out = tmp_path / f"report.{fmt}"
        assert cli(store, out, "--format", fmt) == 0
        line = capsys.readouterr().out.strip()
        assert line.startswith(f"{out}: {out.stat().st_size:,} bytes, "), line
        assert re.search(r"read [0-9,]+ bytes from Prometheus in [0-9]+ queries$", line), line
