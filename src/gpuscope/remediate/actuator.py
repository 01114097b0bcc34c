"""What every scheduler actuator offers the engine: read a node, take it out of service, put it back, list ours.

Ownership is recorded on the node itself, so it survives a restart of the remediator and a person can read it:
Slurm keeps it in the drain reason (``MARKER`` at its start), Kubernetes in an annotation (``kubernetes.py``). A node
out of service without that mark is a person's: the engine never touches it.

The mark is a fixed prefix, never a suffix: what follows it is an alert's name and summary, which anyone who can
make an alert fire writes. A summary holding ``[ops@2026-01-01T00:00:00]`` (what Slurm appends to a reason: who set
it, when) once cut the reason where a suffix mark stood, so gpuscope's own drain read as a person's. The alert's
text is also kept free of brackets, so Slurm's ``[user@time]`` is the only one in the reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

MARKER = "[gpuscope]"  # the reason's first word: gpuscope's drains, and only them
MAX_REASON_CHARS = 200  # sinfo shows the start; a reason is a line, not a report


_BRACKETS = str.maketrans("[]", "()")


class ActuatorError(Exception):
    """The scheduler refused or could not be reached; the message is one line for the audit log."""


@dataclass(frozen=True, slots=True)
class NodeState:
    exists: bool
    ours: bool  # out of service by gpuscope (the mark is on the node)
    persons: bool  # out of service by someone else: never touched
    detail: str  # what the scheduler says, for the audit log
    gpus: int | None = None  # GPUs the scheduler gives the node (Gres gpu, nvidia.com/gpu); None: not read


@dataclass(frozen=True, slots=True, kw_only=True)
class Hold:
    """Take ``node`` out of service because of ``alert``."""

    node: str
    alert: str
    summary: str
    taint_effect: str = "NoSchedule"  # Kubernetes
    cordon: bool = True  # Kubernetes

    @property
    def reason(self) -> str:
        """``[gpuscope] <alert>: <summary>``, one printable line without brackets (the alert's name and summary come
        from whoever can make an alert fire)."""
        text = f"{self.alert}: {self.summary}" if self.summary else self.alert
        text = text.translate(_BRACKETS)
        text = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
        room = MAX_REASON_CHARS - len(MARKER) - 1
        if len(text) > room:
            text = text[: room - 1] + "…"
        return f"{MARKER} {text}"


def marked(reason: str) -> bool:
    """Whether a drain reason is gpuscope's: it starts with the mark (nothing an alert carries can put it there)."""
    return reason.startswith(MARKER + " ")


class Actuator(Protocol):
    """One cluster's scheduler."""

    kind: str  # slurm | kubernetes

    def inspect(self, node: str) -> NodeState: ...

    def hold(self, hold: Hold) -> str:
        """Take the node out of service; returns what was done, for the audit log."""
        ...

    def release(self, node: str, alert: str) -> str:
        """Put a node gpuscope holds back in service (only what gpuscope did is undone)."""
        ...

    def owned(self) -> list[str]:
        """The nodes gpuscope holds now, as the scheduler records it."""
        ...

    def size(self) -> int | None:
        """How many nodes the cluster has (for a budget in percent); None when it cannot tell."""
        ...


def action_of(kind: str) -> str:
    """The metrics' and audit log's name of taking a node out: Slurm drains, Kubernetes taints (and cordons)."""
    return "drain" if kind == "slurm" else "taint"
