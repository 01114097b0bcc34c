"""GPU bind/unbind (dcgm-exporter 4.8.4, PR #745 / #716) through the real CLI over the fake libdcgm: with
``--enable-gpu-bind-unbind-watch`` DCGM's GPU list is read every poll interval, and a GPU that leaves or arrives
rebuilds the watches and the series (without it, the list is read once a minute, longer than these waits).

The fake applies model lines appended to ``$GPUSCOPE_FAKEDCGM_COMMANDS`` while the exporter runs (``unbind 1``,
``gpu 2 ...``): the exporter is a separate process, as in production.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.fakedcgm.nodes import A100, two_a100s
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

NEW_UUID = "GPU-2ccc0000-0000-0000-0000-000000000000"


def _uuids(text: str) -> set[str]:
    return set(re.findall(r'^DCGM_FI_DEV_GPU_TEMP\{[^}]*UUID="([^"]+)"', text, re.M))


def test_a_gpu_unbound_and_one_bound_rebuild_the_series(tmp_path: Path, fake_library: Path) -> None:
    first, second = two_a100s()[:2]
    model = [first, second, "value gpu 0 150 i 40", "value gpu 1 150 i 41"]
    (tmp_path / "model.txt").write_text("\n".join(model) + "\n")
    commands = tmp_path / "commands.txt"
    commands.write_text("")
    env = {
        **os.environ,
        "GPUSCOPE_LIBDCGM_PATH": str(fake_library),
        "GPUSCOPE_FAKEDCGM_MODEL": str(tmp_path / "model.txt"),
        "GPUSCOPE_FAKEDCGM_COMMANDS": str(commands),
    }
    port = free_port()
    command = [sys.executable, "-m", "gpuscope", "exporter", "--backend", "dcgm", "-a", f"127.0.0.1:{port}"]
    command += ["-c", "300", "--node-name", "n1", "--enable-gpu-bind-unbind-watch"]
    command += ["--gpu-bind-unbind-poll-interval", "200ms"]
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/metrics"

    def serving(expected: set[str]) -> str | None:
        assert proc.poll() is None, "the exporter exited"
        try:
            text = httpx.get(url, timeout=5).text
        except httpx.TransportError:
            return None
        return text if _uuids(text) == expected else None

    gpu0, gpu1 = first.split()[2], second.split()[2]
    try:
        wait_for(lambda: serving({gpu0, gpu1}), what="both GPUs")
        with commands.open("a") as f:
            f.write("unbind 1\n")
        wait_for(lambda: serving({gpu0}), what="GPU 1's series gone after its unbind")
        with commands.open("a") as f:
            f.write(f"gpu 2 {NEW_UUID} 00000000:1A:00.0 {A100}\nvalue gpu 2 150 i 52\n")
        text = wait_for(lambda: serving({gpu0, NEW_UUID}), what="the bound GPU's series")
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=30)
    assert re.search(rf'^DCGM_FI_DEV_GPU_TEMP\{{[^}}]*UUID="{NEW_UUID}"[^}}]*\}} 52$', text, re.M), text
    assert stderr.count("DCGM GPUs or MIG layout changed") == 2, stderr
    assert "Traceback" not in stderr
