"""Slurm job attribution from the mapping directory, through collection and exposition."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from gpuscope.exporter.workloads.hpc import read_job_dir
from gpuscope.exporter.workloads.model import WorkloadLabels
from gpuscope.exporter.workloads.source import WorkloadSettings
from tests.support.exporter import RuntimeFactory, reading, scrape
from tests.support.metrics_text import families


def jobs_of(text: str) -> list[tuple[str, str | None, str]]:
    fam = families(text).get("gpuscope_gpu_job_info")
    return [] if fam is None else [(s.labels["gpu"], s.labels.get("GPU_I_ID"), s.labels["hpc_job"]) for s in fam[1]]


def test_mapping_files_names_and_lines(tmp_path: Path) -> None:
    (tmp_path / "0").write_text("1001\n\n  \n1002\n1001\n")
    (tmp_path / "3.7").write_text("2001")
    (tmp_path / "4").write_text("\n")  # only blank lines: no job
    (tmp_path / "README").write_text("9999\n")
    (tmp_path / "1.x").write_text("9999\n")
    (tmp_path / "2").mkdir()
    assert read_job_dir(str(tmp_path)) == {(0, None): ("1001", "1002"), (3, 7): ("2001",)}
    with pytest.raises(FileNotFoundError):
        read_job_dir(str(tmp_path / "missing"))


def test_info_mode_job_series_and_job_end(make: RuntimeFactory, tmp_path: Path) -> None:
    runtime, _, clock = make(gpus=2, workloads=WorkloadSettings(hpc_dir=str(tmp_path)))
    (tmp_path / "1").write_text("4242\n4243\n")
    runtime.collect()
    text = scrape(runtime, clock)
    assert jobs_of(text) == [("1", None, "4242"), ("1", None, "4243")]
    assert "hpc_job" not in "".join(ln for ln in text.splitlines() if ln.startswith("DCGM_"))
    assert "gpuscope_exporter_hpc_job_mapping_dir_readable 1\n" in text
    (tmp_path / "1").unlink()  # the epilog removes the file when the job ends
    runtime.collect()
    assert jobs_of(scrape(runtime, clock)) == []


def test_mig_files_and_whole_gpu_files(make: RuntimeFactory, tmp_path: Path) -> None:
    runtime, _, clock = make(gpus=2, mig="3g.40gb:2", workloads=WorkloadSettings(hpc_dir=str(tmp_path)))
    runtime.collect()
    gpus = reading(runtime).gpus
    gi0, gi1 = (str(i.identity.gpu_instance_id) for i in gpus[0].instances)
    (tmp_path / f"0.{gi1}").write_text("77\n")
    (tmp_path / "1").write_text("88\n")
    runtime.collect()
    got = set(jobs_of(scrape(runtime, clock)))
    gj0, gj1 = (str(i.identity.gpu_instance_id) for i in gpus[1].instances)
    # A whole-GPU file on a MIG GPU describes the GPU and each instance, so joins on GPU_I_ID find them all.
    assert got == {("0", gi1, "77"), ("1", None, "88"), ("1", gj0, "88"), ("1", gj1, "88")}
    assert gi0 != gi1


def test_labels_mode_duplicates_series_per_job(make: RuntimeFactory, tmp_path: Path) -> None:
    settings = WorkloadSettings(mode=WorkloadLabels.LABELS, hpc_dir=str(tmp_path))
    runtime, _, clock = make(gpus=2, workloads=settings)
    (tmp_path / "0").write_text("11\n12\n")
    runtime.collect()
    temps = families(scrape(runtime, clock))["DCGM_FI_DEV_GPU_TEMP"][1]
    assert sorted((s.labels["gpu"], s.labels.get("hpc_job")) for s in temps) == [
        ("0", "11"),
        ("0", "12"),
        ("1", None),
    ]


def test_missing_directory_is_tolerated_and_logged_once(
    make: RuntimeFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = tmp_path / "jobs"
    runtime, _, clock = make(gpus=1, workloads=WorkloadSettings(hpc_dir=str(missing)))
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            runtime.collect()
    problems = [r for r in caplog.records if "--hpc-job-mapping-dir" in r.getMessage()]
    assert len(problems) == 1 and str(missing) in problems[0].getMessage()
    text = scrape(runtime, clock)
    assert "gpuscope_exporter_hpc_job_mapping_dir_readable 0\n" in text and "DCGM_FI_DEV_GPU_TEMP{" in text
    missing.mkdir()
    (missing / "0").write_text("5\n")
    runtime.collect()
    assert jobs_of(scrape(runtime, clock)) == [("0", None, "5")]
