"""The catalog rows: every GPU field gpuscope can serve, with its type, unit and help text.

Rows follow DCGM's ``dcgm_fields.h`` (value type, entity level) and dcgm-exporter's CSV (name, Prometheus type,
help text); each row's id is ``FieldId[name]``. Everything else — CSV parsing, exposition, the simulator, the NVML
backend, rules and dashboards — reads names, units and semantics from here.
"""

from __future__ import annotations

from gpuscope.fields.ids import FieldId
from gpuscope.fields.schema import Entity, Field, MetricType, MigScope, ValueKind


def _row(
    name: str,
    kind: MetricType,
    unit: str,
    help_: str,
    *,
    value: ValueKind = ValueKind.INT,
    entity: Entity = Entity.GPU,
    mig: MigScope = MigScope.PARENT,
    prof: bool = False,
    exporter: bool = False,
    in_default: bool = False,
) -> Field:
    return Field(
        name=name,
        field_id=FieldId[name],
        type=kind,
        unit=unit,
        help=help_,
        value=value,
        entity=entity,
        mig=mig,
        prof=prof,
        exporter=exporter,
        in_default=in_default,
    )


def _label(name: str, help_: str, *, in_default: bool = False) -> Field:
    return _row(name, MetricType.LABEL, "", help_, value=ValueKind.STRING, in_default=in_default)


def _gauge(
    name: str,
    unit: str,
    help_: str,
    *,
    value: ValueKind = ValueKind.INT,
    entity: Entity = Entity.GPU,
    mig: MigScope = MigScope.PARENT,
    in_default: bool = False,
) -> Field:
    return _row(name, MetricType.GAUGE, unit, help_, value=value, entity=entity, mig=mig, in_default=in_default)


def _counter(
    name: str,
    unit: str,
    help_: str,
    *,
    entity: Entity = Entity.GPU,
    mig: MigScope = MigScope.PARENT,
    in_default: bool = False,
) -> Field:
    return _row(name, MetricType.COUNTER, unit, help_, entity=entity, mig=mig, in_default=in_default)


def _prof(name: str, unit: str, help_: str, *, entity: Entity = Entity.GPU, in_default: bool = False) -> Field:
    """A profiling gauge: a value of its own per GPU instance; ratios are doubles, rates integers."""
    value = ValueKind.DOUBLE if unit == "ratio" else ValueKind.INT
    return _row(
        name,
        MetricType.GAUGE,
        unit,
        help_,
        value=value,
        entity=entity,
        mig=MigScope.INSTANCE,
        prof=True,
        in_default=in_default,
    )


def _exporter_owned(name: str, kind: MetricType, unit: str, help_: str) -> Field:
    """A field the exporter computes itself, one series per physical GPU."""
    return _row(name, kind, unit, help_, mig=MigScope.PHYSICAL, exporter=True)


_DEVICE_FIELDS: tuple[Field, ...] = (
    # Identity and system strings: only ever labels.
    _label("DCGM_FI_DRIVER_VERSION", "Driver Version", in_default=True),
    _label("DCGM_FI_NVML_VERSION", "NVML Version"),
    _label("DCGM_FI_DEV_BRAND", "Device Brand"),
    _label("DCGM_FI_DEV_SERIAL", "Device Serial Number"),
    _label("DCGM_FI_DEV_OEM_INFOROM_VER", "OEM inforom version"),
    _label("DCGM_FI_DEV_ECC_INFOROM_VER", "ECC inforom version"),
    _label("DCGM_FI_DEV_POWER_INFOROM_VER", "Power management object inforom version"),
    _label("DCGM_FI_DEV_INFOROM_IMAGE_VER", "Inforom image version"),
    _label("DCGM_FI_DEV_VBIOS_VERSION", "VBIOS version of the device"),
    # Clocks.
    _gauge("DCGM_FI_DEV_SM_CLOCK", "MHz", "SM clock frequency (in MHz).", in_default=True),
    _gauge("DCGM_FI_DEV_MEM_CLOCK", "MHz", "Memory clock frequency (in MHz).", in_default=True),
    _gauge("DCGM_FI_DEV_VIDEO_CLOCK", "MHz", "Video encoder/decoder clock frequency (in MHz)."),
    _gauge("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "bitmask", "Current clock event reasons (bitmask)."),
    _gauge("DCGM_FI_DEV_MAX_SM_CLOCK", "MHz", "Maximum supported SM clock (in MHz)."),
    _gauge("DCGM_FI_DEV_MAX_MEM_CLOCK", "MHz", "Maximum supported memory clock (in MHz)."),
    # Temperature and power.
    _gauge("DCGM_FI_DEV_MEMORY_TEMP", "C", "Memory temperature (in C).", in_default=True),
    _gauge("DCGM_FI_DEV_GPU_TEMP", "C", "GPU temperature (in C).", in_default=True),
    _gauge("DCGM_FI_DEV_POWER_USAGE", "W", "Power draw (in W).", value=ValueKind.DOUBLE, in_default=True),
    _counter(
        "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "mJ", "Total energy consumption since boot (in mJ).", in_default=True
    ),
    _gauge("DCGM_FI_DEV_POWER_USAGE_INSTANT", "W", "Current instantaneous power usage (in W).", value=ValueKind.DOUBLE),
    _gauge("DCGM_FI_DEV_SLOWDOWN_TEMP", "C", "Slowdown temperature (in C)."),
    _gauge("DCGM_FI_DEV_SHUTDOWN_TEMP", "C", "Shutdown temperature (in C)."),
    _gauge("DCGM_FI_DEV_POWER_MGMT_LIMIT", "W", "Current power limit (in W).", value=ValueKind.DOUBLE),
    _gauge("DCGM_FI_DEV_ENFORCED_POWER_LIMIT", "W", "Effective power limit enforced (in W).", value=ValueKind.DOUBLE),
    _gauge("DCGM_FI_DEV_PSTATE", "", "Performance state (P-State) 0-15, 0 = highest."),
    _gauge("DCGM_FI_DEV_FAN_SPEED", "%", "Fan speed (in 0-100%)."),
    # Utilization.
    _counter("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "count", "Total number of PCIe retries.", in_default=True),
    _gauge("DCGM_FI_DEV_GPU_UTIL", "%", "GPU utilization (in %).", mig=MigScope.UNAVAILABLE, in_default=True),
    _gauge("DCGM_FI_DEV_MEM_COPY_UTIL", "%", "Memory utilization (in %).", mig=MigScope.UNAVAILABLE, in_default=True),
    _gauge("DCGM_FI_DEV_ENC_UTIL", "%", "Encoder utilization (in %).", mig=MigScope.UNAVAILABLE, in_default=True),
    _gauge("DCGM_FI_DEV_DEC_UTIL", "%", "Decoder utilization (in %).", mig=MigScope.UNAVAILABLE, in_default=True),
    _gauge("DCGM_FI_DEV_XID_ERRORS", "", "Value of the last XID error encountered.", in_default=True),
    _gauge("DCGM_FI_DEV_PCIE_LINK_GEN", "", "PCIe current link generation."),
    _gauge("DCGM_FI_DEV_PCIE_LINK_WIDTH", "", "PCIe current link width."),
    # Violation counters: cumulative throttle time. DCGM passes NVML's nanoseconds through.
    _counter("DCGM_FI_DEV_POWER_VIOLATION", "ns", "Throttling duration due to power constraints (in ns)."),
    _counter("DCGM_FI_DEV_THERMAL_VIOLATION", "ns", "Throttling duration due to thermal constraints (in ns)."),
    _counter("DCGM_FI_DEV_SYNC_BOOST_VIOLATION", "ns", "Throttling duration due to sync-boost constraints (in ns)."),
    _counter("DCGM_FI_DEV_BOARD_LIMIT_VIOLATION", "ns", "Throttling duration due to board limit constraints (in ns)."),
    _counter("DCGM_FI_DEV_LOW_UTIL_VIOLATION", "ns", "Throttling duration due to low utilization (in ns)."),
    _counter("DCGM_FI_DEV_RELIABILITY_VIOLATION", "ns", "Throttling duration due to reliability constraints (in ns)."),
    # Framebuffer: per GPU instance under MIG.
    _gauge("DCGM_FI_DEV_FB_TOTAL", "MiB", "Framebuffer memory total (in MiB).", mig=MigScope.INSTANCE),
    _gauge("DCGM_FI_DEV_FB_FREE", "MiB", "Framebuffer memory free (in MiB).", mig=MigScope.INSTANCE, in_default=True),
    _gauge("DCGM_FI_DEV_FB_USED", "MiB", "Framebuffer memory used (in MiB).", mig=MigScope.INSTANCE, in_default=True),
    _gauge(
        "DCGM_FI_DEV_FB_RESERVED",
        "MiB",
        "Framebuffer memory reserved (in MiB).",
        mig=MigScope.INSTANCE,
        in_default=True,
    ),
    _gauge(
        "DCGM_FI_DEV_FB_USED_PERCENT",
        "ratio",
        "Framebuffer memory used, as a ratio of total minus reserved.",
        value=ValueKind.DOUBLE,
        mig=MigScope.INSTANCE,
    ),
    # ECC.
    _counter("DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "count", "Total number of single-bit volatile ECC errors."),
    _counter("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "count", "Total number of double-bit volatile ECC errors."),
    _counter("DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", "count", "Total number of single-bit persistent ECC errors."),
    _counter("DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", "count", "Total number of double-bit persistent ECC errors."),
    # Page retirement and row remapping.
    _counter("DCGM_FI_DEV_RETIRED_SBE", "count", "Total number of retired pages due to single-bit errors."),
    _counter("DCGM_FI_DEV_RETIRED_DBE", "count", "Total number of retired pages due to double-bit errors."),
    _counter("DCGM_FI_DEV_RETIRED_PENDING", "count", "Total number of pages pending retirement."),
    _counter(
        "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS",
        "count",
        "Number of remapped rows for uncorrectable errors",
        in_default=True,
    ),
    _counter(
        "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS",
        "count",
        "Number of remapped rows for correctable errors",
        in_default=True,
    ),
    _gauge("DCGM_FI_DEV_ROW_REMAP_FAILURE", "bool", "Whether remapping of rows has failed", in_default=True),
    _gauge("DCGM_FI_DEV_ROW_REMAP_PENDING", "bool", "Whether remapping of rows is pending"),
    # NVLink totals.
    _counter(
        "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "count", "Total number of NVLink flow-control CRC errors."
    ),
    _counter("DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", "count", "Total number of NVLink data CRC errors."),
    _counter("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "count", "Total number of NVLink retries."),
    _counter("DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", "count", "Total number of NVLink recovery errors."),
    _counter(
        "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
        "MB/s",
        "Total number of NVLink bandwidth counters for all lanes.",
        in_default=True,
    ),
    _counter("DCGM_FI_DEV_NVLINK_CRC_ERROR_TOTAL", "count", "NVLink data-link CRC errors (Hopper and newer)."),
    _counter("DCGM_FI_DEV_NVLINK_RECOVERY_TOTAL", "count", "NVLink data-link recoveries (Hopper and newer)."),
    _counter("DCGM_FI_DEV_NVLINK_REPLAY_TOTAL", "count", "NVLink data-link replays (Hopper and newer)."),
    _gauge("DCGM_FI_DEV_VGPU_LICENSE_STATUS", "", "vGPU License status", in_default=True),
)

# Per-lane NVLink throughput (classic DCGM ids, see ``NVLINK_LANE_FIELDS``).
_NVLINK_LANE_FIELDS = tuple(
    _counter(
        f"DCGM_FI_DEV_NVLINK_BANDWIDTH_L{lane}",
        "MB/s",
        "The number of bytes of active NVLink rx or tx data including both header and payload.",
    )
    for lane in range(18)
)

# Per-link NVLink fields keyed by an NVLink entity (newest DCGM, DCGM_FE_LINK).
_NVLINK_ENTITY_FIELDS: tuple[Field, ...] = (
    _counter(
        "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_PER_LINK_TOTAL",
        "count",
        "NVLink flow-control CRC errors on this link.",
        entity=Entity.NVLINK,
    ),
    _counter(
        "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_PER_LINK_TOTAL",
        "count",
        "NVLink data CRC errors on this link.",
        entity=Entity.NVLINK,
    ),
    _counter(
        "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_PER_LINK_TOTAL", "count", "NVLink replays on this link.", entity=Entity.NVLINK
    ),
    _counter(
        "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_PER_LINK_TOTAL",
        "count",
        "NVLink recoveries on this link.",
        entity=Entity.NVLINK,
    ),
    _gauge(
        "DCGM_FI_DEV_NVLINK_THROUGHPUT_PER_LINK",
        "MB/s",
        "NVLink throughput of this link (in MB/s).",
        entity=Entity.NVLINK,
    ),
    _prof(
        "DCGM_FI_PROF_NVLINK_TX_BYTES_PER_LINK",
        "B/s",
        "NVLink transmit rate of this link (in B/s).",
        entity=Entity.NVLINK,
    ),
    _prof(
        "DCGM_FI_PROF_NVLINK_RX_BYTES_PER_LINK",
        "B/s",
        "NVLink receive rate of this link (in B/s).",
        entity=Entity.NVLINK,
    ),
)

_PROF_FIELDS: tuple[Field, ...] = (
    _prof("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "ratio", "Ratio of time the graphics engine is active.", in_default=True),
    _prof("DCGM_FI_PROF_SM_ACTIVE", "ratio", "The ratio of cycles an SM has at least 1 warp assigned."),
    _prof("DCGM_FI_PROF_SM_OCCUPANCY", "ratio", "The ratio of number of warps resident on an SM."),
    _prof(
        "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "ratio", "Ratio of cycles the tensor (HMMA) pipe is active.", in_default=True
    ),
    _prof(
        "DCGM_FI_PROF_DRAM_ACTIVE",
        "ratio",
        "Ratio of cycles the device memory interface is active sending or receiving data.",
        in_default=True,
    ),
    _prof("DCGM_FI_PROF_PIPE_FP64_ACTIVE", "ratio", "Ratio of cycles the fp64 pipes are active."),
    _prof("DCGM_FI_PROF_PIPE_FP32_ACTIVE", "ratio", "Ratio of cycles the fp32 pipes are active."),
    _prof("DCGM_FI_PROF_PIPE_FP16_ACTIVE", "ratio", "Ratio of cycles the fp16 pipes are active."),
    _prof(
        "DCGM_FI_PROF_PCIE_TX_BYTES",
        "B/s",
        "The rate of data transmitted over the PCIe bus - including both protocol headers and data payloads - "
        "in bytes per second.",
        in_default=True,
    ),
    _prof(
        "DCGM_FI_PROF_PCIE_RX_BYTES",
        "B/s",
        "The rate of data received over the PCIe bus - including both protocol headers and data payloads - "
        "in bytes per second.",
        in_default=True,
    ),
    _prof(
        "DCGM_FI_PROF_NVLINK_TX_BYTES",
        "B/s",
        "The rate of data transmitted over NVLink, not including protocol headers, in bytes per second.",
    ),
    _prof(
        "DCGM_FI_PROF_NVLINK_RX_BYTES",
        "B/s",
        "The rate of data received over NVLink, not including protocol headers, in bytes per second.",
    ),
    _prof("DCGM_FI_PROF_PIPE_TENSOR_IMMA_ACTIVE", "ratio", "Ratio of cycles the IMMA tensor pipe is active."),
    _prof("DCGM_FI_PROF_PIPE_TENSOR_HMMA_ACTIVE", "ratio", "Ratio of cycles the HMMA tensor pipe is active."),
    _prof("DCGM_FI_PROF_PIPE_TENSOR_DFMA_ACTIVE", "ratio", "Ratio of cycles the DFMA tensor pipe is active."),
    _prof("DCGM_FI_PROF_PIPE_INT_ACTIVE", "ratio", "Ratio of cycles the integer pipe is active."),
    *(
        _prof(f"DCGM_FI_PROF_NVDEC{n}_ACTIVE", "ratio", f"Ratio of cycles the NVDEC{n} engine is active.")
        for n in range(8)
    ),
    *(
        _prof(f"DCGM_FI_PROF_NVJPG{n}_ACTIVE", "ratio", f"Ratio of cycles the NVJPG{n} engine is active.")
        for n in range(8)
    ),
    *(
        _prof(f"DCGM_FI_PROF_NVOFA{n}_ACTIVE", "ratio", f"Ratio of cycles the NVOFA{n} engine is active.")
        for n in range(2)
    ),
    *(
        _prof(
            f"DCGM_FI_PROF_NVLINK_L{lane}_{d}_BYTES",
            "B/s",
            f"The rate of data {'transmitted' if d == 'TX' else 'received'} over NVLink link {lane}, "
            "in bytes per second.",
        )
        for lane in range(18)
        for d in ("TX", "RX")
    ),
)

# The 4.9.0 names. Base-unit variants are separate DCGM fields with new ids.
_DIALECT_FIELDS: tuple[Field, ...] = (
    _label("DCGM_FI_SYSTEM_DRIVER_VERSION", "Driver Version"),
    _gauge("DCGM_FI_DEV_SM_CLOCK_HERTZ", "Hz", "SM clock frequency (in Hz)."),
    _gauge("DCGM_FI_DEV_MEMORY_CLOCK_HERTZ", "Hz", "Memory clock frequency (in Hz)."),
    _gauge("DCGM_FI_DEV_MEMORY_TEMP_CELSIUS", "C", "Memory temperature (in C)."),
    _gauge("DCGM_FI_DEV_GPU_TEMP_CELSIUS", "C", "GPU temperature (in C)."),
    _gauge("DCGM_FI_DEV_BOARD_POWER_WATTS", "W", "Power draw (in W).", value=ValueKind.DOUBLE),
    _counter("DCGM_FI_DEV_GPU_ENERGY_JOULES_TOTAL", "J", "Total energy consumption since boot (in J)."),
    _counter("DCGM_FI_DEV_PCIE_REPLAY_TOTAL", "count", "Total number of PCIe retries."),
    _gauge(
        "DCGM_FI_DEV_GPU_UTIL_RATIO",
        "ratio",
        "GPU utilization (ratio 0-1).",
        value=ValueKind.DOUBLE,
        mig=MigScope.UNAVAILABLE,
    ),
    _gauge(
        "DCGM_FI_DEV_MEMORY_UTIL_RATIO",
        "ratio",
        "Memory utilization (ratio 0-1).",
        value=ValueKind.DOUBLE,
        mig=MigScope.UNAVAILABLE,
    ),
    _gauge(
        "DCGM_FI_DEV_ENC_UTIL_RATIO",
        "ratio",
        "Encoder utilization (ratio 0-1).",
        value=ValueKind.DOUBLE,
        mig=MigScope.UNAVAILABLE,
    ),
    _gauge(
        "DCGM_FI_DEV_DEC_UTIL_RATIO",
        "ratio",
        "Decoder utilization (ratio 0-1).",
        value=ValueKind.DOUBLE,
        mig=MigScope.UNAVAILABLE,
    ),
    _gauge("DCGM_FI_DEV_XID_ERROR", "", "Value of the last XID error encountered."),
    _gauge("DCGM_FI_DEV_FB_FREE_BYTES", "B", "Framebuffer memory free (in bytes).", mig=MigScope.INSTANCE),
    _gauge("DCGM_FI_DEV_FB_USED_BYTES", "B", "Framebuffer memory used (in bytes).", mig=MigScope.INSTANCE),
    _gauge("DCGM_FI_DEV_FB_RESERVED_BYTES", "B", "Framebuffer memory reserved (in bytes).", mig=MigScope.INSTANCE),
    _gauge("DCGM_FI_DEV_FB_CAPACITY_BYTES", "B", "Framebuffer memory total (in bytes).", mig=MigScope.INSTANCE),
    _gauge("DCGM_FI_DEV_NVLINK_THROUGHPUT_TOTAL", "B/s", "NVLink throughput over all links (in bytes per second)."),
    _counter("DCGM_FI_DEV_ROW_REMAP_UNCORRECTABLE_TOTAL", "count", "Number of remapped rows for uncorrectable errors"),
    _counter("DCGM_FI_DEV_ROW_REMAP_CORRECTABLE_TOTAL", "count", "Number of remapped rows for correctable errors"),
    _gauge("DCGM_FI_DEV_ROW_REMAP_FAILED", "bool", "Whether remapping of rows has failed"),
    _prof("DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO", "ratio", "Ratio of time the graphics engine is active."),
    _prof("DCGM_FI_PROF_TENSOR_UTIL_RATIO", "ratio", "Ratio of cycles any tensor pipe is active."),
    _prof(
        "DCGM_FI_PROF_DRAM_UTIL_RATIO",
        "ratio",
        "Ratio of cycles the device memory interface is active sending or receiving data.",
    ),
)

_EXPORTER_FIELDS: tuple[Field, ...] = (
    _exporter_owned(
        "DCGM_EXP_XID_ERRORS_COUNT",
        MetricType.COUNTER,
        "count",
        "Count of XID Errors within user-specified time window (see xid-count-window-size param).",
    ),
    _exporter_owned(
        "DCGM_EXP_CLOCK_EVENTS_COUNT",
        MetricType.COUNTER,
        "count",
        "Count of clock events within the user-specified time window (see clock-events-count-window-size param).",
    ),
    _exporter_owned(
        "DCGM_EXP_XID_ERRORS_TOTAL",
        MetricType.COUNTER,
        "count",
        "Total number of XID errors seen since the exporter started, per XID.",
    ),
    _exporter_owned(
        "DCGM_EXP_CLOCK_EVENTS_TOTAL",
        MetricType.COUNTER,
        "count",
        "Total number of collections that saw each clock event reason since the exporter started.",
    ),
    _exporter_owned(
        "DCGM_EXP_GPU_HEALTH_STATUS", MetricType.GAUGE, "", "GPU health per subsystem: 0 pass, 10 warn, 20 fail."
    ),
    _exporter_owned("DCGM_EXP_P2P_STATUS", MetricType.GAUGE, "", "P2P NVLink status to each peer GPU (0 = OK)."),
)

# In catalog order, the DCGM 4.x rows (``rows_dcgm4.py``) between the two: ``catalog.ALL_FIELDS`` joins the three.
DEVICE_FIELDS: tuple[Field, ...] = _DEVICE_FIELDS
LATER_FIELDS: tuple[Field, ...] = (
    *_NVLINK_LANE_FIELDS,
    *_NVLINK_ENTITY_FIELDS,
    *_PROF_FIELDS,
    *_DIALECT_FIELDS,
    *_EXPORTER_FIELDS,
)
