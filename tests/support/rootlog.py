"""The root logger put back after each test.

A test that runs a command in-process (``gpuscope.cli.main([...])``) lets it set up logging as the command does:
a handler on pytest's captured stderr of that moment. Left on the root logger, it wrote every later log line of
the worker (an in-process exporter's collection thread, say) to a capture file pytest had closed: "--- Logging
error --- ValueError: I/O operation on closed file" in the run's output, and the line lost.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def root_logger_restored() -> Iterator[None]:
    root = logging.getLogger()
    level, before = root.level, list(root.handlers)
    yield
    # Only the plain stream handlers a command added go: pytest's own capture handlers (subclasses) come and go
    # with each test phase and are pytest's business.
    for handler in list(root.handlers):
        if handler not in before and type(handler) is logging.StreamHandler:
            root.removeHandler(handler)
    root.setLevel(level)
