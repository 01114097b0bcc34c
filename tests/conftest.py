"""``make test``'s schedule (tests/support/schedule.py): whole modules to each worker, the stack modules first, on
the first two workers only, and the other workers at a lower CPU priority."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.support.schedule import NICE_OTHERS, SuiteScheduling, takes_stacks

NICE = "gpuscope_nice"  # the worker's increment, handed to it in its workerinput


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> SuiteScheduling | None:
    if config.getoption("dist") != "loadfile":
        return None
    return SuiteScheduling(config, log)


def pytest_configure_node(node: Any) -> None:
    """On the controller, for each worker it starts (an xdist hook: only called when xdist runs)."""
    config: pytest.Config = node.config
    worker: dict[str, Any] = node.workerinput
    if config.getoption("dist") == "loadfile" and not takes_stacks(worker["workerid"], worker["workercount"]):
        worker[NICE] = NICE_OTHERS


def pytest_configure(config: pytest.Config) -> None:
    increment = getattr(config, "workerinput", {}).get(NICE)
    if increment:
        os.nice(increment)  # the servers and tools this worker starts inherit it
