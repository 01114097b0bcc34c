"""DCGM field watches as dcgm-exporter 4.8.3/4.8.4 sets them, through the real CLI over the fake libdcgm: the
default watch at the collection interval with ``--watch-max-keep-age``/``--watch-max-keep-samples``, and the
config file's watch groups (version 1) and collections (version 2) as watches of their own interval and retention.

The fake writes each ``dcgmWatchFields`` call (updateFreq us, maxKeepAge s, maxKeepSamples, the field ids) to
``$GPUSCOPE_FAKEDCGM_WATCHLOG``: the calls the exporter made are what the test reads.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.fakedcgm.nodes import two_a100s
from tests.support.exporter_process import scrape_until
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

TEMP, POWER, SM_CLOCK = 150, 155, 100
CSV = "DCGM_FI_DEV_GPU_TEMP, gauge, t\nDCGM_FI_DEV_POWER_USAGE, gauge, p\nDCGM_FI_DEV_SM_CLOCK, gauge, c\n"


def _run(tmp_path: Path, fake_library: Path, *args: str, config: str | None = None) -> tuple[dict[int, str], str]:
    """Serve until GPU 0's temperature is up; (field id -> "FREQ AGE SAMPLES" of its watch, the exporter's log)."""
    (tmp_path / "model.txt").write_text("\n".join([*two_a100s()[:2], "value gpu 0 150 i 41"]) + "\n")
    (tmp_path / "fields.csv").write_text(CSV)
    watch_log = tmp_path / "watches.log"
    env = {
        **os.environ,
        "GPUSCOPE_LIBDCGM_PATH": str(fake_library),
        "GPUSCOPE_FAKEDCGM_MODEL": str(tmp_path / "model.txt"),
        "GPUSCOPE_FAKEDCGM_WATCHLOG": str(watch_log),
    }
    port = free_port()
    command = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "dcgm", "-a", f"127.0.0.1:{port}"]
    command += ["-f", str(tmp_path / "fields.csv"), "--node-name", "n1", *args]
    if config is not None:
        (tmp_path / "config.yaml").write_text(config)
        command += ["--config-file", str(tmp_path / "config.yaml")]
    text, stderr = scrape_until(
        command,
        env,
        f"http://127.0.0.1:{port}",
        lambda text: text if "DCGM_FI_DEV_GPU_TEMP{" in text else None,
        "GPU temperature from the fake libdcgm",
    )
    assert text is not None, stderr
    watches: dict[int, str] = {}
    for line in watch_log.read_text().splitlines():
        _, freq, age, samples, *ids = line.split()
        for fid in map(int, ids):
            watches.setdefault(fid, f"{freq} {float(age):g} {samples}")
    return watches, stderr


def test_the_default_watch_is_the_interval_and_the_retention_flags(tmp_path: Path, fake_library: Path) -> None:
    watches, _log = _run(tmp_path, fake_library, "-c", "2000", "--watch-max-keep-age", "90s",
                         "--watch-max-keep-samples", "5")  # fmt: skip
    assert watches[TEMP] == watches[POWER] == watches[SM_CLOCK] == "2000000 90 5"


def test_version_2_collections_are_watches_of_their_own(tmp_path: Path, fake_library: Path) -> None:
    config = """version: 2
sources:
  dcgm:
    watch: {maxKeepAge: 5m}
collections:
  - name: scrape
    every: 1s
    metrics: {include: ["*"]}
  - name: fast-thermals
    every: 200ms
    sources:
      dcgm:
        watch: {maxKeepAge: 0s, maxKeepSamples: 2}
    metrics:
      include: [DCGM_FI_DEV_GPU_*]
"""
    watches, log = _run(tmp_path, fake_library, config=config)
    assert watches[TEMP] == "200000 0 2"  # the fast collection: its interval and retention
    assert watches[POWER] == watches[SM_CLOCK] == "1000000 300 0"  # the all-fields one, over sources.dcgm.watch
    assert (
        "(config file version 2) sets the watch retention, the collection interval, watch groups (fast-thermals)" in log
    )


def test_version_1_watch_groups_and_a_flag_that_wins(tmp_path: Path, fake_library: Path) -> None:
    config = """version: 1
collection:
  interval: 1s
  retention: {maxAge: 2m}
  watchGroups:
    - name: slow-power
      interval: 5s
      fields: [DCGM_FI_DEV_POWER_USAGE]
      retention: {maxSamples: 3}
"""
    watches, _log = _run(tmp_path, fake_library, "--watch-max-keep-age", "30s", config=config)
    assert watches[POWER] == "5000000 30 3"  # the group's interval and samples; the flag's age wins over the file
    assert watches[TEMP] == "1000000 30 0"


def test_a_pattern_that_matches_no_field_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "fields.csv").write_text(CSV)
    (tmp_path / "config.yaml").write_text(
        "version: 2\ncollections:\n  - {name: nvlink, every: 5m, metrics: {include: [DCGM_FI_DEV_NVLINK_*]}}\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "-f", str(tmp_path / "fields.csv"),
         "--config-file", str(tmp_path / "config.yaml")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    lines = [ln for ln in result.stderr.splitlines() if ln.strip() and " INFO " not in ln]
    assert len(lines) == 1 and f"{tmp_path / 'config.yaml'}:3" in lines[0] and "matches no configured field" in lines[0]
    assert "Traceback" not in result.stderr


def test_both_retention_limits_zero_is_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "--watch-max-keep-age", "0s",
         "--watch-max-keep-samples", "0"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2
    assert "cannot both be 0" in result.stderr and "Traceback" not in result.stderr


def test_health_require_gpus_is_503_while_dcgm_sees_no_gpu(tmp_path: Path, fake_library: Path) -> None:
    (tmp_path / "model.txt").write_text("value none 0 1 s 550.54.15\n")  # a host engine with no GPU
    env = {
        **os.environ,
        "GPUSCOPE_LIBDCGM_PATH": str(fake_library),
        "GPUSCOPE_FAKEDCGM_MODEL": str(tmp_path / "model.txt"),
    }
    port = free_port()
    command = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "dcgm", "-a", f"127.0.0.1:{port}"]
    command += ["-c", "300", "--node-name", "n1", "--health-require-gpus"]
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:

        def health() -> httpx.Response | None:
            if proc.poll() is not None:
                raise AssertionError("the exporter exited")
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/health", timeout=5)
            except httpx.TransportError:
                return None
            return r if r.status_code == 503 and "no GPU" in r.text else None

        answer = wait_for(health, what="/health 503 for no GPU")
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert answer.json()["gpus"] == 0 and "--health-require-gpus" in answer.json()["reason"]
