"""Pod metadata from the API server (labels, UID), and how it joins the kubelet's attribution (pure functions).

Pod label keys become Prometheus label names as dcgm-exporter writes them: every character outside
``[a-zA-Z0-9_]`` becomes ``_`` (``app.kubernetes.io/name`` -> ``app_kubernetes_io_name``). Unlike
dcgm-exporter, a name that would still be invalid or would clash is handled, because one bad label name makes
the whole scrape fail: a leading digit gets a ``_`` prefix, names of the exporter's own labels (``gpu``,
``UUID``, ``Hostname``, ``pod``, ``DCGM_*``, ``__*``...) are dropped (the exporter's win, as dcgm-exporter's
attributes win), and of two keys with one sanitized name the byte-wise first key's value is kept.

The allowlist (``--kubernetes-pod-label-allowlist-regex``) is a comma-separated list of regular expressions, as
dcgm-exporter's flag; a label is kept when any of them matches its key anywhere (unanchored: write ``^team$`` for
an exact key). Empty keeps every label. Filtering happens when a pod enters the cache, so memory holds only
allowed labels. The patterns run on RE2 (google-re2), the linear-time engine of Go's ``regexp`` that dcgm-exporter
uses: whoever labels a pod chooses the key, and a backtracking engine would let ``(a+)+$`` against a 45-character
key hold the GIL (and the whole exporter) for good. As dcgm-exporter, a pattern that does not compile is skipped
with one warning, and when none compiles every label is kept (said in a warning too); each key's verdict is
remembered.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from gpuscope.exporter.attribution.labels import POD_UID_LABEL, VGPU_LABEL
from gpuscope.exporter.attribution.resolve import Assignment, Attribution, Pairs, Workload
from gpuscope.exposition import valid_text

if TYPE_CHECKING:  # the watch itself is loaded only when pod labels or UIDs are on (attribution/source.py)
    from gpuscope.kube.reflector import Budget, Decoder

log = logging.getLogger(__name__)

ALLOWLIST_FLAG = "--kubernetes-pod-label-allowlist-regex (env DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX)"
MAX_LABELS = 64  # per pod, after the allowlist: a pod with more is cut (byte order of the keys), never unbounded
MAX_DECIDED = 4096  # allowlist verdicts remembered, per distinct label key
MAX_VALUE = 1024  # Kubernetes caps label values at 63 characters; anything longer is not a label value
_INVALID = re.compile(r"[^a-zA-Z0-9_]")
# Label names the exporter writes itself; a pod label of one of these names is dropped.
RESERVED = frozenset(
    {
        "gpu", "UUID", "uuid", "pci_bus_id", "device", "modelName", "GPU_I_PROFILE", "GPU_I_ID", "Hostname",
        "hostname", "err_code", "err_msg", "container", "namespace", "pod", "container_name", "pod_namespace",
        "pod_name", POD_UID_LABEL, VGPU_LABEL, "hpc_job", "job", "instance",
    }
)  # fmt: skip


# The pod cache's memory budget (``gpuscope.kube.reflector.Budget``): counts alone (2,048 pods, 64 labels of up to 1,024
# characters) let a hostile or careless API server fill the DaemonSet's 128 MiB; 32 MiB holds 2,048 pods of 64
# ordinary labels (63-character values) several times over. Past it, a pod is kept without its labels.
POD_CACHE_BYTES = 32 * 1024 * 1024
# What the allocator adds to a str (``sys.getsizeof`` counts the rest: header, characters at 1, 2 or 4 bytes), and
# what a (name, value) pair costs besides its two strings: its tuple and its slot in the pod's tuple.
_ALLOC_BYTES = 16
_PAIR_BYTES = 64
_POD_BYTES = 256  # the PodMeta itself, its two tuples and its places in the copy and the indexes

MAX_CONTAINERS = 64  # per pod (containers, init and ephemeral containers together)
MAX_PATTERN = 4096  # characters of one allowlist pattern; RE2 bounds its program's memory besides


class Matcher(Protocol):
    """A compiled allowlist pattern (RE2's ``_Regexp``; google-re2 ships no type information)."""

    def search(self, text: str) -> object: ...


@dataclass(frozen=True, slots=True)
class PodMeta:
    """What the exporter keeps of one pod: identity, UID, its allowed labels (sanitized, byte-sorted) and its
    containers as (container ID without the runtime prefix, container name), from the pod's status."""

    namespace: str
    name: str
    uid: str
    labels: Pairs = ()
    containers: Pairs = ()


def _containers(status: Any) -> Pairs:
    if not isinstance(status, dict):
        return ()
    found: dict[str, str] = {}
    for key in ("initContainerStatuses", "containerStatuses", "ephemeralContainerStatuses"):
        for entry in status.get(key) or ():
            if not isinstance(entry, dict) or len(found) >= MAX_CONTAINERS:
                continue
            cid, name = entry.get("containerID"), entry.get("name")
            if isinstance(cid, str) and isinstance(name, str) and cid:
                found[cid.rpartition("://")[2]] = name  # "containerd://<id>": the id a cgroup path names
    return tuple(sorted(found.items()))


def sanitize_label_name(key: str) -> str:
    """A pod label key as a Prometheus label name (dcgm-exporter's rule, plus a ``_`` before a leading digit)."""
    name = _INVALID.sub("_", key)
    return f"_{name}" if name[:1].isdigit() else name


def reserved(name: str) -> bool:
    return name in RESERVED or name.startswith(("DCGM_", "__", "dra_")) or not name


def compile_allowlist(text: str) -> tuple[Matcher, ...]:
    """The allowlist patterns, compiled by RE2; one that does not compile is skipped with one warning."""
    raw = [p.strip() for p in text.split(",") if p.strip()]
    if not raw:
        return ()
    import re2  # only with an allowlist: an exporter without one never loads the engine

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own line to stderr too: the warning below is the one line
    patterns: list[Matcher] = []
    for pattern in raw:
        shown = pattern if len(pattern) <= 80 else pattern[:80] + "..."
        try:
            if len(pattern) > MAX_PATTERN:
                raise ValueError(f"longer than {MAX_PATTERN} characters")
            patterns.append(re2.compile(pattern, options=options))
        except (re2.error, ValueError, TypeError) as exc:
            reason = exc.args[0] if exc.args else type(exc).__name__
            reason = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
            log.warning(
                "%s: skipping %r, not a regular expression RE2 (Go's syntax) accepts: %s; write comma-separated "
                "patterns matched against label keys, e.g. ^team$,^app\\.kubernetes\\.io/",
                ALLOWLIST_FLAG,
                shown,
                reason.splitlines()[0][:200] if reason else "invalid",
            )
    if not patterns:
        log.warning("%s: no pattern compiled, so every pod label is kept (as dcgm-exporter does)", ALLOWLIST_FLAG)
    return tuple(patterns)


def pod_labels(raw: Mapping[str, Any], allowlist: Sequence[Matcher], decided: dict[str, bool] | None = None) -> Pairs:
    """The pod's labels kept by the allowlist, as (label name, value) in byte order of the names.

    ``decided`` remembers the allowlist's verdict per key (pods share their label keys), bounded in size."""
    kept: dict[str, str] = {}
    for key in sorted(k for k in raw if isinstance(k, str)):
        value = raw[key]
        if not isinstance(value, str) or len(value) > MAX_VALUE:
            continue
        if allowlist and not _allowed(key, allowlist, decided):
            continue
        name = sanitize_label_name(key)
        if reserved(name) or name in kept:
            continue
        kept[name] = value
        if len(kept) >= MAX_LABELS:
            break
    return tuple(sorted(kept.items()))


def _allowed(key: str, allowlist: Sequence[Matcher], decided: dict[str, bool] | None) -> bool:
    if decided is None:
        return _matches(key, allowlist)
    verdict = decided.get(key)
    if verdict is None:
        if len(decided) >= MAX_DECIDED:
            decided.clear()
        verdict = decided[key] = _matches(key, allowlist)
    return verdict


def _matches(key: str, allowlist: Sequence[Matcher]) -> bool:
    text = valid_text(key)  # RE2 reads UTF-8: a lone surrogate (JSON's \ud800) is U+FFFD to it, as on /metrics
    return any(p.search(text) is not None for p in allowlist)


def pod_decoder(*, labels: bool, allowlist: Sequence[Matcher] = ()) -> Decoder[PodMeta]:
    """What the pod watch keeps of each pod object (keyed by UID)."""
    from gpuscope.kube.reflector import object_key  # only a pod watch decodes pods

    decided: dict[str, bool] = {}

    def decode(obj: Mapping[str, Any]) -> tuple[str, PodMeta] | None:
        metadata = obj.get("metadata")
        if not isinstance(metadata, dict):
            return None
        namespace, name, uid = metadata.get("namespace"), metadata.get("name"), metadata.get("uid")
        if not (isinstance(namespace, str) and isinstance(name, str) and isinstance(uid, str)):
            return None
        raw = metadata.get("labels") if labels else None
        kept = pod_labels(raw, allowlist, decided) if isinstance(raw, dict) else ()
        containers = _containers(obj.get("status"))
        return object_key(obj), PodMeta(namespace=namespace, name=name, uid=uid, labels=kept, containers=containers)

    return decode


def _text_bytes(text: str) -> int:
    return sys.getsizeof(text) + _ALLOC_BYTES


def pod_bytes(pod: PodMeta) -> int:
    """An upper bound of the memory one cached pod holds (checked against tracemalloc in the tests)."""
    pairs = (*pod.labels, *pod.containers)
    return (
        _POD_BYTES
        + _text_bytes(pod.namespace)
        + _text_bytes(pod.name)
        + _text_bytes(pod.uid)
        + sum(_PAIR_BYTES + _text_bytes(k) + _text_bytes(v) for k, v in pairs)
    )


def without_labels(pod: PodMeta) -> PodMeta:
    """What is kept of a pod past the budget: its identity and containers, so that attribution still finds it."""
    return replace(pod, labels=())


def pod_budget(max_bytes: int = POD_CACHE_BYTES) -> Budget[PodMeta]:
    """The pod cache's byte budget; past it, pods are kept without their labels."""
    from gpuscope.kube.reflector import Budget  # only a pod watch weighs pods

    return Budget(max_bytes=max_bytes, weigh=pod_bytes, shrink=without_labels, shrunk="kept without their labels")


class PodIndex:
    """Lookups into one copy of the pod cache: by (namespace, name) for the kubelet's view, by UID for others.

    ``by_uid`` and ``container`` are the lookups for callers that learn a pod UID and a container ID elsewhere (a
    process's cgroup path names both): ``by_uid(uid)`` gives the pod's namespace, name and labels, or None when the
    pod is not (or no longer) on this node; ``container(uid, container_id)`` the container's name.
    """

    def __init__(self, pods: Mapping[str, PodMeta]) -> None:
        self._by_uid = MappingProxyType({p.uid: p for p in pods.values()})
        self._by_name = {(p.namespace, p.name): p for p in pods.values()}

    def container(self, uid: str, container_id: str) -> str | None:
        """The name of the pod's container with this ID (as the runtime and the cgroup path write it)."""
        pod = self._by_uid.get(uid)
        return None if pod is None else dict(pod.containers).get(container_id)

    def by_uid(self, uid: str) -> PodMeta | None:
        return self._by_uid.get(uid)

    def by_name(self, namespace: str, name: str) -> PodMeta | None:
        return self._by_name.get((namespace, name))

    def __len__(self) -> int:
        return len(self._by_uid)


def with_pod_metadata(attribution: Attribution, pods: PodIndex, *, uid: bool, labels: bool) -> Attribution:
    """The attribution with each pod's UID and/or allowed labels added (a pod missing from the cache: none)."""
    if not (uid or labels):
        return attribution

    def enrich(workload: Workload) -> Workload:
        meta = pods.by_name(workload.namespace, workload.pod)
        if meta is None:
            return workload
        return replace(workload, uid=meta.uid if uid else "", labels=meta.labels if labels else ())

    targets = {
        target: Assignment(tuple(enrich(w) for w in assignment.pods), assignment.jobs)
        for target, assignment in attribution.targets.items()
    }
    return Attribution(MappingProxyType(targets), attribution.unmatched)
