"""Our NVML numbers are NVML's: every constant checked against the installed nvidia-ml-py."""

from __future__ import annotations

import pynvml

from gpuscope.backends.nvml import constants as C


def test_numbers_match_the_bindings() -> None:
    pairs = {
        "ERROR_NOT_SUPPORTED": "NVML_ERROR_NOT_SUPPORTED",
        "ERROR_NO_PERMISSION": "NVML_ERROR_NO_PERMISSION",
        "ERROR_GPU_IS_LOST": "NVML_ERROR_GPU_IS_LOST",
        "ERROR_RESET_REQUIRED": "NVML_ERROR_RESET_REQUIRED",
        "ERROR_FUNCTION_NOT_FOUND": "NVML_ERROR_FUNCTION_NOT_FOUND",
        "ERROR_LIBRARY_NOT_FOUND": "NVML_ERROR_LIBRARY_NOT_FOUND",
        "ERROR_DRIVER_NOT_LOADED": "NVML_ERROR_DRIVER_NOT_LOADED",
        "ERROR_LIB_RM_VERSION_MISMATCH": "NVML_ERROR_LIB_RM_VERSION_MISMATCH",
        "ERROR_TIMEOUT": "NVML_ERROR_TIMEOUT",
        "ERROR_NOT_FOUND": "NVML_ERROR_NOT_FOUND",
        "ERROR_NO_DATA": "NVML_ERROR_NO_DATA",
        "FI_MEMORY_TEMP": "NVML_FI_DEV_MEMORY_TEMP",
        "FI_TOTAL_ENERGY_CONSUMPTION": "NVML_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
        "FI_POWER_INSTANT": "NVML_FI_DEV_POWER_INSTANT",
        "FI_PCIE_REPLAY_COUNTER": "NVML_FI_DEV_PCIE_REPLAY_COUNTER",
        "FI_PERF_POLICY_POWER": "NVML_FI_DEV_PERF_POLICY_POWER",
        "FI_ECC_SBE_VOL_TOTAL": "NVML_FI_DEV_ECC_SBE_VOL_TOTAL",
        "FI_ECC_DBE_AGG_TOTAL": "NVML_FI_DEV_ECC_DBE_AGG_TOTAL",
        "FI_RETIRED_SBE": "NVML_FI_DEV_RETIRED_SBE",
        "FI_RETIRED_PENDING": "NVML_FI_DEV_RETIRED_PENDING",
        "FI_REMAPPED_COR": "NVML_FI_DEV_REMAPPED_COR",
        "FI_REMAPPED_UNC": "NVML_FI_DEV_REMAPPED_UNC",
        "FI_REMAPPED_PENDING": "NVML_FI_DEV_REMAPPED_PENDING",
        "FI_REMAPPED_FAILURE": "NVML_FI_DEV_REMAPPED_FAILURE",
        "FI_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL": "NVML_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
        "FI_NVLINK_RECOVERY_ERROR_COUNT_TOTAL": "NVML_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
        "FI_NVLINK_ERROR_DL_REPLAY": "NVML_FI_DEV_NVLINK_ERROR_DL_REPLAY",
        "FI_NVLINK_ERROR_DL_CRC": "NVML_FI_DEV_NVLINK_ERROR_DL_CRC",
        "FI_NVLINK_THROUGHPUT_DATA_TX": "NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX",
        "FI_NVLINK_THROUGHPUT_DATA_RX": "NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX",
        "FI_NVLINK_LINK_COUNT": "NVML_FI_DEV_NVLINK_LINK_COUNT",
        "CLOCK_SM": "NVML_CLOCK_SM",
        "CLOCK_MEM": "NVML_CLOCK_MEM",
        "CLOCK_VIDEO": "NVML_CLOCK_VIDEO",
        "TEMPERATURE_THRESHOLD_SLOWDOWN": "NVML_TEMPERATURE_THRESHOLD_SLOWDOWN",
        "INFOROM_POWER": "NVML_INFOROM_POWER",
        "NVLINK_ERROR_DL_CRC_FLIT": "NVML_NVLINK_ERROR_DL_CRC_FLIT",
        "NVLINK_ERROR_DL_CRC_DATA": "NVML_NVLINK_ERROR_DL_CRC_DATA",
        "GRID_LICENSE_FEATURE_CODE_VGPU": "NVML_GRID_LICENSE_FEATURE_CODE_VGPU",
        "DEVICE_MIG_ENABLE": "NVML_DEVICE_MIG_ENABLE",
        "P2P_CAPS_INDEX_NVLINK": "NVML_P2P_CAPS_INDEX_NVLINK",
        "P2P_STATUS_UNKNOWN": "NVML_P2P_STATUS_UNKNOWN",
        "EVENT_XID_CRITICAL_ERROR": "nvmlEventTypeXidCriticalError",
        "EVENT_MIG_CONFIG_CHANGE": "nvmlEventMigConfigChange",
        "GPM_GRAPHICS_UTIL": "NVML_GPM_METRIC_GRAPHICS_UTIL",
        "GPM_ANY_TENSOR_UTIL": "NVML_GPM_METRIC_ANY_TENSOR_UTIL",
        "GPM_IMMA_TENSOR_UTIL": "NVML_GPM_METRIC_IMMA_TENSOR_UTIL",
        "GPM_DRAM_BW_UTIL": "NVML_GPM_METRIC_DRAM_BW_UTIL",
        "GPM_FP16_UTIL": "NVML_GPM_METRIC_FP16_UTIL",
        "GPM_PCIE_RX_PER_SEC": "NVML_GPM_METRIC_PCIE_RX_PER_SEC",
        "GPM_NVDEC_0_UTIL": "NVML_GPM_METRIC_NVDEC_0_UTIL",
        "GPM_NVJPG_0_UTIL": "NVML_GPM_METRIC_NVJPG_0_UTIL",
        "GPM_NVOFA_0_UTIL": "NVML_GPM_METRIC_NVOFA_0_UTIL",
        "GPM_NVLINK_TOTAL_RX_PER_SEC": "NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC",
        "GPM_NVLINK_TOTAL_TX_PER_SEC": "NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC",
        "GPM_METRICS_GET_VERSION": "NVML_GPM_METRICS_GET_VERSION",
        "GPM_METRIC_MAX": "NVML_GPM_METRIC_MAX",
    }
    wrong = {
        ours: (getattr(C, ours), getattr(pynvml, theirs))
        for ours, theirs in pairs.items()
        if getattr(C, ours) != getattr(pynvml, theirs)
    }
    assert wrong == {}


def test_per_lane_and_per_link_ids_match_the_bindings() -> None:
    for name, lanes in (
        ("CRC_FLIT_ERROR_COUNT", C.FI_NVLINK_CRC_FLIT_LANES),
        ("CRC_DATA_ERROR_COUNT", C.FI_NVLINK_CRC_DATA_LANES),
        ("REPLAY_ERROR_COUNT", C.FI_NVLINK_REPLAY_LANES),
        ("RECOVERY_ERROR_COUNT", C.FI_NVLINK_RECOVERY_LANES),
    ):
        assert list(lanes) == [getattr(pynvml, f"NVML_FI_DEV_NVLINK_{name}_L{n}") for n in range(12)]
    for link in range(35):
        assert C.gpm_nvlink_metric(link, tx=False) == getattr(pynvml, f"NVML_GPM_METRIC_NVLINK_L{link}_RX_PER_SEC")
        assert C.gpm_nvlink_metric(link, tx=True) == getattr(pynvml, f"NVML_GPM_METRIC_NVLINK_L{link}_TX_PER_SEC")
    assert C.gpm_nvlink_metric(35, tx=True) is None
    for code, name in C.BRAND_NAMES.items():
        assert code < pynvml.NVML_BRAND_COUNT, name
    assert {getattr(pynvml, f"NVML_VALUE_TYPE_{t}") for t in ("DOUBLE", "UNSIGNED_INT", "UNSIGNED_LONG_LONG")} == {
        C.VALUE_TYPE_DOUBLE,
        C.VALUE_TYPE_UNSIGNED_INT,
        C.VALUE_TYPE_UNSIGNED_LONG_LONG,
    }
    assert {
        getattr(pynvml, f"NVML_VALUE_TYPE_{t}"): m
        for t, m in (
            ("DOUBLE", "dVal"),
            ("UNSIGNED_INT", "uiVal"),
            ("UNSIGNED_LONG", "ulVal"),
            ("UNSIGNED_LONG_LONG", "ullVal"),
            ("SIGNED_LONG_LONG", "sllVal"),
            ("SIGNED_INT", "siVal"),
            ("UNSIGNED_SHORT", "usVal"),
        )
    } == C.VALUE_UNION_MEMBER
