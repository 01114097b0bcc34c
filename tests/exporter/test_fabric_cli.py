"""The fabric as a user meets it: a simulated HGX H100 exporter with -s f and switch/link rows in its CSV, and
`gpuscope sim inject nvlink-down` / `nvswitch-fatal` reaching it with --link, --switch and an SXid --code."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.support.cli import assert_one_line_error, gpuscope
from tests.support.exporter_process import GPUSCOPE, exporter_process
from tests.support.net import free_port, wait_for

pytestmark = pytest.mark.e2e

CSV = """\
DCGM_FI_DEV_GPU_TEMP, gauge, temperature
DCGM_FI_DEV_NVLINK_GET_STATE, gauge, link state
DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS, gauge, last fatal SXid
"""


def test_an_hgx_node_with_s_f_serves_its_switches_and_the_injected_faults(tmp_path: Path) -> None:
    csv = tmp_path / "fields.csv"
    csv.write_text(CSV)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-model", "h100", "-s", "f", "-f", str(csv)]
    with exporter_process([*command, "-c", "500", "-a", f"127.0.0.1:{port}"], url, tmp_path) as exporter:
        text = exporter.get("/metrics").text
        assert len(re.findall(r"^DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS\{", text, re.M)) == 4
        assert len(re.findall(r"^DCGM_FI_DEV_NVLINK_GET_STATE\{", text, re.M)) == 8 * 18
        injected = gpuscope("sim", "inject", "nvlink-down", "--gpu", "2", "--link", "7", "--url", url)
        assert injected.returncode == 0, injected.stderr
        fatal = gpuscope("sim", "inject", "nvswitch-fatal", "--switch", "3", "--code", "20034", "--url", url)
        assert fatal.returncode == 0, fatal.stderr

        def faulted() -> str | None:
            body = httpx.get(f"{url}/metrics").text
            down = re.search(r'^DCGM_FI_DEV_NVLINK_GET_STATE\{nvlink="7",gpu="2",.*\} 0$', body, re.M)
            sxid = re.search(r'^DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS\{nvswitch="nvswitch3",.*\} 20034$', body, re.M)
            return body if down and sxid else None

        wait_for(faulted, what="the down link and the fatal SXid on /metrics")
        assert_one_line_error(
            gpuscope("sim", "inject", "nvlink-down", "--gpu", "2", "--url", url), "nvlink-down needs 'gpu' and 'link'"
        )
        assert_one_line_error(
            gpuscope("sim", "inject", "nvswitch-fatal", "--switch", "9", "--url", url), "NVSwitch 9 does not exist"
        )
        assert gpuscope("sim", "clear", "--url", url).returncode == 0


def test_a_simulated_nvl72_tray_has_four_gpus_of_eighteen_links_by_default(tmp_path: Path) -> None:
    csv = tmp_path / "fields.csv"
    csv.write_text(CSV)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-model", "gb200", "-f", str(csv)]
    with exporter_process([*command, "-a", f"127.0.0.1:{port}"], url, tmp_path) as exporter:
        text = exporter.get("/metrics").text
    assert sorted(set(re.findall(r'^DCGM_FI_DEV_GPU_TEMP\{gpu="(\d+)"', text, re.M))) == ["0", "1", "2", "3"]
    assert len(re.findall(r"^DCGM_FI_DEV_NVLINK_GET_STATE\{", text, re.M)) == 4 * 18
    assert not re.search(r"^DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS\{", text, re.M)  # its switches are in switch trays
