"""The fake's individual device calls (everything that has no field id), answered from the description."""

from __future__ import annotations

from typing import Any

import pynvml as real

from tests.fakenvml.description import check

_CLOCKS = {real.NVML_CLOCK_GRAPHICS: "sm", real.NVML_CLOCK_SM: "sm", real.NVML_CLOCK_MEM: "mem", 3: "video"}
_INFOROM = {real.NVML_INFOROM_OEM: "oem", real.NVML_INFOROM_ECC: "ecc", real.NVML_INFOROM_POWER: "power"}
_THRESHOLDS = {
    real.NVML_TEMPERATURE_THRESHOLD_SHUTDOWN: "shutdown",
    real.NVML_TEMPERATURE_THRESHOLD_SLOWDOWN: "slowdown",
}
_COUNTERS = {0: "replay", 1: "recovery", 2: "crc_flit", 3: "crc_data"}


class DeviceCalls:
    """Mixed into ``FakeNvml``; relies on its ``_call``, ``_gpu``, ``_target`` and ``_desc``."""

    _call: Any
    _gpu: Any
    _target: Any
    _desc: Any
    missing: set[str]

    def nvmlDeviceGetBrand(self, handle: Any) -> int:
        self._call("nvmlDeviceGetBrand")
        return int(self._desc(handle, "brand"))

    def nvmlDeviceGetSerial(self, handle: Any) -> str:
        self._call("nvmlDeviceGetSerial")
        return str(self._desc(handle, "serial"))

    def nvmlDeviceGetInforomVersion(self, handle: Any, kind: int) -> str:
        self._call("nvmlDeviceGetInforomVersion")
        value = self._gpu(handle).desc["inforom"][_INFOROM[kind]]
        return str(check(value))

    def nvmlDeviceGetInforomImageVersion(self, handle: Any) -> str:
        self._call("nvmlDeviceGetInforomImageVersion")
        return str(self._desc(handle, "inforom_image"))

    def nvmlDeviceGetVbiosVersion(self, handle: Any) -> str:
        self._call("nvmlDeviceGetVbiosVersion")
        return str(self._desc(handle, "vbios"))

    def nvmlDeviceGetClockInfo(self, handle: Any, kind: int) -> int:
        self._call("nvmlDeviceGetClockInfo")
        return int(self._desc(handle, "clocks")[_CLOCKS[kind]])

    def nvmlDeviceGetMaxClockInfo(self, handle: Any, kind: int) -> int:
        self._call("nvmlDeviceGetMaxClockInfo")
        return int(self._desc(handle, "max_clocks")[_CLOCKS[kind]])

    def nvmlDeviceGetCurrentClocksEventReasons(self, handle: Any) -> int:
        self._call("nvmlDeviceGetCurrentClocksEventReasons")
        return int(self._desc(handle, "clock_event_reasons"))

    def nvmlDeviceGetCurrentClocksThrottleReasons(self, handle: Any) -> int:
        self._call("nvmlDeviceGetCurrentClocksThrottleReasons")
        return int(self._desc(handle, "clock_event_reasons"))

    def nvmlDeviceGetTemperatureV(self, handle: Any, sensor: int) -> int:
        self._call("nvmlDeviceGetTemperatureV")
        return int(self._desc(handle, "temperature"))

    def nvmlDeviceGetTemperature(self, handle: Any, sensor: int) -> int:
        self._call("nvmlDeviceGetTemperature")
        return int(self._desc(handle, "temperature"))

    def nvmlDeviceGetTemperatureThreshold(self, handle: Any, kind: int) -> int:
        self._call("nvmlDeviceGetTemperatureThreshold")
        return int(self._desc(handle, "thresholds")[_THRESHOLDS[kind]])

    def nvmlDeviceGetPowerUsage(self, handle: Any) -> int:
        self._call("nvmlDeviceGetPowerUsage")
        return int(self._desc(handle, "power_usage_mw"))

    def nvmlDeviceGetPowerManagementLimit(self, handle: Any) -> int:
        self._call("nvmlDeviceGetPowerManagementLimit")
        return int(self._desc(handle, "power_limit_mw"))

    def nvmlDeviceGetEnforcedPowerLimit(self, handle: Any) -> int:
        self._call("nvmlDeviceGetEnforcedPowerLimit")
        return int(self._desc(handle, "enforced_power_limit_mw"))

    def nvmlDeviceGetPowerManagementLimitConstraints(self, handle: Any) -> tuple[int, int]:
        self._call("nvmlDeviceGetPowerManagementLimitConstraints")
        low, high = self._desc(handle, "power_limit_constraints_mw")
        return int(low), int(high)

    def nvmlDeviceGetPowerManagementDefaultLimit(self, handle: Any) -> int:
        self._call("nvmlDeviceGetPowerManagementDefaultLimit")
        return int(self._desc(handle, "default_power_limit_mw"))

    def nvmlDeviceGetPerformanceState(self, handle: Any) -> int:
        self._call("nvmlDeviceGetPerformanceState")
        return int(self._desc(handle, "pstate"))

    def nvmlDeviceGetFanSpeed(self, handle: Any) -> int:
        self._call("nvmlDeviceGetFanSpeed")
        return int(self._desc(handle, "fan_speed"))

    def nvmlDeviceGetUtilizationRates(self, handle: Any) -> Any:
        self._call("nvmlDeviceGetUtilizationRates")
        util = self._desc(handle, "utilization")
        return real.c_nvmlUtilization_t(gpu=util["gpu"], memory=util["memory"])

    def nvmlDeviceGetEncoderUtilization(self, handle: Any) -> list[int]:
        self._call("nvmlDeviceGetEncoderUtilization")
        return list(self._desc(handle, "encoder"))

    def nvmlDeviceGetDecoderUtilization(self, handle: Any) -> list[int]:
        self._call("nvmlDeviceGetDecoderUtilization")
        return list(self._desc(handle, "decoder"))

    def nvmlDeviceGetCurrPcieLinkGeneration(self, handle: Any) -> int:
        self._call("nvmlDeviceGetCurrPcieLinkGeneration")
        return int(self._desc(handle, "pcie")["gen"])

    def nvmlDeviceGetCurrPcieLinkWidth(self, handle: Any) -> int:
        self._call("nvmlDeviceGetCurrPcieLinkWidth")
        return int(self._desc(handle, "pcie")["width"])

    def nvmlDeviceGetMemoryInfo(self, handle: Any, version: int | None = None) -> Any:
        self._call("nvmlDeviceGetMemoryInfo", "nvmlDeviceGetMemoryInfo_v2" if version else None)
        target = self._target(handle)
        mem = target.spec["memory"] if hasattr(target, "spec") else check(target.desc["memory"])
        total, reserved, used = int(mem["total"]), int(mem["reserved"]), int(mem["used"])
        if version:
            return real.c_nvmlMemory_v2_t(
                version=version, total=total, reserved=reserved, free=total - reserved - used, used=used
            )
        return real.c_nvmlMemory_t(total=total, free=total - reserved - used, used=used + reserved)

    def nvmlDeviceGetGpuFabricInfoV(self, handle: Any, info_ref: Any) -> int:
        self._call("nvmlDeviceGetGpuFabricInfoV")
        spec = self._desc(handle, "fabric")
        info = info_ref._obj  # the structure behind ctypes.byref
        info.clusterUuid[:] = list(bytes.fromhex(spec["cluster_uuid"].replace("-", "")))
        info.status, info.cliqueId, info.state = spec["status"], spec["clique_id"], spec["state"]
        info.healthMask, info.healthSummary = spec["health_mask"], spec["health_summary"]
        return 0

    def nvmlDeviceGetGridLicensableFeatures(self, handle: Any) -> Any:
        self._call("nvmlDeviceGetGridLicensableFeatures", "nvmlDeviceGetGridLicensableFeatures_v4")
        spec = self._desc(handle, "vgpu_license")
        features = real.c_nvmlGridLicensableFeatures_v4_t()
        features.isGridLicenseSupported = int(spec["supported"])
        features.licensableFeaturesCount = 1
        features.gridLicensableFeatures[0].featureCode = real.NVML_GRID_LICENSE_FEATURE_CODE_VGPU
        features.gridLicensableFeatures[0].featureState = int(spec["state"])
        return features

    def nvmlDeviceGetNvLinkErrorCounter(self, handle: Any, link: int, counter: int) -> int:
        self._call("nvmlDeviceGetNvLinkErrorCounter")
        dev = self._gpu(handle)
        if link >= dev.links:
            raise real.NVMLError(real.NVML_ERROR_INVALID_ARGUMENT)
        return int(dev.desc["nvlink"][_COUNTERS[counter]][link])

    def nvmlDeviceGetP2PStatus(self, first: Any, second: Any, index: int) -> int:
        self._call("nvmlDeviceGetP2PStatus")
        a, b = self._gpu(first), self._gpu(second)
        return int(real.NVML_P2P_STATUS_OK if a.links and b.links else real.NVML_P2P_STATUS_NOT_SUPPORTED)
