"""What the remediator remembers between notifications: the nodes it holds, the alerts it has seen, the returns.

- ``held``: per (cluster, node), the alert that took it out, the alerts firing on it now (by fingerprint), since when
  it has been healthy (no firing alert), and whether it may return by policy (a flapping node waits for a person);
- ``seen``: every alert occurrence acted on (fingerprint and start), so a redelivery, or the second Alertmanager
  of a pair delivering the same notification, is recognised and does nothing;
- ``returns``: when each node was last returned to service, for flap damping;
- ``paged``: the clusters whose budget-exhausted page is up.

Kept as JSON (``--state-file``), written atomically after every change, so a restart neither acts twice nor forgets
a hold; entries of ``seen`` and ``returns`` older than a day (or the flap window) are dropped.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field
from typing import Any

from gpuscope import outputs

log = logging.getLogger(__name__)

SEEN_FOR_S = 86_400.0
MAX_SEEN = 100_000


@dataclass(slots=True)
class Held:
    cluster: str
    node: str
    alert: str
    since: float
    firing: dict[str, str] = field(default_factory=dict)  # alert key -> alert name, while it fires
    healthy_since: float | None = None
    auto_return: bool = True
    dry_run: bool = False


def node_key(cluster: str, node: str) -> str:
    return f"{cluster}/{node}"


@dataclass(slots=True)
class Ledger:
    held: dict[str, Held] = field(default_factory=dict)
    seen: dict[str, float] = field(default_factory=dict)
    returns: dict[str, list[float]] = field(default_factory=dict)
    paged: dict[str, float] = field(default_factory=dict)

    def in_use(self, cluster: str) -> int:
        return sum(1 for h in self.held.values() if h.cluster == cluster)

    def prune(self, now: float, flap_window_s: float) -> None:
        self.seen = {k: t for k, t in self.seen.items() if now - t < SEEN_FOR_S}
        if len(self.seen) > MAX_SEEN:  # a flood of distinct alerts: keep the newest
            self.seen = dict(sorted(self.seen.items(), key=lambda kv: kv[1])[-MAX_SEEN:])
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
        data: Any = json.loads(text)
        held = {}
        for raw in data.get("held", []):
            h = Held(**raw)
            held[node_key(h.cluster, h.node)] = h
        return cls(
            held=held,
            seen={str(k): float(v) for k, v in data.get("seen", {}).items()},
            returns={str(k): [float(t) for t in v] for k, v in data.get("returns", {}).items()},
            paged={str(k): float(v) for k, v in data.get("paged", {}).items()},
        )


class LedgerFile:
    """The ledger on disk; ``None`` path: memory only (a dry run without --state-file)."""

    def __init__(self, path: str | None) -> None:
        self.path = path

    def load(self) -> Ledger:
        if self.path is None or not os.path.exists(self.path):
            return Ledger()
        try:
            with open(self.path, encoding="utf-8") as f:
                return Ledger.from_json(f.read(16 * 1024 * 1024))
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            # Not fatal: the nodes carry gpuscope's mark, and the engine re-reads them at start.
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
