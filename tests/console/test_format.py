"""The page's field display (units, decimals, thresholds, mappings, overrides): node's test runner on the module
the console serves, so what is tested is what the browser runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def test_field_display_in_node() -> None:
    node = shutil.which("node")
    assert node, "node is needed: run scripts/ensure-binaries"
    done = subprocess.run(
        [node, "--test", str(Path(__file__).with_name("format.test.mjs"))],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# pass 10" in done.stdout, done.stdout
