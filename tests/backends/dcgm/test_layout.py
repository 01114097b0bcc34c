"""Our ctypes layouts against NVIDIA's headers: sizeof, offsetof and version words from a C program compiled on
the vendored dcgm_structs.h / dcgm_fields.h (third_party/dcgm). A struct that drifts from the header fails here."""

from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

from gpuscope.backends.dcgm import structs as S
from gpuscope.fields.health_codes import HEALTH_CODE_NAMES, error_code_label
from tests.support.dcgm_headers import HEADERS, c_constants, compiler

# ctypes class -> the C type it mirrors
STRUCTS: dict[type[ctypes.Structure], str] = {
    S.GroupEntityPair: "dcgmGroupEntityPair_t",
    S.ConnectV2Params: "dcgmConnectV2Params_v2",
    S.VersionInfo: "dcgmVersionInfo_v2",
    S.FieldValueV2: "dcgmFieldValue_v2",
    S.MigEntityInfo: "dcgmMigEntityInfo_t",
    S.MigHierarchyInfoV2: "dcgmMigHierarchyInfo_v2",
    S.MigHierarchyV2: "dcgmMigHierarchy_v2",
    S.DiagErrorDetail: "dcgmDiagErrorDetail_t",
    S.IncidentInfo: "dcgmIncidentInfo_t",
    S.HealthResponseV5: "dcgmHealthResponse_v5",
    S.ProfMetricGroupInfoV2: "dcgmProfMetricGroupInfo_v2",
    S.ProfGetMetricGroupsV3: "dcgmProfGetMetricGroups_v3",
    S.ModuleStatusEntry: "dcgmModuleGetStatusesModule_t",
    S.ModuleGetStatusesV1: "dcgmModuleGetStatuses_v1",
    S.FieldMeta: "dcgm_field_meta_t",
    S.FieldOutputFormat: "dcgm_field_output_format_t",
    S.NvLinkGpuLinkStatusV4: "dcgmNvLinkGpuLinkStatus_v4",
    S.NvLinkNvSwitchLinkStatus: "dcgmNvLinkNvSwitchLinkStatus_t",
    S.NvLinkStatusV5: "dcgmNvLinkStatus_v5",
}
VERSIONS = {
    "CONNECT_V2_PARAMS_VERSION": "dcgmConnectV2Params_version2",
    "VERSION_INFO_VERSION": "dcgmVersionInfo_version2",
    "FIELD_VALUE_V2_VERSION": "dcgmFieldValue_version2",
    "MIG_HIERARCHY_VERSION": "dcgmMigHierarchy_version2",
    "HEALTH_RESPONSE_VERSION": "dcgmHealthResponse_version5",
    "PROF_METRIC_GROUPS_VERSION": "dcgmProfGetMetricGroups_version3",
    "MODULE_STATUSES_VERSION": "dcgmModuleGetStatuses_version1",
    "NVLINK_STATUS_VERSION": "dcgmNvLinkStatus_version5",
}


def _c_layout(tmp_path: Path) -> dict[str, int]:
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "dcgm_agent.h"', "int main(void) {"]
    for struct, c_name in STRUCTS.items():
        lines.append(f'    printf("{c_name} %zu\\n", sizeof({c_name}));')
        for member, *_ in struct._fields_:
            lines.append(f'    printf("{c_name}.{member} %zu\\n", offsetof({c_name}, {member}));')
    for c_name in VERSIONS.values():
        lines.append(f'    printf("{c_name} %u\\n", (unsigned int)({c_name}));')
    lines += ["    return 0;", "}"]
    program = tmp_path / "layout.c"
    program.write_text("\n".join(lines) + "\n", encoding="utf-8")
    binary = tmp_path / "layout"
    subprocess.run([compiler(), "-I", str(HEADERS), "-o", str(binary), str(program)], check=True)
    out = subprocess.run([binary], capture_output=True, text=True, check=True).stdout
    return {key: int(value) for key, value in (line.split() for line in out.splitlines())}


def test_ctypes_layouts_match_the_headers(tmp_path: Path) -> None:
    c = _c_layout(tmp_path)
    ours: dict[str, int] = {}
    for struct, c_name in STRUCTS.items():
        ours[c_name] = ctypes.sizeof(struct)
        for member, *_ in struct._fields_:
            ours[f"{c_name}.{member}"] = getattr(struct, member).offset
    for ours_name, c_name in VERSIONS.items():
        ours[c_name] = getattr(S, ours_name)
    assert ours == c


def test_health_code_names_are_dcgm_errors_h_numbers(tmp_path: Path) -> None:
    printed = c_constants("dcgm_errors.h", HEALTH_CODE_NAMES.values(), tmp_path)
    assert {code: name for name, code in printed.items()} == dict(HEALTH_CODE_NAMES)
    assert error_code_label(13) == "DCGM_FR_UNKNOWN(13)"
