"""A missing VictoriaMetrics binary is one line naming the Debian package, and ``gpuscope up`` exits 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from gpuscope.runner.binaries import BINARIES


def test_up_without_victoria_metrics_names_the_package_and_exits_2(tmp_path: Path) -> None:
    # A PATH with every Prometheus-family binary the stack needs, and no VictoriaMetrics.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for names, package in BINARIES.values():
        found = next((p for p in map(shutil.which, names) if p), None)
        if package != "victoria-metrics" and found:
            (bin_dir / Path(found).name).symlink_to(found)
    done = subprocess.run(
        [sys.executable, "-m", "gpuscope", "up", "--no-tui", "--data-dir", str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATH": str(bin_dir)},
        check=False,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert "victoria-metrics not found on PATH" in lines[0] and "apt-get install victoria-metrics" in lines[0]
