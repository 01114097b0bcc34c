"""Kubernetes nodes through the API server: a node condition, a taint, optionally a cordon, and an Event.

Taking a node out of service (with the pod's service account, through ``gpuscope.kube.client``'s
``ApiServer`` and ``fetch``, the one API server client gpuscope has: each request whole within its deadline, so a
dripping API server cannot hold the remediator's worker, its answer capped, no redirect followed):

1. ``PATCH /api/v1/nodes/<node>`` as a JSON merge patch carrying the ``resourceVersion`` just read: the taint
   ``gpuscope.io/gpu-unhealthy`` (effect by policy) added to the node's own taints, ``spec.unschedulable`` when
   the policy cordons and nobody already has, and the ownership annotation ``gpuscope.io/remediation`` (what
   gpuscope did, so only that is ever undone). A node changed meanwhile answers 409 Conflict: read again, retry.
2. ``PATCH /api/v1/nodes/<node>/status`` as a strategic merge patch: the condition ``GPUHealthy=False`` with the
   alert as reason and its summary as message (conditions merge by ``type``: the kubelet's stay).
3. ``POST /api/v1/namespaces/<ns>/events``: a Warning Event on the node, which ``kubectl describe node`` shows.

Putting it back is a JSON patch that first tests that the taint at its index is still ours, then removes it and
the annotation and uncordons only if gpuscope cordoned; then ``GPUHealthy=True`` and a Normal Event. RBAC: nodes
get/list/patch, nodes/status patch, events create, leases get/create/update (``generate/remediation.py``).

Only GPU nodes of the fleet are acted on: a node without ``nvidia.com/gpu`` capacity (the control plane, a CPU
pool) is reported with ``gpus=0`` and the engine refuses it, unless the GPU Operator labelled it
``nvidia.com/gpu.present=true`` (a node whose GPUs the DRA driver publishes has no extended resource). Labels are
written by the cluster's administrators and operators, never by an alert. Node lists are read in pages
(``limit``/``continue``, ``PAGE_LIMIT`` nodes, each answer at most ``MAX_PAGE_BYTES``) keeping only what is needed of
each node, so a large cluster's list never sits in memory whole. Every read of an object tolerates any shape
(``metadata: null``...): what is not a mapping counts as empty. A node name that is not one (``.``, ``..``, a ``/``)
never becomes a path.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any

from gpuscope.kube.client import ApiServer, WatchError, fetch, json_object, pages
from gpuscope.remediate.actuator import ActuatorError, Hold, NodeState
from gpuscope.remediate.policy import CONDITION_TYPE, TAINT_KEY

ANNOTATION = "gpuscope.io/remediation"
GPU_RESOURCE = "nvidia.com/gpu"  # the NVIDIA device plugin's extended resource
GPU_LABEL = "nvidia.com/gpu.present"  # the GPU Operator's label of every GPU node ("true")
MAX_ANSWER_BYTES = 4 * 1024 * 1024  # one node, one Lease: a node object is tens of KiB
PAGE_LIMIT = 250  # nodes per list page, as a controller's informer pages
MAX_PAGE_BYTES = 16 * 1024 * 1024  # a page of PAGE_LIMIT nodes; a server that ignores limit is refused past it
MAX_PAGES = 400  # 100,000 nodes
CONFLICT_RETRIES = 5
_NODE_NAME = re.compile(r"[a-z0-9A-Z](?:[-a-zA-Z0-9._]{0,252})", re.ASCII)
Clock = Callable[[], float]


class ApiError(ActuatorError):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _stamp(now: float) -> str:
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class KubeApi:
    """JSON requests to the API server, each whole within ``timeout_s``; a failure is one ``ApiError`` line naming
    the status and the fix."""

    def __init__(self, server: ApiServer, timeout_s: float = 10.0) -> None:
        self.server = server
        self.timeout_s = timeout_s

    def request(
        self,
        method: str,
        path: str,
        body: object | None = None,
        content_type: str = "application/json",
        max_bytes: int = MAX_ANSWER_BYTES,
    ) -> dict[str, Any]:
        data = None if body is None else json.dumps(body).encode()
        try:
            status, raw = fetch(
                self.server,
                path,
                deadline_s=self.timeout_s,
                max_bytes=max_bytes,
                method=method,
                body=data,
                content_type=content_type,
            )
        except WatchError as exc:
            raise ApiError(0, f"{method} {path}: {exc}") from None
        try:
            answer = json_object(raw) if raw else {}
        except WatchError as exc:  # not JSON, a nesting bomb, a list: one line, never a RecursionError
            if status < 300:
                raise ApiError(status, f"{method} {path}: {exc}") from None
            answer = {}  # an error's answer only adds its message: the status says what went wrong
        if status >= 300:
            raise ApiError(status, _problem(method, path, status, answer))
        return answer


def _problem(method: str, path: str, status: int, answer: Mapping[str, Any]) -> str:
    message = str(answer.get("message", ""))[:200]
    hints: dict[int, str] = {
        HTTPStatus.UNAUTHORIZED: "the service account token is missing or not accepted",
        HTTPStatus.FORBIDDEN: "grant the remediator's service account this verb (gpuscope generate's RBAC does)",
        HTTPStatus.NOT_FOUND: "no such object",
        HTTPStatus.CONFLICT: "changed meanwhile (stale resourceVersion)",
    }
    hint = hints.get(status, "")  # HTTPStatus is an IntEnum: its members are keys for the plain code too
    return f"{method} {path}: HTTP {status}" + (f" ({hint})" if hint else "") + (f": {message}" if message else "")


def _node_path(node: str) -> str:
    if not _NODE_NAME.fullmatch(node):  # ".." would be the collection's parent, "a/b" another resource
        raise ActuatorError(f"{node[:80]!r} is not a Kubernetes node name")
    return f"/api/v1/nodes/{urllib.parse.quote(node, safe='')}"


class KubernetesActuator:
    kind = "kubernetes"

    def __init__(self, api: KubeApi, namespace: str, clock: Clock = time.time) -> None:
        self.api = api
        self.namespace = namespace
        self.clock = clock

    def _get(self, node: str) -> dict[str, Any] | None:
        try:
            return self.api.request("GET", _node_path(node))
        except ApiError as exc:
            if exc.status == 404:
                return None
            raise

    def inspect(self, node: str) -> NodeState:
        obj = self._get(node)
        if obj is None:
            return NodeState(exists=False, ours=False, persons=False, detail="no such Kubernetes node")
        mark = _mark(obj)
        cordoned = bool(_part(obj, "spec").get("unschedulable"))
        theirs_taint = any(t.get("key") == TAINT_KEY for t in _taints(obj)) and mark is None
        persons = (cordoned and (mark is None or not mark.get("cordoned"))) or theirs_taint
        capacity = gpu_capacity(obj)
        labels = _part(obj, "metadata").get("labels")
        labelled = isinstance(labels, dict) and labels.get(GPU_LABEL) == "true"
        detail = ("cordoned" if cordoned else "schedulable") + (", gpuscope's" if mark is not None else "")
        if capacity:
            detail += f", {capacity} {GPU_RESOURCE}"
        else:
            detail += f", {GPU_LABEL}=true" if labelled else f", no {GPU_RESOURCE} capacity and no {GPU_LABEL} label"
        gpus = capacity if capacity or not labelled else None  # labelled: a GPU node, its count unknown
        return NodeState(exists=True, ours=mark is not None, persons=persons and mark is None, detail=detail, gpus=gpus)

    def hold(self, hold: Hold) -> str:
        for _ in range(CONFLICT_RETRIES):
            obj = self._get(hold.node)
            if obj is None:
                raise ActuatorError(f"node {hold.node} does not exist")
            cordon = hold.cordon and not _part(obj, "spec").get("unschedulable")
            taint = {"key": TAINT_KEY, "value": hold.alert, "effect": hold.taint_effect}
            taints = [t for t in _taints(obj) if t.get("key") != TAINT_KEY] + [taint]
            mark = {"alert": hold.alert, "cordoned": cordon, "since": _stamp(self.clock())}
            patch: dict[str, Any] = {
                "metadata": {
                    "resourceVersion": str(_part(obj, "metadata").get("resourceVersion", "")),
                    "annotations": {ANNOTATION: json.dumps(mark, sort_keys=True)},
                },
                "spec": {"taints": taints, **({"unschedulable": True} if cordon else {})},
            }
            try:
                self.api.request("PATCH", _node_path(hold.node), patch, "application/merge-patch+json")
                break
            except ApiError as exc:
                if exc.status != 409:
                    raise
        else:
            raise ActuatorError(f"node {hold.node} kept changing ({CONFLICT_RETRIES} conflicts): try again later")
        self._condition(hold.node, "False", hold.alert, hold.reason)
        self._event(hold.node, "Warning", hold.alert, f"gpuscope remediate: {hold.reason}")
        done = f"taint {TAINT_KEY}={hold.alert}:{hold.taint_effect}, condition {CONDITION_TYPE}=False"
        return done + (", cordoned" if cordon else "")

    def release(self, node: str, alert: str) -> str:
        for _ in range(CONFLICT_RETRIES):
            obj = self._get(node)
            mark = _mark(obj) if obj is not None else None
            if obj is None or mark is None:
                raise ActuatorError(f"{node} is no longer held by gpuscope: left as it is")
            ops: list[dict[str, Any]] = []
            for i, t in enumerate(_taints(obj)):
                if t.get("key") == TAINT_KEY:
                    ops += [
                        {"op": "test", "path": f"/spec/taints/{i}/key", "value": TAINT_KEY},
                        {"op": "remove", "path": f"/spec/taints/{i}"},
                    ]
                    break
            ops.append({"op": "remove", "path": "/metadata/annotations/" + ANNOTATION.replace("/", "~1")})
            uncordon = bool(mark.get("cordoned")) and bool(_part(obj, "spec").get("unschedulable"))
            if uncordon:
                ops.append({"op": "replace", "path": "/spec/unschedulable", "value": False})
            try:
                self.api.request("PATCH", _node_path(node), ops, "application/json-patch+json")
                break
            except ApiError as exc:
                if exc.status not in (409, 422):  # 422: the test failed, the taints moved meanwhile
                    raise
        else:
            raise ActuatorError(f"node {node} kept changing ({CONFLICT_RETRIES} conflicts): try again later")
        self._condition(node, "True", "GPUHealthy", f"no GPU alert since gpuscope took it out for {alert}")
        self._event(node, "Normal", "GPUHealthy", "gpuscope remediate: returned to service after a hold of good health")
        return f"taint {TAINT_KEY} removed, condition {CONDITION_TYPE}=True" + (", uncordoned" if uncordon else "")

    def _condition(self, node: str, status: str, reason: str, message: str) -> None:
        now = _stamp(self.clock())
        condition = {
            "type": CONDITION_TYPE,
            "status": status,
            "reason": reason,
            "message": message,
            "lastHeartbeatTime": now,
            "lastTransitionTime": now,
        }
        body = {"status": {"conditions": [condition]}}
        self.api.request("PATCH", _node_path(node) + "/status", body, "application/strategic-merge-patch+json")

    def _event(self, node: str, kind: str, reason: str, message: str) -> None:
        now = self.clock()
        event = {
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"generateName": f"{node}.gpuscope-", "namespace": self.namespace},
            "involvedObject": {"apiVersion": "v1", "kind": "Node", "name": node},
            "reason": reason,
            "message": message[:1024],
            "type": kind,
            "source": {"component": "gpuscope-remediate"},
            "firstTimestamp": _stamp(now),
            "lastTimestamp": _stamp(now),
            "count": 1,
        }
        self.api.request("POST", f"/api/v1/namespaces/{urllib.parse.quote(self.namespace)}/events", event)

    def _nodes(self) -> list[tuple[str, bool]]:
        """(name, marked by gpuscope) of every node, read page by page: only that much of each node is kept."""
        out: list[tuple[str, bool]] = []

        def page(query: Mapping[str, str]) -> Mapping[str, Any]:
            return self.api.request("GET", "/api/v1/nodes?" + urllib.parse.urlencode(query), max_bytes=MAX_PAGE_BYTES)

        try:
            for answer in pages(page, limit=PAGE_LIMIT, max_pages=MAX_PAGES, what="nodes"):
                items = answer.get("items")
                for item in items if isinstance(items, list) else []:
                    if isinstance(item, dict):
                        name = _part(item, "metadata").get("name")
                        if isinstance(name, str) and name:
                            out.append((name, _mark(item) is not None))
        except WatchError as exc:  # more pages than any cluster has
            raise ActuatorError(f"GET /api/v1/nodes: {exc}") from None
        return out

    def owned(self) -> list[str]:
        return sorted(name for name, marked in self._nodes() if marked)

    def size(self) -> int | None:
        return len(self._nodes())


def _part(obj: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """``obj[key]`` when it is a mapping, else empty: an API server's object of any shape reads without a crash."""
    value = obj.get(key)
    return value if isinstance(value, dict) else {}


def gpu_capacity(obj: Mapping[str, Any]) -> int:
    """The node's ``nvidia.com/gpu`` capacity (0 without one, or when it is not a plain count)."""
    value = _part(_part(obj, "status"), "capacity").get(GPU_RESOURCE)
    text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else 0


def _taints(obj: Mapping[str, Any]) -> list[dict[str, Any]]:
    taints = _part(obj, "spec").get("taints")
    return [t for t in taints if isinstance(t, dict)] if isinstance(taints, list) else []


def _mark(obj: Mapping[str, Any]) -> dict[str, Any] | None:
    annotations = _part(obj, "metadata").get("annotations")
    raw = annotations.get(ANNOTATION) if isinstance(annotations, dict) else None
    if not isinstance(raw, str):
        return None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):  # an annotation anyone who may annotate nodes wrote: nested past the parser
        return {}
    return value if isinstance(value, dict) else {}
