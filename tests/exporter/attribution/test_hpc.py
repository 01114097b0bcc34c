"""Slurm job attribution from the mapping directory, through collection and exposition.

The directory is written by a scheduler's prolog and read by a root exporter whose ``/metrics`` anyone on the
network may scrape: a link there must not publish another file's lines, a look-alike digit must not name a GPU, and
a file of job ids must not blow up the scrape (the last tests)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from gpuscope.exporter.attribution.hpc import MAX_JOB_ID_CHARS, MAX_JOBS_PER_GPU, read_job_dir
from gpuscope.exporter.attribution.resolve import WorkloadLabels
from gpuscope.exporter.attribution.source import WorkloadSettings
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


def test_a_link_in_the_directory_is_never_followed(make: RuntimeFactory, tmp_path: Path) -> None:
    jobs, secrets = tmp_path / "jobs", tmp_path / "secret"
    jobs.mkdir()
    secrets.write_text("root:$6$hash:19000:0:99999:7:::\n")
    (jobs / "0").symlink_to(secrets)  # what /etc/shadow would be to a root exporter
    (jobs / "1").write_text("4242\n")
    runtime, _, clock = make(gpus=2, workloads=WorkloadSettings(hpc_dir=str(jobs)))
    runtime.collect()
    text = scrape(runtime, clock)
    assert jobs_of(text) == [("1", None, "4242")]
    assert "root:" not in text


@pytest.mark.parametrize("name", ["\u0663", "\uff14", "0\u0663", "01"])
def test_only_ascii_gpu_indices_name_a_gpu(make: RuntimeFactory, tmp_path: Path, name: str) -> None:
    # U+0663 (Arabic-Indic three) and U+FF14 (fullwidth four) are str.isdigit() and int() takes them; Go's \d,
    # dcgm-exporter's, does not. "01" is no GPU either: dcgm-exporter looks the name up as a string.
    (tmp_path / name).write_text("666\n")
    runtime, _, clock = make(gpus=5, workloads=WorkloadSettings(hpc_dir=str(tmp_path)))
    runtime.collect()
    assert jobs_of(scrape(runtime, clock)) == []


def test_job_ids_per_gpu_are_bounded_and_the_rest_logged(
    make: RuntimeFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ids = [str(i) for i in range(30_000)]  # ~170 KiB: the file's first 16 KiB are read, whole lines only
    (tmp_path / "0").write_text("\n".join(ids) + "\n")
    (tmp_path / "1").write_text("x" * (MAX_JOB_ID_CHARS + 1) + "\n77\n")
    runtime, _, clock = make(gpus=2, workloads=WorkloadSettings(hpc_dir=str(tmp_path)))
    with caplog.at_level(logging.WARNING):
        runtime.collect()
        runtime.collect()
    got = jobs_of(scrape(runtime, clock))
    assert [j for g, _, j in got if g == "0"] == ids[:MAX_JOBS_PER_GPU]
    assert [j for g, _, j in got if g == "1"] == ["77"]
    said = [r.getMessage() for r in caplog.records if "HPC job mapping file" in r.getMessage()]
    assert len(said) == 2  # once per file and problem, not once per collection
    assert any(os.path.join(str(tmp_path), "0") in m and f"more than {MAX_JOBS_PER_GPU} job ids" in m for m in said)
    assert any("not a job id" in m for m in said)
