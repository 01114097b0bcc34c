"""The NVML numbers gpuscope uses: field ids, GPM metric ids, enums and return codes from ``nvml.h``.

They are part of NVML's stable ABI, so they are written down here instead of read from ``pynvml``: the field map
stays pure data that imports nothing, and a test checks every number against the installed bindings.
"""

from __future__ import annotations

# --- return codes (nvmlReturn_t) ---------------------------------------------------------------------------
SUCCESS = 0
ERROR_UNINITIALIZED = 1
ERROR_INVALID_ARGUMENT = 2
ERROR_NOT_SUPPORTED = 3
ERROR_NO_PERMISSION = 4
ERROR_NOT_FOUND = 6
ERROR_DRIVER_NOT_LOADED = 9
ERROR_TIMEOUT = 10
ERROR_LIBRARY_NOT_FOUND = 12
ERROR_FUNCTION_NOT_FOUND = 13
ERROR_GPU_IS_LOST = 15
ERROR_RESET_REQUIRED = 16
ERROR_LIB_RM_VERSION_MISMATCH = 18
ERROR_IN_USE = 19
ERROR_NO_DATA = 21
ERROR_NOT_READY = 27
ERROR_GPU_NOT_FOUND = 28
ERROR_UNKNOWN = 999

# --- nvmlDeviceGetFieldValues ids (NVML_FI_DEV_*) ----------------------------------------------------------
FI_ECC_SBE_VOL_TOTAL = 3
FI_ECC_DBE_VOL_TOTAL = 4
FI_ECC_SBE_AGG_TOTAL = 5
FI_ECC_DBE_AGG_TOTAL = 6
FI_RETIRED_SBE = 29
FI_RETIRED_DBE = 30
FI_RETIRED_PENDING = 31
FI_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL = 38
FI_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL = 45
FI_NVLINK_REPLAY_ERROR_COUNT_TOTAL = 52
FI_NVLINK_RECOVERY_ERROR_COUNT_TOTAL = 59
FI_GET_GPU_RECOVERY_ACTION = 230

# --- GPU fabric state (nvmlGpuFabricState_t) ---------------------------------------------------------------
GPU_FABRIC_STATE_NOT_SUPPORTED = 0
GPU_FABRIC_STATE_COMPLETED = 3
FI_PERF_POLICY_POWER = 74  # 74..79: power, thermal, sync boost, board limit, low util, reliability (ns)
FI_MEMORY_TEMP = 82
FI_TOTAL_ENERGY_CONSUMPTION = 83
FI_NVLINK_LINK_COUNT = 91
FI_PCIE_REPLAY_COUNTER = 94
FI_NVLINK_THROUGHPUT_DATA_TX = 138
FI_NVLINK_THROUGHPUT_DATA_RX = 139
FI_NVLINK_GET_STATE = 165  # per link (scopeId): 1 active, 0 inactive (nvml.h "NVLink State - Active,Inactive")
FI_REMAPPED_COR = 142
FI_REMAPPED_UNC = 143
FI_REMAPPED_PENDING = 144
FI_REMAPPED_FAILURE = 145
FI_NVLINK_ERROR_DL_REPLAY = 161
FI_NVLINK_ERROR_DL_RECOVERY = 162
FI_NVLINK_ERROR_DL_CRC = 163
FI_POWER_INSTANT = 186

# Per-lane NVLink error counters exist as field ids for lanes 0-11 only (L0-L5, then L6-L11 in a second block).
FI_NVLINK_CRC_FLIT_LANES = (32, 33, 34, 35, 36, 37, 96, 97, 98, 99, 100, 101)
FI_NVLINK_CRC_DATA_LANES = (39, 40, 41, 42, 43, 44, 102, 103, 104, 105, 106, 107)
FI_NVLINK_REPLAY_LANES = (46, 47, 48, 49, 50, 51, 108, 109, 110, 111, 112, 113)
FI_NVLINK_RECOVERY_LANES = (53, 54, 55, 56, 57, 58, 114, 115, 116, 117, 118, 119)

SCOPE_ALL_LINKS = 0xFFFFFFFF  # scopeId meaning "sum over every NVLink" for the throughput fields

# nvmlValueType_t -> the member of the c_nvmlValue_t union that holds the value
VALUE_UNION_MEMBER = {0: "dVal", 1: "uiVal", 2: "ulVal", 3: "ullVal", 4: "sllVal", 5: "siVal", 6: "usVal"}
VALUE_TYPE_DOUBLE = 0
VALUE_TYPE_UNSIGNED_INT = 1
VALUE_TYPE_UNSIGNED_LONG_LONG = 3

# --- enums for individual calls -----------------------------------------------------------------------------
CLOCK_SM = 1
CLOCK_MEM = 2
CLOCK_VIDEO = 3
TEMPERATURE_GPU = 0
TEMPERATURE_THRESHOLD_SHUTDOWN = 0
TEMPERATURE_THRESHOLD_SLOWDOWN = 1
INFOROM_OEM = 0
INFOROM_ECC = 1
INFOROM_POWER = 2
NVLINK_ERROR_DL_REPLAY = 0
NVLINK_ERROR_DL_RECOVERY = 1
NVLINK_ERROR_DL_CRC_FLIT = 2
NVLINK_ERROR_DL_CRC_DATA = 3
GRID_LICENSE_FEATURE_CODE_VGPU = 1
PSTATE_UNKNOWN = 32
DEVICE_MIG_ENABLE = 1
P2P_CAPS_INDEX_NVLINK = 2
P2P_STATUS_UNKNOWN = 6

# nvmlBrandType_t -> the string DCGM reports for DCGM_FI_DEV_BRAND (DCGM copies nvidia-smi's names).
BRAND_NAMES = {
    0: "Unknown",
    1: "Quadro",
    2: "Tesla",
    3: "NVS",
    4: "Grid",
    5: "GeForce",
    6: "Titan",
    7: "NVIDIA Virtual Applications",
    8: "NVIDIA Virtual PC",
    9: "NVIDIA Virtual Compute Server",
    10: "NVIDIA RTX Virtual Workstation",
    11: "NVIDIA vGaming",
    12: "Quadro RTX",
    13: "NVIDIA RTX",
    14: "NVIDIA",
    15: "GeForce RTX",
    16: "Titan RTX",
}

# --- events ------------------------------------------------------------------------------------------------
EVENT_XID_CRITICAL_ERROR = 0x8
EVENT_MIG_CONFIG_CHANGE = 0x100

# --- GPM (NVML_GPM_METRIC_*) -------------------------------------------------------------------------------
GPM_GRAPHICS_UTIL = 1
GPM_SM_UTIL = 2
GPM_SM_OCCUPANCY = 3
GPM_INTEGER_UTIL = 4
GPM_ANY_TENSOR_UTIL = 5
GPM_DFMA_TENSOR_UTIL = 6
GPM_HMMA_TENSOR_UTIL = 7
GPM_IMMA_TENSOR_UTIL = 9
GPM_DRAM_BW_UTIL = 10
GPM_FP64_UTIL = 11
GPM_FP32_UTIL = 12
GPM_FP16_UTIL = 13
GPM_PCIE_TX_PER_SEC = 20
GPM_PCIE_RX_PER_SEC = 21
GPM_NVDEC_0_UTIL = 30  # NVDEC 0-7: 30-37
GPM_NVJPG_0_UTIL = 40  # NVJPG 0-7: 40-47
GPM_NVOFA_0_UTIL = 50  # NVOFA 0-1: 50-51
GPM_NVLINK_TOTAL_RX_PER_SEC = 60
GPM_NVLINK_TOTAL_TX_PER_SEC = 61
GPM_METRICS_GET_VERSION = 1
GPM_METRIC_MAX = 477


def gpm_nvlink_metric(link: int, tx: bool) -> int | None:
    """The GPM per-link NVLink rate metric (MiB/s) of ``link``; ``None`` beyond the links GPM names (L0-L35).

    nvml.h (go-nvml's copy): L0-L17 are 62-97, L18-L35 are 212-247 (NVML_GPM_METRIC_NVLINK_L35_TX_PER_SEC = 247),
    RX then TX."""
    if 0 <= link < 18:
        return 62 + 2 * link + int(tx)
    if 18 <= link < 36:
        return 212 + 2 * (link - 18) + int(tx)
    return None
