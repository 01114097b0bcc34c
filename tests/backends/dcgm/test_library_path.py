"""``LD_LIBRARY_PATH`` locates libdcgm (dcgm-exporter 4.8.4, PR #745), through the real CLI.

No ``GPUSCOPE_LIBDCGM_PATH``: the fake libdcgm is only reachable as ``libdcgm.so.4`` in the second directory of
``LD_LIBRARY_PATH`` (the first has none), and the exporter must find it there and serve its GPUs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from gpuscope.backends.dcgm.library import ENV_PATH, SONAME
from tests.fakedcgm.nodes import two_a100s
from tests.support.exporter_process import scrape_until
from tests.support.net import free_port

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

    def temperature(text: str) -> str | None:
        lines = text.splitlines()
        return next((x for x in lines if x.startswith("DCGM_FI_DEV_GPU_TEMP{") and 'gpu="1"' in x), None)

    what = "GPU 1's temperature through the libdcgm found in LD_LIBRARY_PATH"
    line, stderr = scrape_until(command, env, f"http://127.0.0.1:{port}", temperature, what)
    assert line is not None, stderr
    assert line.endswith(" 47")
    assert f"DCGM library {libdir / SONAME} loaded" in stderr
