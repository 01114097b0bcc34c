"""``make test``'s schedule (tests/support/schedule.py): whole modules to each worker, the stack modules first, on
the first two workers only; and the root logger put back after every test (tests/support/rootlog.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.schedule import SuiteScheduling

pytest_plugins = ["tests.support.rootlog"]


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> SuiteScheduling | None:
    if config.getoption("dist") != "loadfile":
        return None
    return SuiteScheduling(config, log)
