"""The HPC job mapping directory is written by a scheduler's prolog and read by a root exporter whose ``/metrics``
anyone on the network may scrape: a link there must not publish another file's lines, a look-alike digit must not
name a GPU, and a file of job ids must not blow up the scrape. Through collection and exposition."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from gpuscope.exporter.workloads.hpc import MAX_JOB_ID_CHARS, MAX_JOBS_PER_GPU
from gpuscope.exporter.workloads.source import WorkloadSettings
from tests.exporter.workloads.test_hpc import jobs_of
from tests.support.exporter import RuntimeFactory, scrape


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
    ids = [str(i) for i in range(30_000)]  # ~170 KiB: the file's first 64 KiB are read, whole lines only
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
