"""The deepest import chain of ``src/gpuscope``, measured on the import graph import-linter reads (grimp).

A chain is a path of imports, each module importing the next; modules importing each other in a circle count as
one step. Imports under ``if TYPE_CHECKING:`` are left out (they never run); deferred imports inside functions
count (they run when the function does). Issue 53 found 23 (``cli.up`` -> runner -> doctor -> generate.budget ->
spec -> rules -> fields) against httpx's 12; each arrow that made it deep now points at a leaf (the NVLink error
counters, the thermal clock events, the control API's fault request, the doctor's rollup, the prom records). The
limit only comes down.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Set

import grimp

MAX_DEPTH = 15


def circles(imports: Mapping[str, Set[str]]) -> dict[str, str]:
    """Each module's circle (Tarjan's strongly connected components), named by one of its modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    named: dict[str, str] = {}

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(imports[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other not in named:  # still on the stack: the same circle
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            while True:
                member = stack.pop()
                named[member] = module
                if member == module:
                    break

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return named


def deepest_chain(imports: Mapping[str, Set[str]]) -> tuple[str, ...]:
    """The longest chain of imports, a circle counted once (by the module naming it)."""
    circle = circles(imports)
    onward: dict[str, set[str]] = {}
    for module, others in imports.items():
        onward.setdefault(circle[module], set()).update(circle[o] for o in others if circle[o] != circle[module])

    @functools.cache
    def longest(module: str) -> tuple[str, ...]:
        chains = [longest(other) for other in sorted(onward.get(module, ()))]
        return (module, *max(chains, key=len, default=()))

    return max((longest(c) for c in sorted(set(circle.values()))), key=len)


def test_the_measure_counts_a_circle_once_and_finds_the_longest_chain() -> None:
    imports = {"a": {"b", "x"}, "b": {"c"}, "c": {"b", "d"}, "d": set(), "x": set()}
    assert deepest_chain(imports) == ("a", "b", "d")  # b and c import each other: one step


def test_the_deepest_import_chain_stays_within_the_limit() -> None:
    graph = grimp.build_graph("gpuscope", exclude_type_checking_imports=True, cache_dir=None)
    chain = deepest_chain({m: graph.find_modules_directly_imported_by(m) for m in graph.modules})
    shown = " -> ".join(m.removeprefix("gpuscope.") for m in chain)
    assert len(chain) <= MAX_DEPTH, f"an import chain of {len(chain)} modules (at most {MAX_DEPTH}): {shown}"
