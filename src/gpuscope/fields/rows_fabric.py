"""Catalog rows of the NVSwitch (``DCGM_FE_SWITCH``) fields and the NVLink-entity (``DCGM_FE_LINK``) fields that
an NVSwitch port or a GPU link serves: names, ids, value types and entity levels from DCGM 4.6.0's dcgm_fields.h
and dcgm_fields.cpp (``fields/dcgm_header.py``), help text from its comments.

Value semantics, as DCGM documents them:

- ``DCGM_FI_DEV_SXID_FATAL_ERROR`` / ``..._NON_FATAL_ERROR``: the last SXid the switch logged (its number); old
  names ``DCGM_FI_DEV_NVSWITCH_FATAL_ERRORS`` / ``..._NON_FATAL_ERRORS`` resolve to the same ids.
- ``DCGM_FI_DEV_NVSWITCH_LINK_STATUS``: -1 unknown, 0 off, 1 safe, 2 active, 3 error.
- ``DCGM_FI_DEV_NVSWITCH_LINK_TYPE``: NSCQ (3rd-gen switch) 1 GPU, 2 switch; NVSDM (4th-gen) 1 CA, 2 switch, 5 GPU.
- ``DCGM_FI_DEV_NVLINK_GET_STATE`` (from NVML's per-link enable state): 1 up, 0 down.

They sit apart from ``rows.ALL_FIELDS`` (the GPU catalog every GPU dashboard and budget row is checked against):
the catalog indexes both (``catalog.BY_NAME``), so a collectors CSV may list them.
"""

from __future__ import annotations

from gpuscope.fields.ids import FieldId
from gpuscope.fields.schema import Entity, Field, MetricType

LINK_STATUS_ACTIVE = 2  # DCGM_FI_DEV_NVSWITCH_LINK_STATUS of a trained port
NVLINK_STATE_UP = 1  # DCGM_FI_DEV_NVLINK_GET_STATE of an up link


def _switch(name: str, kind: MetricType, unit: str, help_: str) -> Field:
    return Field(name=name, field_id=FieldId[name], type=kind, unit=unit, help=help_, entity=Entity.NVSWITCH)


def _port(name: str, kind: MetricType, unit: str, help_: str) -> Field:
    return Field(name=name, field_id=FieldId[name], type=kind, unit=unit, help=help_, entity=Entity.NVLINK)


_G, _C = MetricType.GAUGE, MetricType.COUNTER

SWITCH_FIELDS: tuple[Field, ...] = (
    _switch("DCGM_FI_DEV_NVSWITCH_VOLTAGE_MVOLT", _G, "mV", "NVSwitch voltage (in mV)."),
    _switch("DCGM_FI_DEV_NVSWITCH_CURRENT_IDDQ", _G, "", "NVSwitch IDDQ current."),
    _switch("DCGM_FI_DEV_NVSWITCH_CURRENT_IDDQ_REV", _G, "", "NVSwitch IDDQ current, revision."),
    _switch("DCGM_FI_DEV_NVSWITCH_CURRENT_IDDQ_DVDD", _G, "", "NVSwitch DVDD IDDQ current."),
    _switch("DCGM_FI_DEV_NVSWITCH_POWER_VDD_WATTS", _G, "W", "NVSwitch VDD power (in W)."),
    _switch("DCGM_FI_DEV_NVSWITCH_POWER_DVDD_WATTS", _G, "W", "NVSwitch DVDD power (in W)."),
    _switch("DCGM_FI_DEV_NVSWITCH_POWER_HVDD_WATTS", _G, "W", "NVSwitch HVDD power (in W)."),
    _switch("DCGM_FI_DEV_SXID_FATAL_ERROR", _G, "", "Last fatal SXid the NVSwitch logged (0: none)."),
    _switch("DCGM_FI_DEV_SXID_NON_FATAL_ERROR", _G, "", "Last non-fatal SXid the NVSwitch logged (0: none)."),
    _switch("DCGM_FI_DEV_NVSWITCH_TEMP_CELSIUS", _G, "C", "NVSwitch temperature (in C)."),
    _switch("DCGM_FI_DEV_NVSWITCH_TEMP_SLOWDOWN_CELSIUS", _G, "C", "NVSwitch slowdown temperature (in C)."),
    _switch("DCGM_FI_DEV_NVSWITCH_TEMP_SHUTDOWN_CELSIUS", _G, "C", "NVSwitch shutdown temperature (in C)."),
    _switch("DCGM_FI_DEV_NVSWITCH_THROUGHPUT_TX", _C, "", "NVSwitch transmit throughput counter (DCGM gives no unit)."),
    _switch("DCGM_FI_DEV_NVSWITCH_THROUGHPUT_RX", _C, "", "NVSwitch receive throughput counter (DCGM gives no unit)."),
    _switch("DCGM_FI_DEV_NVSWITCH_PHYSICAL_ID", _G, "", "NVSwitch physical id."),
    _switch("DCGM_FI_DEV_NVSWITCH_RESET_REQUIRED", _G, "", "1 when the NVSwitch needs a reset to recover."),
    _switch("DCGM_FI_DEV_NVSWITCH_PCIE_DOMAIN", _G, "", "NVSwitch PCIe domain."),
    _switch("DCGM_FI_DEV_NVSWITCH_PCIE_BUS", _G, "", "NVSwitch PCIe bus."),
    _switch("DCGM_FI_DEV_NVSWITCH_PCIE_DEVICE", _G, "", "NVSwitch PCIe device."),
    _switch("DCGM_FI_DEV_NVSWITCH_PCIE_FUNCTION", _G, "", "NVSwitch PCIe function."),
)

PORT_FIELDS: tuple[Field, ...] = (
    _port("DCGM_FI_DEV_NVSWITCH_LINK_THROUGHPUT_TX", _C, "", "NVSwitch port transmit throughput counter."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_THROUGHPUT_RX", _C, "", "NVSwitch port receive throughput counter."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_FATAL_ERRORS", _C, "count", "NVSwitch port fatal errors."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_NON_FATAL_ERRORS", _C, "count", "NVSwitch port non-fatal errors."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_REPLAY_ERROR_TOTAL", _C, "count", "NVSwitch port replay errors."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_RECOVERY_ERROR_TOTAL", _C, "count", "NVSwitch port recovery errors."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_FLIT_ERROR_TOTAL", _C, "count", "NVSwitch port flit errors."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_CRC_ERROR_TOTAL", _C, "count", "NVSwitch port CRC errors."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_ECC_ERROR_TOTAL", _C, "count", "NVSwitch port ECC errors."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_ID", _G, "", "NVSwitch port (link) id."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_STATUS", _G, "", "Port status: -1 unknown, 0 off, 1 safe, 2 active, 3 error."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_TYPE", _G, "", "Device at the port's far end (NSCQ: 1 GPU, 2 switch)."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_PCIE_DOMAIN", _G, "", "PCIe domain of the device at the far end."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_PCIE_BUS", _G, "", "PCIe bus of the device at the far end."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_PCIE_DEVICE", _G, "", "PCIe device of the device at the far end."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_PCIE_FUNCTION", _G, "", "PCIe function of the device at the far end."),
    _port("DCGM_FI_DEV_NVSWITCH_LINK_REMOTE_LINK_ID", _G, "", "Link id at the far end of the port."),
    _port("DCGM_FI_DEV_NVLINK_GET_STATE", _G, "", "NVLink state: 1 up, 0 down."),
    _port(
        "DCGM_FI_DEV_NVLINK_TX_THROUGHPUT_PER_LINK", _G, "MB/s", "NVLink transmit throughput of this link (in MB/s)."
    ),
    _port("DCGM_FI_DEV_NVLINK_RX_THROUGHPUT_PER_LINK", _G, "MB/s", "NVLink receive throughput of this link (in MB/s)."),
)

# The fields whose value says whether a link is up: served for every link, down ones included (docs/exporter.md).
LINK_STATE_FIELDS = frozenset({FieldId.DCGM_FI_DEV_NVLINK_GET_STATE, FieldId.DCGM_FI_DEV_NVSWITCH_LINK_STATUS})

# The NVLink-entity fields of this file a GPU link serves (the rest are switch ports' own).
GPU_LINK_FIELDS = frozenset(
    {
        FieldId.DCGM_FI_DEV_NVLINK_GET_STATE,
        FieldId.DCGM_FI_DEV_NVLINK_TX_THROUGHPUT_PER_LINK,
        FieldId.DCGM_FI_DEV_NVLINK_RX_THROUGHPUT_PER_LINK,
    }
)

FABRIC_FIELDS: tuple[Field, ...] = (*SWITCH_FIELDS, *PORT_FIELDS)
