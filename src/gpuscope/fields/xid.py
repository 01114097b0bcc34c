"""XID codes: the ``err_msg`` label text dcgm-exporter puts on ``DCGM_FI_DEV_XID_ERRORS``, and which XIDs matter.

The texts follow NVIDIA's XID catalogue exactly as dcgm-exporter spells them, because dashboards and alert
routes match on them. Codes past the table read "Unknown Error", as upstream.
"""

from __future__ import annotations

_PUSH_BUFFER = "Invalid or corrupted push buffer stream"
_VIDEO = "Video processor exception"
_UNUSED = "Unused"
_STOPPED = "GPU stopped processing"

_MESSAGES: tuple[str, ...] = (
    "No Error",  # 0
    _PUSH_BUFFER,
    _PUSH_BUFFER,
    _PUSH_BUFFER,
    _PUSH_BUFFER,
    _UNUSED,
    _PUSH_BUFFER,
    "Invalid or corrupted push buffer address",
    _STOPPED,
    "Driver error programming GPU",
    _UNUSED,  # 10
    _PUSH_BUFFER,
    "Driver error handling GPU exception",
    "Graphics Engine Exception",
    _UNUSED,
    _UNUSED,
    "Display engine hung",
    _UNUSED,
    "Bus mastering disabled in PCI Config Space",
    "Display Engine error",
    "Invalid or corrupted Mpeg push buffer",  # 20
    "Invalid or corrupted Motion Estimation push buffer",
    "Invalid or corrupted Video Processor push buffer",
    _UNUSED,
    "GPU semaphore timeout",
    "Invalid or illegal push buffer stream",
    "Framebuffer timeout",
    _VIDEO,
    _VIDEO,
    _VIDEO,
    "GPU semaphore access error",  # 30
    "GPU memory page fault",
    _PUSH_BUFFER,
    "Internal micro-controller error",
    _VIDEO,
    _VIDEO,
    _VIDEO,
    "Driver firmware error",
    "Driver firmware error",
    _UNUSED,
    _UNUSED,  # 40
    _UNUSED,
    _VIDEO,
    _STOPPED,
    "Graphics Engine fault during context switch",
    "Preemptive cleanup, due to previous errors -- Most likely to see when running multiple cuda",
    _STOPPED,
    _VIDEO,
    "Double Bit ECC Error",
    _UNUSED,
    _UNUSED,  # 50
    _UNUSED,
    _UNUSED,
    _UNUSED,
    "Auxiliary power is not connected to the GPU board",
    _UNUSED,
    "Display Engine error",
    "Error programming video memory interface",
    "Unstable video memory interface detected",
    "Internal micro-controller error",
    _VIDEO,  # 60
    "Internal micro-controller breakpoint/warning",
    "Internal micro-controller halt",
    "ECC page retirement or row remapping recording event",
    "ECC page retirement or row remapper recording failure",
    _VIDEO,
    "Illegal access by driver",
    "Illegal access by driver",
    "NVDEC0 Exception",
    "Graphics Engine class error",
    "CE3: Unknown Error",  # 70
    "CE4: Unknown Error",
    "CE5: Unknown Error",
    "NVENC2 Error",
    "NVLINK Error",
    "CE6: Unknown Error",
    "CE7: Unknown Error",
    "CE8: Unknown Error",
    "vGPU Start Error",
    "GPU has fallen off the bus",
    "Corrupted data sent to GPU",  # 80
    "VGA Subsystem Error",
    "NVJPG0 Error",
    "NVDEC1 Error",
    "NVDEC2 Error",
    "CE9: Unknown Error",
    "OFA Exception",
    "Reserved",
    "NVDEC3 Error",
    "NVDEC4 Error",
    "Reserved",  # 90
    "Reserved",
    "High single-bit ECC error rate",
    "Non-fatal violation of provisioned InfoROM wear limit",
    "Contained ECC error",
    "Uncontained ECC error",
    "NVDEC5 Error",
    "NVDEC6 Error",
    "NVDEC7 Error",
    "NVJPG1 Error",
    "NVJPG2 Error",  # 100
    "NVJPG3 Error",
    "NVJPG4 Error",
    "NVJPG5 Error",
    "NVJPG6 Error",
    "NVJPG7 Error",
    "SMBPBI Test Message",
    "SMBPBI Test Message Silent",
    "Reserved",
    "Context Switch Timeout Error",
    "Security Fault Error",  # 110
    "Display Bundle Error Event",
    "Display Supervisor Error",
    "DP Link Training Error",
    "Display Pipeline Underflow Error",
    "Display Core Channel Error",
    "Display Window Channel Error",
    "Display Cursor Channel Error",
    "Display Pixel Pipeline Error",
    "GSP RPC Timeout",
    "GSP Error",  # 120
    "C2C Link Error",
    "SPI PMU RPC Read Failure",
    "SPI PMU RPC Write Failure",
    "SPI PMU RPC Erase Failure",
    "Inforom FS Failure",
    *(f"Robust Channel CE{n} Error" for n in range(10, 20)),  # 126-135
    "ALI Training Fail",
    "NVLink Privilege Error",
    "Robust Channel DLA Error",
    "Robust Channel OFA1 Error",
    "Unrecovered ECC Error",  # 140
    "Robust Channel Fast Path Error",
    "Robust Channel NVENVC3 Error",
    "GPU Initialization Failure",
    "NVLINK: Saw Error",
    "NVLINK: RLW Error",
    "NVLINK: TLW Error",
    "NVLINK: TREX Error",
    "NVLINK: NVLPW_CTRL Error",
    "NVLINK: NETIR Error",
    "NVLINK: MSE Error",  # 150
    "Robust Channel Key rotation Error",
    "Robust Channel DLA SMMU Error",
    "Robust Channel DLA timeout Error",
    "GPU Recovery Action Changed",
    "NVLINK: SW Defined Error",
    "Resource Retirement Event",
    "Resource Retirement Failure",
    "GPU Fatal Timeout",
    "Robust Channel CHI Non-Data Error",
    "Channel Retirement Event",  # 160
    "Channel Retirement Failure",
    "Power Smoothing HW Circuitry Reengaged",
    "Power Smoothing HW Circuitry Disengaged",
    "Power Smoothing HW Circuitry Low Lifetime",
    "Power Smoothing HW Circuitry Lifetime Exhausted",
    "NVLINK Secure Crypto Error",
    "PCIE Fatal Timeout",
    "Reduced GPU Memory Capacity (Errors found in write protection region)",
    "Internal micro-controller halt",
    "NVLINK: Interrupt seen in CC mode",  # 170
    "Uncorrectable DRAM Error",
    "Uncorrectable SRAM Error",
)

# XIDs that need a human: hardware faults, fallen-off-bus, GSP hangs, uncorrectable ECC/DRAM/SRAM errors
# (140/171/172). The alert rules' default (RulesConfig.critical_xids).
CRITICAL_XIDS: tuple[int, ...] = (48, 63, 64, 74, 79, 92, 94, 95, 119, 120, 140, 171, 172)

GPU_FELL_OFF_BUS = 79


def xid_message(code: int) -> str:
    """The ``err_msg`` text for an XID code."""
    if 0 <= code < len(_MESSAGES):
        return _MESSAGES[code]
    return "Unknown Error"
