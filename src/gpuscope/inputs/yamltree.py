"""YAML composed into a node tree within fixed bounds, with every refusal located as ``file:line:col``.

PyYAML composes aliases as shared nodes, so the tree stays small, but whoever walks it afterwards (the spec's
positioned builder, a constructor) expands every alias: nine levels of nine aliases ("billion laughs") are 342
bytes that expand to 387 million nodes. The composer here counts each node as its expanded size as it goes, and
stops at a budget long before memory is at risk. It also refuses what no gpuscope input needs and what only makes a
document mean something else than it looks: nesting deeper than a sane depth (which would otherwise end in a
``RecursionError``), recursive aliases, merge keys (``<<``), complex (non-scalar) keys and explicit tags other than
the plain string, sequence and mapping ones.
"""

from __future__ import annotations

from typing import Any

import yaml

from gpuscope.errors import SpecError

MAX_DEPTH = 64  # mappings and sequences inside each other; a fleet spec needs about 6
MAX_NODES = 100_000  # nodes after alias expansion; a 1,000-cluster fleet spec has about 20,000
_MERGE = "tag:yaml.org,2002:merge"
_VALUE = "tag:yaml.org,2002:value"  # YAML 1.1 resolves a plain "=" to it; no constructor knows it: a string
_STR = "tag:yaml.org,2002:str"
_TAGS = frozenset({"!", "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"})


def load(text: str, source: str) -> Any:
    """The plain data of the YAML document in ``text``, as ``yaml.safe_load`` gives it, within the same bounds."""
    node = compose(text, source)
    if node is None:
        return None
    try:
        return yaml.SafeLoader("").construct_document(node)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:  # an implicit date like 2026-13-45
        raise SpecError(source, None, f"invalid YAML: {one_line(exc)}") from None


def one_line(exc: BaseException) -> str:
    """The first line (and first clause) of an exception's message: PyYAML's point at the text with ^ below."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem:
        return exc.problem
    lines = str(exc).strip().splitlines()
    return lines[0].split(";")[0] if lines else type(exc).__name__


def compose(text: str, source: str) -> yaml.Node | None:
    """The node tree of the single YAML document in ``text`` (None when empty); ``SpecError`` at ``source``."""
    loader: _BoundedLoader | None = None
    try:
        loader = _BoundedLoader(text, source)  # reads the first chunk: a control character fails here
        return loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (None, None)
        raise SpecError(source, line, f"invalid YAML: {exc.problem or exc.context}", col) from None
    except yaml.reader.ReaderError as exc:  # a control character: located by position, not by a mark
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        message = f"invalid YAML: control character {chr(exc.character)!r} is not allowed"
        raise SpecError(source, line, message, col) from None
    except yaml.YAMLError as exc:
        raise SpecError(source, None, f"invalid YAML: {one_line(exc)}") from None
    finally:
        if loader is not None:
            loader.dispose()


class _BoundedLoader(yaml.SafeLoader):
    def __init__(self, text: str, source: str) -> None:
        super().__init__(text)
        self.source = source
        self.depth = 0
        self.expanded = 0  # nodes so far, each alias counted as the size of what it stands for
        self.sizes: dict[int, int] = {}  # id(node) -> its expanded size, once complete

    def refuse(self, mark: Any, message: str) -> SpecError:
        return SpecError(self.source, mark.line + 1, message, mark.column + 1)

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent):
            node = super().compose_node(parent, index)
            assert node is not None  # an alias always names a node, or the composer raised
            size = self.sizes.get(id(node))
            if size is None:
                raise self.refuse(event.start_mark, f"alias *{event.anchor} refers to a node that contains it")
            self.count(size, event.start_mark)
            return node
        tag = getattr(event, "tag", None)
        if tag is not None and tag not in _TAGS:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise self.refuse(event.start_mark, f"YAML tag {shown} is not supported here: remove it")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.refuse(event.start_mark, f"nested more than {MAX_DEPTH} levels deep")
        before = self.expanded
        self.count(1, event.start_mark)
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
        if node is not None:
            self.sizes[id(node)] = self.expanded - before
            if isinstance(node, yaml.ScalarNode) and node.tag == _VALUE:
                node.tag = _STR
        return node

    def compose_mapping_node(self, anchor: Any) -> yaml.MappingNode:
        node = super().compose_mapping_node(anchor)
        for key, _value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                raise self.refuse(key.start_mark, "a key must be a plain value, not a list or mapping (complex key)")
            if key.tag == _MERGE:
                raise self.refuse(key.start_mark, "merge keys (<<) are not supported: write the keys out")
        return node

    def count(self, nodes: int, mark: Any) -> None:
        self.expanded += nodes
        if self.expanded > MAX_NODES:
            raise self.refuse(
                mark, f"the document expands to more than {MAX_NODES} nodes (aliases *name count as what they name)"
            )
