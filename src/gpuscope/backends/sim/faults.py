"""Fault injection for the simulator: which failures exist, their parameters, and parsing requests for them.

Each fault is switchable at run time. GPU faults target one GPU (or all); node faults (restart, slow backend)
target the whole simulated node. One-shot faults (an XID, a restart) happen once when injected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from gpuscope.errors import UsageError


class FaultKind(StrEnum):
    XID = "xid"
    FELL_OFF_BUS = "fell-off-bus"
    PROFILING_LOCK = "profiling-lock"
    THERMAL = "thermal"
    ECC_DBE = "ecc-dbe"
    NVLINK_CRC = "nvlink-crc"
    FABRIC_DEGRADED = "fabric-degraded"
    NVLINK5_ERRORS = "nvlink5-errors"
    NVLINK_DOWN = "nvlink-down"  # one NVLink (``link``) of a GPU goes down, and the switch port facing it
    NVSWITCH_FATAL = "nvswitch-fatal"  # an NVSwitch (``switch``) logs a fatal SXid (``code``): its ports go down
    PARTITION_DEGRADED = "partition-degraded"  # the fabric cannot route the GPUs' partition (a rack's trays)
    RESTART = "restart"
    SLOW = "slow"
    HOSTENGINE_DOWN = "hostengine-down"
    HOSTENGINE_RESTART = "hostengine-restart"
    VERSION_SKEW = "version-skew"
    ZOMBIE = "zombie"  # a process keeps GPU memory after its pod was deleted (with --process-metrics)


NODE_FAULTS = frozenset(
    {
        FaultKind.NVSWITCH_FATAL,
        FaultKind.RESTART,
        FaultKind.SLOW,
        FaultKind.HOSTENGINE_DOWN,
        FaultKind.HOSTENGINE_RESTART,
        FaultKind.VERSION_SKEW,
    }
)


# The SXid ``nvswitch-fatal`` logs unless ``code`` names another: 20034 "LTSSM Fault Up", an SXid seen in public
# NVSwitch kernel logs (../shared/reference/fabric.md section 5); its severity there is not verified.
DEFAULT_SXID = 20034
_MAX_SXID = 99999


@dataclass(frozen=True, slots=True)
class FaultRequest:
    """One injection or clearing, as sent to ``POST /sim/faults``. ``code`` is an XID for ``xid`` and an SXid for
    ``nvswitch-fatal`` (``None``: 13 and ``DEFAULT_SXID``)."""

    fault: FaultKind
    gpu: int | None = None
    enabled: bool = True
    code: int | None = None
    seconds: float = 30.0
    link: int | None = None  # nvlink-down: the GPU's link (DCGM's 0-based index)
    switch: int | None = None  # nvswitch-fatal: the switch's physical id

    @property
    def xid(self) -> int:
        return 13 if self.code is None else self.code

    @property
    def sxid(self) -> int:
        return DEFAULT_SXID if self.code is None else self.code

    def to_json(self) -> dict[str, object]:
        return {
            "fault": self.fault.value,
            "gpu": self.gpu,
            "enabled": self.enabled,
            "code": self.code,
            "seconds": self.seconds,
            "link": self.link,
            "switch": self.switch,
        }


def parse_fault_kind(text: str) -> FaultKind:
    try:
        return FaultKind(text.strip().lower().replace("_", "-"))
    except ValueError:
        known = ", ".join(k.value for k in FaultKind)
        raise UsageError(f"unknown fault {text!r}; choose one of: {known}") from None


def parse_fault_request(body: Mapping[str, object]) -> FaultRequest:
    """Validate a JSON fault request; raises ``UsageError`` with the offending key."""
    unknown = set(body) - {"fault", "gpu", "enabled", "code", "seconds", "link", "switch"}
    if unknown:
        raise UsageError(f"unknown key(s) {sorted(unknown)}; allowed: fault, gpu, enabled, code, seconds, link, switch")
    fault_text = body.get("fault")
    if not isinstance(fault_text, str):
        raise UsageError("'fault' is required and must be a string")
    kind = parse_fault_kind(fault_text)
    gpu = body.get("gpu")
    if gpu is not None and (not isinstance(gpu, int) or isinstance(gpu, bool) or gpu < 0):
        raise UsageError("'gpu' must be a GPU index (integer >= 0) or null for every GPU")
    enabled = body.get("enabled", True)
    if not isinstance(enabled, bool):
        raise UsageError("'enabled' must be true or false")
    code = body.get("code")
    top = _MAX_SXID if kind is FaultKind.NVSWITCH_FATAL else 999
    if code is not None and (not isinstance(code, int) or isinstance(code, bool) or not 0 < code <= top):
        what = "an SXid number between 1 and 99999" if top == _MAX_SXID else "an XID number between 1 and 999"
        raise UsageError(f"'code' must be {what}")
    link, switch = _index(body, "link"), _index(body, "switch")
    if kind is FaultKind.NVLINK_DOWN and (link is None or gpu is None):
        raise UsageError("nvlink-down needs 'gpu' and 'link' (the GPU's NVLink index, from 0)")
    if kind is FaultKind.NVSWITCH_FATAL and switch is None:
        raise UsageError("nvswitch-fatal needs 'switch' (the NVSwitch's id, from 0)")
    seconds = body.get("seconds", 30.0)
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not 0 <= seconds <= 3600:
        raise UsageError("'seconds' must be a number of seconds between 0 and 3600")
    if kind in NODE_FAULTS and gpu is not None:
        raise UsageError(f"fault {kind.value!r} affects the whole node; leave 'gpu' out")
    return FaultRequest(kind, gpu, enabled, code, float(seconds), link, switch)


def _index(body: Mapping[str, object], key: str) -> int | None:
    value = body.get(key)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 4096):
        raise UsageError(f"'{key}' must be an index (integer from 0) or null")
    return value
