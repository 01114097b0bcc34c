"""The schedule in tests/support/schedule.py names modules by path: a renamed module, or a new one that runs a whole
``gpuscope up``, must be listed there, or ``make test`` would start it late (or uncapped) without anyone noticing."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.schedule import LONG_MODULES, MAX_STACKS, STACK_MODULES, takes_stacks

ROOT = Path(__file__).resolve().parents[1]
# A module runs a stack when it calls running_stack or takes the e2e package's stack pool fixtures.
RUNS_A_STACK = re.compile(r"\brunning_stack\(|\(stack: UpStack\)|\(running: UpStack\)")


def test_every_listed_module_exists_once() -> None:
    listed = [*STACK_MODULES, *LONG_MODULES]
    assert len(listed) == len(set(listed))
    assert [m for m in listed if not (ROOT / m).is_file()] == []


def test_every_module_that_runs_a_stack_is_scheduled_early() -> None:
    runs = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if RUNS_A_STACK.search(path.read_text())
    )
    assert runs, "the pattern finds no stack module: it no longer matches how the tests start a stack"
    assert [m for m in runs if m not in (*STACK_MODULES, *LONG_MODULES)] == []


def test_the_first_workers_take_the_stacks_and_every_worker_does_when_there_are_no_more() -> None:
    assert [takes_stacks(f"gw{i}", 4) for i in range(4)] == [i < MAX_STACKS for i in range(4)]
    assert all(takes_stacks(f"gw{i}", MAX_STACKS) for i in range(MAX_STACKS))
