"""Pod UID → namespace and name: the lookups process attribution can use, and the seam for more.

The cgroup of a pod's process names the pod by UID; the kubelet's PodResources API names pods by namespace and
name only. ``PodLogDirectory`` bridges the two on every node without any API: the kubelet keeps one directory per
live pod under ``/var/log/pods``, named ``<namespace>_<name>_<uid>``, with one sub-directory per container, and
removes it when the pod is deleted. A pod watch on the API server that knows UIDs satisfies ``PodLookup`` too;
``ProcessSource`` takes any object with that one method, so it plugs in without touching attribution.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol

DEFAULT_POD_LOG_DIR = "/var/log/pods"
_ENTRY = re.compile(r"([a-z0-9][-a-z0-9]*)_([^_/]+)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")
_MAX_PODS = 4096  # a node runs at most a few hundred pods; a bigger directory is not the kubelet's


@dataclass(frozen=True, slots=True)
class PodRef:
    namespace: str
    name: str
    containers: tuple[str, ...] = ()


class PodLookup(Protocol):
    """Live pods by UID, read once per collection (``None``: the source cannot answer right now)."""

    def pods(self) -> Mapping[str, PodRef] | None: ...


class PodLogDirectory:
    """Live pods from the kubelet's pod log directory (one ``os.scandir`` per collection)."""

    def __init__(self, path: str = DEFAULT_POD_LOG_DIR) -> None:
        self.path = path
        self.problem = ""

    def pods(self) -> Mapping[str, PodRef] | None:
        found: dict[str, PodRef] = {}
        try:
            with os.scandir(self.path) as entries:
                for entry in entries:
                    match = _ENTRY.fullmatch(entry.name)
                    if match is None or not entry.is_dir(follow_symlinks=False):
                        continue
                    found[match[3]] = PodRef(match[1], match[2], _containers(entry.path))
                    if len(found) >= _MAX_PODS:
                        break
        except OSError as exc:
            self.problem = f"cannot read the pod log directory {self.path}: {exc.strerror or exc}"
            return None
        self.problem = ""
        return MappingProxyType(found)


def _containers(path: str) -> tuple[str, ...]:
    try:
        with os.scandir(path) as entries:
            return tuple(sorted(e.name for e in entries if e.is_dir(follow_symlinks=False)))
    except OSError:
        return ()
