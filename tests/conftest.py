"""The suite's order: the modules that run a whole stack first, then promtool's scenarios, then the other modules
that start real servers, then the rest; every module's tests in file order.

``make test`` hands whole modules to its workers (``--dist loadfile --no-loadscope-reorder``) in collection order,
and a worker takes the next module when it finishes one. xdist's own order (most tests first) left the stack
modules, with few tests each, to the end, and one worker busy with them while the others had finished; started
first, the quick modules fill the gaps around them.
"""

from __future__ import annotations

import pytest

# Marks by how long their modules take, longest first; a module takes the rank of its slowest test.
RANKS = ("stack", "promtool", "e2e")


def _rank(item: pytest.Item) -> int:
    return next((i for i, mark in enumerate(RANKS) if item.get_closest_marker(mark) is not None), len(RANKS))


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank: dict[str, int] = {}
    for item in items:
        rank[_module(item)] = min(rank.get(_module(item), len(RANKS)), _rank(item))
    # sorted() is stable: modules keep their relative order within a rank, and tests their order in the module
    items[:] = sorted(items, key=lambda item: rank[_module(item)])
