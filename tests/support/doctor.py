"""Running doctor the two ways a user does: the library call (fast, for polling) and the CLI (exit codes, output)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Collection
from pathlib import Path

from gpuscope.doctor import Report, Status
from gpuscope.errors import AuditError

PROBLEMS = (Status.WARN, Status.FAIL)


def problems(report: Report, statuses: tuple[Status, ...] = PROBLEMS) -> dict[str, str]:
    """The checks in ``statuses`` (by default those that did not pass or skip), as ``{check id: status}``."""
    return {r.id: r.status.value for r in report.results if r.status in statuses}


def until(
    run: Callable[[], Report],
    expected: dict[str, str],
    timeout: float = 90,
    what: str = "",
    statuses: tuple[Status, ...] = PROBLEMS,
    among: Collection[str] = (),
    interval: float = 2,
) -> Report:
    """Audit until exactly ``expected`` checks are in ``statuses`` (of the checks ``among``, when given: a test
    about some checks leaves the others to the tests about them); a timeout shows the last report's. An audit
    is some forty queries, a fifth of a core-second with the servers' share: every ``interval`` seconds, not on
    end, or a test's wait loads the machine the stack it waits for runs on."""
    deadline = time.monotonic() + timeout
    last: dict[str, str] | str = "no report"
    while time.monotonic() < deadline:
        report = _diagnosed(run)
        last = {r.id: f"{r.status.value}: {r.summary}" for r in report.results if r.status in statuses}
        found = problems(report, statuses)
        if among:
            found = {check: status for check, status in found.items() if check in among}
        if found == expected:
            return report
        time.sleep(interval)
    raise AssertionError(f"{what or expected}: doctor still reports {last}")


def _diagnosed(run: Callable[[], Report]) -> Report:
    """``run()``; an audit that failed because a fresh socket's descriptor was closed under it (EBADF, seen once
    on a loaded machine, cause unknown: something in the worker closed a descriptor number it no longer owned)
    fails with this process's descriptors and threads at that moment, which say what the number was reused for."""
    try:
        return run()
    except AuditError as exc:
        if "[Errno 9]" not in str(exc):
            raise
        threads = sorted(t.name for t in threading.enumerate())
        raise AssertionError(f"{exc}\n{descriptors()}\nthreads: {threads}") from exc


def descriptors() -> str:
    """This process's open descriptors and what each is (``/proc/self/fd``), one per line."""
    lines = []
    for fd in sorted(Path("/proc/self/fd").iterdir(), key=lambda p: int(p.name)):
        try:
            lines.append(f"  {fd.name} -> {os.readlink(fd)}")
        except OSError:  # the listing's own descriptor, closed by now
            continue
    return "open descriptors:\n" + "\n".join(lines)


def doctor_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gpuscope", "doctor", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "COLUMNS": "160"},
        check=False,
    )


def assert_cannot_audit(done: subprocess.CompletedProcess[str], *fragments: str) -> str:
    """Exit 3, one line on stderr naming what to fix, never a traceback."""
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 3, done
    assert len(lines) == 1 and lines[0].startswith("gpuscope: error: "), done.stderr
    assert "Traceback" not in done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]
