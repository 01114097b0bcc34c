"""The stack the ``gpuscope up`` test modules share within a module: each module gets its own (its tests run
on one worker, and two modules run on two at once)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.upstack import StackPool, UpStack


@pytest.fixture(scope="module")
def stacks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StackPool]:
    pool = StackPool(tmp_path_factory.mktemp("up"))
    try:
        yield pool
    finally:
        pool.close()


@pytest.fixture
def stack(stacks: StackPool) -> UpStack:
    """The module's stack, every fault cleared and healthy again (a fresh one if a test stopped it)."""
    return stacks.get()


@pytest.fixture
def running(stacks: StackPool) -> UpStack:
    """The module's stack as the last test left it, faults and all (a fresh one if a test stopped it): for the
    tests that stop it or only read its story, which need it running, not healthy."""
    return stacks.get(healthy=False)
