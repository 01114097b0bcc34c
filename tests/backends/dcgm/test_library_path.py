"""``LD_LIBRARY_PATH`` locates libdcgm (dcgm-exporter 4.8.4, PR #745), through the real CLI.

No ``GPUSCOPE_LIBDCGM_PATH``: the fake libdcgm is only reachable as ``libdcgm.so.4`` in the second directory of
``LD_LIBRARY_PATH`` (the first has none), and the exporter must find it there and serve its GPUs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from gpuscope.backends.dcgm.library import ENV_PATH, SONAME
from tests.fakedcgm.nodes import two_a100s
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e


def test_libdcgm_is_found_in_ld_library_path(fake_library: Path, tmp_path: Path) -> None:
    empty, libdir = tmp_path / "empty", tmp_path / "dcgm"
    empty.mkdir()
    libdir.mkdir()
    (libdir / SONAME).symlink_to(fake_library)
    (tmp_path / "model.txt").write_text("\n".join([*two_a100s()[:2], "value gpu 1 150 i 47"]) + "\n")
    env = {k: v for k, v in os.environ.items() if k != ENV_PATH}
    env |= {"LD_LIBRARY_PATH": f"{empty}::{libdir}", "GPUSCOPE_FAKEDCGM_MODEL": str(tmp_path / "model.txt")}
    port = free_port()
    command = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "dcgm", "-a", f"127.0.0.1:{port}"]
    command += ["-c", "300", "--node-name", "n1", "--debug"]
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:

        def temperature() -> str | None:
            if proc.poll() is not None:
                return "exited"
            try:
                text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
            except httpx.TransportError:
                return None
            return next(
                (line for line in text.splitlines() if line.startswith("DCGM_FI_DEV_GPU_TEMP{") and 'gpu="1"' in line),
                None,
            )

        line = wait_for(temperature, what="GPU 1's temperature through the libdcgm found in LD_LIBRARY_PATH")
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=30)
    assert line != "exited", stderr
    assert line.endswith(" 47")
    assert f"DCGM library {libdir / SONAME} loaded" in stderr
