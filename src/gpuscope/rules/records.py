"""Rules as data: recording rules, alerts with their runbooks, and groups.

Every record is keyword-only: an alert has two durations side by side (``bound`` and ``for_``) and several
strings, which a positional call would let a reader, or a writer, swap without any error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["page", "ticket"]
# Interval of the groups whose inputs change slowly or whose alerts' bounds leave a minute to spare: what they
# read is re-read four times less often than at the 15 s evaluation interval.
MINUTE_INTERVAL = "1m"
Owner = Literal["infra", "platform", "workload"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Recording:
    """A recording rule; ``cold`` marks the rollups meant for the long-term store's cold tier."""

    record: str
    expr: str
    cold: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Runbook:
    """What an on-call engineer reads when the alert fires."""

    meaning: str
    confirm: tuple[str, ...]
    actions: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Alert:
    """An alerting rule.

    ``bound`` is documentation: the longest acceptable time from the failure to firing at 15 s scrapes, or words where
    the rule has none of its own (``as mixin``); the runbook and ``gpuscope rules list`` show it and the scenario
    tests hold the rule to it. ``for_`` is the rule's Prometheus
    ``for:``, the time the condition must hold before the alert fires; it is part of the rule, and ``bound`` covers it.
    """

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
    # The recommended action, as the ``action`` annotation (a Prometheus template; may pick by label).
    action: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Group:
    """A rule group; ``interval`` empty means the Prometheus evaluation interval."""

    name: str
    rules: tuple[Recording | Alert, ...]
    interval: str = ""
    file: Literal["recording", "alerts", "fleet"] = "recording"
    notes: tuple[str, ...] = field(default=())
