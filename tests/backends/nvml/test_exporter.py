"""The nvml backend inside the real exporter: what a scrape shows, a hung NVML call, and no driver at all."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator

import httpx
import pytest

from gpuscope.backends import nvidia_driver_present
from gpuscope.backends.nvml import NvmlBackend
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.fields.collectors import parse_collectors
from tests.fakenvml import FakeNvml
from tests.support.exporters import serving
from tests.support.net import free_port, wait_for

CSV = """
DCGM_FI_DEV_GPU_TEMP, gauge, temperature
DCGM_FI_DEV_POWER_USAGE, gauge, power
DCGM_FI_DEV_FB_USED, gauge, fb used
DCGM_FI_DEV_XID_ERRORS, gauge, last xid
DCGM_EXP_XID_ERRORS_TOTAL, counter, xids
DCGM_FI_PROF_GR_ENGINE_ACTIVE, gauge, gr engine
DCGM_FI_DRIVER_VERSION, label, driver
"""


@pytest.fixture
def served() -> Iterator[tuple[FakeNvml, str]]:
    fake = FakeNvml("h100-mig")
    settings = ExporterSettings(collectors=parse_collectors(CSV, "test.csv"), interval_s=0.2)
    listener = Listener("127.0.0.1", free_port(), make_runtime(NvmlBackend(fake, event_timeout_ms=50), settings, "n1"))
    with serving([listener], 0.2):
        yield fake, listener.url


def scrape(url: str) -> str:
    response = httpx.get(f"{url}/metrics", timeout=10)
    assert response.status_code == 200
    return response.text


def series(text: str, name: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(name + "{")]


def scrape_until(url: str, ready: Callable[[str], bool], what: str) -> str:
    def check() -> str | None:
        text = scrape(url)
        return text if ready(text) else None

    return wait_for(check, what=what)


def test_scrape_shows_real_values_mig_labels_and_profiling(served: tuple[FakeNvml, str]) -> None:
    fake, url = served
    text = scrape_until(url, lambda t: bool(series(t, "DCGM_FI_PROF_GR_ENGINE_ACTIVE")), "PROF values")
    _gpu0, gpu1 = fake.devices
    temps = series(text, "DCGM_FI_DEV_GPU_TEMP")
    assert len(temps) == 1 + 3  # GPU 1, and GPU 0's three GPU instances (PARENT fields repeat per instance)
    assert (
        f'UUID="{gpu1.uuid}",pci_bus_id="{gpu1.bus_id}",device="nvidia1",modelName="NVIDIA H100 80GB HBM3"'
        in (temps[-1])
    )
    assert temps[-1].endswith(f" {gpu1.desc['temperature']}")
    assert 'GPU_I_PROFILE="3g.40gb",GPU_I_ID="1"' in temps[0] and 'DCGM_FI_DRIVER_VERSION="570.133.20"' in temps[0]
    power = series(text, "DCGM_FI_DEV_POWER_USAGE")[-1]
    assert power.endswith(" 612.345000")
    gr = {
        line.split("GPU_I_ID=")[1][:3] if "GPU_I_ID" in line else "gpu1": line.rsplit(" ", 1)[1]
        for line in series(text, "DCGM_FI_PROF_GR_ENGINE_ACTIVE")
    }
    assert gr == {'"1"': "0.900000", '"2"': "0.100000", '"9"': "0.000000", "gpu1": "0.725000"}
    assert 'gpuscope_exporter_backend_up{backend="nvml"} 1' in text
    assert len(series(text, "gpuscope_exporter_gpu_profiling_supported")) == 2
    assert all(line.endswith(" 1") for line in series(text, "gpuscope_exporter_gpu_profiling_available"))


def test_xid_and_lost_gpu_reach_the_scrape(served: tuple[FakeNvml, str]) -> None:
    fake, url = served
    wait_for(lambda: series(scrape(url), "DCGM_FI_DEV_GPU_TEMP"), what="first collection")
    fake.xid(1, 48)
    fake.xid(1, 48)
    text = scrape_until(
        url, lambda t: any(s.endswith(" 2") for s in series(t, "DCGM_EXP_XID_ERRORS_TOTAL")), "two XID 48 counted"
    )
    last = [s for s in series(text, "DCGM_FI_DEV_XID_ERRORS") if 'gpu="1"' in s]
    assert len(last) == 1 and 'err_code="48"' in last[0] and last[0].endswith(" 48")
    fake.lose(1)

    def lost(text: str) -> bool:
        return any('gpu="1"' in s and s.endswith(" 1") for s in series(text, "gpuscope_exporter_gpu_lost"))

    text = scrape_until(url, lost, "GPU 1 lost")
    assert not [s for s in series(text, "DCGM_FI_DEV_GPU_TEMP") if 'gpu="1"' in s]
    # what the events told us about the lost GPU is not lost with it
    assert [s for s in series(text, "DCGM_EXP_XID_ERRORS_TOTAL") if 'gpu="1"' in s and s.endswith(" 2")]
    assert [s for s in series(text, "DCGM_FI_DEV_GPU_TEMP") if 'gpu="0"' in s]  # the other GPU keeps reporting


def test_hung_nvml_call_never_blocks_metrics(served: tuple[FakeNvml, str]) -> None:
    fake, url = served
    wait_for(lambda: httpx.get(f"{url}/health").status_code == 200, what="healthy")
    gate = fake.block("nvmlDeviceGetTemperatureV")  # the next collection wedges inside the "driver"
    try:
        stale = wait_for(lambda: (r := httpx.get(f"{url}/health")).status_code == 503 and r.json(), what="stale")
        assert "collection is failing or hung" in stale["reason"]
        text = scrape(url)  # still answers, with the last good reading
        assert series(text, "DCGM_FI_DEV_GPU_TEMP")
    finally:
        gate.set()
    wait_for(lambda: httpx.get(f"{url}/health").status_code == 200, what="healthy again")


@pytest.mark.skipif(nvidia_driver_present(), reason="this machine has an NVIDIA driver: nothing is missing")
def test_exporter_without_a_driver_serves_backend_down_and_says_why() -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "gpuscope", "exporter", "--backend", "nvml", "-a", f"127.0.0.1:{port}", "-c", "500"],
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        health = wait_for(
            lambda: (r := httpx.get(f"{url}/health")).status_code == 503 and "unavailable" in r.text and r.json(),
            what="a collection that found NVML unavailable",
        )
        assert health["reason"].startswith("backend nvml unavailable: libnvidia-ml.so.1 not found")
        metrics = httpx.get(f"{url}/metrics")
        assert metrics.status_code == 200
        assert 'gpuscope_exporter_backend_up{backend="nvml"} 0' in metrics.text
        assert "DCGM_FI_" not in metrics.text
    finally:
        proc.terminate()
        _, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 0
    assert "Traceback" not in stderr
    warnings = [line for line in stderr.splitlines() if "NVML unavailable" in line]
    assert len(warnings) == 1 and "libnvidia-ml.so.1 not found" in warnings[0] and "retrying in 5s" in warnings[0]
