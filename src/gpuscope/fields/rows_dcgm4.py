"""Catalog rows of the DCGM 4.x fields for Blackwell-era systems: NVLink fabric state, NVLink5 error counters and
bit-error rates, C2C (Grace-to-GPU) links, power-limit bounds and the driver's recovery action.

Value semantics, as DCGM documents them:

- ``DCGM_FI_DEV_FABRIC_MANAGER_STATUS``: 0 not supported, 1 not started, 2 in progress, 3 success, 4 failure,
  5 unrecognized, 6 NVML too old (``dcgmFabricManagerStatus_t``).
- ``DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY``: 0 not supported, 1 healthy, 2 unhealthy, 3 limited capacity.
- ``DCGM_FI_DEV_GPU_RECOVERY_ACTION``: 0 none, 1 GPU reset, 2 node reboot, 3 drain peer-to-peer, 4 drain and
  reset (``nvmlDeviceGpuRecoveryAction_t``).
- The ``DCGM_FI_DEV_NVLINK_COUNT_*`` counters and BERs are NVLink5-only and aggregate all of a GPU's links.
"""

from __future__ import annotations

from gpuscope.fields.ids import FieldId
from gpuscope.fields.schema import Field, MetricType, ValueKind

FABRIC_MANAGER_SUCCESS = 3
FABRIC_HEALTH_HEALTHY = 1
FABRIC_HEALTH_UNHEALTHY = 2
FABRIC_HEALTH_LIMITED_CAPACITY = 3


def _row(name: str, kind: MetricType, unit: str, help_: str, value: ValueKind = ValueKind.INT) -> Field:
    return Field(name=name, field_id=FieldId[name], type=kind, unit=unit, help=help_, value=value)


def _gauge(name: str, unit: str, help_: str, value: ValueKind = ValueKind.INT) -> Field:
    return _row(name, MetricType.GAUGE, unit, help_, value)


def _counter(name: str, help_: str) -> Field:
    return _row(name, MetricType.COUNTER, "count", help_)


DCGM4_FIELDS: tuple[Field, ...] = (
    _gauge("DCGM_FI_DEV_POWER_MGMT_LIMIT_MIN", "W", "Minimum power management limit (in W).", ValueKind.DOUBLE),
    _gauge("DCGM_FI_DEV_POWER_MGMT_LIMIT_MAX", "W", "Maximum power management limit (in W).", ValueKind.DOUBLE),
    _gauge("DCGM_FI_DEV_POWER_MGMT_LIMIT_DEF", "W", "Default power management limit (in W).", ValueKind.DOUBLE),
    _gauge(
        "DCGM_FI_DEV_FABRIC_MANAGER_STATUS",
        "",
        "Fabric manager status: 0 not supported, 1 not started, 2 in progress, 3 success, 4 failure.",
    ),
    _gauge("DCGM_FI_DEV_FABRIC_MANAGER_ERROR_CODE", "", "Error the fabric manager reported at start-up, if any."),
    _row(
        "DCGM_FI_DEV_FABRIC_CLUSTER_UUID",
        MetricType.LABEL,
        "",
        "UUID of the NVLink cluster the GPU belongs to.",
        ValueKind.STRING,
    ),
    _gauge("DCGM_FI_DEV_FABRIC_CLIQUE_ID", "", "ID of the NVLink fabric clique the GPU belongs to."),
    _gauge("DCGM_FI_DEV_FABRIC_HEALTH_MASK", "", "Fabric health bit mask (NVML GPU fabric health mask)."),
    _gauge(
        "DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY",
        "",
        "Fabric health: 0 not supported, 1 healthy, 2 unhealthy, 3 limited capacity.",
    ),
    _gauge("DCGM_FI_DEV_C2C_LINK_COUNT", "", "Number of C2C links."),
    _gauge("DCGM_FI_DEV_C2C_LINK_STATUS", "", "C2C link status: 1 active, 0 inactive."),
    _gauge("DCGM_FI_DEV_C2C_MAX_BANDWIDTH", "MB/s", "Maximum C2C link bandwidth (in MB/s)."),
    _counter("DCGM_FI_DEV_C2C_LINK_ERROR_INTR", "C2C link CRC errors."),
    _counter("DCGM_FI_DEV_C2C_LINK_ERROR_REPLAY", "C2C link replays."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_RX_MALFORMED_PACKET_ERRORS", "NVLink5 malformed packets received."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_RX_BUFFER_OVERRUN_ERRORS", "NVLink5 packets dropped on buffer overrun."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_RX_ERRORS", "NVLink5 packets received with errors."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_RX_REMOTE_ERRORS", "NVLink5 remote errors received."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_RX_GENERAL_ERRORS", "NVLink5 general errors received."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_LOCAL_LINK_INTEGRITY_ERRORS", "NVLink5 local link integrity errors."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_TX_DISCARDS", "NVLink5 transmitted packets discarded."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_SUCCESSFUL_EVENTS", "NVLink5 successful link recoveries."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_FAILED_EVENTS", "NVLink5 failed link recoveries."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_LINK_RECOVERY_EVENTS", "NVLink5 link recovery events."),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_RX_SYMBOL_ERRORS", "NVLink5 symbol errors received."),
    _gauge("DCGM_FI_DEV_NVLINK_COUNT_SYMBOL_BER_FLOAT", "ratio", "NVLink5 symbol bit error rate.", ValueKind.DOUBLE),
    _gauge(
        "DCGM_FI_DEV_NVLINK_COUNT_EFFECTIVE_BER_FLOAT",
        "ratio",
        "NVLink5 effective bit error rate (after forward error correction).",
        ValueKind.DOUBLE,
    ),
    _counter("DCGM_FI_DEV_NVLINK_COUNT_EFFECTIVE_ERRORS", "NVLink5 errors left after forward error correction."),
    _gauge(
        "DCGM_FI_DEV_GPU_RECOVERY_ACTION",
        "",
        "Recovery the driver asks for: 0 none, 1 GPU reset, 2 node reboot, 3 drain P2P, 4 drain and reset.",
    ),
)
