"""The DCGM 4.x fields end to end: in `gpuscope fields`, and served by a simulated GB200 from a collectors CSV."""

from __future__ import annotations

import re

import pytest

from gpuscope.backends.sim import FaultKind, FaultRequest
from gpuscope.cli import main
from gpuscope.fields.rows_dcgm4 import DCGM4_FIELDS
from tests.support.exporter import RuntimeFactory

CSV = """\
DCGM_FI_DEV_GPU_TEMP, gauge, t
DCGM_FI_DEV_FABRIC_MANAGER_STATUS, gauge, fm
DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY, gauge, health
DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS, counter, rx errors
DCGM_FI_DEV_NVLINK_COUNT_SYMBOL_BER_FLOAT, gauge, ber
DCGM_FI_DEV_GPU_RECOVERY_ACTION, gauge, recovery
DCGM_FI_DEV_POWER_MGMT_LIMIT_MAX, gauge, max limit
DCGM_FI_DEV_FABRIC_CLUSTER_UUID, label, cluster
"""


def test_every_new_field_is_in_gpuscope_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fields"]) == 0
    out = capsys.readouterr().out
    for field in DCGM4_FIELDS:
        assert re.search(
            rf"\b{field.name}\b.*\b{int(field.field_id)}\b|\b{int(field.field_id)}\b.*\b{field.name}\b", out
        )


def test_simulated_gb200_serves_the_new_fields(make: RuntimeFactory) -> None:
    runtime, sim, clock = make(model="gb200", gpus=2, csv=CSV)
    runtime.collect()
    sim.apply(FaultRequest(FaultKind.FABRIC_DEGRADED, gpu=1))
    sim.apply(FaultRequest(FaultKind.NVLINK5_ERRORS, gpu=1))
    clock.t += 30
    runtime.collect()
    body = runtime.body(clock.t, gzip=False).decode()

    def value(name: str, gpu: int) -> float:
        match = re.search(rf'^{name}\{{gpu="{gpu}",.*\}} (\S+)$', body, re.M)
        assert match, f"{name} for GPU {gpu} not served:\n{body[:2000]}"
        return float(match.group(1))

    assert value("DCGM_FI_DEV_FABRIC_MANAGER_STATUS", 0) == 3
    assert [value("DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY", g) for g in (0, 1)] == [1, 3]
    assert value("DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS", 1) > value("DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS", 0)
    # Doubles print as %f, as dcgm-exporter prints them: a BER below 1e-6 reads 0 in both; alert on the counters.
    assert value("DCGM_FI_DEV_NVLINK_COUNT_SYMBOL_BER_FLOAT", 1) == 0.0
    assert value("DCGM_FI_DEV_POWER_MGMT_LIMIT_MAX", 0) == 1200
    assert "# TYPE DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS counter" in body
    assert re.search(r'DCGM_FI_DEV_GPU_TEMP\{gpu="0",.*DCGM_FI_DEV_FABRIC_CLUSTER_UUID="5a1e0c2d-', body)
