"""Rules as data: recording rules, alerts with their runbooks, and groups."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["page", "ticket"]
Owner = Literal["infra", "platform", "workload"]


@dataclass(frozen=True, slots=True)
class Recording:
    """A recording rule; ``cold`` marks the rollups meant for the long-term store's cold tier."""

    record: str
    expr: str
    cold: bool = False


@dataclass(frozen=True, slots=True)
class Runbook:
    """What an on-call engineer reads when the alert fires."""

    meaning: str
    confirm: tuple[str, ...]
    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Alert:
    """An alerting rule. ``bound`` is the longest acceptable time from the failure to firing (15 s scrapes)."""

    name: str
    expr: str
    severity: Severity
    owner: Owner
    summary: str
    description: str
    runbook: Runbook
    bound: str
    for_: str = "0s"
    keep_firing_for: str = ""
    labels: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Group:
    """A rule group; ``interval`` empty means the Prometheus evaluation interval."""

    name: str
    rules: tuple[Recording | Alert, ...]
    interval: str = ""
    file: Literal["recording", "alerts", "fleet"] = "recording"
    notes: tuple[str, ...] = field(default=())
