"""The doctor tests' own diagnostics (tests/support/doctor.py): what a failure they cannot explain reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuscope.doctor import Report
from gpuscope.errors import AuditError
from tests.support.doctor import descriptors, until


def test_descriptors_name_what_each_open_descriptor_is(tmp_path: Path) -> None:
    path = tmp_path / "held-open"
    with path.open("w") as held:
        fd, listed = held.fileno(), descriptors()
    assert f"  {fd} -> {path}" in listed.splitlines()


def test_an_audit_failing_with_ebadf_reports_the_descriptors_and_threads() -> None:
    def ebadf() -> Report:
        raise AuditError("--prometheus http://127.0.0.1:1: cannot connect ([Errno 9] Bad file descriptor)")

    with pytest.raises(AssertionError, match=r"(?s)Bad file descriptor.*open descriptors:.*threads: \[.*MainThread"):
        until(ebadf, {}, timeout=5)


def test_other_audit_failures_are_raised_as_they_are() -> None:
    def refused() -> Report:
        raise AuditError("--prometheus http://127.0.0.1:1: cannot connect ([Errno 111] Connection refused)")

    with pytest.raises(AuditError, match="Connection refused"):
        until(refused, {}, timeout=5)
