"""The real ``gpuscope exporter --backend sim`` process with ``GPUSCOPE_PROCESS_METRICS``: per-pod series on
/metrics, and the zombie fault through ``gpuscope sim inject``."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest

from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e


def test_exporter_process_serves_per_pod_series_and_takes_a_zombie() -> None:
    port = free_port()
    env = {**os.environ, "DCGM_EXPORTER_LISTEN": f"127.0.0.1:{port}", "GPUSCOPE_PROCESS_METRICS": "true"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpuscope", "exporter", "--backend", "sim", "--sim-gpus", "4", "-c", "500"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        text = wait_for(
            lambda: (
                (r := httpx.get(f"{url}/metrics", timeout=10)).status_code == 200
                and "gpuscope_gpu_process_memory_used_bytes{" in r.text
                and r.text
            ),
            timeout=60,
            what="per-process series",
        )
        assert text.count('namespace="serving"') >= 3  # GPU 0: three inference pods time-share it
        done = subprocess.run(
            [sys.executable, "-m", "gpuscope", "sim", "inject", "zombie", "--gpu", "2", "--url", url],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        wait_for(
            lambda: (
                'gpuscope_gpu_unattributed_processes{gpu="2"' in (t := httpx.get(f"{url}/metrics").text)
                and t.split('gpuscope_gpu_unattributed_processes{gpu="2"', 1)[1].split("\n", 1)[0].endswith(" 1")
            ),
            timeout=30,
            what="the zombie on GPU 2",
        )
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "Traceback" not in err
