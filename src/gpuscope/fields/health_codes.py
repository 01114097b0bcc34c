"""The ``health_error_code`` label of ``DCGM_EXP_GPU_HEALTH_STATUS``: a DCGM health incident's ``dcgmError_t``
code as dcgm-exporter names it (pure data). Both the DCGM backend and the simulator label health rows through it,
so a fault reads the same whichever backend serves it."""

from __future__ import annotations

from collections.abc import Mapping

# The health_error_code values dcgm-exporter emits (internal/pkg/collector/gpu_health_collector.go,
# healthCheckErrorToStringMap, NVIDIA/dcgm-exporter at d5e5f51, after 4.5.3-4.8.2): these 13 codes by name, any
# other as DCGM_FR_UNKNOWN(<code>). Numbers from dcgm_errors.h (dcgmError_t, DCGM 4.6.0; CLOCK_THROTTLE_THERMAL is
# the deprecated alias of CLOCKS_EVENT_THERMAL, the name dcgm-exporter writes); tests/backends/dcgm checks them.
HEALTH_CODE_NAMES: Mapping[int, str] = {
    0: "DCGM_FR_OK",
    1: "DCGM_FR_UNKNOWN",
    2: "DCGM_FR_UNRECOGNIZED",
    3: "DCGM_FR_PCI_REPLAY_RATE",
    4: "DCGM_FR_VOLATILE_DBE_DETECTED",
    5: "DCGM_FR_VOLATILE_SBE_DETECTED",
    6: "DCGM_FR_PENDING_PAGE_RETIREMENTS",
    7: "DCGM_FR_RETIRED_PAGES_LIMIT",
    8: "DCGM_FR_RETIRED_PAGES_DBE_LIMIT",
    9: "DCGM_FR_CORRUPT_INFOROM",
    10: "DCGM_FR_CLOCK_THROTTLE_THERMAL",
    130: "DCGM_FR_RETEST_REQUESTED",
    133: "DCGM_FR_ERROR_SENTINEL",
}


def error_code_label(code: int) -> str:
    """The label dcgm-exporter gives a health incident's ``dcgmError_t`` code."""
    return HEALTH_CODE_NAMES.get(code, f"DCGM_FR_UNKNOWN({code})")


# The dcgmError_t codes the simulator's faults raise (dcgm_errors.h, DCGM 4.6.0).
DBE_DETECTED = 4  # DCGM_FR_VOLATILE_DBE_DETECTED
THERMAL = 10  # DCGM_FR_CLOCK_THROTTLE_THERMAL (DCGM_FR_CLOCKS_EVENT_THERMAL)
NVLINK_ERROR_THRESHOLD = 13  # DCGM_FR_NVLINK_ERROR_THRESHOLD: dcgm-exporter has no name for it
