"""XID codes: the ``err_msg`` label text dcgm-exporter puts on ``DCGM_FI_DEV_XID_ERRORS``, which XIDs matter, and
what to do about each one.

The texts follow NVIDIA's XID catalogue exactly as dcgm-exporter spells them, because dashboards and alert
routes match on them. Codes past the table read "Unknown Error", as upstream. The recommended action is the
catalogue's "Resolution Bucket (Immediate Action)" of each code (``CATALOG_VERSION`` names the revision), turned
into a sentence an on-call engineer can follow (``ACTIONS``); the alerts, the runbooks and ``gpuscope xid`` all
read it from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

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


# The data below is NVIDIA's XID catalogue for Ampere and newer GPUs ("Analyzing Xid Errors with the Xid Catalog",
# docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html), column "Resolution Bucket (Immediate Action)".
# The page carries no version number; this is the revision that lists Xids 1-162, as NVIDIA also ships it in
# NVIDIA/NVSentinel (xiderrorsmapping.csv). Newer codes are in EXTRA_BUCKETS, marked as gpuscope's own call.
CATALOG_VERSION = "NVIDIA Xid Catalog (Ampere and newer), revision listing Xids 1-162"


class Bucket(StrEnum):
    """The catalogue's immediate-action buckets."""

    RESTART_APP = "RESTART_APP"
    RESET_GPU = "RESET_GPU"
    RESTART_BM = "RESTART_BM"
    RESTART_VM = "RESTART_VM"
    IGNORE = "IGNORE"
    CONTACT_SUPPORT = "UNEXPECTED_ERR_REPORT_ISSUE"
    CHECK_MECHANICALS = "CHECK_MECHANICALS"
    CHECK_UVM = "CHECK_UVM"
    UPDATE_SWFW = "UPDATE_SWFW"
    WORKFLOW_XID_45 = "WORKFLOW_XID_45"
    WORKFLOW_XID_48 = "WORKFLOW_XID_48"
    WORKFLOW_NVLINK_ERR = "WORKFLOW_NVLINK_ERR"
    WORKFLOW_NVLINK5_ERR = "WORKFLOW_NVLINK5_ERR"
    WORKFLOW_XID_154 = "WORKFLOW_XID_154"


ACTIONS: dict[Bucket, str] = {
    Bucket.RESTART_APP: "Restart the application; the GPU itself is healthy. Drain the node only if it repeats.",
    Bucket.RESET_GPU: "Drain the GPU's jobs and reset the GPU (nvidia-smi -r -i <gpu>); reboot the node if the "
    "reset fails. Repeats on the same GPU: contact NVIDIA support (RMA).",
    Bucket.RESTART_BM: "Drain the node and reboot it: the GPU cannot be reset from the host. Collect "
    "nvidia-bug-report.sh first; repeats on the same GPU: RMA.",
    Bucket.RESTART_VM: "Restart the virtual machine the GPU is attached to.",
    Bucket.IGNORE: "No action: informational. Watch for a trend (a rising rate predicts a failure).",
    Bucket.CONTACT_SUPPORT: "Unexpected on this GPU: collect nvidia-bug-report.sh and contact NVIDIA support.",
    Bucket.CHECK_MECHANICALS: "Check the board's power cabling, seating and cooling, then restart the application.",
    Bucket.CHECK_UVM: "Check the application's unified-memory (UVM) use; restart the application.",
    Bucket.UPDATE_SWFW: "Update the driver and GPU firmware to a supported pair, then retry.",
    Bucket.WORKFLOW_XID_45: "Follow-on cleanup after another error or a killed process: act on the XID before it.",
    Bucket.WORKFLOW_XID_48: "Uncorrectable (double-bit) ECC error: restart the application; drain and reset the "
    "GPU to apply pending row remaps; a row-remap failure means RMA.",
    Bucket.WORKFLOW_NVLINK_ERR: "NVLink error: check the link and its peer GPU (nvidia-smi nvlink -e), drain and "
    "reset the GPUs of the link; contact NVIDIA support if it repeats.",
    Bucket.WORKFLOW_NVLINK5_ERR: "NVLink 5 fabric error: drain the node, reset the GPUs and check the NVLink switch "
    "tray; contact NVIDIA support if it repeats.",
    Bucket.WORKFLOW_XID_154: "The driver changed the GPU's recovery action: do what it names (reset, reboot).",
}

_SUPPORT, _APP, _RESET, _IGNORE = Bucket.CONTACT_SUPPORT, Bucket.RESTART_APP, Bucket.RESET_GPU, Bucket.IGNORE
# fmt: off
_CODES_BY_BUCKET: dict[Bucket, tuple[int, ...]] = {
    _SUPPORT: (
        *range(1, 8), *range(9, 11), 12, *range(15, 25), *range(26, 31), *range(33, 37), 42, 47, *range(49, 54),
        *range(55, 60), 61, 65, 73, 81, 87, *range(90, 92), 108, *range(111, 119), *range(122, 126), 138, 142,
    ),
    _APP: (
        8, 11, 13, 25, *range(31, 33), *range(39, 42), 60, *range(68, 73), *range(75, 78), 80, *range(82, 87),
        *range(88, 90), 94, *range(96, 106), *range(126, 136), 139,
    ),
    _IGNORE: (
        14, *range(37, 39), *range(43, 45), 63, *range(66, 68), *range(92, 94), *range(106, 108), 121, 137, 141,
        *range(152, 154), 157, 161,
    ),
    _RESET: (46, 62, 64, 95, *range(109, 111), *range(119, 121), 136, 140, 143, *range(155, 157), 158, 162),
    Bucket.RESTART_BM: (79, 160),
    Bucket.RESTART_VM: (151,),
    Bucket.CHECK_MECHANICALS: (54,),
    Bucket.CHECK_UVM: (159,),
    Bucket.UPDATE_SWFW: (78,),
    Bucket.WORKFLOW_XID_45: (45,),
    Bucket.WORKFLOW_XID_48: (48,),
    Bucket.WORKFLOW_NVLINK_ERR: (74,),
    Bucket.WORKFLOW_NVLINK5_ERR: tuple(range(144, 151)),
    Bucket.WORKFLOW_XID_154: (154,),
}
# fmt: on
CATALOG_BUCKETS: dict[int, Bucket] = {code: bucket for bucket, codes in _CODES_BY_BUCKET.items() for code in codes}
# Critical codes newer than that revision: uncorrectable DRAM/SRAM errors are handled like 140 (an uncorrectable
# ECC error that escaped containment). gpuscope's call, not the catalogue's.
EXTRA_BUCKETS: dict[int, Bucket] = {171: _RESET, 172: _RESET}


@dataclass(frozen=True, slots=True, kw_only=True)
class XidInfo:
    """One XID: its text, the catalogue's bucket (None when no revision gpuscope carries lists it), the action."""

    code: int
    message: str
    bucket: Bucket | None
    action: str
    critical: bool
    from_catalog: bool


def xid_info(code: int) -> XidInfo:
    """Everything gpuscope knows about one XID code."""
    bucket = CATALOG_BUCKETS.get(code) or EXTRA_BUCKETS.get(code)
    action = (
        ACTIONS[bucket] if bucket else "Not in the XID catalogue revision gpuscope carries: look it up in NVIDIA's."
    )
    return XidInfo(
        code=code,
        message=xid_message(code),
        bucket=bucket,
        action=action,
        critical=code in CRITICAL_XIDS,
        from_catalog=code in CATALOG_BUCKETS,
    )


def xid_action(code: int) -> str:
    """The recommended action for an XID code."""
    return xid_info(code).action
