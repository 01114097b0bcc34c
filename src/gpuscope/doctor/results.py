"""What an audit produces: statuses, evidence, one result per check, and the report with its exit code."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    """PASS/WARN (a ticket)/FAIL (a page); SKIP when an input is missing (a flag not given, too little history)."""

    PASS = "PASS"
    WARN = "WARN"
    FAIL = "FAIL"
    SKIP = "SKIP"


class Section(StrEnum):
    FLOOR = "Phase 1 floor"
    FAILURES = "Failure modes"
    HYGIENE = "Label hygiene"


@dataclass(frozen=True, slots=True)
class Evidence:
    """What was asked (a PromQL query, or an API call as ``GET /api/v1/...``) and what came back."""

    query: str
    value: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A check's verdict before the report adds its identity and runbook."""

    status: Status
    summary: str
    evidence: tuple[Evidence, ...] = ()
    fix: str = ""
    runbook_alert: str | None = None  # overrides the check's default runbook for this finding


@dataclass(frozen=True, slots=True)
class CheckResult:
    id: str
    section: Section
    title: str
    status: Status
    summary: str
    evidence: tuple[Evidence, ...]
    fix: str
    runbook: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "section": self.section.value,
            "title": self.title,
            "status": self.status.value,
            "summary": self.summary,
            "evidence": [{"query": e.query, "value": e.value} for e in self.evidence],
            "fix": self.fix,
            "runbook": self.runbook,
        }


EXIT_CODES = {Status.FAIL: 2, Status.WARN: 1}


@dataclass(frozen=True, slots=True)
class Report:
    prometheus: str
    version: str
    window_s: float
    speedup: int
    detected: Mapping[str, Any]
    results: tuple[CheckResult, ...]
    notes: tuple[str, ...] = field(default=())

    def count(self, status: Status) -> int:
        return sum(1 for r in self.results if r.status is status)

    @property
    def exit_code(self) -> int:
        """0 when nothing is wrong, 1 with warnings, 2 with failures (3, could not audit, never reaches here)."""
        statuses = {r.status for r in self.results}
        return next((code for status, code in EXIT_CODES.items() if status in statuses), 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "prometheus": self.prometheus,
            "prometheus_version": self.version,
            "window_seconds": self.window_s,
            "speedup": self.speedup,
            "detected": dict(self.detected),
            "summary": {s.value.lower(): self.count(s) for s in Status},
            "exit_code": self.exit_code,
            "checks": [r.to_json() for r in self.results],
            "notes": list(self.notes),
        }
