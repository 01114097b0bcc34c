"""DCGM values that are not finite numbers, through ``gpuscope exporter --backend dcgm`` over the fake libdcgm.

``+Inf`` in a double field used to raise OverflowError in the blank-sentinel check (``int(+Inf - FP64_BLANK)``),
which lost both GPUs' readings on every collection. Now the one value is a read error or a value as the exposition
writes it, and every other GPU and field keeps its reading.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from gpuscope.fields.catalog import BY_NAME
from tests.fakedcgm import build
from tests.fakedcgm.nodes import two_a100s
from tests.support.exporter_process import fake_dcgm_exporter, scrape_until
from tests.support.net import wait_for

pytestmark = pytest.mark.e2e

CSV = (
    "DCGM_FI_DEV_GPU_TEMP, gauge, temperature\n"
    "DCGM_FI_DEV_POWER_USAGE, gauge, power\n"
    "DCGM_FI_DEV_SM_CLOCK, gauge, sm clock\n"
)


def _id(name: str) -> int:
    return BY_NAME[name].field_id


def _rows(text: str, name: str) -> dict[str, str]:
    """gpu label -> sample value of one family."""
    out = {}
    for line in text.splitlines():
        if line.startswith(name + "{"):
            gpu = line.split('gpu="', 1)[1].split('"', 1)[0]
            out[gpu] = line.rsplit(" ", 1)[1]
    return out


def test_inf_and_nan_doubles_cost_only_their_own_value(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    library = build(Path(request.config.cache.mkdir("fakedcgm")))
    temp, power, clock = _id("DCGM_FI_DEV_GPU_TEMP"), _id("DCGM_FI_DEV_POWER_USAGE"), _id("DCGM_FI_DEV_SM_CLOCK")
    model = [
        *two_a100s()[:2],
        "value none 0 1 s 550.54.15",
        f"value gpu 0 {temp} i 40",
        f"value gpu 1 {temp} i 41",
        f"value gpu 0 {power} d inf",  # at or above DCGM_FP64_BLANK: blank by DCGM's own check
        f"value gpu 1 {power} d nan",  # a double field holds NaN as it is
        f"value gpu 0 {clock} d -inf",  # an integer field sent as a double no integer holds: a failed read
        f"value gpu 1 {clock} i 1410",
    ]
    command, env, url = fake_dcgm_exporter(tmp_path, library, model, CSV)
    health: list[int] = []

    def healthy() -> int | None:
        code = httpx.get(f"{url}/health", timeout=5).status_code
        return code if code == 200 else None

    got, stderr = scrape_until(
        command,
        env,
        url,
        lambda text: text if len(_rows(text, "DCGM_FI_DEV_GPU_TEMP")) == 2 else None,
        "both GPUs' readings with non-finite doubles among them",
        then=lambda: health.append(
            wait_for(
                lambda: (code := httpx.get(f"{url}/health", timeout=5).status_code) == 200 and code, what="/health"
            )
        ),
    )
    assert got is not None, stderr
    text = got
    assert "Traceback" not in stderr and "OverflowError" not in stderr, stderr
    assert health == [200]
    assert _rows(text, "DCGM_FI_DEV_GPU_TEMP") == {"0": "40", "1": "41"}
    assert _rows(text, "DCGM_FI_DEV_POWER_USAGE") == {"1": "NaN"}  # GPU 0's +Inf is blank: no sample
    assert _rows(text, "DCGM_FI_DEV_SM_CLOCK") == {"1": "1410"}  # GPU 0's -Inf cannot be an integer
