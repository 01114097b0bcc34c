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
    RESTART = "restart"
    SLOW = "slow"
    HOSTENGINE_DOWN = "hostengine-down"
    HOSTENGINE_RESTART = "hostengine-restart"
    VERSION_SKEW = "version-skew"
    ZOMBIE = "zombie"  # a process keeps GPU memory after its pod was deleted (with --process-metrics)


NODE_FAULTS = frozenset(
    {
        FaultKind.RESTART,
        FaultKind.SLOW,
        FaultKind.HOSTENGINE_DOWN,
        FaultKind.HOSTENGINE_RESTART,
        FaultKind.VERSION_SKEW,
    }
)


@dataclass(frozen=True, slots=True)
class FaultRequest:
    """One injection or clearing, as sent to ``POST /sim/faults``."""

    fault: FaultKind
    gpu: int | None = None
    enabled: bool = True
    code: int = 13
    seconds: float = 30.0

    def to_json(self) -> dict[str, object]:
        return {
            "fault": self.fault.value,
            "gpu": self.gpu,
            "enabled": self.enabled,
            "code": self.code,
            "seconds": self.seconds,
        }


def parse_fault_kind(text: str) -> FaultKind:
    try:
        return FaultKind(text.strip().lower().replace("_", "-"))
    except ValueError:
        known = ", ".join(k.value for k in FaultKind)
        raise UsageError(f"unknown fault {text!r}; choose one of: {known}") from None


def parse_fault_request(body: Mapping[str, object]) -> FaultRequest:
    """Validate a JSON fault request; raises ``UsageError`` with the offending key."""
    unknown = set(body) - {"fault", "gpu", "enabled", "code", "seconds"}
    if unknown:
        raise UsageError(f"unknown key(s) {sorted(unknown)}; allowed: fault, gpu, enabled, code, seconds")
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
    code = body.get("code", 13)
    if not isinstance(code, int) or isinstance(code, bool) or not 0 < code < 1000:
        raise UsageError("'code' must be an XID number between 1 and 999")
    seconds = body.get("seconds", 30.0)
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not 0 <= seconds <= 3600:
        raise UsageError("'seconds' must be a number of seconds between 0 and 3600")
    if kind in NODE_FAULTS and gpu is not None:
        raise UsageError(f"fault {kind.value!r} affects the whole node; leave 'gpu' out")
    return FaultRequest(kind, gpu, enabled, code, float(seconds))
