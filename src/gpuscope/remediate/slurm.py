"""Slurm nodes through ``scontrol``, as an administrator would drain them.

``scontrol update nodename=<node> state=drain reason="[gpuscope] <alert>: <summary>"``: drain, never down, so
running jobs finish and nothing new is placed there. ``state=resume`` only for a node whose reason still starts
with gpuscope's mark: a person who re-drained it, or wrote their own reason, owns it from then on. Only GPU nodes
are drained (``Gres=gpu...``): a GPU alert naming a login or controller host is refused. Node state is read
from ``scontrol show node -o`` (one line per node). The cluster is the one ``scontrol`` finds (``SLURM_CONF`` in
the environment, or ``/etc/slurm/slurm.conf``); the user must be Slurm's SlurmUser or root, or an Operator
(``sacctmgr modify user <u> set adminlevel=operator``) where accounting runs.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gpuscope.remediate.actuator import ActuatorError, Hold, NodeState, marked

_STATE = re.compile(r"(?:^| )State=(\S+)")
_NAME = re.compile(r"^NodeName=(\S+)")
_GRES = re.compile(r"(?:^| )Gres=(\S+)")
# ``Reason=<text> [<user>@<time>]``: Slurm appends who set the reason and when.
_REASON = re.compile(r"(?:^| )Reason=(.*?) \[[^\]\s]*@\d{4}-\d\d-\d\dT[\d:]+\]")
# Flags under which a node takes no new work: someone (maybe gpuscope) took it out of service.
_OUT = {"DRAIN", "FAIL", "MAINT", "REBOOT_REQUESTED", "REBOOT_ISSUED", "POWER_DOWN", "POWERED_DOWN"}
_NODE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")

Runner = Callable[[Sequence[str]], tuple[int, str, str]]


def run_command(argv: Sequence[str], timeout_s: float = 30.0) -> tuple[int, str, str]:
    """Run ``argv`` (no shell); (exit code, stdout, stderr)."""
    try:
        done = subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout_s, check=False)
    except FileNotFoundError:
        return 127, "", f"{argv[0]} not found: install Slurm's client commands or pass --scontrol"
    except subprocess.TimeoutExpired:
        return 124, "", f"{argv[0]} gave no answer within {timeout_s:.0f}s (slurmctld unreachable?)"
    return done.returncode, done.stdout, done.stderr


@dataclass(frozen=True, slots=True)
class SlurmNode:
    name: str
    flags: frozenset[str]
    reason: str
    gpus: int = 0

    @property
    def ours(self) -> bool:
        return "DRAIN" in self.flags and marked(self.reason)

    @property
    def out_of_service(self) -> bool:
        return bool(self.flags & _OUT)


def parse_node_line(line: str) -> SlurmNode | None:
    """One line of ``scontrol show node -o``; None for a line that is no node."""
    name, state, reason = _NAME.search(line), _STATE.search(line), _REASON.search(line)
    if name is None:
        return None
    flags = frozenset(state[1].upper().split("+")) if state else frozenset()
    gres = _GRES.search(line)
    return SlurmNode(name[1], flags, reason[1].strip() if reason else "", gpu_count(gres[1] if gres else ""))


def gpu_count(gres: str) -> int:
    """GPUs in a node's ``Gres=`` (``gpu:4``, ``gpu:a100:4(S:0-1)``, ``gpu:a100:2,gpu:v100:2``; ``(null)``: 0)."""
    total = 0
    for part in gres.split(","):
        fields = part.split("(", 1)[0].split(":")
        if fields[0] != "gpu":
            continue
        count = fields[-1] if len(fields) > 1 else ""
        total += int(count) if count.isascii() and count.isdigit() and len(count) < 6 else 1
    return total


class SlurmActuator:
    kind = "slurm"

    def __init__(self, scontrol: str = "scontrol", run: Runner = run_command) -> None:
        self.scontrol = scontrol
        self.run = run

    def _scontrol(self, *args: str) -> str:
        code, out, err = self.run([self.scontrol, *args])
        if code != 0:
            message = " ".join(err.split()) or f"exit code {code}"
            raise ActuatorError(f"scontrol {args[0]} {args[1] if len(args) > 1 else ''}: {message[:300]}")
        return out

    def _node(self, node: str) -> SlurmNode | None:
        if not _NODE_NAME.match(node):
            raise ActuatorError(f"{node[:80]!r} is not a Slurm node name")
        code, out, err = self.run([self.scontrol, "show", "node", "-o", node])
        if code != 0:
            if "not found" in err.lower() or "invalid node name" in err.lower():
                return None
            raise ActuatorError(f"scontrol show node {node}: {' '.join(err.split())[:300] or f'exit code {code}'}")
        parsed = [n for n in map(parse_node_line, out.splitlines()) if n is not None and n.name == node]
        return parsed[0] if parsed else None

    def inspect(self, node: str) -> NodeState:
        found = self._node(node)
        if found is None:
            return NodeState(exists=False, ours=False, persons=False, detail="no such Slurm node")
        detail = "+".join(sorted(found.flags)) + (f" ({found.reason})" if found.reason else "")
        return NodeState(
            exists=True,
            ours=found.ours,
            persons=found.out_of_service and not found.ours,
            detail=detail,
            gpus=found.gpus,
        )

    def hold(self, hold: Hold) -> str:
        self._scontrol("update", f"nodename={hold.node}", "state=drain", f"reason={hold.reason}")
        return f"scontrol update nodename={hold.node} state=drain reason={hold.reason!r}"

    def release(self, node: str, alert: str) -> str:
        found = self._node(node)
        if found is None or not found.ours:
            raise ActuatorError(f"{node} is no longer drained by gpuscope: left as it is")
        self._scontrol("update", f"nodename={node}", "state=resume")
        return f"scontrol update nodename={node} state=resume"

    def _all(self) -> list[SlurmNode]:
        out = self._scontrol("show", "node", "-o")
        return [n for n in map(parse_node_line, out.splitlines()) if n is not None]

    def owned(self) -> list[str]:
        return sorted(n.name for n in self._all() if n.ours)

    def size(self) -> int | None:
        return len(self._all())
