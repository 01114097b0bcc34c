"""The combined device selector of dcgm-exporter 4.8.3 (``-d g:<ids>+i:<ids>``, PR #711) through the real
``gpuscope exporter`` process, on the fake NVML's node ``h100-mig``: GPU 0 in MIG mode with GPU instances 1, 2 and 9,
GPU 1 whole. ``g:1+i:2`` keeps GPU 1 (by ``g``) and GPU 0's instance 2 (by ``i``) and nothing else, so neither half
alone would pass."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.support.cli import assert_one_line_error, gpuscope
from tests.support.exporter_process import clean_env, scrape_until
from tests.support.metrics_text import families
from tests.support.net import free_port

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
# GPU_TEMP is the GPU's (a MIG instance's series repeats its parent's), FB_USED each instance's own.
CSV = "DCGM_FI_DEV_GPU_TEMP, gauge, Temperature.\nDCGM_FI_DEV_FB_USED, gauge, Used.\n"
FAMILIES = ("DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_FB_USED")


def entities(text: str, name: str) -> set[tuple[str, str | None]] | None:
    """(gpu, GPU_I_ID) of each series of ``name``; None while the family is not served yet."""
    fam = families(text).get(name)
    if fam is None or not fam[1]:
        return None
    return {(s.labels["gpu"], s.labels.get("GPU_I_ID")) for s in fam[1]}


@pytest.mark.parametrize("form", [["-d", "g:1+i:2"], ["-devices=g:1+i:2"]])
def test_combined_selector_keeps_exactly_the_named_gpus_and_instances(form: list[str], tmp_path: Path) -> None:
    csv = tmp_path / "fields.csv"
    csv.write_text(CSV)
    port = free_port()
    argv = [sys.executable, "-m", "tests.fakenvml.module", "--node", "h100-mig", "--"]
    argv += ["-m", "gpuscope", "exporter", "--backend", "nvml", "-a", f"127.0.0.1:{port}", "-c", "300"]
    argv += ["-f", str(csv), *form]
    env = clean_env({"PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO), os.environ.get("PYTHONPATH", "")])})

    def served(text: str) -> dict[str, set[tuple[str, str | None]]] | None:
        seen = {name: entities(text, name) for name in FAMILIES}
        return None if any(v is None for v in seen.values()) else {k: v for k, v in seen.items() if v is not None}

    got, stderr = scrape_until(argv, env, f"http://127.0.0.1:{port}", served, "the selected GPUs' series")
    assert got is not None, stderr
    # GPU 1 as a whole GPU (no GPU_I_ID), GPU 0 through its instance 2 only: not instances 1 and 9, not GPU 0 whole.
    assert got == {name: {("1", None), ("0", "2")} for name in FAMILIES}, stderr
    assert "Traceback" not in stderr


@pytest.mark.parametrize(
    ("flags", "absent", "has"),
    [
        (["--sim-gpus", "2", "-d", "g:0-2"], "GPU 2 not on this node", "GPUs 0, 1 and GPU instances none"),
        (["--sim-gpus", "2", "-devices=i:3"], "GPU instance 3 not on this node", "GPUs 0, 1 and GPU instances none"),
        (
            ["--sim-gpus", "1", "--sim-mig-layout", "3g.40gb:2", "-d", "g:0+i:5"],
            "GPU instance 5 not on this node",
            "GPUs 0 and GPU instances 1, 2",
        ),
    ],
)
def test_a_selector_naming_an_absent_gpu_or_instance_is_refused_at_start(
    flags: list[str], absent: str, has: str
) -> None:
    """dcgm-exporter exits on it (``verifyDevicePresence``, internal/pkg/deviceinfo/device_info.go): a typo in ``-d``
    must not start an exporter that silently serves fewer GPUs than asked."""
    result = gpuscope("exporter", "--backend", "sim", "-a", f"127.0.0.1:{free_port()}", *flags, timeout=30)
    assert_one_line_error(result, "-d/--devices (env DCGM_EXPORTER_DEVICES_STR)", absent, f"which has {has}")
