"""Values dcgm-exporter takes and gpuscope bounds, through the real CLI: ``-c``, ``-x`` and
``--clock-events-count-window-size`` are Go ints dcgm-exporter never checks (4.5.3-4.8.2, commit d5e5f51, and the
4.8.4 ``pkg/cmd/app.go``: ``contextToConfig``/``validateConfig``), so a value outside gpuscope's bounds is clamped
with one warning naming the flag (or the config file's key), never an exit: a DaemonSet that ran dcgm-exporter must
not crash-loop. ``--max-concurrent-scrapes`` 0 stays refused: dcgm-exporter 4.8.4 refuses it too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.cli import assert_one_line_error, gpuscope
from tests.support.exporter_process import GPUSCOPE, clean_env, scrape_until
from tests.support.net import free_port

pytestmark = pytest.mark.e2e

CSV = (
    "DCGM_FI_DEV_GPU_TEMP, gauge, Temperature.\n"
    "DCGM_EXP_XID_ERRORS_COUNT, gauge, XIDs in the window.\n"
    "DCGM_EXP_CLOCK_EVENTS_COUNT, gauge, Clock events in the window.\n"
)


def windows(text: str) -> dict[str, set[str]] | None:
    """The window_size_in_ms values of the two window families; None until both are served."""
    out = {
        name: set(re.findall(rf'^{name}{{[^}}]*window_size_in_ms="(-?\d+)"', text, re.MULTILINE))
        for name in ("DCGM_EXP_XID_ERRORS_COUNT", "DCGM_EXP_CLOCK_EVENTS_COUNT")
    }
    return out if all(out.values()) else None


def serve(tmp_path: Path, args: list[str], env: dict[str, str] | None = None) -> tuple[dict[str, set[str]], str]:
    (tmp_path / "fields.csv").write_text(CSV)
    port = free_port()
    argv = [*GPUSCOPE, "exporter", "--backend", "sim", "--sim-gpus", "1", "-a", f"127.0.0.1:{port}"]
    argv += ["-f", str(tmp_path / "fields.csv"), *args]
    got, stderr = scrape_until(argv, clean_env(env), f"http://127.0.0.1:{port}", windows, "the window families")
    assert got is not None, stderr
    assert "Traceback" not in stderr
    return got, stderr


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if " WARNING " in line and "is outside" in line]


def test_flag_values_dcgm_exporter_takes_are_clamped_with_one_warning_each(tmp_path: Path) -> None:
    # Go's one-dash form and a negative value as the next argument, as urfave/cli reads them.
    got, stderr = serve(tmp_path, ["-c", "5", "-x", "0", "-clock-events-count-window-size", "-1"])
    assert got == {"DCGM_EXP_XID_ERRORS_COUNT": {"1000"}, "DCGM_EXP_CLOCK_EVENTS_COUNT": {"1000"}}
    said = warnings(stderr)
    assert len(said) == 3, stderr
    assert "-c/--collect-interval 5 is outside 100 to 3600000: using 100" in said[0]
    assert "-x/--xid-count-window-size 0 is outside 1000 to 604800000: using 1000" in said[1]
    assert "--clock-events-count-window-size -1 is outside 1000 to 604800000: using 1000" in said[2]
    assert "collect every 0.1s" in stderr


def test_env_and_config_file_values_are_clamped_too(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("version: 2\ncollections:\n  - name: scrape\n    every: 50ms\n    metrics: {include: ['*']}\n")
    env = {"DCGM_EXPORTER_XID_COUNT_WINDOW_SIZE": str(10**12)}  # beyond a week, within Go's int
    got, stderr = serve(tmp_path, ["--config-file", str(config)], env)
    assert got["DCGM_EXP_XID_ERRORS_COUNT"] == {"604800000"}
    said = warnings(stderr)
    assert len(said) == 2, stderr
    assert f"{config}: the collection interval 50 ms" in said[0] and "using 100" in said[0]
    assert f"-x/--xid-count-window-size {10**12} is outside 1000 to 604800000: using 604800000" in said[1]
    assert "collect every 0.1s" in stderr


def test_what_dcgm_exporter_refuses_too_stays_refused() -> None:
    # A Go int holds no more than 2**63 - 1 (urfave/cli fails to parse it); 0 scrapes fails validateConfig in 4.8.4.
    assert_one_line_error(gpuscope("exporter", "-c", str(2**63)), "--collect-interval", "not a 64-bit integer")
    assert_one_line_error(gpuscope("exporter", "--max-concurrent-scrapes", "0"), "--max-concurrent-scrapes")
