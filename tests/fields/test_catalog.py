from __future__ import annotations

from pathlib import Path

import pytest

from gpuscope.fields.catalog import (
    ALL_FIELDS,
    BY_ID,
    BY_NAME,
    DERIVED,
    HEADER_IDS,
    LEGACY_NAMES,
    RENAMED_IN_4_9,
    Dialect,
    MetricType,
    MigScope,
    dcgm_id,
    resolve,
    suggest,
)
from gpuscope.fields.collectors import default_counters_text, load_collectors
from gpuscope.fields.xid import xid_message

REPO = Path(__file__).resolve().parents[2]

# dcgm-exporter's etc/default-counters.csv: its active (uncommented) rows.
UPSTREAM_DEFAULT = {
    "DCGM_FI_DEV_SM_CLOCK": (100, "gauge"),
    "DCGM_FI_DEV_MEM_CLOCK": (101, "gauge"),
    "DCGM_FI_DEV_MEMORY_TEMP": (140, "gauge"),
    "DCGM_FI_DEV_GPU_TEMP": (150, "gauge"),
    "DCGM_FI_DEV_POWER_USAGE": (155, "gauge"),
    "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": (156, "counter"),
    "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": (202, "counter"),
    "DCGM_FI_DEV_GPU_UTIL": (203, "gauge"),
    "DCGM_FI_DEV_MEM_COPY_UTIL": (204, "gauge"),
    "DCGM_FI_DEV_ENC_UTIL": (206, "gauge"),
    "DCGM_FI_DEV_DEC_UTIL": (207, "gauge"),
    "DCGM_FI_DEV_XID_ERRORS": (230, "gauge"),
    "DCGM_FI_DEV_FB_FREE": (251, "gauge"),
    "DCGM_FI_DEV_FB_USED": (252, "gauge"),
    "DCGM_FI_DEV_FB_RESERVED": (253, "gauge"),
    "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": (449, "counter"),
    "DCGM_FI_DEV_VGPU_LICENSE_STATUS": (526, "gauge"),
    "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS": (393, "counter"),
    "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS": (394, "counter"),
    "DCGM_FI_DEV_ROW_REMAP_FAILURE": (395, "gauge"),
    "DCGM_FI_DRIVER_VERSION": (1, "label"),
    "DCGM_FI_PROF_GR_ENGINE_ACTIVE": (1001, "gauge"),
    "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": (1004, "gauge"),
    "DCGM_FI_PROF_DRAM_ACTIVE": (1005, "gauge"),
    "DCGM_FI_PROF_PCIE_TX_BYTES": (1009, "gauge"),
    "DCGM_FI_PROF_PCIE_RX_BYTES": (1010, "gauge"),
}

# The upstream file's commented optional rows, and the DCGM_FI_PROF_* fields NVML serves through GPM.
OPTIONAL = [
    "DCGM_FI_DEV_POWER_VIOLATION",
    "DCGM_FI_DEV_THERMAL_VIOLATION",
    "DCGM_FI_DEV_SYNC_BOOST_VIOLATION",
    "DCGM_FI_DEV_BOARD_LIMIT_VIOLATION",
    "DCGM_FI_DEV_LOW_UTIL_VIOLATION",
    "DCGM_FI_DEV_RELIABILITY_VIOLATION",
    "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
    "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
    "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL",
    "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL",
    "DCGM_FI_DEV_RETIRED_SBE",
    "DCGM_FI_DEV_RETIRED_DBE",
    "DCGM_FI_DEV_RETIRED_PENDING",
    "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_BANDWIDTH_L0",
    "DCGM_FI_NVML_VERSION",
    "DCGM_FI_DEV_BRAND",
    "DCGM_FI_DEV_SERIAL",
    "DCGM_FI_DEV_OEM_INFOROM_VER",
    "DCGM_FI_DEV_ECC_INFOROM_VER",
    "DCGM_FI_DEV_POWER_INFOROM_VER",
    "DCGM_FI_DEV_INFOROM_IMAGE_VER",
    "DCGM_FI_DEV_VBIOS_VERSION",
    "DCGM_FI_PROF_SM_ACTIVE",
    "DCGM_FI_PROF_SM_OCCUPANCY",
    "DCGM_FI_PROF_PIPE_FP64_ACTIVE",
    "DCGM_FI_PROF_PIPE_FP32_ACTIVE",
    "DCGM_FI_PROF_PIPE_FP16_ACTIVE",
    "DCGM_FI_PROF_NVLINK_TX_BYTES",
    "DCGM_FI_PROF_NVLINK_RX_BYTES",
    "DCGM_FI_PROF_PIPE_TENSOR_IMMA_ACTIVE",
    "DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE",
    "DCGM_FI_PROF_PIPE_TENSOR_DFMA_ACTIVE",
    "DCGM_FI_PROF_PIPE_INT_ACTIVE",
    "DCGM_EXP_CLOCK_EVENTS_COUNT",
    "DCGM_EXP_XID_ERRORS_COUNT",
    "DCGM_EXP_GPU_HEALTH_STATUS",
    "DCGM_EXP_P2P_STATUS",
]


def test_default_list_is_upstreams_default_counters() -> None:
    collectors = load_collectors(None)
    got = {m.name: (m.field.field_id, m.type.value) for m in (*collectors.metrics, *collectors.labels)}
    assert got == UPSTREAM_DEFAULT
    assert {f.name for f in ALL_FIELDS if f.in_default} == set(UPSTREAM_DEFAULT)


def test_shipped_etc_copy_equals_the_built_in_list() -> None:
    assert (REPO / "etc" / "default-counters.csv").read_text() == default_counters_text()


@pytest.mark.parametrize("name", OPTIONAL)
def test_optional_rows_and_prof_fields_are_known(name: str) -> None:
    assert name in BY_NAME


def test_prof_fields_are_flagged_and_per_gpu_instance() -> None:
    prof = [f for f in ALL_FIELDS if f.name.startswith("DCGM_FI_PROF_")]
    assert prof and all(f.prof for f in prof)
    assert all(f.mig is MigScope.INSTANCE for f in prof)
    assert not [f for f in ALL_FIELDS if f.prof and not f.name.startswith("DCGM_FI_PROF_")]


def test_every_4_9_rename_points_at_a_catalog_field_with_the_new_unit() -> None:
    assert len(RENAMED_IN_4_9) == 23
    changed_unit = [old for old, new in RENAMED_IN_4_9.items() if BY_NAME[old].unit != BY_NAME[new].unit]
    assert len(changed_unit) == 11
    assert BY_NAME["DCGM_FI_DEV_SM_CLOCK_HERTZ"].unit == "Hz"
    assert BY_NAME["DCGM_FI_DEV_FB_USED_BYTES"].unit == "B"


def test_derived_fields_name_existing_sources() -> None:
    for target, (source, factor) in DERIVED.items():
        assert target in BY_ID and source in BY_ID and factor > 0


def test_resolve_dialects_and_legacy_names() -> None:
    assert resolve("DCGM_FI_DEV_SM_CLOCK") is not None
    classic = resolve("DCGM_FI_DEV_SM_CLOCK", Dialect.CLASSIC)
    assert classic is not None and classic.emitted_name == "DCGM_FI_DEV_SM_CLOCK" and classic.field.unit == "MHz"
    new = resolve("DCGM_FI_DEV_SM_CLOCK", Dialect.DCGM_4_9)
    assert new is not None and new.emitted_name == "DCGM_FI_DEV_SM_CLOCK_HERTZ"
    # A base-unit view of DCGM's field 100 (dcgm_fields.h defines no id of its own for the Hz name).
    assert dcgm_id(new.field.field_id) == HEADER_IDS["DCGM_FI_DEV_SM_CLOCK"] == 100
    # A 4.9 name written in a classic file is emitted as written.
    written = resolve("DCGM_FI_DEV_GPU_TEMP_CELSIUS", Dialect.CLASSIC)
    assert written is not None and written.emitted_name == "DCGM_FI_DEV_GPU_TEMP_CELSIUS"
    legacy = resolve("dcgm_gpu_temp", Dialect.DCGM_4_9)
    assert legacy is not None and legacy.emitted_name == "dcgm_gpu_temp" and legacy.field.field_id == 150
    assert set(LEGACY_NAMES.values()) <= set(BY_NAME)
    assert resolve("DCGM_FI_DEV_NOPE") is None


def test_suggest_finds_typos() -> None:
    assert suggest("DCGM_FI_DEV_GPU_TMP") == "DCGM_FI_DEV_GPU_TEMP"
    assert suggest("dcgm_fi_dev_gpu_temp") == "DCGM_FI_DEV_GPU_TEMP"
    assert suggest("completely-unrelated") is None


def test_types_are_valid_and_labels_are_strings() -> None:
    for f in ALL_FIELDS:
        assert f.type in MetricType
        if f.type is MetricType.LABEL:
            assert f.value.value == "string"


def test_xid_messages_match_dcgm_exporter() -> None:
    assert xid_message(0) == "No Error"
    assert xid_message(48) == "Double Bit ECC Error"
    assert xid_message(79) == "GPU has fallen off the bus"
    assert xid_message(119) == "GSP RPC Timeout"
    assert xid_message(172) == "Uncorrectable SRAM Error"
    assert xid_message(173) == "Unknown Error"
    assert xid_message(-1) == "Unknown Error"
