"""The report finds who holds each GPU in whichever form the store carries it (``--attribution auto``), or in the
form it is told, and says which it used.

One backfilled Prometheus holds the same small fleet (GPU 0 held by ``ml/train-0`` for the hour, GPU 1 free) five
times, one scrape job per form: gpuscope's info series, ``namespace``/``pod`` on the DCGM series (dcgm-exporter
``-k``), dcgm-exporter ``-o``'s ``pod_namespace``/``pod_name``, ``exported_namespace``/``exported_pod`` beside the
exporter pod's own ``namespace``/``pod`` (a ServiceMonitor with ``honorLabels: false``), and none. The ``-o`` job
names its GPUs ``uuid``, as dcgm-exporter does with ``-o``: the report finds that spelling too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuscope.cli import main
from gpuscope.report.attribution import Dialect
from gpuscope.report.collect import Report, ReportRequest, collect
from gpuscope.ruleconfig.config import RulesConfig
from tests.report.store import report, stored
from tests.support.prom import Prometheus

pytestmark = pytest.mark.e2e

MODEL = "NVIDIA H100 80GB HBM3"
START = 1_795_305_600
END = START + 3600
SCRAPE = 60
TIMES = range(START - 600 + 5, END + 600, SCRAPE)  # 60 samples in (START, END]: one GPU-hour held
EXPORTER_POD = {"namespace": "gpu-operator", "pod": "nvidia-dcgm-exporter-7xk2p"}
HOLDER = ("ml", "train-0")
# The scrape job each form is stored under (the info form under dcgm-exporter's own, what the CLI selects).
JOBS: dict[Dialect, str] = {
    "info": "dcgm-exporter",
    "labels": "dcgm-k",
    "old-labels": "dcgm-o",
    "exported": "dcgm-servicemonitor",
    "none": "dcgm-plain",
}


def holder_labels(dialect: Dialect) -> dict[str, str]:
    ns, pod = HOLDER
    return {
        "labels": {"namespace": ns, "pod": pod, "container": "main"},
        "old-labels": {"pod_namespace": ns, "pod_name": pod, "container_name": "main"},
        "exported": {"exported_namespace": ns, "exported_pod": pod, "exported_container": "main"},
    }.get(dialect, {})


# GPU memory in use (MiB): the held GPU's, and the free GPU's, which a leaked process holds (a zombie).
USED_MIB = {0: 4096, 1: 2048}


def openmetrics() -> list[str]:
    temp, used, info = [], [], []
    for dialect, job in JOBS.items():
        for gpu in (0, 1):
            labels = {
                "cluster": "c1",
                "job": job,
                "instance": f"{job}:9400",
                "gpu": str(gpu),
                # dcgm-exporter -o names the GPU's label uuid (reference/dcgm-exporter.md, 1.3)
                "uuid" if dialect == "old-labels" else "UUID": f"GPU-{job}-{gpu}",
                "modelName": MODEL,
                "Hostname": "node-0",
            }
            if dialect == "exported":
                labels |= EXPORTER_POD  # the target's own labels, on every series
            if gpu == 0:
                labels |= holder_labels(dialect)
            text = ",".join(f'{k}="{v}"' for k, v in labels.items())
            temp += [f"DCGM_FI_DEV_GPU_TEMP{{{text}}} 40 {t}" for t in TIMES]
            used += [f"DCGM_FI_DEV_FB_USED{{{text}}} {USED_MIB[gpu]} {t}" for t in TIMES]
            if dialect == "info" and gpu == 0:
                text += ',namespace="ml",pod="train-0",container="main"'
                info += [f"gpuscope_gpu_workload_info{{{text}}} 1 {t}" for t in TIMES]
    return [
        "# TYPE DCGM_FI_DEV_GPU_TEMP gauge",
        *temp,
        "# TYPE DCGM_FI_DEV_FB_USED gauge",
        *used,
        "# TYPE gpuscope_gpu_workload_info gauge",
        *info,
    ]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Prometheus]:
    with stored(tmp_path_factory.mktemp("attribution"), openmetrics()) as prom:
        yield prom


def collected(store: Prometheus, dialect: Dialect, attribution: str = "auto") -> Report:
    config = RulesConfig(exporter_selector=f'job="{JOBS[dialect]}"')
    request = ReportRequest(
        start=START,
        end=END,
        tier="raw",
        raw_step=300,
        config=config,
        attribution=attribution,  # type: ignore[arg-type]
    )
    with store.client() as client:
        return collect(client, request)


@pytest.mark.parametrize("dialect", list(JOBS))
def test_the_form_is_detected(store: Prometheus, dialect: Dialect) -> None:
    """Each store's form is found, the renamed ones before plain labels (an exported store's series carry the
    exporter pod's namespace and pod too), and none where there is none."""
    collected_report = collected(store, dialect)
    found = collected_report.attribution
    assert (found.dialect, found.detected) == (dialect, True)
    assert found.uuid_label == ("uuid" if dialect == "old-labels" else "UUID")
    assert collected_report.capacity_by_model == {MODEL: 2}  # GPUs told apart by the label the store has


def test_detection_is_bounded(store: Prometheus) -> None:
    """Detection asks one question per form tried, in order, and stops at the first found: a store in the exported
    form costs two queries more than the same report told its form (info, then exported), a store with none four.
    (Both ask which label names a GPU: one question where the configured UUID is there, two where it is not.)"""
    told = collected(store, "exported", attribution="exported")
    found = collected(store, "exported")
    assert found.query_count - told.query_count == 2  # info, then exported: found
    none_told = collected(store, "none", attribution="none")
    none_found = collected(store, "none")
    assert none_found.query_count - none_told.query_count == 4


@pytest.mark.parametrize("dialect", ["info", "labels", "old-labels", "exported"])
def test_every_form_bills_the_same(store: Prometheus, dialect: Dialect) -> None:
    """The same fleet in every form: one GPU-hour held by namespace ml, nothing else."""
    rows = {r.group: r.gpu_hours_held for r in collected(store, dialect).rows}
    assert rows == pytest.approx({"ml": 1.0})


@pytest.mark.parametrize("dialect", ["info", "labels", "old-labels", "exported"])
def test_zombie_memory_is_memory_nobody_holds_in_every_form(store: Prometheus, dialect: Dialect) -> None:
    """GPU memory in use counts as a zombie only on a GPU nobody holds, whichever form says who holds it: the held
    GPU 0 is not one (the query read the info series alone, so every held GPU of a labels-form store was)."""
    incidents = collected(store, dialect).incidents or ()
    zombies = sorted(i.subject for i in incidents if i.kind == "zombie memory")
    assert len(zombies) == 1 and zombies[0].endswith(f"GPU-{JOBS[dialect]}-1"), zombies


def test_the_flag_is_used_and_said(store: Prometheus, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--attribution is used as given (not detected) and the JSON, the HTML and the CLI's line say which."""
    body = report(store, tmp_path, "--from", str(START), "--to", str(END), "--attribution", "none")
    assert body["attribution"]["dialect"] == "none" and body["attribution"]["detected"] is False
    assert body["groups"] == [] and body["attributed"] is False  # told none: no holders read
    assert body["capacity_by_model"] == {MODEL: 2}  # the fleet figures still
    assert "attribution none (--attribution)" in capsys.readouterr().out
    body = report(store, tmp_path, "--from", str(START), "--to", str(END))
    assert body["attribution"]["dialect"] == "info" and body["attribution"]["detected"] is True
    out = tmp_path / "report.html"
    assert main(["report", "--prometheus", store.url, "--from", str(START), "--to", str(END), "-o", str(out)]) == 0
    assert "attribution info (detected)" in out.read_text()


@pytest.mark.parametrize("value", ["pods", "INFO", "label"])
def test_a_bad_attribution_is_one_line(capsys: pytest.CaptureFixture[str], value: str) -> None:
    code = main(["report", "--prometheus", "http://127.0.0.1:9", "--from", "now-1h", "--attribution", value])
    err = capsys.readouterr().err.strip()
    assert code == 2 and f"--attribution {value!r}" in err and len(err.splitlines()) == 1, err
