"""``--config-file`` (dcgm-exporter 4.8.3's YAML version 1, 4.8.4's version 2 with plural ``collections``), through
the real CLI on the simulator: the file's metric source and interval take effect, flags and env vars that are set
win over it, and a file dcgm-exporter refuses is one ``file:line`` line and exit 2, never a traceback."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.support.exporter_process import GPUSCOPE, clean_env, exporter_process
from tests.support.net import free_port

pytestmark = pytest.mark.e2e

TWO_FIELDS = "DCGM_FI_DEV_GPU_TEMP, gauge, temperature\nDCGM_FI_DEV_POWER_USAGE, gauge, power\n"


def _families(text: str) -> set[str]:
    return set(re.findall(r"^(DCGM_FI_\w+)\{", text, re.M))


def _serve(tmp_path: Path, config: str, *extra: str, env: dict[str, str] | None = None) -> tuple[str, str]:
    (tmp_path / "config.yaml").write_text(config)
    port = free_port()
    command = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-gpus", "2", "-a", f"127.0.0.1:{port}"]
    command += ["--config-file", str(tmp_path / "config.yaml"), *extra]
    with exporter_process(command, f"http://127.0.0.1:{port}", tmp_path, env=clean_env(env)) as exporter:
        return exporter.get("/metrics").text, exporter.log()


def test_version_1_sets_the_collectors_file_and_the_interval(tmp_path: Path) -> None:
    (tmp_path / "two.csv").write_text(TWO_FIELDS)
    config = f"version: 1\nmetrics:\n  file: {tmp_path / 'two.csv'}\ncollection:\n  interval: 500ms\n"
    text, log = _serve(tmp_path, config)
    assert _families(text) == {"DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE"}
    assert "collect every 0.5s, 2 fields" in log
    assert "Traceback" not in log


def test_version_2_inline_fields_and_the_all_fields_collection(tmp_path: Path) -> None:
    config = """version: 2
metrics:
  fields:
    - name: DCGM_FI_DEV_GPU_TEMP
      prometheusType: gauge
      help: GPU temperature (in C), inline
collections:
  - name: scrape
    every: 700ms
    metrics:
      include: ["*"]
"""
    text, log = _serve(tmp_path, config)
    assert _families(text) == {"DCGM_FI_DEV_GPU_TEMP"}
    assert "# HELP DCGM_FI_DEV_GPU_TEMP GPU temperature (in C), inline" in text
    assert "collect every 0.7s, 1 fields" in log


def test_flags_and_env_vars_that_are_set_win_over_the_file(tmp_path: Path) -> None:
    (tmp_path / "two.csv").write_text(TWO_FIELDS)
    (tmp_path / "one.csv").write_text("DCGM_FI_DEV_SM_CLOCK, gauge, clock\n")
    config = f"version: 2\nmetrics:\n  file: {tmp_path / 'two.csv'}\ncollections:\n"
    config += "  - {name: scrape, every: 700ms, metrics: {include: ['*']}}\n"
    text, log = _serve(tmp_path, config, "-c", "300", env={"DCGM_EXPORTER_COLLECTORS": str(tmp_path / "one.csv")})
    assert _families(text) == {"DCGM_FI_DEV_SM_CLOCK"}  # the env var's -f, not the file's metrics.file
    assert "collect every 0.3s" in log  # -c, not the collection's every


def test_a_key_for_an_accepted_only_flag_says_so_once(tmp_path: Path) -> None:
    config = "version: 2\nmetrics:\n  enableExporterMetrics: true\nserver:\n  maxConcurrentScrapes: 4\n"
    text, log = _serve(tmp_path, config)
    assert "DCGM_FI_DEV_GPU_TEMP" in _families(text)  # no metric source in the file: the default list
    for key in ("metrics.enableExporterMetrics", "server.maxConcurrentScrapes"):
        assert len([ln for ln in log.splitlines() if f"{key} is accepted and has no effect" in ln]) == 1, log
    assert "go_goroutines" not in text


@pytest.mark.parametrize(
    ("config", "line", "why"),
    [
        ("version: 2\ncollection:\n  interval: 1s\n", 2, "unknown key 'collection'"),  # a version 1 key
        ("version: 1\ncollections: []\n", 2, "unknown key 'collections'"),  # and a version 2 one
        ("version: 3\n", 1, "version must be 1 or 2"),
        ("version: 1\nmetrics:\n  file: a.csv\n  file: b.csv\n", 4, "duplicate key metrics.file"),
        (
            "version: 1\nmetrics:\n  file: a.csv\n  fields: [{name: X, prometheusType: gauge, help: h}]\n",
            3,
            "exactly one of file or fields",
        ),
        ("version: 1\ncollection:\n  interval: 0s\n", 3, "must be greater than 0"),
        ("version: 1\ncollection:\n  interval: 1500us\n", 3, "whole milliseconds"),
        ("version: 2\ncollections: []\n", 2, "at least one collection"),
        ("version: 2\nsources:\n  dcgm:\n    watch:\n      maxKeepSamples: -1\n", 5, "must not be negative"),
        ("version: 1\n---\nversion: 1\n", 2, "found another document"),
        # issue 51: out of range is the file's line and key, never a flag that was not given
        ("version: 2\nsources:\n  dcgm:\n    watch:\n      maxKeepAge: 3000000h\n", 5, "maxKeepAge: invalid"),
        ("version: 2\nsources:\n  dcgm:\n    watch:\n      maxKeepAge: 0.0000000001ns\n", 5, "keep no samples"),
        ("version: 1\ncollection:\n  retention:\n    maxAge: 0s\n", 4, "would keep no samples"),
        ("version: 1\ncollection:\n  retention: {maxAge: 0s, maxSamples: 0}\n", 3, "cannot both be zero"),
        ("version: 2\nserver:\n  maxConcurrentScrapes: 9999999999999999999\n", 3, "whole number (64 bits)"),
        ("version: 1\nsources:\n  dcgm:\n    detectBindUnbind: {pollInterval: 9999999h}\n", 4, "pollInterval"),
    ],
)
def test_a_file_dcgm_exporter_refuses_is_one_line_and_exit_2(
    tmp_path: Path, config: str, line: int | None, why: str
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(config)
    result = subprocess.run(
        [*GPUSCOPE, "exporter", "--backend", "sim", "--config-file", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=clean_env(),
    )
    assert result.returncode == 2, result.stderr
    lines = [ln for ln in result.stderr.splitlines() if ln.strip() and " INFO " not in ln]
    assert len(lines) == 1, result.stderr
    where = f"{path}:{line}" if line else str(path)
    assert where in lines[0] and why in lines[0], lines[0]
    assert "Traceback" not in result.stderr and "--watch-max-keep" not in lines[0].split(": ", 2)[1]


def test_a_retention_of_any_size_go_reads_is_taken_as_the_file_gives_it(tmp_path: Path) -> None:
    # 10 µs: handed on as "1e-05s", which is no Go duration, it was refused as a --watch-max-keep-age never given
    _text, log = _serve(tmp_path, "version: 2\nsources:\n  dcgm:\n    watch:\n      maxKeepAge: 0.00001s\n")
    assert "error" not in log.lower() and "sets the watch retention" in log, log


def test_watch_settings_say_once_that_only_dcgm_uses_them(tmp_path: Path) -> None:
    config = "version: 2\ncollections:\n  - {name: fast, every: 1s, metrics: {include: [DCGM_FI_DEV_GPU_TEMP]}}\n"
    _text, log = _serve(tmp_path, config, "--watch-max-keep-age", "1m")
    said = [ln for ln in log.splitlines() if "without effect on the sim backend" in ln]
    assert len(said) == 1 and "--watch-max-keep-age" in said[0] and "watch groups" in said[0], log
