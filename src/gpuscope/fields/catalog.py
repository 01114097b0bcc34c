"""The field catalog: every GPU field gpuscope can serve, in one table.

Rows follow DCGM's ``dcgm_fields.h`` (id, value type, entity level) and dcgm-exporter's CSV (name, Prometheus
type, help text). Everything else — CSV parsing, exposition, the simulator, the NVML backend, rules and
dashboards — reads names, units and semantics from here.

Dialects. dcgm-exporter <= 4.8 ("classic") emits the CSV's first column verbatim; 4.9.0 renamed the 23 fields of
its default and profiling presets (11 of them to base units, which DCGM serves under *new field ids*, e.g.
``DCGM_FI_DEV_SM_CLOCK_HERTZ`` 1603). We model a renamed field as a link from the classic row to its 4.9 row, so
that values stay exact (bytes are read as bytes, not MiB x 1048576).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum, StrEnum
from types import MappingProxyType


class MetricType(StrEnum):
    """The second CSV column."""

    GAUGE = "gauge"
    COUNTER = "counter"
    HISTOGRAM = "histogram"
    SUMMARY = "summary"
    LABEL = "label"


class ValueKind(StrEnum):
    """How DCGM stores the value, which decides its text form (``%d`` or ``%f``)."""

    INT = "int"
    DOUBLE = "double"
    STRING = "string"


class Entity(StrEnum):
    """Which entity a series describes, which decides its label set."""

    GPU = "gpu"
    NVLINK = "nvlink"


class MigScope(Enum):
    """What a GPU-level field does when its GPU is in MIG mode (only GPU instances are monitored then)."""

    PARENT = "parent"  # the parent GPU's value, repeated on every GPU instance (DCGM behaviour)
    INSTANCE = "instance"  # a value of its own per GPU instance (framebuffer, profiling)
    UNAVAILABLE = "unavailable"  # NVML cannot serve it with MIG on (utilization, encoder, decoder)
    PHYSICAL = "physical"  # one series per physical GPU, without GPU-instance labels (exporter-owned)


class Dialect(StrEnum):
    """Metric naming: dcgm-exporter <= 4.8 names as written in the CSV, or 4.9.0 renamed names and units."""

    CLASSIC = "classic"
    DCGM_4_9 = "4.9"


@dataclass(frozen=True, slots=True)
class Field:
    """One row of the catalog."""

    name: str
    field_id: int
    type: MetricType
    unit: str
    help: str
    value: ValueKind = ValueKind.INT
    entity: Entity = Entity.GPU
    mig: MigScope = MigScope.PARENT
    prof: bool = False
    exporter: bool = False
    in_default: bool = False

    @property
    def is_label(self) -> bool:
        return self.type is MetricType.LABEL


# Exporter-owned fields have no DCGM id; negative ids keep them apart from every DCGM id.
EXP_XID_ERRORS_COUNT = -1
EXP_CLOCK_EVENTS_COUNT = -2
EXP_GPU_HEALTH_STATUS = -3
EXP_P2P_STATUS = -4
EXP_XID_ERRORS_TOTAL = -5
EXP_CLOCK_EVENTS_TOTAL = -6

# DCGM ids the collector needs even when the CSV does not export them.
FI_DRIVER_VERSION = 1
FI_CLOCKS_EVENT_REASONS = 112
FI_XID_ERRORS = 230

G, C, L = MetricType.GAUGE, MetricType.COUNTER, MetricType.LABEL
INT, D, S = ValueKind.INT, ValueKind.DOUBLE, ValueKind.STRING
INST, NONE, PHYS = MigScope.INSTANCE, MigScope.UNAVAILABLE, MigScope.PHYSICAL


def _f(name: str, fid: int, typ: MetricType, unit: str, help_: str, value: ValueKind = INT, **kw: object) -> Field:
    return Field(name, fid, typ, unit, help_, value, **kw)  # type: ignore[arg-type]


def _prof(name: str, fid: int, unit: str, help_: str, typ: MetricType = G, **kw: object) -> Field:
    value = D if unit == "ratio" else INT
    return _f(name, fid, typ, unit, help_, value, prof=True, mig=INST, **kw)


_DEVICE_FIELDS: tuple[Field, ...] = (
    # Identity and system strings: only ever labels.
    _f("DCGM_FI_DRIVER_VERSION", 1, L, "", "Driver Version", S, in_default=True),
    _f("DCGM_FI_NVML_VERSION", 2, L, "", "NVML Version", S),
    _f("DCGM_FI_DEV_BRAND", 51, L, "", "Device Brand", S),
    _f("DCGM_FI_DEV_SERIAL", 53, L, "", "Device Serial Number", S),
    _f("DCGM_FI_DEV_OEM_INFOROM_VER", 56, L, "", "OEM inforom version", S),
    _f("DCGM_FI_DEV_ECC_INFOROM_VER", 80, L, "", "ECC inforom version", S),
    _f("DCGM_FI_DEV_POWER_INFOROM_VER", 81, L, "", "Power management object inforom version", S),
    _f("DCGM_FI_DEV_INFOROM_IMAGE_VER", 82, L, "", "Inforom image version", S),
    _f("DCGM_FI_DEV_VBIOS_VERSION", 85, L, "", "VBIOS version of the device", S),
    # Clocks.
    _f("DCGM_FI_DEV_SM_CLOCK", 100, G, "MHz", "SM clock frequency (in MHz).", in_default=True),
    _f("DCGM_FI_DEV_MEM_CLOCK", 101, G, "MHz", "Memory clock frequency (in MHz).", in_default=True),
    _f("DCGM_FI_DEV_VIDEO_CLOCK", 102, G, "MHz", "Video encoder/decoder clock frequency (in MHz)."),
    _f("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", 112, G, "bitmask", "Current clock event reasons (bitmask)."),
    _f("DCGM_FI_DEV_MAX_SM_CLOCK", 113, G, "MHz", "Maximum supported SM clock (in MHz)."),
    _f("DCGM_FI_DEV_MAX_MEM_CLOCK", 114, G, "MHz", "Maximum supported memory clock (in MHz)."),
    # Temperature and power.
    _f("DCGM_FI_DEV_MEMORY_TEMP", 140, G, "C", "Memory temperature (in C).", in_default=True),
    _f("DCGM_FI_DEV_GPU_TEMP", 150, G, "C", "GPU temperature (in C).", in_default=True),
    _f("DCGM_FI_DEV_POWER_USAGE", 155, G, "W", "Power draw (in W).", D, in_default=True),
    _f(
        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
        156,
        C,
        "mJ",
        "Total energy consumption since boot (in mJ).",
        in_default=True,
    ),
    _f("DCGM_FI_DEV_POWER_USAGE_INSTANT", 157, G, "W", "Current instantaneous power usage (in W).", D),
    _f("DCGM_FI_DEV_SLOWDOWN_TEMP", 158, G, "C", "Slowdown temperature (in C)."),
    _f("DCGM_FI_DEV_SHUTDOWN_TEMP", 159, G, "C", "Shutdown temperature (in C)."),
    _f("DCGM_FI_DEV_POWER_MGMT_LIMIT", 160, G, "W", "Current power limit (in W).", D),
    _f("DCGM_FI_DEV_ENFORCED_POWER_LIMIT", 164, G, "W", "Effective power limit enforced (in W).", D),
    _f("DCGM_FI_DEV_PSTATE", 190, G, "", "Performance state (P-State) 0-15, 0 = highest."),
    _f("DCGM_FI_DEV_FAN_SPEED", 191, G, "%", "Fan speed (in 0-100%)."),
    # Utilization.
    _f("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", 202, C, "count", "Total number of PCIe retries.", in_default=True),
    _f("DCGM_FI_DEV_GPU_UTIL", 203, G, "%", "GPU utilization (in %).", mig=NONE, in_default=True),
    _f("DCGM_FI_DEV_MEM_COPY_UTIL", 204, G, "%", "Memory utilization (in %).", mig=NONE, in_default=True),
    _f("DCGM_FI_DEV_ENC_UTIL", 206, G, "%", "Encoder utilization (in %).", mig=NONE, in_default=True),
    _f("DCGM_FI_DEV_DEC_UTIL", 207, G, "%", "Decoder utilization (in %).", mig=NONE, in_default=True),
    _f("DCGM_FI_DEV_XID_ERRORS", 230, G, "", "Value of the last XID error encountered.", in_default=True),
    _f("DCGM_FI_DEV_PCIE_LINK_GEN", 237, G, "", "PCIe current link generation."),
    _f("DCGM_FI_DEV_PCIE_LINK_WIDTH", 238, G, "", "PCIe current link width."),
    # Violation counters: cumulative throttle time. DCGM passes NVML's nanoseconds through.
    _f("DCGM_FI_DEV_POWER_VIOLATION", 240, C, "ns", "Throttling duration due to power constraints (in ns)."),
    _f(
        "DCGM_FI_DEV_THERMAL_VIOLATION",
        241,
        C,
        "ns",
        "Throttling duration due to thermal constraints (in ns).",
    ),
    _f(
        "DCGM_FI_DEV_SYNC_BOOST_VIOLATION",
        242,
        C,
        "ns",
        "Throttling duration due to sync-boost constraints (in ns).",
    ),
    _f(
        "DCGM_FI_DEV_BOARD_LIMIT_VIOLATION",
        243,
        C,
        "ns",
        "Throttling duration due to board limit constraints (in ns).",
    ),
    _f("DCGM_FI_DEV_LOW_UTIL_VIOLATION", 244, C, "ns", "Throttling duration due to low utilization (in ns)."),
    _f(
        "DCGM_FI_DEV_RELIABILITY_VIOLATION",
        245,
        C,
        "ns",
        "Throttling duration due to reliability constraints (in ns).",
    ),
    # Framebuffer: per GPU instance under MIG.
    _f("DCGM_FI_DEV_FB_TOTAL", 250, G, "MiB", "Framebuffer memory total (in MiB).", mig=INST),
    _f("DCGM_FI_DEV_FB_FREE", 251, G, "MiB", "Framebuffer memory free (in MiB).", mig=INST, in_default=True),
    _f("DCGM_FI_DEV_FB_USED", 252, G, "MiB", "Framebuffer memory used (in MiB).", mig=INST, in_default=True),
    _f(
        "DCGM_FI_DEV_FB_RESERVED",
        253,
        G,
        "MiB",
        "Framebuffer memory reserved (in MiB).",
        mig=INST,
        in_default=True,
    ),
    _f(
        "DCGM_FI_DEV_FB_USED_PERCENT",
        254,
        G,
        "ratio",
        "Framebuffer memory used, as a ratio of total minus reserved.",
        D,
        mig=INST,
    ),
    # ECC.
    _f("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", 310, C, "count", "Total number of single-bit volatile ECC errors."),
    _f("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", 311, C, "count", "Total number of double-bit volatile ECC errors."),
    _f("DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", 312, C, "count", "Total number of single-bit persistent ECC errors."),
    _f("DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", 313, C, "count", "Total number of double-bit persistent ECC errors."),
    # Page retirement and row remapping.
    _f("DCGM_FI_DEV_RETIRED_SBE", 390, C, "count", "Total number of retired pages due to single-bit errors."),
    _f("DCGM_FI_DEV_RETIRED_DBE", 391, C, "count", "Total number of retired pages due to double-bit errors."),
    _f("DCGM_FI_DEV_RETIRED_PENDING", 392, C, "count", "Total number of pages pending retirement."),
    _f(
        "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
        393,
        C,
        "count",
        "Number of remapped rows for uncorrectable errors",
        in_default=True,
    ),
    _f(
        "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS",
        394,
        C,
        "count",
        "Number of remapped rows for correctable errors",
        in_default=True,
    ),
    _f(
        "DCGM_FI_DEV_ROW_REMAP_FAILURE",
        395,
        G,
        "bool",
        "Whether remapping of rows has failed",
        in_default=True,
    ),
    _f("DCGM_FI_DEV_ROW_REMAP_PENDING", 396, G, "bool", "Whether remapping of rows is pending"),
    # NVLink totals.
    _f(
        "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
        409,
        C,
        "count",
        "Total number of NVLink flow-control CRC errors.",
    ),
    _f(
        "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
        419,
        C,
        "count",
        "Total number of NVLink data CRC errors.",
    ),
    _f("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", 429, C, "count", "Total number of NVLink retries."),
    _f(
        "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
        439,
        C,
        "count",
        "Total number of NVLink recovery errors.",
    ),
    _f(
        "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
        449,
        C,
        "MB/s",
        "Total number of NVLink bandwidth counters for all lanes.",
        in_default=True,
    ),
    _f(
        "DCGM_FI_DEV_NVLINK_CRC_ERROR_TOTAL",
        497,
        C,
        "count",
        "NVLink data-link CRC errors (Hopper and newer).",
    ),
    _f(
        "DCGM_FI_DEV_NVLINK_RECOVERY_TOTAL",
        498,
        C,
        "count",
        "NVLink data-link recoveries (Hopper and newer).",
    ),
    _f("DCGM_FI_DEV_NVLINK_REPLAY_TOTAL", 499, C, "count", "NVLink data-link replays (Hopper and newer)."),
    _f("DCGM_FI_DEV_VGPU_LICENSE_STATUS", 526, G, "", "vGPU License status", in_default=True),
)

# Per-lane NVLink throughput, classic DCGM ids (L0-L5 440-445, L6-L11 475-480, L12-L14 446-448, L15-L17 494-496).
_NVLINK_LANE_IDS = (440, 441, 442, 443, 444, 445, 475, 476, 477, 478, 479, 480, 446, 447, 448, 494, 495, 496)
_NVLINK_LANE_FIELDS = tuple(
    _f(
        f"DCGM_FI_DEV_NVLINK_BANDWIDTH_L{lane}",
        fid,
        C,
        "MB/s",
        "The number of bytes of active NVLink rx or tx data including both header and payload.",
    )
    for lane, fid in enumerate(_NVLINK_LANE_IDS)
)

# Per-link NVLink fields keyed by an NVLink entity (newest DCGM, DCGM_FE_LINK).
_LINK = Entity.NVLINK
_NVLINK_ENTITY_FIELDS: tuple[Field, ...] = (
    _f(
        "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL",
        1525,
        C,
        "count",
        "NVLink flow-control CRC errors on this link.",
        entity=_LINK,
    ),
    _f(
        "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_PER_LINK_TOTAL",
        1526,
        C,
        "count",
        "NVLink data CRC errors on this link.",
        entity=_LINK,
    ),
    _f(
        "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_PER_LINK_TOTAL",
        1527,
        C,
        "count",
        "NVLink replays on this link.",
        entity=_LINK,
    ),
    _f(
        "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_PER_LINK_TOTAL",
        1528,
        C,
        "count",
        "NVLink recoveries on this link.",
        entity=_LINK,
    ),
    _f(
        "DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK",
        1529,
        G,
        "MB/s",
        "NVLink throughput of this link (in MB/s).",
        entity=_LINK,
    ),
    _prof(
        "DCGM_FI_PROF_NVLINK_TX_BYTES_PER_LINK",
        1532,
        "B/s",
        "NVLink transmit rate of this link (in B/s).",
        entity=_LINK,
    ),
    _prof(
        "DCGM_FI_PROF_NVLINK_RX_BYTES_PER_LINK",
        1533,
        "B/s",
        "NVLink receive rate of this link (in B/s).",
        entity=_LINK,
    ),
)

_PROF_FIELDS: tuple[Field, ...] = (
    _prof(
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        1001,
        "ratio",
        "Ratio of time the graphics engine is active.",
        in_default=True,
    ),
    _prof("DCGM_FI_PROF_SM_ACTIVE", 1002, "ratio", "The ratio of cycles an SM has at least 1 warp assigned."),
    _prof("DCGM_FI_PROF_SM_OCCUPANCY", 1003, "ratio", "The ratio of number of warps resident on an SM."),
    _prof(
        "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
        1004,
        "ratio",
        "Ratio of cycles the tensor (HMMA) pipe is active.",
        in_default=True,
    ),
    _prof(
        "DCGM_FI_PROF_DRAM_ACTIVE",
        1005,
        "ratio",
        "Ratio of cycles the device memory interface is active sending or receiving data.",
        in_default=True,
    ),
    _prof("DCGM_FI_PROF_PIPE_FP64_ACTIVE", 1006, "ratio", "Ratio of cycles the fp64 pipes are active."),
    _prof("DCGM_FI_PROF_PIPE_FP32_ACTIVE", 1007, "ratio", "Ratio of cycles the fp32 pipes are active."),
    _prof("DCGM_FI_PROF_PIPE_FP16_ACTIVE", 1008, "ratio", "Ratio of cycles the fp16 pipes are active."),
    _prof(
        "DCGM_FI_PROF_PCIE_TX_BYTES",
        1009,
        "B/s",
        "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - "
        "in bytes per second.",
        in_default=True,
    ),
    _prof(
        "DCGM_FI_PROF_PCIE_RX_BYTES",
        1010,
        "B/s",
        "The rate of data received over the PCIe bus - including both protocol headers and data payloads - "
        "in bytes per second.",
        in_default=True,
    ),
    _prof(
        "DCGM_FI_PROF_NVLINK_TX_BYTES",
        1011,
        "B/s",
        "The rate of data transmitted over NVLink, not including protocol headers, in bytes per second.",
    ),
    _prof(
        "DCGM_FI_PROF_NVLINK_RX_BYTES",
        1012,
        "B/s",
        "The rate of data received over NVLink, not including protocol headers, in bytes per second.",
    ),
    _prof(
        "DCGM_FI_PROF_PIPE_TENSOR_IMMA_ACTIVE",
        1013,
        "ratio",
        "Ratio of cycles the IMMA tensor pipe is active.",
    ),
    _prof(
        "DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE",
        1014,
        "ratio",
        "Ratio of cycles the HMMA tensor pipe is active.",
    ),
    _prof(
        "DCGM_FI_PROF_PIPE_TENSOR_DFMA_ACTIVE",
        1015,
        "ratio",
        "Ratio of cycles the DFMA tensor pipe is active.",
    ),
    _prof("DCGM_FI_PROF_PIPE_INT_ACTIVE", 1016, "ratio", "Ratio of cycles the integer pipe is active."),
    *(
        _prof(
            f"DCGM_FI_PROF_NVDEC{n}_ACTIVE",
            1017 + n,
            "ratio",
            f"Ratio of cycles the NVDEC{n} engine is active.",
        )
        for n in range(8)
    ),
    *(
        _prof(
            f"DCGM_FI_PROF_NVJPG{n}_ACTIVE",
            1025 + n,
            "ratio",
            f"Ratio of cycles the NVJPG{n} engine is active.",
        )
        for n in range(8)
    ),
    *(
        _prof(
            f"DCGM_FI_PROF_NVOFA{n}_ACTIVE",
            1033 + n,
            "ratio",
            f"Ratio of cycles the NVOFA{n} engine is active.",
        )
        for n in range(2)
    ),
    *(
        _prof(
            f"DCGM_FI_PROF_NVLINK_L{lane}_{d}_BYTES",
            1040 + 2 * lane + k,
            "B/s",
            f"The rate of data {'transmitted' if d == 'TX' else 'received'} over NVLink link {lane}, "
            "in bytes per second.",
        )
        for lane in range(18)
        for k, d in enumerate(("TX", "RX"))
    ),
)

# The 4.9.0 names. Base-unit variants are separate DCGM fields with new ids.
_DIALECT_FIELDS: tuple[Field, ...] = (
    _f("DCGM_FI_SYSTEM_DRIVER_VERSION", 1, L, "", "Driver Version", S),
    _f("DCGM_FI_DEV_SM_CLOCK_HERTZ", 1603, G, "Hz", "SM clock frequency (in Hz)."),
    _f("DCGM_FI_DEV_MEMORY_CLOCK_HERTZ", 1604, G, "Hz", "Memory clock frequency (in Hz)."),
    _f("DCGM_FI_DEV_MEMORY_TEMP_CELSIUS", 140, G, "C", "Memory temperature (in C)."),
    _f("DCGM_FI_DEV_GPU_TEMP_CELSIUS", 150, G, "C", "GPU temperature (in C)."),
    _f("DCGM_FI_DEV_BOARD_POWER_WATTS", 155, G, "W", "Power draw (in W).", D),
    _f("DCGM_FI_DEV_GPU_ENERGY_JOULES_TOTAL", 1611, C, "J", "Total energy consumption since boot (in J)."),
    _f("DCGM_FI_DEV_PCIE_REPLAY_TOTAL", 202, C, "count", "Total number of PCIe retries."),
    _f("DCGM_FI_DEV_GPU_UTIL_RATIO", 1613, G, "ratio", "GPU utilization (ratio 0-1).", D, mig=NONE),
    _f("DCGM_FI_DEV_MEMORY_UTIL_RATIO", 1614, G, "ratio", "Memory utilization (ratio 0-1).", D, mig=NONE),
    _f("DCGM_FI_DEV_ENC_UTIL_RATIO", 1615, G, "ratio", "Encoder utilization (ratio 0-1).", D, mig=NONE),
    _f("DCGM_FI_DEV_DEC_UTIL_RATIO", 1616, G, "ratio", "Decoder utilization (ratio 0-1).", D, mig=NONE),
    _f("DCGM_FI_DEV_XID_ERROR", 230, G, "", "Value of the last XID error encountered."),
    _f("DCGM_FI_DEV_FB_FREE_BYTES", 1626, G, "B", "Framebuffer memory free (in bytes).", mig=INST),
    _f("DCGM_FI_DEV_FB_USED_BYTES", 1627, G, "B", "Framebuffer memory used (in bytes).", mig=INST),
    _f("DCGM_FI_DEV_FB_RESERVED_BYTES", 1628, G, "B", "Framebuffer memory reserved (in bytes).", mig=INST),
    _f("DCGM_FI_DEV_FB_CAPACITY_BYTES", 1625, G, "B", "Framebuffer memory total (in bytes).", mig=INST),
    _f(
        "DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL",
        1648,
        G,
        "B/s",
        "NVLink throughput over all links (in bytes per second).",
    ),
    _f(
        "DCGM_FI_DEV_ROW_REMAP_UNCORRECTABLE_TOTAL",
        393,
        C,
        "count",
        "Number of remapped rows for uncorrectable errors",
    ),
    _f(
        "DCGM_FI_DEV_ROW_REMAP_CORRECTABLE_TOTAL",
        394,
        C,
        "count",
        "Number of remapped rows for correctable errors",
    ),
    _f("DCGM_FI_DEV_ROW_REMAP_FAILED", 395, G, "bool", "Whether remapping of rows has failed"),
    _prof("DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO", 1001, "ratio", "Ratio of time the graphics engine is active."),
    _prof("DCGM_FI_PROF_TENSOR_UTIL_RATIO", 1004, "ratio", "Ratio of cycles any tensor pipe is active."),
    _prof(
        "DCGM_FI_PROF_DRAM_UTIL_RATIO",
        1005,
        "ratio",
        "Ratio of cycles the device memory interface is active sending or receiving data.",
    ),
)

# classic name -> 4.9.0 name, for the 23 fields dcgm-exporter 4.9.0 renamed.
RENAMED_IN_4_9: Mapping[str, str] = MappingProxyType(
    {
        "DCGM_FI_DRIVER_VERSION": "DCGM_FI_SYSTEM_DRIVER_VERSION",
        "DCGM_FI_DEV_SM_CLOCK": "DCGM_FI_DEV_SM_CLOCK_HERTZ",
        "DCGM_FI_DEV_MEM_CLOCK": "DCGM_FI_DEV_MEMORY_CLOCK_HERTZ",
        "DCGM_FI_DEV_MEMORY_TEMP": "DCGM_FI_DEV_MEMORY_TEMP_CELSIUS",
        "DCGM_FI_DEV_GPU_TEMP": "DCGM_FI_DEV_GPU_TEMP_CELSIUS",
        "DCGM_FI_DEV_POWER_USAGE": "DCGM_FI_DEV_BOARD_POWER_WATTS",
        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION": "DCGM_FI_DEV_GPU_ENERGY_JOULES_TOTAL",
        "DCGM_FI_DEV_PCIE_REPLAY_COUNTER": "DCGM_FI_DEV_PCIE_REPLAY_TOTAL",
        "DCGM_FI_DEV_GPU_UTIL": "DCGM_FI_DEV_GPU_UTIL_RATIO",
        "DCGM_FI_DEV_MEM_COPY_UTIL": "DCGM_FI_DEV_MEMORY_UTIL_RATIO",
        "DCGM_FI_DEV_ENC_UTIL": "DCGM_FI_DEV_ENC_UTIL_RATIO",
        "DCGM_FI_DEV_DEC_UTIL": "DCGM_FI_DEV_DEC_UTIL_RATIO",
        "DCGM_FI_DEV_XID_ERRORS": "DCGM_FI_DEV_XID_ERROR",
        "DCGM_FI_DEV_FB_FREE": "DCGM_FI_DEV_FB_FREE_BYTES",
        "DCGM_FI_DEV_FB_USED": "DCGM_FI_DEV_FB_USED_BYTES",
        "DCGM_FI_DEV_FB_RESERVED": "DCGM_FI_DEV_FB_RESERVED_BYTES",
        "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL": "DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL",
        "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS": "DCGM_FI_DEV_ROW_REMAP_UNCORRECTABLE_TOTAL",
        "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS": "DCGM_FI_DEV_ROW_REMAP_CORRECTABLE_TOTAL",
        "DCGM_FI_DEV_ROW_REMAP_FAILURE": "DCGM_FI_DEV_ROW_REMAP_FAILED",
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE": "DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO",
        "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE": "DCGM_FI_PROF_TENSOR_UTIL_RATIO",
        "DCGM_FI_PROF_DRAM_ACTIVE": "DCGM_FI_PROF_DRAM_UTIL_RATIO",
    }
)

_EXPORTER_FIELDS: tuple[Field, ...] = (
    _f(
        "DCGM_EXP_XID_ERRORS_COUNT",
        EXP_XID_ERRORS_COUNT,
        C,
        "count",
        "Count of XID Errors within user-specified time window (see xid-count-window-size param).",
        exporter=True,
        mig=PHYS,
    ),
    _f(
        "DCGM_EXP_CLOCK_EVENTS_COUNT",
        EXP_CLOCK_EVENTS_COUNT,
        C,
        "count",
        "Count of clock events within the user-specified time window (see clock-events-count-window-size param).",
        exporter=True,
        mig=PHYS,
    ),
    _f(
        "DCGM_EXP_XID_ERRORS_TOTAL",
        EXP_XID_ERRORS_TOTAL,
        C,
        "count",
        "Total number of XID errors seen since the exporter started, per XID.",
        exporter=True,
        mig=PHYS,
    ),
    _f(
        "DCGM_EXP_CLOCK_EVENTS_TOTAL",
        EXP_CLOCK_EVENTS_TOTAL,
        C,
        "count",
        "Total number of collections that saw each clock event reason since the exporter started.",
        exporter=True,
        mig=PHYS,
    ),
    _f(
        "DCGM_EXP_GPU_HEALTH_STATUS",
        EXP_GPU_HEALTH_STATUS,
        G,
        "",
        "GPU health per subsystem: 0 pass, 10 warn, 20 fail.",
        exporter=True,
        mig=PHYS,
    ),
    _f(
        "DCGM_EXP_P2P_STATUS",
        EXP_P2P_STATUS,
        G,
        "",
        "P2P NVLink status to each peer GPU (0 = OK).",
        exporter=True,
        mig=PHYS,
    ),
)

# DCGM 1.x names (dcgm-exporter's 1.x-compatibility-metrics.csv); emitted verbatim when written.
LEGACY_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "dcgm_sm_clock": "DCGM_FI_DEV_SM_CLOCK",
        "dcgm_memory_clock": "DCGM_FI_DEV_MEM_CLOCK",
        "dcgm_memory_temp": "DCGM_FI_DEV_MEMORY_TEMP",
        "dcgm_gpu_temp": "DCGM_FI_DEV_GPU_TEMP",
        "dcgm_power_usage": "DCGM_FI_DEV_POWER_USAGE",
        "dcgm_total_energy_consumption": "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
        "dcgm_fi_prof_pcie_tx_bytes": "DCGM_FI_PROF_PCIE_TX_BYTES",
        "dcgm_fi_prof_pcie_rx_bytes": "DCGM_FI_PROF_PCIE_RX_BYTES",
        "dcgm_pcie_replay_counter": "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
        "dcgm_gpu_utilization": "DCGM_FI_DEV_GPU_UTIL",
        "dcgm_mem_copy_utilization": "DCGM_FI_DEV_MEM_COPY_UTIL",
        "dcgm_enc_utilization": "DCGM_FI_DEV_ENC_UTIL",
        "dcgm_dec_utilization": "DCGM_FI_DEV_DEC_UTIL",
        "dcgm_xid_errors": "DCGM_FI_DEV_XID_ERRORS",
        "dcgm_fb_free": "DCGM_FI_DEV_FB_FREE",
        "dcgm_fb_used": "DCGM_FI_DEV_FB_USED",
        "dcgm_nvlink_bandwidth_total": "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
        "dcgm_fi_prof_gr_engine_active": "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        "dcgm_fi_prof_pipe_tensor_active": "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
        "dcgm_fi_prof_dram_active": "DCGM_FI_PROF_DRAM_ACTIVE",
        "dcgm_power_violation": "DCGM_FI_DEV_POWER_VIOLATION",
        "dcgm_thermal_violation": "DCGM_FI_DEV_THERMAL_VIOLATION",
        "dcgm_sync_boost_violation": "DCGM_FI_DEV_SYNC_BOOST_VIOLATION",
        "dcgm_board_limit_violation": "DCGM_FI_DEV_BOARD_LIMIT_VIOLATION",
        "dcgm_low_util_violation": "DCGM_FI_DEV_LOW_UTIL_VIOLATION",
        "dcgm_reliability_violation": "DCGM_FI_DEV_RELIABILITY_VIOLATION",
        "dcgm_ecc_sbe_volatile_total": "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL",
        "dcgm_ecc_dbe_volatile_total": "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL",
        "dcgm_ecc_sbe_aggregate_total": "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL",
        "dcgm_ecc_dbe_aggregate_total": "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL",
        "dcgm_retired_pages_sbe": "DCGM_FI_DEV_RETIRED_SBE",
        "dcgm_retired_pages_dbe": "DCGM_FI_DEV_RETIRED_DBE",
        "dcgm_retired_pages_pending": "DCGM_FI_DEV_RETIRED_PENDING",
        "dcgm_nvlink_flit_crc_error_count_total": "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL",
        "dcgm_nvlink_data_crc_error_count_total": "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL",
        "dcgm_nvlink_replay_error_count_total": "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL",
        "dcgm_nvlink_recovery_error_count_total": "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL",
    }
)

ALL_FIELDS: tuple[Field, ...] = (
    *_DEVICE_FIELDS,
    *_NVLINK_LANE_FIELDS,
    *_NVLINK_ENTITY_FIELDS,
    *_PROF_FIELDS,
    *_DIALECT_FIELDS,
    *_EXPORTER_FIELDS,
)


def _index(fields: Iterable[Field]) -> Mapping[str, Field]:
    by_name: dict[str, Field] = {}
    for field in fields:
        if field.name in by_name:
            raise ValueError(f"duplicate catalog name {field.name}")
        by_name[field.name] = field
    return MappingProxyType(by_name)


BY_NAME: Mapping[str, Field] = _index(ALL_FIELDS)


def _field_by_id(fields: Iterable[Field]) -> Mapping[int, Field]:
    # Several names can share an id (same-unit 4.9 renames); the classic row comes first and wins.
    by_id: dict[int, Field] = {}
    for field in fields:
        by_id.setdefault(field.field_id, field)
    return MappingProxyType(by_id)


BY_ID: Mapping[int, Field] = _field_by_id(ALL_FIELDS)


@dataclass(frozen=True, slots=True)
class ResolvedName:
    """A CSV name resolved against the catalog: the field to read and the name to emit."""

    field: Field
    emitted_name: str


def resolve(name: str, dialect: Dialect = Dialect.CLASSIC) -> ResolvedName | None:
    """Resolve a CSV column-1 name; ``None`` if the catalog does not know it.

    Classic emits names as written (dcgm-exporter <= 4.8). 4.9 rewrites the 23 renamed classic names to their
    4.9 names and units. DCGM 1.x lowercase names are always emitted as written.
    """
    if name in LEGACY_NAMES:
        return ResolvedName(BY_NAME[LEGACY_NAMES[name]], name)
    field = BY_NAME.get(name)
    if field is None:
        return None
    if dialect is Dialect.DCGM_4_9 and name in RENAMED_IN_4_9:
        renamed = BY_NAME[RENAMED_IN_4_9[name]]
        return ResolvedName(renamed, renamed.name)
    return ResolvedName(field, name)


def suggest(name: str) -> str | None:
    """The closest known name, for "did you mean" hints."""
    if name.upper() in BY_NAME:
        return name.upper()
    candidates = [*BY_NAME, *LEGACY_NAMES]
    close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
    if not close and name.upper() != name:
        close = difflib.get_close_matches(name.upper(), candidates, n=1, cutoff=0.6)
    return close[0] if close else None


# 4.9 base-unit fields computed exactly from a classic field: id -> (source id, factor).
# Framebuffer bytes and NVLink bytes/s are not here: scaling MiB or MB/s back up would invent precision, so
# backends read those natively.
DERIVED: Mapping[int, tuple[int, float]] = MappingProxyType(
    {
        1603: (100, 1e6),
        1604: (101, 1e6),
        1611: (156, 1e-3),
        1613: (203, 0.01),
        1614: (204, 0.01),
        1615: (206, 0.01),
        1616: (207, 0.01),
    }
)
