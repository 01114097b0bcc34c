"""The audit log (one JSON object per line, per decision) and the remediator's own metrics.

Every decision is audited, acted on or not: what was decided, why, on which node, for which alert occurrence,
and whether this was a dry run. ``-`` writes to stdout (the journal, ``kubectl logs``), a path appends to a file.

``/metrics`` serves ``gpuscope_remediation_actions_total{action,result}`` (bounded label sets,
``decision.ACTIONS``/``RESULTS``), the budget per cluster (``gpuscope_remediation_budget_nodes_in_use`` and
``..._budget_nodes_limit``), the webhook's requests by answer, the queue's depth and bound, and whether this
process acts (dry run, leader).
"""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter, deque
from collections.abc import Mapping
from typing import IO

from gpuscope.remediate.decision import Decision

RECENT = 50


class AuditLog:
    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._file: IO[str] = sys.stdout if path == "-" else open(path, "a", encoding="utf-8")  # noqa: SIM115

    def write(self, decision: Decision) -> None:
        line = json.dumps(decision.record(), sort_keys=True, ensure_ascii=True)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not sys.stdout:
            self._file.close()


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class Metrics:
    """Counts since start, and the recent decisions the live view shows."""

    def __init__(self) -> None:
        self.actions: Counter[tuple[str, str]] = Counter()
        self.requests: Counter[str] = Counter()
        self.recent: deque[Decision] = deque(maxlen=RECENT)

    def count(self, decision: Decision) -> None:
        self.actions[(decision.action, decision.result)] += 1
        self.recent.append(decision)

    def render(
        self, *, budgets: Mapping[str, tuple[int, int]], queued: int, queue_size: int, dry_run: bool, leader: bool
    ) -> str:
        out = [
            "# HELP gpuscope_remediation_actions_total Decisions of the remediator by action and result.",
            "# TYPE gpuscope_remediation_actions_total counter",
        ]
        for (action, result), n in sorted(self.actions.items()):
            out.append(f'gpuscope_remediation_actions_total{{action="{action}",result="{result}"}} {n}')
        for name, index, text in (
            ("in_use", 0, "Nodes the remediator holds out of service now, per cluster."),
            ("limit", 1, "Nodes the remediator may hold at once (the policy's budget), per cluster."),
        ):
            out += [f"# HELP gpuscope_remediation_budget_nodes_{name} {text}"]
            out += [f"# TYPE gpuscope_remediation_budget_nodes_{name} gauge"]
            for cluster, values in sorted(budgets.items()):
                out.append(f'gpuscope_remediation_budget_nodes_{name}{{cluster="{_escape(cluster)}"}} {values[index]}')
        out += [
            "# HELP gpuscope_remediation_webhook_requests_total Webhook requests by HTTP status answered.",
            "# TYPE gpuscope_remediation_webhook_requests_total counter",
            *(
                f'gpuscope_remediation_webhook_requests_total{{code="{c}"}} {n}'
                for c, n in sorted(self.requests.items())
            ),
            "# HELP gpuscope_remediation_queue_notifications Notifications waiting to be planned.",
            "# TYPE gpuscope_remediation_queue_notifications gauge",
            f"gpuscope_remediation_queue_notifications {queued}",
            "# HELP gpuscope_remediation_queue_capacity Notifications the queue holds before answering 503.",
            "# TYPE gpuscope_remediation_queue_capacity gauge",
            f"gpuscope_remediation_queue_capacity {queue_size}",
            "# HELP gpuscope_remediation_dry_run 1 when the remediator only logs what it would do.",
            "# TYPE gpuscope_remediation_dry_run gauge",
            f"gpuscope_remediation_dry_run {int(dry_run)}",
            "# HELP gpuscope_remediation_leader 1 when this process acts (holds the leader Lease, or needs none).",
            "# TYPE gpuscope_remediation_leader gauge",
            f"gpuscope_remediation_leader {int(leader)}",
        ]
        return "\n".join(out) + "\n"
