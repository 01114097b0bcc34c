"""One thing the remediator decided, as the audit log, the metrics and the live view see it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

# The label values of gpuscope_remediation_actions_total: fixed sets, so the series count stays bounded.
ACTIONS = ("drain", "taint", "return", "page", "none")
RESULTS = ("done", "would", "already", "over_budget", "persons", "ignored", "refused", "failed", "resolved")

_VERBS = {
    ("drain", "done"): "drained",
    ("drain", "would"): "would drain",
    ("taint", "done"): "tainted",
    ("taint", "would"): "would taint",
    ("return", "done"): "returned",
    ("return", "would"): "would return",
    ("page", "done"): "paged",
    ("page", "would"): "would page",
    ("page", "resolved"): "resolved the page",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    time: float
    cluster: str
    node: str
    alert: str
    action: str  # one of ACTIONS
    result: str  # one of RESULTS
    detail: str = ""
    dry_run: bool = True
    fingerprint: str = ""
    starts_at: str = ""

    @property
    def line(self) -> str:
        """``would drain gpu-b-a100-01: GPUFellOffBus``; other results say why nothing was done. One line, whatever
        the alert's labels hold: a newline or other control character is written as its escape, never a new line."""
        verb = _VERBS.get((self.action, self.result))
        target = self.node or self.cluster
        if verb is not None:
            text = f"{verb} {target}: {self.alert}" if self.alert else f"{verb} {target}"
            text = text if self.result in ("done", "would") or not self.detail else f"{text} ({self.detail})"
        else:
            text = f"{self.result.replace('_', ' ')}: {self.action} {target} for {self.alert or '-'}: {self.detail}"
        return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)

    def record(self) -> dict[str, Any]:
        """The audit log's JSON object (time as RFC 3339 UTC, the line a person reads included)."""
        out = asdict(self)
        out["time"] = datetime.fromtimestamp(self.time, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        out["line"] = self.line
        return out
