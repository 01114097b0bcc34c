"""The opt-in fields of dcgm-exporter 4.8.4: fabric health (``DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY``, field 175, and
``DCGM_FI_DEV_FABRIC_HEALTH_MASK``, 174, in the vendored dcgm_fields.h) and the power limits: commented rows of the
shipped collectors file, served once uncommented, through the real CLI on the simulator and on the DCGM backend
(the fake libdcgm)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from gpuscope.fields.catalog import HEADER_IDS
from gpuscope.fields.collectors import default_counters_text
from tests.fakedcgm.nodes import two_a100s
from tests.support.exporter_process import GPUSCOPE, exporter_process
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

FABRIC = ("DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY", "DCGM_FI_DEV_FABRIC_HEALTH_MASK")


def _opted_in(tmp_path: Path, names: tuple[str, ...] = FABRIC) -> Path:
    """The shipped default list with those commented rows uncommented (what a user opting in does)."""
    text = default_counters_text()
    for name in names:
        assert re.search(rf"^# {name},", text, re.M), f"{name} is not a commented row of default-counters.csv"
        text = re.sub(rf"^# ({name},)", r"\1", text, flags=re.M)
    path = tmp_path / "fields.csv"
    path.write_text(text)
    return path


def test_the_header_ids_are_dcgm_s() -> None:
    assert HEADER_IDS["DCGM_FI_DEV_FABRIC_HEALTH_MASK"] == 174
    assert HEADER_IDS["DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY"] == 175


def test_the_power_limit_rows_are_opt_in_too(tmp_path: Path) -> None:
    """dcgm-exporter 4.8.4 (#719) ships DCGM_FI_DEV_POWER_MGMT_LIMIT and DCGM_FI_DEV_ENFORCED_POWER_LIMIT opt-in."""
    names = ("DCGM_FI_DEV_POWER_MGMT_LIMIT", "DCGM_FI_DEV_ENFORCED_POWER_LIMIT")
    port = free_port()
    command = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-gpus", "2", "-a", f"127.0.0.1:{port}"]
    with exporter_process([*command, "-f", str(_opted_in(tmp_path, names))], f"http://127.0.0.1:{port}", tmp_path) as e:
        text = e.get("/metrics").text
    for name in names:
        assert len(re.findall(rf"^{name}\{{", text, re.M)) == 2, name


def test_off_by_default_and_served_once_uncommented_on_the_simulator(tmp_path: Path) -> None:
    port = free_port()
    base = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-model", "gb200", "--sim-gpus", "2"]
    base += ["-a", f"127.0.0.1:{port}"]  # a GPU behind an NVLink fabric: it has a fabric state
    with exporter_process(base, f"http://127.0.0.1:{port}", tmp_path) as exporter:
        default = exporter.get("/metrics").text
    assert not any(f"{name}{{" in default for name in FABRIC)
    with exporter_process([*base, "-f", str(_opted_in(tmp_path))], f"http://127.0.0.1:{port}", tmp_path) as exporter:
        text = exporter.get("/metrics").text
    for name in FABRIC:
        assert len(re.findall(rf"^{name}\{{", text, re.M)) == 2, name
    summaries = re.findall(r"^DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY\{.*\} (\d+)$", text, re.M)
    assert summaries == ["1", "1"]  # the simulator's healthy fabric


def test_served_from_dcgm(tmp_path: Path, fake_library: Path) -> None:
    model = [
        *two_a100s()[:2],
        "value gpu 0 175 i 1",
        "value gpu 1 175 i 3",
        "value gpu 0 174 i 0",
        "value gpu 1 174 i 8",
    ]
    (tmp_path / "model.txt").write_text("\n".join(model) + "\n")
    env = {
        **os.environ,
        "GPUSCOPE_LIBDCGM_PATH": str(fake_library),
        "GPUSCOPE_FAKEDCGM_MODEL": str(tmp_path / "model.txt"),
    }
    port = free_port()
    command = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "dcgm", "-a", f"127.0.0.1:{port}"]
    command += ["-c", "300", "-f", str(_opted_in(tmp_path)), "--node-name", "n1"]
    proc = subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL)
    try:

        def served() -> str | None:
            assert proc.poll() is None, "the exporter exited"
            try:
                text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
            except httpx.TransportError:
                return None
            return text if "DCGM_FI_DEV_FABRIC_HEALTH_MASK{" in text else None

        text = wait_for(served, what="the fabric health series")
    finally:
        proc.terminate()
        proc.wait(30)
    values = {
        (m.group(1), m.group(2)): m.group(3)
        for m in re.finditer(r'^(DCGM_FI_DEV_FABRIC_HEALTH_\w+)\{gpu="(\d)".*\} (\d+)$', text, re.M)
    }
    assert values == {
        ("DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY", "0"): "1",
        ("DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY", "1"): "3",
        ("DCGM_FI_DEV_FABRIC_HEALTH_MASK", "0"): "0",
        ("DCGM_FI_DEV_FABRIC_HEALTH_MASK", "1"): "8",
    }
