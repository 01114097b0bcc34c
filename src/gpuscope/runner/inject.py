"""The control API's fault request (``POST /faults``): the record ``gpuscope inject`` sends and the stack applies."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class InjectRequest:
    fault: str
    cluster: str | None = None
    node: str | None = None
    gpu: int | None = None
    replica: str = "a"
    code: int | None = None  # an XID for xid (13 if unset), an SXid for nvswitch-fatal
    seconds: float = 30.0
    enabled: bool = True
    link: int | None = None  # nvlink-down
    switch: int | None = None  # nvswitch-fatal
