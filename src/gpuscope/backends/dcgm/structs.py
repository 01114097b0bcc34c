"""DCGM's C types and numbers for the subset gpuscope binds, as declared by DCGM 4.6.0's public headers.

Source: NVIDIA/DCGM at the "DCGM 4.6.0" commit, ``dcgmlib/dcgm_structs.h`` (structs, return codes, struct
versions, blank sentinels), ``dcgmlib/dcgm_fields.h`` (entity groups, field types, field ids) and
``dcgmlib/dcgm_agent.h`` (function signatures, bound in ``library``). Every struct here is naturally aligned, as
in the headers (only ``dcgm_link_t``, which we do not bind, is packed). A struct's version word is its size
OR'd with the version number shifted left by 24 (``MAKE_DCGM_VERSION``); DCGM rejects a mismatch with
``VER_MISMATCH``, which is how a wrong layout here shows itself instead of corrupting memory.
"""

from __future__ import annotations

import ctypes
from enum import IntEnum, IntFlag

# Handles (dcgmHandle_t, dcgmGpuGrp_t, dcgmFieldGrp_t) are uintptr_t.
Handle = ctypes.c_size_t

MAX_STR_LENGTH = 256
MAX_NUM_DEVICES = 32
MAX_BLOB_LENGTH = 4096
MAX_HIERARCHY_INFO = MAX_NUM_DEVICES * 14
GROUP_MAX_ENTITIES_V2 = 1024
MAX_FIELD_IDS_PER_FIELD_GROUP = 128
PROF_MAX_NUM_GROUPS_V2 = 10
PROF_MAX_FIELD_IDS_PER_GROUP_V2 = 64
MODULE_STATUSES_CAPACITY = 16
HE_PORT_NUMBER = 5555


# dcgm_field_entity_group_t
class EntityGroup(IntEnum):
    NONE = 0
    GPU = 1
    VGPU = 2
    SWITCH = 3
    GPU_I = 4
    GPU_CI = 5
    LINK = 6


class Return(IntEnum):
    """``dcgmReturn_t``: 0 is success, every error is negative."""

    OK = 0
    BADPARAM = -1
    GENERIC_ERROR = -3
    MEMORY = -4
    NOT_CONFIGURED = -5
    NOT_SUPPORTED = -6
    INIT_ERROR = -7
    NVML_ERROR = -8
    PENDING = -9
    UNINITIALIZED = -10
    TIMEOUT = -11
    VER_MISMATCH = -12
    UNKNOWN_FIELD = -13
    NO_DATA = -14
    STALE_DATA = -15
    NOT_WATCHED = -16
    NO_PERMISSION = -17
    GPU_IS_LOST = -18
    RESET_REQUIRED = -19
    FUNCTION_NOT_FOUND = -20
    CONNECTION_NOT_VALID = -21
    GPU_NOT_SUPPORTED = -22
    GROUP_INCOMPATIBLE = -23
    REQUIRES_ROOT = -29
    INSUFFICIENT_SIZE = -31
    FIELD_UNSUPPORTED_BY_API = -32
    MODULE_NOT_LOADED = -33
    IN_USE = -34
    GROUP_IS_EMPTY = -35
    PROFILING_NOT_SUPPORTED = -36
    PROFILING_LIBRARY_ERROR = -37
    PROFILING_MULTI_PASS = -38
    INSUFFICIENT_DRIVER_VERSION = -44
    INSTANCE_NOT_FOUND = -45
    COMPUTE_INSTANCE_NOT_FOUND = -46
    PAUSED = -54
    ALREADY_INITIALIZED = -55
    NVML_NOT_LOADED = -56
    NVML_DRIVER_TIMEOUT = -57
    GPUS_DETACHED = -67


def return_name(code: int) -> str:
    try:
        return f"DCGM_ST_{Return(code).name}"
    except ValueError:
        return f"DCGM error {code}"


class OperationMode(IntEnum):
    AUTO = 1  # the embedded engine updates watched fields itself
    MANUAL = 2


class GroupType(IntEnum):
    DEFAULT = 0
    EMPTY = 1


class HealthSystem(IntFlag):
    PCIE = 0x1
    NVLINK = 0x2
    PMU = 0x4
    MCU = 0x8
    MEM = 0x10
    SM = 0x20
    INFOROM = 0x40
    THERMAL = 0x80
    POWER = 0x100
    DRIVER = 0x200
    ALL = 0xFFFFFFFF


class ModuleId(IntEnum):
    PROFILING = 8


class ModuleStatus(IntEnum):
    NOT_LOADED = 0
    DENYLISTED = 1
    FAILED = 2
    LOADED = 3
    UNLOADED = 4
    PAUSED = 5
    RELOADABLE = 6


# dcgm_fields.h field types.
FT_BINARY, FT_DOUBLE, FT_INT64, FT_STRING, FT_TIMESTAMP = (ord(c) for c in "bdist")

# dcgm_fields.h ids the backend needs for identity (not exported as series, so not in the catalog).
FI_DEV_NAME = 50
FI_DEV_UUID = 54
FI_DEV_PCI_BUSID = 57

FV_FLAG_LIVE_DATA = 0x1

# Blank sentinels: a value at or above the base means "no value"; base+1/+2/+3 say why.
INT32_BLANK = 0x7FFFFFF0
INT64_BLANK = 0x7FFFFFFFFFFFFFF0
FP64_BLANK = 140737488355328.0
STR_BLANK = "<<<NULL>>>"
STR_NOT_FOUND, STR_NOT_SUPPORTED, STR_NOT_PERMISSIONED = "<<<NOT_FOUND>>>", "<<<NOT_SUPPORTED>>>", "<<<NOT_PERM>>>"
BLANK_NOT_FOUND, BLANK_NOT_SUPPORTED, BLANK_NOT_PERMISSIONED = 1, 2, 3


def make_version(struct: type[ctypes.Structure], version: int) -> int:
    return ctypes.sizeof(struct) | (version << 24)


class GroupEntityPair(ctypes.Structure):
    _fields_ = [("entityGroupId", ctypes.c_int), ("entityId", ctypes.c_uint)]


class ConnectV2Params(ctypes.Structure):
    """``dcgmConnectV2Params_v2``."""

    _fields_ = [
        ("version", ctypes.c_uint),
        ("persistAfterDisconnect", ctypes.c_uint),
        ("timeoutMs", ctypes.c_uint),
        ("addressIsUnixSocket", ctypes.c_uint),
    ]


class VersionInfo(ctypes.Structure):
    """``dcgmVersionInfo_v2``: ``rawBuildInfoString`` is ``key:value;`` pairs, ``version`` among them."""

    _fields_ = [("version", ctypes.c_uint), ("rawBuildInfoString", ctypes.c_char * (MAX_STR_LENGTH * 2))]


class _Value(ctypes.Union):
    _fields_ = [
        ("i64", ctypes.c_int64),
        ("dbl", ctypes.c_double),
        ("str", ctypes.c_char * MAX_STR_LENGTH),
        ("blob", ctypes.c_char * MAX_BLOB_LENGTH),
    ]


class FieldValueV2(ctypes.Structure):
    """``dcgmFieldValue_v2``: one field of one entity; ``status`` is a ``dcgmReturn_t`` of its own."""

    _fields_ = [
        ("version", ctypes.c_uint),
        ("entityGroupId", ctypes.c_int),
        ("entityId", ctypes.c_uint),
        ("fieldId", ctypes.c_ushort),
        ("fieldType", ctypes.c_ushort),
        ("status", ctypes.c_int),
        ("unused", ctypes.c_uint),
        ("ts", ctypes.c_int64),
        ("value", _Value),
    ]


class MigEntityInfo(ctypes.Structure):
    _fields_ = [
        ("gpuUuid", ctypes.c_char * 128),
        ("nvmlGpuIndex", ctypes.c_uint),
        ("nvmlInstanceId", ctypes.c_uint),
        ("nvmlComputeInstanceId", ctypes.c_uint),
        ("nvmlMigProfileId", ctypes.c_uint),
        ("nvmlProfileSlices", ctypes.c_uint),
    ]


class MigHierarchyInfoV2(ctypes.Structure):
    _fields_ = [("entity", GroupEntityPair), ("parent", GroupEntityPair), ("info", MigEntityInfo)]


class MigHierarchyV2(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_uint),
        ("count", ctypes.c_uint),
        ("entityList", MigHierarchyInfoV2 * MAX_HIERARCHY_INFO),
    ]


MAX_NUM_SWITCHES = 12  # DCGM_MAX_NUM_SWITCHES
NVLINK_MAX_LINKS_PER_GPU = 36  # DCGM_NVLINK_MAX_LINKS_PER_GPU
NVLINK_MAX_LINKS_PER_NVSWITCH = 256  # DCGM_NVLINK_MAX_LINKS_PER_NVSWITCH


class NvLinkGpuLinkStatusV4(ctypes.Structure):
    """``dcgmNvLinkGpuLinkStatus_v4``: a GPU's link states (``dcgmNvLinkLinkState_t``, an int each)."""

    _fields_ = [("entityId", ctypes.c_uint), ("linkState", ctypes.c_int * NVLINK_MAX_LINKS_PER_GPU)]


class NvLinkNvSwitchLinkStatus(ctypes.Structure):
    """``dcgmNvLinkNvSwitchLinkStatus_t``: an NVSwitch's port states."""

    _fields_ = [("entityId", ctypes.c_uint), ("linkState", ctypes.c_int * NVLINK_MAX_LINKS_PER_NVSWITCH)]


class NvLinkStatusV5(ctypes.Structure):
    """``dcgmNvLinkStatus_v5``: what ``dcgmGetNvLinkLinkStatus`` fills."""

    _fields_ = [
        ("version", ctypes.c_uint),
        ("numGpus", ctypes.c_uint),
        ("gpus", NvLinkGpuLinkStatusV4 * MAX_NUM_DEVICES),
        ("numNvSwitches", ctypes.c_uint),
        ("nvSwitches", NvLinkNvSwitchLinkStatus * MAX_NUM_SWITCHES),
    ]


def link_id(parent_group: int, parent_id: int, index: int) -> int:
    """A link entity's id, DCGM's ``dcgm_link_t``: the parent's entity group in bits 0-7, the port index in 8-23,
    the parent's id in 24-31 (dcgm_structs.h; go-dcgm's ``LinkGetLatestValues`` packs it the same way)."""
    return (parent_group & 0xFF) | (index & 0xFFFF) << 8 | (parent_id & 0xFF) << 24


class DiagErrorDetail(ctypes.Structure):
    _fields_ = [("msg", ctypes.c_char * 1024), ("code", ctypes.c_uint)]


class IncidentInfo(ctypes.Structure):
    _fields_ = [
        ("system", ctypes.c_uint),
        ("health", ctypes.c_uint),
        ("error", DiagErrorDetail),
        ("entityInfo", GroupEntityPair),
    ]


class HealthResponseV5(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_uint),
        ("overallHealth", ctypes.c_uint),
        ("incidentCount", ctypes.c_uint),
        ("incidents", IncidentInfo * GROUP_MAX_ENTITIES_V2),
    ]


class ProfMetricGroupInfoV2(ctypes.Structure):
    _fields_ = [
        ("majorId", ctypes.c_ushort),
        ("minorId", ctypes.c_ushort),
        ("numFieldIds", ctypes.c_uint),
        ("fieldIds", ctypes.c_ushort * PROF_MAX_FIELD_IDS_PER_GROUP_V2),
    ]


class ProfGetMetricGroupsV3(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_uint),
        ("unused", ctypes.c_uint),
        ("gpuId", ctypes.c_uint),
        ("numMetricGroups", ctypes.c_uint),
        ("metricGroups", ProfMetricGroupInfoV2 * PROF_MAX_NUM_GROUPS_V2),
    ]


class ModuleStatusEntry(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("status", ctypes.c_int)]


class ModuleGetStatusesV1(ctypes.Structure):
    _fields_ = [
        ("version", ctypes.c_uint),
        ("numStatuses", ctypes.c_uint),
        ("statuses", ModuleStatusEntry * MODULE_STATUSES_CAPACITY),
    ]


class FieldOutputFormat(ctypes.Structure):
    """``dcgm_field_output_format_t`` (dcgm_fields.h): how dcgmi dmon prints a field."""

    _fields_ = [("shortName", ctypes.c_char * 10), ("unit", ctypes.c_char * 4), ("width", ctypes.c_short)]


class FieldMeta(ctypes.Structure):
    """``dcgm_field_meta_t`` (dcgm_fields.h): what ``DcgmFieldGetById`` answers for a field the library knows."""

    _fields_ = [
        ("fieldId", ctypes.c_ushort),
        ("fieldType", ctypes.c_char),
        ("size", ctypes.c_ubyte),
        ("tag", ctypes.c_char * 48),
        ("scope", ctypes.c_int),
        ("nvmlFieldId", ctypes.c_int),
        ("entityLevel", ctypes.c_int),  # dcgm_field_entity_group_t
        ("valueFormat", ctypes.POINTER(FieldOutputFormat)),
    ]


CONNECT_V2_PARAMS_VERSION = make_version(ConnectV2Params, 2)
VERSION_INFO_VERSION = make_version(VersionInfo, 2)
FIELD_VALUE_V2_VERSION = make_version(FieldValueV2, 2)
MIG_HIERARCHY_VERSION = make_version(MigHierarchyV2, 2)
HEALTH_RESPONSE_VERSION = make_version(HealthResponseV5, 5)
PROF_METRIC_GROUPS_VERSION = make_version(ProfGetMetricGroupsV3, 3)
MODULE_STATUSES_VERSION = make_version(ModuleGetStatusesV1, 1)
NVLINK_STATUS_VERSION = make_version(NvLinkStatusV5, 5)
