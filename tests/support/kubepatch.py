"""The API server's three patch types, as the fake API server applies them (``tests/support/kubeapi.py``).

- ``application/merge-patch+json`` (RFC 7386): maps merge, ``null`` deletes a key, lists are replaced whole;
- ``application/strategic-merge-patch+json``: the same, except that the lists Kubernetes declares with a patch
  merge key merge item by item on that key (a node's ``status.conditions`` by ``type``, ``spec.taints`` by
  ``key``, ``status.addresses`` by ``type``), and ``$patch: delete`` in an item removes it;
- ``application/json-patch+json`` (RFC 6902): ``add``, ``remove``, ``replace``, ``test``, ``move``, ``copy`` on
  JSON pointers; a failed ``test`` or a missing path is an error (the API server answers 422).
"""

from __future__ import annotations

import copy
from typing import Any

MERGE = "application/merge-patch+json"
STRATEGIC = "application/strategic-merge-patch+json"
JSON_PATCH = "application/json-patch+json"
PATCH_TYPES = (JSON_PATCH, MERGE, STRATEGIC)
# (path of the list, its patch merge key), from the Node type's patchMergeKey tags.
MERGE_KEYS = {("status", "conditions"): "type", ("spec", "taints"): "key", ("status", "addresses"): "type"}


class PatchError(Exception):
    """The patch cannot be applied (HTTP 422)."""


def merge_patch(target: Any, patch: Any) -> Any:
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merge_patch(out.get(key), value)
    return out


def strategic_merge_patch(target: Any, patch: Any, path: tuple[str, ...] = ()) -> Any:
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        here = (*path, key)
        if value is None:
            out.pop(key, None)
        elif isinstance(value, list) and here in MERGE_KEYS:
            out[key] = _merge_list(out.get(key) or [], value, MERGE_KEYS[here])
        else:
            out[key] = strategic_merge_patch(out.get(key), value, here)
    return out


def _merge_list(current: list[Any], patch: list[Any], key: str) -> list[Any]:
    items = [copy.deepcopy(i) for i in current]
    for item in patch:
        if not isinstance(item, dict) or key not in item:
            raise PatchError(f"an item without its merge key {key!r}")
        found = next((i for i, old in enumerate(items) if isinstance(old, dict) and old.get(key) == item[key]), None)
        if item.get("$patch") == "delete":
            if found is not None:
                del items[found]
        elif found is None:
            items.append(copy.deepcopy(item))
        else:
            items[found] = merge_patch(items[found], item)
    return items


def _pointer(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"{path!r} is not a JSON pointer")
    return [p.replace("~1", "/").replace("~0", "~") for p in path[1:].split("/")]


def _parent(doc: Any, parts: list[str]) -> tuple[Any, str]:
    node = doc
    for part in parts[:-1]:
        node = _child(node, part)
    return node, parts[-1]


def _child(node: Any, part: str) -> Any:
    if isinstance(node, dict) and part in node:
        return node[part]
    if isinstance(node, list) and part.isdigit() and int(part) < len(node):
        return node[int(part)]
    raise PatchError(f"no such path element {part!r}")


def _get(doc: Any, path: str) -> Any:
    node = doc
    for part in _pointer(path):
        node = _child(node, part)
    return node


def _remove(doc: Any, path: str) -> Any:
    parent, last = _parent(doc, _pointer(path))
    if isinstance(parent, dict) and last in parent:
        return parent.pop(last)
    if isinstance(parent, list) and last.isdigit() and int(last) < len(parent):
        return parent.pop(int(last))
    raise PatchError(f"cannot remove {path}: no such path")


def _add(doc: Any, path: str, value: Any, replace: bool) -> None:
    parent, last = _parent(doc, _pointer(path))
    if isinstance(parent, dict):
        if replace and last not in parent:
            raise PatchError(f"cannot replace {path}: no such path")
        parent[last] = value
    elif isinstance(parent, list):
        index = len(parent) if last == "-" and not replace else int(last) if last.isdigit() else -1
        if not 0 <= index <= len(parent) - (1 if replace else 0):
            raise PatchError(f"index {last!r} out of range at {path}")
        if replace:
            parent[index] = value
        else:
            parent.insert(index, value)
    else:
        raise PatchError(f"cannot add at {path}")


def json_patch(target: Any, ops: Any) -> Any:
    if not isinstance(ops, list):
        raise PatchError("a JSON patch is a list of operations")
    doc = copy.deepcopy(target)
    for op in ops:
        if not isinstance(op, dict) or "path" not in op:
            raise PatchError("an operation without a path")
        kind, path = op.get("op"), op["path"]
        if kind == "test":
            if _get(doc, path) != op.get("value"):
                raise PatchError(f"test of {path} failed")
        elif kind == "remove":
            _remove(doc, path)
        elif kind in ("add", "replace"):
            _add(doc, path, copy.deepcopy(op.get("value")), replace=kind == "replace")
        elif kind in ("move", "copy"):
            value = _remove(doc, op["from"]) if kind == "move" else copy.deepcopy(_get(doc, op["from"]))
            _add(doc, path, value, replace=False)
        else:
            raise PatchError(f"unknown operation {kind!r}")
    return doc


def apply_patch(content_type: str, target: Any, patch: Any) -> Any:
    """The patched object; raises ``PatchError`` (422) or ``ValueError`` for an unknown content type (415)."""
    kind = content_type.split(";", maxsplit=1)[0].strip()
    if kind == MERGE:
        return merge_patch(target, patch)
    if kind == STRATEGIC:
        return strategic_merge_patch(target, patch)
    if kind == JSON_PATCH:
        return json_patch(target, patch)
    raise ValueError(kind)
