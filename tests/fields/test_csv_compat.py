"""dcgm-exporter's own collectors files load, with every commented row switched on; its leniencies hold here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuscope.fields.catalog import BY_NAME, LEGACY_NAMES, REMOVED_FIELDS
from gpuscope.fields.collectors import parse_collectors

ETC = Path(__file__).parent / "dcgm_exporter_etc"
SHIPPED = sorted(ETC.glob("*.csv"))
# A commented-out field row ("# DCGM_FI_..., gauge, help"), as opposed to a prose comment.
_COMMENTED_ROW = re.compile(r"^#\s*((?:DCGM_|dcgm_)\w+\s*,\s*\w+\s*,.*)$")

# go-dcgm's legacy 1.x field table (pkg/dcgm/legacy_fields.csv): name -> DCGM field id.
GO_DCGM_LEGACY = {
    "dcgm_board_limit_violation": 243, "dcgm_dec_utilization": 207, "dcgm_ecc_dbe_aggregate_total": 313,
    "dcgm_ecc_dbe_volatile_total": 311, "dcgm_ecc_sbe_aggregate_total": 312, "dcgm_ecc_sbe_volatile_total": 310,
    "dcgm_enc_utilization": 206, "dcgm_fb_free": 251, "dcgm_fb_used": 252, "dcgm_fi_prof_dram_active": 1005,
    "dcgm_fi_prof_gr_engine_active": 1001, "dcgm_fi_prof_pcie_rx_bytes": 1010, "dcgm_fi_prof_pcie_tx_bytes": 1009,
    "dcgm_fi_prof_pipe_tensor_active": 1004, "dcgm_fi_prof_sm_active": 1002, "dcgm_fi_prof_sm_occupancy": 1003,
    "dcgm_gpu_temp": 150, "dcgm_gpu_utilization": 203, "dcgm_low_util_violation": 244,
    "dcgm_mem_copy_utilization": 204, "dcgm_memory_clock": 101, "dcgm_memory_temp": 140,
    "dcgm_nvlink_bandwidth_total": 449, "dcgm_nvlink_data_crc_error_count_total": 419,
    "dcgm_nvlink_flit_crc_error_count_total": 409, "dcgm_nvlink_recovery_error_count_total": 439,
    "dcgm_nvlink_replay_error_count_total": 429, "dcgm_pcie_replay_counter": 202, "dcgm_pcie_rx_throughput": 201,
    "dcgm_pcie_tx_throughput": 200, "dcgm_power_usage": 155, "dcgm_power_violation": 240,
    "dcgm_reliability_violation": 245, "dcgm_retired_pages_dbe": 391, "dcgm_retired_pages_pending": 392,
    "dcgm_retired_pages_sbe": 390, "dcgm_sm_clock": 100, "dcgm_sync_boost_violation": 242,
    "dcgm_thermal_violation": 241, "dcgm_total_energy_consumption": 156, "dcgm_xid_errors": 230,
}  # fmt: skip


def switched_on(text: str) -> str:
    return "\n".join(m.group(1) if (m := _COMMENTED_ROW.match(ln)) else ln for ln in text.splitlines())


def test_the_three_shipped_files_are_present() -> None:
    assert [p.name for p in SHIPPED] == [
        "1.x-compatibility-metrics.csv",
        "dcp-metrics-included.csv",
        "default-counters.csv",
    ]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_file_loads_as_shipped_and_with_every_row_switched_on(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    as_shipped = parse_collectors(text, path.name)
    full_text = switched_on(text)
    full = parse_collectors(full_text, path.name)
    rows = sum(1 for ln in full_text.splitlines() if ln.strip() and not ln.startswith("#"))
    assert rows > len(as_shipped.metrics) + len(as_shipped.labels)  # commented rows were really switched on
    served = len(full.metrics) + len(full.labels)
    # Every row is served, except duplicates and removed fields, each of which says so in one warning.
    assert served + len(full.warnings) == rows
    assert len({m.name for m in full.metrics}) == len(full.metrics)


def test_duplicate_row_is_one_warning_and_one_family() -> None:
    text = (ETC / "1.x-compatibility-metrics.csv").read_text(encoding="utf-8")
    result = parse_collectors(text, "compat.csv")
    names = [m.name for m in result.metrics]
    assert names.count("dcgm_fi_prof_pcie_tx_bytes") == 1
    duplicates = [w for w in result.warnings if "dcgm_fi_prof_pcie_tx_bytes is already listed" in w]
    assert len(duplicates) == 1
    assert duplicates[0].startswith("compat.csv:")


def test_first_of_duplicate_rows_wins() -> None:
    result = parse_collectors(
        "DCGM_FI_DEV_GPU_TEMP, gauge, first\nDCGM_FI_DEV_SM_CLOCK, gauge, c\nDCGM_FI_DEV_GPU_TEMP, counter, second\n",
        "f.csv",
    )
    assert [(m.name, m.help) for m in result.metrics] == [
        ("DCGM_FI_DEV_GPU_TEMP", "first"),
        ("DCGM_FI_DEV_SM_CLOCK", "c"),
    ]
    assert result.warnings == (
        "f.csv:3: DCGM_FI_DEV_GPU_TEMP is already listed on line 1; served once, as that line says",
    )


def test_every_go_dcgm_legacy_name_is_an_alias_of_the_same_field_id() -> None:
    for name, field_id in GO_DCGM_LEGACY.items():
        if name in REMOVED_FIELDS:
            continue
        assert name in LEGACY_NAMES, name
        assert BY_NAME[LEGACY_NAMES[name]].field_id == field_id, name


@pytest.mark.parametrize(
    ("name", "replacement"),
    [
        ("DCGM_FI_DEV_PCIE_TX_THROUGHPUT", "DCGM_FI_PROF_PCIE_TX_BYTES"),
        ("DCGM_FI_DEV_PCIE_RX_THROUGHPUT", "DCGM_FI_PROF_PCIE_RX_BYTES"),
        ("dcgm_pcie_rx_throughput", "DCGM_FI_PROF_PCIE_RX_BYTES"),
    ],
)
def test_removed_field_is_skipped_with_a_line_naming_its_replacement(name: str, replacement: str) -> None:
    result = parse_collectors(f"DCGM_FI_DEV_GPU_TEMP, gauge, t\n{name}, counter, gone\n", "f.csv")
    assert [m.name for m in result.metrics] == ["DCGM_FI_DEV_GPU_TEMP"]
    assert result.warnings == (f"f.csv:2: {name} was removed in DCGM 4.7 and is skipped; list {replacement} instead",)
