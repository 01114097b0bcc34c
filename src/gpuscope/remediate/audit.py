"""The audit log (one JSON object per line, per decision) and the remediator's own metrics.

Every decision is audited, acted on or not: what was decided, why, on which node, for which alert occurrence,
and whether this was a dry run. ``-`` writes to stdout (the journal, ``kubectl logs``), a path appends to a file.

``/metrics`` serves ``gpuscope_remediation_actions_total{action,result}`` (bounded label sets,
``decision.ACTIONS``/``RESULTS``), the budget per cluster (``gpuscope_remediation_budget_nodes_in_use`` and
``..._budget_nodes_limit``), the webhook's requests by answer, the queue's depth and bound, and whether this
process acts (dry run, leader).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
import sys
import threading
from collections import Counter, deque
from collections.abc import Mapping
from typing import IO

from gpuscope.errors import InvalidValue
from gpuscope.exposition import COUNTER, GAUGE, header, integer, label, labels, sample
from gpuscope.remediate.decision import Decision

RECENT = 50
log = logging.getLogger("gpuscope.remediate")


class AuditLog:
    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        self.errors = 0
        self._failing = False
        self._file: IO[str] = sys.stdout if path == "-" else _append(path)

    def write(self, decision: Decision) -> None:
        """Append the decision; a failed write (a full disk) is a log line, once until writes succeed again, and
        never stops the planning: the decision still reaches the log and the metrics."""
        line = json.dumps(decision.record(), sort_keys=True, ensure_ascii=True)
        with self._lock:
            try:
                self._file.write(line + "\n")
                self._file.flush()
            except OSError as exc:
                self.errors += 1
                if not self._failing:
                    log.error("cannot write the audit log %s: %s; decisions go to the log only", self.path, exc)
                self._failing = True
                return
            if self._failing:
                log.warning("the audit log %s is written again (%d decisions were not)", self.path, self.errors)
                self._failing = False

    def close(self) -> None:
        if self._file is not sys.stdout:
            self._file.close()


def _append(path: str) -> IO[str]:
    """``path`` opened to append, a regular file only: a FIFO would hang start-up, a device swallow the audit."""
    not_regular = InvalidValue(
        "audit_log", path, "not a regular file (a FIFO, device or socket); give a file path or -"
    )
    try:  # non-blocking: a FIFO without a reader fails at once (ENXIO) instead of waiting for one
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise not_regular from None
        raise InvalidValue(
            "audit_log", path, f"cannot open it ({exc.strerror or exc}); give a file path or -"
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise not_regular
    os.set_blocking(fd, True)
    return os.fdopen(fd, "a", encoding="utf-8")


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
        # Every family keeps its header when it has no sample yet, so a fresh remediator lists what it counts.
        actions = "gpuscope_remediation_actions_total"
        out = [
            header(actions, COUNTER, "Decisions of the remediator by action and result."),
            *(
                sample(actions, labels((("action", action), ("result", result))), integer(n))
                for (action, result), n in sorted(self.actions.items())
            ),
        ]
        for name, index, text in (
            ("in_use", 0, "Nodes the remediator holds out of service now, per cluster."),
            ("limit", 1, "Nodes the remediator may hold at once (the policy's budget), per cluster."),
        ):
            budget = f"gpuscope_remediation_budget_nodes_{name}"
            out.append(header(budget, GAUGE, text))
            out += [
                sample(budget, label("cluster", cluster), integer(values[index]))
                for cluster, values in sorted(budgets.items())
            ]
        requests = "gpuscope_remediation_webhook_requests_total"
        out.append(header(requests, COUNTER, "Webhook requests by HTTP status answered."))
        out += [sample(requests, label("code", c), integer(n)) for c, n in sorted(self.requests.items())]
        for name, help_text, value in (
            ("gpuscope_remediation_queue_notifications", "Notifications waiting to be planned.", queued),
            ("gpuscope_remediation_queue_capacity", "Notifications the queue holds before answering 503.", queue_size),
            ("gpuscope_remediation_dry_run", "1 when the remediator only logs what it would do.", dry_run),
            (
                "gpuscope_remediation_leader",
                "1 when this process acts (holds the leader Lease, or needs none).",
                leader,
            ),
        ):
            out += [header(name, GAUGE, help_text), sample(name, "", integer(value))]
        return "".join(out)
