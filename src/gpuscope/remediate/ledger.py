"""What the remediator remembers between notifications: the nodes it holds, the alerts it has seen, the returns.

- ``held``: per (cluster, node), the alert that took it out, the alerts firing on it now (by fingerprint), since when
  it has been healthy (no firing alert), and whether it may return by policy (a flapping node waits for a person);
- ``seen``: per (cluster, node), the alert occurrences acted on (a digest of fingerprint and start), so a
  redelivery, or the second Alertmanager of a pair delivering the same notification, is recognised and does nothing;
- ``returns``: when each node was last returned to service, for flap damping;
- ``paged``: the clusters whose budget-exhausted page is up.

Kept as JSON (``--state-file``), written atomically after every change, so a restart neither acts twice nor forgets
a hold; entries of ``seen`` and ``returns`` older than a day (or the flap window) are dropped.

Bounded by construction, so what is written is always what is read back: ``seen`` keeps at most
``SEEN_PER_NODE`` occurrences per node (fixed-size digests, not the alerts' own text) for at most ``MAX_NODES``
nodes, the firing alerts of a held node at most ``FIRING_PER_NODE``, and ``held`` is bounded by the budgets. An
alert stream of any size cannot grow the file past ``MAX_STATE_BYTES`` (the read cap; a 16Mi emptyDir holds it).
A file that is not that shape (wrong types, nested past the parser, over the cap) is one log line and a fresh start:
the nodes carry gpuscope's mark, and the engine re-adopts them before it plans anything.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
from dataclasses import asdict, dataclass, field
from typing import Any

from gpuscope import outputs
from gpuscope.errors import InvalidValue, UsageError
from gpuscope.inputs.files import read_text

log = logging.getLogger(__name__)

SEEN_FOR_S = 86_400.0
MAX_NODES = 10_000  # nodes with a memory of seen alerts or returns: a large fleet's worth
SEEN_PER_NODE = 16  # alert occurrences remembered per node (a node has a few GPUs, each a few alerts)
FIRING_PER_NODE = 64
MAX_STATE_BYTES = 16 * 1024 * 1024
# Node names are at most 253 characters (Kubernetes; Slurm's are shorter): a node's entry is under 1 KiB, so
# MAX_NODES nodes stay far under MAX_STATE_BYTES.
MAX_NAME_CHARS = 253


@dataclass(slots=True)
class Held:
    cluster: str
    node: str
    alert: str
    since: float
    firing: dict[str, str] = field(default_factory=dict)  # alert fingerprint -> alert name, while it fires
    healthy_since: float | None = None
    auto_return: bool = True
    dry_run: bool = False

    def fires(self, fingerprint: str, alert: str) -> None:
        self.firing.pop(fingerprint, None)
        self.firing[fingerprint] = alert
        while len(self.firing) > FIRING_PER_NODE:  # the oldest first: still held, only that alert's end is missed
            del self.firing[next(iter(self.firing))]


def node_key(cluster: str, node: str) -> str:
    return f"{cluster}/{node}"


def occurrence(key: str) -> str:
    """A fixed-size digest of an alert occurrence's key: the state file's size never depends on alert text."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:24]


@dataclass(slots=True)
class Ledger:
    held: dict[str, Held] = field(default_factory=dict)
    seen: dict[str, dict[str, float]] = field(default_factory=dict)  # node key -> occurrence digest -> when
    returns: dict[str, list[float]] = field(default_factory=dict)
    paged: dict[str, float] = field(default_factory=dict)

    def in_use(self, cluster: str) -> int:
        return sum(1 for h in self.held.values() if h.cluster == cluster)

    def saw(self, nk: str, key: str, now: float) -> None:
        per = self.seen.pop(nk, {})  # re-inserted last: the dict's order is the nodes' recency
        digest = occurrence(key)
        per.pop(digest, None)
        per[digest] = now
        while len(per) > SEEN_PER_NODE:
            del per[next(iter(per))]
        self.seen[nk] = per
        while len(self.seen) > MAX_NODES:
            del self.seen[next(iter(self.seen))]

    def has_seen(self, nk: str, key: str) -> bool:
        return occurrence(key) in self.seen.get(nk, {})

    def returned(self, nk: str, now: float, keep: int) -> None:
        times = [*self.returns.pop(nk, []), now][-max(keep, 1) :]
        self.returns[nk] = times
        while len(self.returns) > MAX_NODES:
            del self.returns[next(iter(self.returns))]

    def prune(self, now: float, flap_window_s: float) -> None:
        self.seen = {
            nk: recent
            for nk, per in self.seen.items()
            if (recent := {k: t for k, t in per.items() if now - t < SEEN_FOR_S})
        }
        self.returns = {
            k: kept for k, times in self.returns.items() if (kept := [t for t in times if now - t < flap_window_s])
        }

    def to_json(self) -> str:
        return json.dumps(
            {
                "held": [asdict(h) for h in self.held.values()],
                "seen": self.seen,
                "returns": self.returns,
                "paged": self.paged,
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> Ledger:
        """Raises ``ValueError`` for anything but the shape ``to_json`` writes (a hand-edited or damaged file)."""
        try:
            data: Any = json.loads(text)
        except RecursionError:
            raise ValueError("nested deeper than any state gpuscope writes") from None
        data = _dict(data, "the file")
        held = {}
        for raw in _list(data.get("held", []), "held"):
            h = _held(raw)
            held[node_key(h.cluster, h.node)] = h
        seen: dict[str, dict[str, float]] = {}
        for nk, per in list(_dict(data.get("seen", {}), "seen").items())[-MAX_NODES:]:
            if isinstance(per, int | float) and not isinstance(per, bool):
                continue  # an earlier version's entry per occurrence: forgotten (the holds are what matters)
            seen[nk] = {str(k): _number(t, "seen") for k, t in list(_dict(per, "seen").items())[-SEEN_PER_NODE:]}
        returns = {
            str(k): [_number(t, "returns") for t in _list(v, "returns")]
            for k, v in list(_dict(data.get("returns", {}), "returns").items())[-MAX_NODES:]
        }
        paged = {str(k): _number(v, "paged") for k, v in _dict(data.get("paged", {}), "paged").items()}
        return cls(held=held, seen=seen, returns=returns, paged=paged)


def _dict(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} is a {type(value).__name__}, not an object")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{where} is a {type(value).__name__}, not a list")
    return value


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{where} holds a {type(value).__name__} where a time belongs")
    return float(value)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > 4 * MAX_NAME_CHARS:
        raise ValueError(f"{where} is not a short string")
    return value


def _held(raw: Any) -> Held:
    raw = _dict(raw, "held[]")
    firing = _dict(raw.get("firing", {}), "held[].firing")
    healthy = raw.get("healthy_since")
    return Held(
        cluster=_text(raw.get("cluster"), "held[].cluster"),
        node=_text(raw.get("node"), "held[].node"),
        alert=_text(raw.get("alert"), "held[].alert"),
        since=_number(raw.get("since"), "held[].since"),
        firing={
            _text(k, "held[].firing"): _text(v, "held[].firing") for k, v in list(firing.items())[-FIRING_PER_NODE:]
        },
        healthy_since=None if healthy is None else _number(healthy, "held[].healthy_since"),
        auto_return=bool(raw.get("auto_return", True)),
        dry_run=bool(raw.get("dry_run", False)),
    )


class LedgerFile:
    """The ledger on disk; ``None`` path: memory only (a dry run without --state-file)."""

    def __init__(self, path: str | None) -> None:
        self.path = path

    def check(self) -> None:
        """At start: a path that exists must be a regular file (a FIFO there would hang the first read)."""
        if self.path is None:
            return
        try:
            info = os.stat(self.path)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise InvalidValue("state_file", self.path, exc.strerror or str(exc)) from None
        if not stat.S_ISREG(info.st_mode):
            raise InvalidValue("state_file", self.path, "not a regular file (a directory, FIFO or device); give a file")

    def load(self) -> Ledger:
        if self.path is None or not os.path.exists(self.path):
            return Ledger()
        try:
            return Ledger.from_json(read_text(self.path, "state file", MAX_STATE_BYTES))
        except (UsageError, ValueError) as exc:
            # Not fatal: the nodes carry gpuscope's mark, and the engine re-reads them before it plans anything.
            log.error("state file %s unreadable (%s): starting from what the scheduler records", self.path, exc)
            return Ledger()

    def save(self, ledger: Ledger) -> None:
        if self.path is None:
            return
        try:
            # 0600, as before: the ledger names the nodes this remediator holds, for its own eyes.
            outputs.write_text(self.path, ledger.to_json(), mode=0o600)
        except OSError as exc:
            log.error("cannot write state file %s: %s", self.path, exc)
