"""The root logger put back after each test (tests/support/rootlog.py): a command run in-process sets up logging
on the stderr of its moment, and no later test may log into that stream once it is closed."""

from __future__ import annotations

import io
import logging
import sys

import pytest

from gpuscope.cli._app import setup_logging

_CLOSED: list[io.StringIO] = []
_LEVEL: list[int] = []


def test_a_command_logs_to_the_stderr_of_its_moment(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    _LEVEL.append(logging.getLogger().level)
    setup_logging(True, "text")
    logging.getLogger("gpuscope.tests").info("during the command")
    assert "INFO gpuscope.tests: during the command" in stream.getvalue()
    stream.close()  # as pytest closes a test's captured stderr
    _CLOSED.append(stream)


def test_a_later_test_logs_nowhere_near_that_closed_stream() -> None:
    assert _CLOSED, "runs after the test above (same module, same worker, in order)"
    root = logging.getLogger()
    assert not [h for h in root.handlers if getattr(h, "stream", None) is _CLOSED[0]]
    assert root.level == _LEVEL[0] != logging.DEBUG  # the level the command set (--debug) is put back too
