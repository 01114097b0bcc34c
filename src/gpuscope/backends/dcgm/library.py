"""Loading ``libdcgm.so.4`` and declaring the signatures gpuscope calls (``dcgm_agent.h``, DCGM 4.6.0).

The library is found at ``$GPUSCOPE_LIBDCGM_PATH`` when that is set (tests point it at the fake libdcgm built
from ``tests/fakedcgm``), else as ``libdcgm.so.4`` (the name DCGM 4 packages install) in the directories of
``$LD_LIBRARY_PATH`` in order, else by the loader's own search. The explicit ``LD_LIBRARY_PATH`` search is
dcgm-exporter 4.8.4's ("Honor LD_LIBRARY_PATH when locating DCGM libraries", PR #745): the dynamic loader ignores
``LD_LIBRARY_PATH`` for a process in secure-execution mode (an interpreter given file capabilities, setuid), and
a DCGM installed outside the loader's cache (``/opt/...``, a mounted host directory) is then found only this way.
``Library``
only marshals: each method is one C call that returns its output or raises ``DcgmError`` with the code; deadlines
and retries are the caller's business (``deadline``, ``session``).
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Sequence

from gpuscope.backends.dcgm import structs as S

ENV_PATH = "GPUSCOPE_LIBDCGM_PATH"
SONAME = "libdcgm.so.4"

_c = ctypes
_H = S.Handle
_SIGNATURES: dict[str, tuple[object, ...]] = {
    "dcgmInit": (),
    "dcgmShutdown": (),
    "dcgmStartEmbedded": (_c.c_int, _c.POINTER(_H)),
    "dcgmStopEmbedded": (_H,),
    "dcgmConnect_v2": (_c.c_char_p, _c.POINTER(S.ConnectV2Params), _c.POINTER(_H)),
    "dcgmDisconnect": (_H,),
    "dcgmVersionInfo": (_c.POINTER(S.VersionInfo),),
    "dcgmHostengineVersionInfo": (_H, _c.POINTER(S.VersionInfo)),
    "dcgmGetAllSupportedDevices": (_H, _c.POINTER(_c.c_uint), _c.POINTER(_c.c_int)),
    "dcgmGetGpuInstanceHierarchy": (_H, _c.POINTER(S.MigHierarchyV2)),
    "dcgmGetEntityGroupEntities": (_H, _c.c_int, _c.POINTER(_c.c_uint), _c.POINTER(_c.c_int), _c.c_uint),
    "dcgmGetNvLinkLinkStatus": (_H, _c.POINTER(S.NvLinkStatusV5)),
    "dcgmGroupCreate": (_H, _c.c_int, _c.c_char_p, _c.POINTER(_H)),
    "dcgmGroupAddEntity": (_H, _H, _c.c_int, _c.c_uint),
    "dcgmGroupDestroy": (_H, _H),
    "dcgmFieldGroupCreate": (_H, _c.c_int, _c.POINTER(_c.c_ushort), _c.c_char_p, _c.POINTER(_H)),
    "dcgmFieldGroupDestroy": (_H, _H),
    "dcgmWatchFields": (_H, _H, _H, _c.c_longlong, _c.c_double, _c.c_int),
    "dcgmUnwatchFields": (_H, _H, _H),
    "dcgmEntitiesGetLatestValues": (
        _H,
        _c.POINTER(S.GroupEntityPair),
        _c.c_uint,
        _c.POINTER(_c.c_ushort),
        _c.c_uint,
        _c.c_uint,
        _c.POINTER(S.FieldValueV2),
    ),
    "dcgmHealthSet": (_H, _H, _c.c_uint),
    "dcgmHealthCheck": (_H, _H, _c.POINTER(S.HealthResponseV5)),
    "dcgmProfGetSupportedMetricGroups": (_H, _c.POINTER(S.ProfGetMetricGroupsV3)),
    "dcgmModuleGetStatuses": (_H, _c.POINTER(S.ModuleGetStatusesV1)),
}


class DcgmError(Exception):
    """A DCGM call returned an error code."""

    def __init__(self, function: str, code: int) -> None:
        super().__init__(f"{function}: {S.return_name(code)}")
        self.function = function
        self.code = code


class LibraryMissing(Exception):
    """libdcgm could not be loaded (not installed, wrong path, missing symbol)."""


def search_dirs() -> list[str]:
    """The directories of ``$LD_LIBRARY_PATH``, in order (empty entries, which mean the working directory to the
    loader, are left out: a library is never picked up from wherever the exporter was started)."""
    return [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d.strip()]


def library_path() -> str:
    """``$GPUSCOPE_LIBDCGM_PATH``, else the first ``libdcgm.so.4`` in ``$LD_LIBRARY_PATH``, else the soname."""
    explicit = os.environ.get(ENV_PATH)
    if explicit:
        return explicit
    for directory in search_dirs():
        candidate = os.path.join(directory, SONAME)
        if os.path.isfile(candidate):
            return candidate
    return SONAME


def load(path: str | None = None) -> ctypes.CDLL:
    """dlopen libdcgm and declare every bound signature; ``LibraryMissing`` says what failed."""
    where = path or library_path()
    try:
        lib = ctypes.CDLL(where)
    except OSError as exc:
        looked = f"; looked in LD_LIBRARY_PATH {':'.join(search_dirs())}" if where == SONAME and search_dirs() else ""
        raise LibraryMissing(f"cannot load {where} ({exc}){looked}; install DCGM 4 or set {ENV_PATH}") from None
    for name, argtypes in _SIGNATURES.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            raise LibraryMissing(f"{where} has no {name}: not a DCGM 4 library") from None
        function.argtypes = list(argtypes)
        function.restype = ctypes.c_int
    lib.errorString.argtypes = [ctypes.c_int]
    lib.errorString.restype = ctypes.c_char_p
    # dcgm_fields.h: the library's own field table (NULL for an id it does not know), no host engine involved.
    try:
        lib.DcgmFieldGetById.argtypes = [ctypes.c_ushort]
        lib.DcgmFieldGetById.restype = ctypes.POINTER(S.FieldMeta)
    except AttributeError:
        raise LibraryMissing(f"{where} has no DcgmFieldGetById: not a DCGM 4 library") from None
    return lib


class Library:
    """libdcgm's bound calls. One instance per loaded library; calls are not thread-safe together."""

    def __init__(self, lib: ctypes.CDLL) -> None:
        self._lib = lib
        # One values buffer per size, reused: a collection of every field on 8 GPUs is ~5 MiB of records, and
        # allocating it afresh each time costs more than the call. Calls are serialized, so reuse is safe.
        self._buffers: dict[int, ctypes.Array[S.FieldValueV2]] = {}

    def _call(self, name: str, *args: object) -> None:
        code = int(getattr(self._lib, name)(*args))
        if code != S.Return.OK:
            raise DcgmError(name, code)

    def error_string(self, code: int) -> str:
        text = self._lib.errorString(code)
        return text.decode(errors="replace") if isinstance(text, bytes) else S.return_name(code)

    # --- lifecycle ------------------------------------------------------------------------------------------

    def init(self) -> None:
        self._call("dcgmInit")

    def shutdown(self) -> None:
        self._call("dcgmShutdown")

    def start_embedded(self) -> int:
        handle = S.Handle()
        self._call("dcgmStartEmbedded", int(S.OperationMode.AUTO), ctypes.byref(handle))
        return int(handle.value)

    def stop_embedded(self, handle: int) -> None:
        self._call("dcgmStopEmbedded", handle)

    def connect(self, address: str, *, unix_socket: bool, timeout_ms: int) -> int:
        params = S.ConnectV2Params(
            version=S.CONNECT_V2_PARAMS_VERSION,
            persistAfterDisconnect=0,
            timeoutMs=timeout_ms,
            addressIsUnixSocket=int(unix_socket),
        )
        handle = S.Handle()
        self._call("dcgmConnect_v2", address.encode(), ctypes.byref(params), ctypes.byref(handle))
        return int(handle.value)

    def disconnect(self, handle: int) -> None:
        self._call("dcgmDisconnect", handle)

    def client_version(self) -> str:
        info = S.VersionInfo(version=S.VERSION_INFO_VERSION)
        self._call("dcgmVersionInfo", ctypes.byref(info))
        return parse_build_info(info.rawBuildInfoString.decode(errors="replace"))

    def hostengine_version(self, handle: int) -> str:
        info = S.VersionInfo(version=S.VERSION_INFO_VERSION)
        self._call("dcgmHostengineVersionInfo", handle, ctypes.byref(info))
        return parse_build_info(info.rawBuildInfoString.decode(errors="replace"))

    # --- discovery ------------------------------------------------------------------------------------------

    def supported_gpus(self, handle: int) -> list[int]:
        ids = (ctypes.c_uint * S.MAX_NUM_DEVICES)()
        count = ctypes.c_int(0)
        self._call("dcgmGetAllSupportedDevices", handle, ids, ctypes.byref(count))
        return [int(ids[i]) for i in range(max(0, min(count.value, S.MAX_NUM_DEVICES)))]

    def mig_hierarchy(self, handle: int) -> list[S.MigHierarchyInfoV2]:
        hierarchy = S.MigHierarchyV2(version=S.MIG_HIERARCHY_VERSION)
        self._call("dcgmGetGpuInstanceHierarchy", handle, ctypes.byref(hierarchy))
        count = max(0, min(int(hierarchy.count), S.MAX_HIERARCHY_INFO))
        return [hierarchy.entityList[i] for i in range(count)]

    def switches(self, handle: int) -> list[int]:
        """The NVSwitch entity ids (physical ids) the host engine knows."""
        ids = (ctypes.c_uint * S.MAX_NUM_SWITCHES)()
        count = ctypes.c_int(S.MAX_NUM_SWITCHES)
        self._call("dcgmGetEntityGroupEntities", handle, int(S.EntityGroup.SWITCH), ids, ctypes.byref(count), 0)
        return [int(ids[i]) for i in range(max(0, min(count.value, S.MAX_NUM_SWITCHES)))]

    def nvlink_status(self, handle: int) -> S.NvLinkStatusV5:
        status = S.NvLinkStatusV5(version=S.NVLINK_STATUS_VERSION)
        self._call("dcgmGetNvLinkLinkStatus", handle, ctypes.byref(status))
        return status

    # --- fields -------------------------------------------------------------------------------------------

    def field_meta(self, field_id: int) -> tuple[str, int] | None:
        """(DCGM_FT_* letter, DCGM_FE_* entity level) the library registers for ``field_id``; ``None``: unknown."""
        meta = self._lib.DcgmFieldGetById(field_id)
        if not meta:
            return None
        return meta.contents.fieldType.decode(errors="replace"), int(meta.contents.entityLevel)

    # --- groups and watches ---------------------------------------------------------------------------------

    def group_create(self, handle: int, name: str, entities: Sequence[tuple[int, int]]) -> int:
        group = S.Handle()
        self._call("dcgmGroupCreate", handle, int(S.GroupType.EMPTY), name.encode(), ctypes.byref(group))
        for entity_group, entity_id in entities:
            self._call("dcgmGroupAddEntity", handle, group.value, entity_group, entity_id)
        return int(group.value)

    def group_destroy(self, handle: int, group: int) -> None:
        self._call("dcgmGroupDestroy", handle, group)

    def field_group_create(self, handle: int, name: str, field_ids: Sequence[int]) -> int:
        ids = (ctypes.c_ushort * len(field_ids))(*field_ids)
        group = S.Handle()
        self._call("dcgmFieldGroupCreate", handle, len(field_ids), ids, name.encode(), ctypes.byref(group))
        return int(group.value)

    def field_group_destroy(self, handle: int, field_group: int) -> None:
        self._call("dcgmFieldGroupDestroy", handle, field_group)

    def watch(
        self, handle: int, group: int, field_group: int, update_us: int, max_keep_age_s: float, max_keep_samples: int
    ) -> None:
        self._call("dcgmWatchFields", handle, group, field_group, update_us, max_keep_age_s, max_keep_samples)

    def unwatch(self, handle: int, group: int, field_group: int) -> None:
        self._call("dcgmUnwatchFields", handle, group, field_group)

    # --- values ---------------------------------------------------------------------------------------------

    def latest_values(
        self, handle: int, entities: Sequence[tuple[int, int]], field_ids: Sequence[int], *, live: bool = False
    ) -> ctypes.Array[S.FieldValueV2]:
        """One ``dcgmEntitiesGetLatestValues`` over every entity x field (entity-major order). The records are
        valid until the next call of the same size."""
        pairs = (S.GroupEntityPair * len(entities))(*(S.GroupEntityPair(g, e) for g, e in entities))
        ids = (ctypes.c_ushort * len(field_ids))(*field_ids)
        size = len(entities) * len(field_ids)
        values = self._buffers.get(size)
        if values is None:
            values = self._buffers[size] = (S.FieldValueV2 * size)()
        flags = S.FV_FLAG_LIVE_DATA if live else 0
        self._call("dcgmEntitiesGetLatestValues", handle, pairs, len(entities), ids, len(field_ids), flags, values)
        return values

    # --- health and profiling -------------------------------------------------------------------------------

    def health_set(self, handle: int, group: int, systems: int) -> None:
        self._call("dcgmHealthSet", handle, group, systems)

    def health_check(self, handle: int, group: int) -> S.HealthResponseV5:
        response = S.HealthResponseV5(version=S.HEALTH_RESPONSE_VERSION)
        self._call("dcgmHealthCheck", handle, group, ctypes.byref(response))
        return response

    def prof_metric_groups(self, handle: int, gpu_id: int) -> S.ProfGetMetricGroupsV3:
        request = S.ProfGetMetricGroupsV3(version=S.PROF_METRIC_GROUPS_VERSION, gpuId=gpu_id)
        self._call("dcgmProfGetSupportedMetricGroups", handle, ctypes.byref(request))
        return request

    def module_status(self, handle: int, module: int) -> int | None:
        request = S.ModuleGetStatusesV1(version=S.MODULE_STATUSES_VERSION)
        self._call("dcgmModuleGetStatuses", handle, ctypes.byref(request))
        for i in range(min(int(request.numStatuses), S.MODULE_STATUSES_CAPACITY)):
            if request.statuses[i].id == module:
                return int(request.statuses[i].status)
        return None


def parse_build_info(raw: str) -> str:
    """The ``version`` of a ``key:value;...`` build-info string; ``"unknown"`` if it has none."""
    for pair in raw.split(";"):
        key, sep, value = pair.partition(":")
        if sep and key.strip() == "version" and value.strip():
            return value.strip()
    return "unknown"
