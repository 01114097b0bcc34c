"""The NVLink error counters: the per-GPU totals either exporter may serve, read by the GPUNVLinkErrors alert and
the dashboards' NVLink panels alike (pure data).
"""

from __future__ import annotations

# Which ones exist depends on the GPU.
NVLINK_ERROR_FIELDS = (
    "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
    "DCGM_FI_DEV_NVLINK_CRC_ERROR_TOTAL",
    "DCGM_FI_DEV_NVLINK_RECOVERY_TOTAL",
    "DCGM_FI_DEV_NVLINK_REPLAY_TOTAL",
    # NVLink5 (Blackwell): packets received with errors, link integrity, failed recoveries and the errors left after
    # forward error correction. Symbol errors (before FEC) and successful recoveries are normal and left out.
    "DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS",
    "DCGM_FI_DEV_NVLINK_COUNT_LOCAL_LINK_INTEGRITY_ERRORS",
    "DCGM_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS",
    "DCGM_FI_DEV_NVLINK_COUNT_EFFECTIVE_ERRORS",
)
