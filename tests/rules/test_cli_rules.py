from __future__ import annotations

import subprocess
from pathlib import Path

import yaml

from tests.support.cli import gpuscope_here
from tests.support.prom import binary


def gpuscope(*args: str) -> subprocess.CompletedProcess[str]:
    # in this process: what ``gpuscope rules`` writes is checked here, the process in tests/test_cli.py
    return gpuscope_here(*args)


def test_render_writes_valid_rule_files(tmp_path: Path) -> None:
    config = tmp_path / "rules.yaml"
    config.write_text("host_label: hostname\nexporter_selector: 'job=\"gpu\"'\nthresholds:\n  idle_for: 2h\n")
    result = gpuscope("rules", "render", "--config", str(config), "-o", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    files = sorted((tmp_path / "out").iterdir())
    assert [f.name for f in files] == ["gpuscope-alerts.yaml", "gpuscope-fleet.yaml", "gpuscope-recording.yaml"]
    alerts = yaml.safe_load((tmp_path / "out" / "gpuscope-alerts.yaml").read_text())
    idle = [r for g in alerts["groups"] for r in g["rules"] if r.get("alert") == "GPUAllocatedButIdle"]
    assert idle[0]["for"] == "2h"
    assert 'job="gpu"' in (tmp_path / "out" / "gpuscope-recording.yaml").read_text()
    check = subprocess.run([binary("promtool"), "check", "rules", *map(str, files)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout


def test_render_to_stdout_and_list() -> None:
    out = gpuscope("rules", "render").stdout
    assert "# --- gpuscope-alerts.yaml" in out and "alert: GPUFellOffBus" in out
    listing = gpuscope("rules", "list").stdout
    assert "GPUAllocatedButIdle" in listing and "workload" in listing
    dbe = next(line for line in listing.splitlines() if line.startswith("GPUDoubleBitEccErrors "))
    assert "keep_firing_for=1m " in dbe, dbe


def test_bad_config_is_one_located_line(tmp_path: Path) -> None:
    config = tmp_path / "rules.yaml"
    config.write_text("host_label: HOSTNAME\n")
    result = gpuscope("rules", "render", "--config", str(config))
    assert result.returncode == 2
    assert result.stderr.startswith(f"gpuscope: error: {config}:1:13: host_label: Input should be 'Hostname' or")
    assert len(result.stderr.strip().splitlines()) == 1
    config.write_text("thresholds:\n  idle_for: soon\n")
    result = gpuscope("rules", "render", "--config", str(config))
    assert result.returncode == 2 and f"{config}:2:" in result.stderr
