"""``gpuscope selftest``: the comparison logic against a fake nvidia-smi, and the one-line refusal without a GPU."""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from typing import Any

import pytest

from gpuscope.backends import nvidia_driver_present
from gpuscope.backends.nvml import NvmlBackend
from gpuscope.selftest import Plan, parse_smi, run_selftest
from tests.backends.nvml.support import TICKER_START
from tests.fakenvml import FakeNvml
from tests.support.clock import FakeClock

MIB = 1048576


def smi_csv(fake: FakeNvml, tweak: dict[tuple[int, str], str] | None = None) -> str:
    """What ``nvidia-smi --query-gpu=... --format=csv,noheader,nounits`` prints for the fake's devices."""
    lines = []
    for dev in fake.devices:
        d: dict[str, Any] = dev.desc
        util = d["utilization"]
        cells = {
            "temperature.gpu": str(d["temperature"]),
            "power.draw": f"{d['power_usage_mw'] / 1000:.2f}",
            "clocks.sm": str(d["clocks"]["sm"]),
            "clocks.mem": str(d["clocks"]["mem"]),
            "memory.used": str(d["memory"]["used"] // MIB),
            "memory.total": str(d["memory"]["total"] // MIB),
            "utilization.gpu": "[N/A]" if isinstance(util, str) else str(util["gpu"]),
            "utilization.memory": "[N/A]" if isinstance(util, str) else str(util["memory"]),
        }
        for (index, name), value in (tweak or {}).items():
            if index == dev.index:
                cells[name] = value
        lines.append(", ".join([dev.uuid, *cells.values()]))
    return "\n".join(lines) + "\n"


def run(fake: FakeNvml, smi: str) -> tuple[int, str]:
    ticker = FakeClock(TICKER_START)
    backend = NvmlBackend(fake, monotonic=ticker, event_timeout_ms=50)
    out: list[str] = []
    try:
        code = run_selftest(
            backend,
            lambda: smi,
            plan=Plan(seconds=12, interval=2, warmup=2),
            load=lambda _s: None,
            sleep=ticker.sleep,
            echo=out.append,
        )
    finally:
        backend.close()
    return code, "\n".join(out)


def test_all_figures_match() -> None:
    fake = FakeNvml("hgx-h100")
    code, out = run(fake, smi_csv(fake))
    assert code == 0 and "all figures match nvidia-smi" in out
    assert "MISMATCH" not in out
    assert out.count("temperature") == 8 and out.count("SM active") == 8
    assert "0.632" in out  # SM active from GPM: 63.25 % -> 0.6325


def test_a_mismatch_fails_and_names_the_gpu_and_figure() -> None:
    fake = FakeNvml("hgx-h100")
    code, out = run(fake, smi_csv(fake, {(3, "temperature.gpu"): "71", (5, "memory.used"): "33500"}))
    assert code == 1 and "2 mismatch(es) beyond tolerance" in out
    bad = [line for line in out.splitlines() if "MISMATCH" in line]
    assert len(bad) == 2
    assert fake.devices[3].uuid[:12] in bad[0] and "temperature" in bad[0]
    assert fake.devices[5].uuid[:12] in bad[1] and "memory used" in bad[1]


def test_mig_utilization_is_not_applicable_and_prof_is_per_gpu_instance() -> None:
    fake = FakeNvml("h100-mig")
    code, out = run(fake, smi_csv(fake))
    assert code == 0, out
    util = [line for line in out.splitlines() if "GPU utilization" in line]
    assert any(line.rstrip().endswith("n/a") for line in util)
    assert "GI 1" in out and "GI 9" in out


def test_a100_has_no_prof_and_says_why() -> None:
    fake = FakeNvml("a100")
    code, out = run(fake, smi_csv(fake))
    assert code == 0 and "info: NVIDIA A100-SXM4-80GB has no GPM" in out


def test_parse_smi_not_available() -> None:
    parsed = parse_smi("GPU-1, 40, [N/A], 1980, 2619, 10, 81559, [Not Supported], 3\nbad line\n")
    assert parsed == {
        "GPU-1": {
            "temperature.gpu": 40.0,
            "power.draw": None,
            "clocks.sm": 1980.0,
            "clocks.mem": 2619.0,
            "memory.used": 10.0,
            "memory.total": 81559.0,
            "utilization.gpu": None,
            "utilization.memory": 3.0,
        }
    }


@pytest.mark.skipif(nvidia_driver_present(), reason="this machine has an NVIDIA driver")
def test_without_a_gpu_one_line_and_exit_2() -> None:
    result = subprocess.run([sys.executable, "-m", "gpuscope", "selftest"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "gpuscope: error: no NVIDIA GPU here: gpuscope selftest needs an NVIDIA driver and nvidia-smi on this machine"
    ]
    assert result.stdout == ""


def test_processes_are_checked_against_query_compute_apps() -> None:
    from tests.fakenvml.processes import FakeProcess

    fake = FakeNvml("hgx-h100")
    fake.devices[0].processes = [FakeProcess(pid=4242, memory=2048 * MIB)]
    fake.devices[1].processes = [FakeProcess(pid=77, memory=512 * MIB)]
    good = f"{fake.devices[0].uuid}, 4242, 2050\n{fake.devices[1].uuid}, 77, 512\n"
    bad = f"{fake.devices[0].uuid}, 4242, 1024\n{fake.devices[1].uuid}, 99, 512\n"
    for apps, mismatches in ((good, 0), (bad, 3)):
        ticker = FakeClock(TICKER_START)
        backend = NvmlBackend(fake, monotonic=ticker, event_timeout_ms=50)
        out: list[str] = []
        try:
            code = run_selftest(
                backend,
                lambda: smi_csv(fake),
                plan=Plan(seconds=4, interval=2, warmup=2),
                load=lambda _s: None,
                sleep=lambda s: None,
                echo=out.append,
                apps=partial(str, apps),  # what query-compute-apps prints this round
            )
        finally:
            backend.close()
        text = "\n".join(out)
        assert "process 4242 memory" in text and code == (1 if mismatches else 0)
        assert text.count("MISMATCH") == mismatches, text  # 4242 off by 1 GiB; 77 only ours; 99 only theirs
