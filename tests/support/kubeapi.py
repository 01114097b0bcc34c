"""A Kubernetes API server stand-in: real HTTPS on loopback, serving a bearer token's requests.

It answers as the API server does (JSON objects, ``Status`` errors, 401 without the token):

- ``GET /api/v1/namespaces/<ns>/configmaps/<name>``: a ConfigMap, or a 404/403 Status;
- ``GET /api/v1/pods`` and ``GET /apis/resource.k8s.io/<version>/resourceslices``: a list with
  ``metadata.resourceVersion``, filtered by ``fieldSelector=spec.nodeName=<node>``;
- the same with ``watch=1``: a chunked stream of JSON watch events (``ADDED``/``MODIFIED``/``DELETED``) after
  ``resourceVersion``, ended after ``timeoutSeconds``; a version older than the retained history gets an
  ``ERROR`` event with a 410 (Gone) Status, as after etcd compaction.

Tests change pods and slices while a client watches (``create_pod``, ``relabel_pod``, ``delete_pod``,
``put_slice``), and can compact the history, end every open watch, make watches hang silently or make every
request fail with a status. It also writes the service-account directory (``token``, ``ca.crt``) a pod would have.

Nodes, Events and Leases, with the real API's write semantics (what ``gpuscope remediate`` relies on):

- ``GET /api/v1/nodes`` and ``/api/v1/nodes/<name>``; ``PATCH`` of a node and of its ``/status`` subresource in
  the three patch types (``tests/support/kubepatch.py``: merge patch, strategic merge patch with the Node type's
  merge keys, JSON patch), any other content type 415, a patch that cannot apply 422. The main resource ignores
  changes to ``status`` and the subresource everything but ``status``, as the API server does. A patch or update
  whose ``metadata.resourceVersion`` is not the object's current one is 409 Conflict;
- ``POST /api/v1/namespaces/<ns>/events`` (``generateName`` honoured), listed by ``events_for(node)``;
- ``GET``/``PUT /apis/coordination.k8s.io/v1/namespaces/<ns>/leases/<name>`` and ``POST`` to the collection
  (409 AlreadyExists for a second create);
- ``deny("patch", "nodes/status")``: that verb on that resource answers 403, as a missing RBAC rule does.

Lists are paged as the API server pages them (``limit`` and an opaque ``continue`` token), unless ``ignore_limit``
(a server or proxy that sends everything at once). Hostile answers: ``gone_watches`` answers every watch with a 410
Gone at once (right after a good list), and ``answer`` lets a test write any answer to any GET itself (a redirect,
a drip, a nesting bomb), after the token check.

``only``, ``raw`` and ``dripping`` make such answers: the remediator's client and ``-m`` are tested against them.

Tests act as a person would with ``person_cordon`` and ``person_taint``; ``meddle[node]`` makes that node's next
patches race another writer (409 for a patch carrying the old version), ``stall`` holds node reads (a slow API server).
"""

from __future__ import annotations

import json
import re
import ssl
import threading
import time
import urllib.parse
import uuid as uuidlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.support.certs import CertAuthority
from tests.support.kubepatch import PATCH_TYPES, PatchError, apply_patch

_CONFIGMAP = re.compile(r"^/api/v1/namespaces/([^/]+)/configmaps/([^/]+)$")
_NODE = re.compile(r"^/api/v1/nodes/([^/]+)(/status)?$")
_EVENTS = re.compile(r"^/api/v1/namespaces/([^/]+)/events$")
_LEASES = re.compile(r"^/apis/coordination\.k8s\.io/v1/namespaces/([^/]+)/leases(?:/([^/]+))?$")
_COLLECTIONS = {"/api/v1/pods": "pods"}
SLICE_VERSIONS = ("v1", "v1beta2", "v1beta1")
_INVALID = object()  # a request body that is not JSON


@dataclass
class FakeKubeApi:
    host: str
    port: int
    sa_dir: Path
    token: str
    configmaps: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    readable_namespaces: set[str] | None = None  # None: the token may read every namespace
    requests: list[str] = field(default_factory=list)
    fail_with: int | None = None  # answer every pods/slices request with this HTTP status
    hang_watches: bool = False  # watches send headers, then nothing until the client gives up
    slice_versions: tuple[str, ...] = SLICE_VERSIONS  # the resource.k8s.io versions served
    version: int = 100
    objects: dict[str, dict[str, dict[str, Any]]] = field(
        default_factory=lambda: {"pods": {}, "resourceslices": {}, "nodes": {}, "events": {}, "leases": {}}
    )
    denied: set[tuple[str, str]] = field(default_factory=set)  # (verb, resource) answered 403
    writes: list[tuple[str, str, str]] = field(default_factory=list)  # (method, path, content type) of each write
    # node -> N: its next N patches find it just changed by another writer (per node: a patch of another node, say
    # a remediation of an earlier test's alert finishing late on a loaded machine, must not use them up)
    meddle: dict[str, int] = field(default_factory=dict)
    stall: threading.Event | None = None  # node reads wait until it is set (a slow API server)
    history: list[tuple[int, str, str, dict[str, Any]]] = field(default_factory=list)  # (rv, collection, type, obj)
    oldest: int = 0  # watches from a version below this get 410 Gone
    watches_open: int = 0
    watches_served: int = 0
    generation: int = 0  # end_watches bumps it: every watch opened before ends
    closing: bool = False
    cond: threading.Condition = field(default_factory=threading.Condition)
    gone_watches: bool = False  # every watch: an ERROR event with a 410 Gone Status, at once
    ignore_limit: bool = False  # lists: every item in one answer, whatever the client's limit
    # A test's own answer to a GET (after the token check): returns True when it answered. It writes to the handler.
    answer: Callable[[BaseHTTPRequestHandler, str], bool] | None = None

    def env(self) -> dict[str, str]:
        """What a pod's environment says about the API server, plus where this service account lives."""
        return {
            "KUBERNETES_SERVICE_HOST": self.host,
            "KUBERNETES_SERVICE_PORT": str(self.port),
            "GPUSCOPE_SERVICEACCOUNT_DIR": str(self.sa_dir),
        }

    # -- changes, as the control plane makes them --------------------------------------------------------------

    def _record(self, collection: str, kind: str, key: str, obj: dict[str, Any]) -> None:
        with self.cond:
            self.version += 1
            obj["metadata"]["resourceVersion"] = str(self.version)
            if kind == "DELETED":
                self.objects[collection].pop(key, None)
            else:
                self.objects[collection][key] = obj
            self.history.append((self.version, collection, kind, json.loads(json.dumps(obj))))
            self.cond.notify_all()

    def create_pod(
        self, namespace: str, name: str, node: str, labels: Mapping[str, str] | None = None, uid: str = ""
    ) -> str:
        uid = uid or str(uuidlib.uuid4())
        obj = {
            "kind": "Pod",
            "apiVersion": "v1",
            "metadata": {"name": name, "namespace": namespace, "uid": uid, "labels": dict(labels or {})},
            "spec": {"nodeName": node, "containers": [{"name": "main", "image": "busybox"}]},
            "status": {"phase": "Running"},
        }
        self._record("pods", "ADDED", f"{namespace}/{name}", obj)
        return uid

    def put(self, collection: str, key: str, obj: dict[str, Any]) -> None:
        """Store ``obj`` as it is (any shape: what a hostile or buggy control plane might serve), as an ADDED."""
        obj.setdefault("metadata", {})
        self._record(collection, "ADDED", key, obj)

    def relabel_pod(self, namespace: str, name: str, labels: Mapping[str, str]) -> None:
        with self.cond:
            obj = json.loads(json.dumps(self.objects["pods"][f"{namespace}/{name}"]))
        obj["metadata"]["labels"] = dict(labels)
        self._record("pods", "MODIFIED", f"{namespace}/{name}", obj)

    def delete_pod(self, namespace: str, name: str) -> None:
        with self.cond:
            obj = json.loads(json.dumps(self.objects["pods"][f"{namespace}/{name}"]))
        self._record("pods", "DELETED", f"{namespace}/{name}", obj)

    def put_slice(self, name: str, node: str, pool: str, devices: list[dict[str, Any]], version: str = "v1") -> None:
        """A ResourceSlice of the NVIDIA DRA driver; ``devices`` as that API version writes them."""
        obj = {
            "kind": "ResourceSlice",
            "apiVersion": f"resource.k8s.io/{version}",
            "metadata": {"name": name, "uid": str(uuidlib.uuid4())},
            "spec": {
                "driver": "gpu.nvidia.com",
                "nodeName": node,
                "pool": {"name": pool, "generation": 1, "resourceSliceCount": 1},
                "devices": devices,
            },
        }
        kind = "MODIFIED" if name in self.objects["resourceslices"] else "ADDED"
        self._record("resourceslices", kind, name, obj)

    # -- nodes, events, leases ----------------------------------------------------------------------------------

    def add_node(self, name: str, labels: Mapping[str, str] | None = None, gpus: int = 8) -> None:
        """A node as the kubelet registers it; ``gpus`` is its ``nvidia.com/gpu`` capacity (0: a CPU node, none)."""
        capacity = {"cpu": "64", "memory": "512Gi", **({"nvidia.com/gpu": str(gpus)} if gpus else {})}
        obj = {
            "kind": "Node",
            "apiVersion": "v1",
            "metadata": {"name": name, "uid": str(uuidlib.uuid4()), "labels": dict(labels or {}), "annotations": {}},
            "spec": {},
            "status": {
                "capacity": capacity,
                "allocatable": dict(capacity),
                "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady"}],
            },
        }
        self._record("nodes", "ADDED", name, obj)

    def node(self, name: str) -> dict[str, Any]:
        with self.cond:
            copy: dict[str, Any] = json.loads(json.dumps(self.objects["nodes"][name]))
            return copy

    def condition(self, name: str, kind: str) -> dict[str, Any] | None:
        return next((c for c in self.node(name)["status"].get("conditions", []) if c["type"] == kind), None)

    def taints(self, name: str) -> list[dict[str, Any]]:
        taints: list[dict[str, Any]] = self.node(name)["spec"].get("taints", [])
        return taints

    def events_for(self, node: str) -> list[dict[str, Any]]:
        with self.cond:
            events = [json.loads(json.dumps(e)) for e in self.objects["events"].values()]
        return [e for e in events if e.get("involvedObject", {}).get("name") == node]

    def deny(self, verb: str, resource: str) -> None:
        self.denied.add((verb, resource))

    def _change_node(self, name: str, change: Any) -> None:
        obj = self.node(name)
        change(obj)
        self._record("nodes", "MODIFIED", name, obj)

    def person_cordon(self, name: str) -> None:
        """``kubectl cordon``."""
        self._change_node(name, lambda o: o["spec"].__setitem__("unschedulable", True))

    def person_uncordon(self, name: str) -> None:
        self._change_node(name, lambda o: o["spec"].pop("unschedulable", None))

    def person_taint(self, name: str, key: str, effect: str = "NoSchedule") -> None:
        """``kubectl taint node <name> <key>:<effect>``."""
        self._change_node(name, lambda o: o["spec"].setdefault("taints", []).append({"key": key, "effect": effect}))

    def person_untaint(self, name: str, key: str) -> None:
        def drop(obj: dict[str, Any]) -> None:
            obj["spec"]["taints"] = [t for t in obj["spec"].get("taints", []) if t["key"] != key]

        self._change_node(name, drop)

    def write(self, collection: str, key: str, new: dict[str, Any]) -> tuple[int, Any]:
        """Store ``new`` unless it names a ``resourceVersion`` that is no longer the object's (409 Conflict).

        Call with ``cond`` held from the read the change was computed from, so nothing comes between."""
        with self.cond:
            current = self.objects[collection].get(key)
            given = new.get("metadata", {}).get("resourceVersion")
            now = current["metadata"]["resourceVersion"] if current else None
            if given and current is not None and given != now:
                message = f'Operation cannot be fulfilled on {collection} "{key}": the object has been modified'
                return 409, _status(409, "Conflict", message)
            self._record(collection, "MODIFIED" if current else "ADDED", key, new)
            return 200, json.loads(json.dumps(new))

    def compact(self) -> None:
        """Forget the event history (etcd compaction): a watch from an older version gets 410 Gone."""
        with self.cond:
            self.oldest = self.version + 1
            self.history.clear()
            self.cond.notify_all()

    def end_watches(self) -> None:
        """End every open watch now (as the server does after timeoutSeconds)."""
        with self.cond:
            self.generation += 1
            self.cond.notify_all()

    def count(self, prefix: str) -> int:
        return sum(1 for r in self.requests if r.startswith(prefix))

    def events_after(self, collection: str, since: int, selector: str) -> tuple[list[dict[str, Any]], int]:
        """The watch events after ``since`` (call with ``cond`` held), and the version to continue from."""
        if since < self.oldest - 1 or self.gone_watches:
            gone = _status(410, "Expired", f"too old resource version: {since} ({self.oldest})")
            return [{"type": "ERROR", "object": gone}], self.version
        if self.hang_watches:
            return [], since
        events = [
            {"type": kind, "object": obj}
            for rv, coll, kind, obj in self.history
            if rv > since and coll == collection and _selected(obj, selector)
        ]
        return events, max([since, *(rv for rv, coll, _, _ in self.history if coll == collection)])


def _status(code: int, reason: str, message: str) -> dict[str, Any]:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "status": "Failure",
        "message": message,
        "reason": reason,
        "code": code,
    }


def _selected(obj: Mapping[str, Any], selector: str) -> bool:
    if not selector:
        return True
    key, _, value = selector.partition("=")
    assert key == "spec.nodeName", f"the fake API server knows only spec.nodeName field selectors, not {selector!r}"
    return bool(obj.get("spec", {}).get("nodeName") == value)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked watch streams
    api: FakeKubeApi

    def log_message(self, format: str, *args: object) -> None:
        pass

    def _send(self, code: int, body: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _json(self, code: int, value: Mapping[str, Any]) -> None:
        self._send(code, json.dumps(value).encode())

    def do_GET(self) -> None:
        api = self.api
        api.requests.append(self.path)
        if self.headers.get("Authorization") != f"Bearer {api.token}":
            self._json(401, _status(401, "Unauthorized", "Unauthorized"))
            return
        if api.answer is not None and api.answer(self, self.path):
            return
        url = urllib.parse.urlsplit(self.path)
        query = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
        collection = _COLLECTIONS.get(url.path)
        match = re.fullmatch(r"/apis/resource\.k8s\.io/([^/]+)/resourceslices", url.path)
        if match and match[1] in api.slice_versions:
            collection = "resourceslices"
        if collection is None and self._object_get(url.path, query):
            return
        if collection is None:
            self._configmap(url.path)
        elif api.fail_with is not None:
            self._json(api.fail_with, _status(api.fail_with, "Failure", f"told to fail with {api.fail_with}"))
        elif query.get("watch") in ("1", "true"):
            self._watch(collection, query)
        else:
            self._list(collection, query)

    def _list(self, collection: str, query: Mapping[str, str]) -> None:
        selector = query.get("fieldSelector", "")
        with self.api.cond:
            items = [o for o in self.api.objects[collection].values() if _selected(o, selector)]
            version = str(self.api.version)
        metadata = {"resourceVersion": version}
        limit = int(query.get("limit") or 0)
        if limit > 0 and not self.api.ignore_limit:
            start = int(query.get("continue") or 0)  # the real token is opaque; an offset serves the tests
            items, rest = items[start : start + limit], items[start + limit :]
            if rest:
                metadata["continue"] = str(start + limit)
        kind = {"pods": "PodList", "nodes": "NodeList"}.get(collection, "ResourceSliceList")
        self._json(200, {"kind": kind, "metadata": metadata, "items": items})

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _watch(self, collection: str, query: Mapping[str, str]) -> None:
        api = self.api
        since = int(query.get("resourceVersion") or 0)
        selector = query.get("fieldSelector", "")
        deadline = time.monotonic() + float(query.get("timeoutSeconds") or 1800)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()
        with api.cond:
            api.watches_open += 1
            api.watches_served += 1
            generation = api.generation
        try:
            while api.hang_watches or time.monotonic() < deadline:  # a hung watch ignores its timeout
                with api.cond:
                    if api.closing or api.generation != generation:
                        break
                    events, since = api.events_after(collection, since, selector)
                    if not events:
                        api.cond.wait(0.2)
                        continue
                for event in events:
                    self._chunk(json.dumps(event).encode() + b"\n")
                if events[0]["type"] == "ERROR":
                    break
            self._chunk(b"")
        except OSError:
            pass  # the client went away
        finally:
            with api.cond:
                api.watches_open -= 1
        self.close_connection = True

    # -- nodes, events, leases ----------------------------------------------------------------------------------

    def _denied(self, verb: str, resource: str) -> bool:
        if (verb, resource) in self.api.denied:
            message = f'{resource} is forbidden: User "system:serviceaccount:test" cannot {verb} resource'
            self._json(403, _status(403, "Forbidden", message))
            return True
        return False

    def _object_get(self, path: str, query: Mapping[str, str]) -> bool:
        api = self.api
        node, lease = _NODE.match(path), _LEASES.match(path)
        if path == "/api/v1/nodes":
            if not self._denied("list", "nodes"):
                self._list("nodes", query)
            return True
        if node and not node[2]:
            if api.stall is not None:
                api.stall.wait(60)
            self._one("get", "nodes", node[1])
            return True
        if lease and lease[2]:
            self._one("get", "leases", f"{lease[1]}/{lease[2]}")
            return True
        return False

    def _one(self, verb: str, collection: str, key: str) -> None:
        if self._denied(verb, collection):
            return
        with self.api.cond:
            obj = self.api.objects[collection].get(key)
        if obj is None:
            self._json(404, _status(404, "NotFound", f'{collection} "{key.rsplit("/", 1)[-1]}" not found'))
        else:
            self._json(200, obj)

    def _body(self) -> Any:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return _INVALID

    def _authorized(self, method: str) -> bool:
        api = self.api
        api.requests.append(f"{method} {self.path}")
        api.writes.append((method, self.path, self.headers.get("Content-Type", "")))
        if self.headers.get("Authorization") != f"Bearer {api.token}":
            self._json(401, _status(401, "Unauthorized", "Unauthorized"))
            return False
        return True

    def do_PATCH(self) -> None:
        if not self._authorized("PATCH"):
            return
        match = _NODE.match(urllib.parse.urlsplit(self.path).path)
        body = self._body()
        if match is None:
            self._json(405, _status(405, "MethodNotAllowed", "the fake API server patches only nodes"))
            return
        name, subresource = match[1], bool(match[2])
        if self._denied("patch", "nodes/status" if subresource else "nodes"):
            return
        if body is _INVALID:
            self._json(400, _status(400, "BadRequest", "the patch is not JSON"))
            return
        api = self.api
        with api.cond:
            if api.meddle.get(name) and name in api.objects["nodes"]:
                api.meddle[name] -= 1
                api._change_node(name, lambda o: o["metadata"]["labels"].__setitem__("meddled", "yes"))
            current = api.objects["nodes"].get(name)
            if current is None:
                self._json(404, _status(404, "NotFound", f'nodes "{name}" not found'))
                return
            try:
                patched = apply_patch(self.headers.get("Content-Type", ""), json.loads(json.dumps(current)), body)
            except ValueError:
                kind = self.headers.get("Content-Type", "")
                message = f"unknown patch format {kind!r}: accepted media types include {', '.join(PATCH_TYPES)}"
                self._json(415, _status(415, "UnsupportedMediaType", message))
                return
            except PatchError as exc:
                self._json(422, _status(422, "Invalid", str(exc)))
                return
            if not isinstance(patched, dict) or patched.get("metadata", {}).get("name") != name:
                self._json(422, _status(422, "Invalid", "the patch changes the object's name or kind"))
                return
            # The status subresource writes only status; the main resource everything but status.
            if subresource:
                merged = {**current, "status": patched.get("status", {})}
                merged["metadata"] = {**current["metadata"], "resourceVersion": patched["metadata"]["resourceVersion"]}
            else:
                merged = {**patched, "status": current.get("status", {})}
            code, answer = api.write("nodes", name, merged)
        self._json(code, answer)

    def do_POST(self) -> None:
        if not self._authorized("POST"):
            return
        path = urllib.parse.urlsplit(self.path).path
        body = self._body()
        events, leases = _EVENTS.match(path), _LEASES.match(path)
        if not isinstance(body, dict):
            self._json(400, _status(400, "BadRequest", "the body is not a JSON object"))
            return
        if events:
            self._create("create", "events", events[1], body)
        elif leases and not leases[2]:
            self._create("create", "leases", leases[1], body)
        else:
            self._json(405, _status(405, "MethodNotAllowed", f"the fake API server creates nothing at {path}"))

    def _create(self, verb: str, collection: str, namespace: str, body: dict[str, Any]) -> None:
        if self._denied(verb, collection):
            return
        meta = body.setdefault("metadata", {})
        if collection == "events" and not isinstance(body.get("involvedObject"), dict):
            self._json(422, _status(422, "Invalid", "involvedObject: Required value"))
            return
        name = meta.get("name") or (meta.get("generateName", "") + uuidlib.uuid4().hex[:5])
        if not name:
            self._json(422, _status(422, "Invalid", "metadata.name or generateName: Required value"))
            return
        meta.update(name=name, namespace=namespace, uid=str(uuidlib.uuid4()))
        meta.pop("resourceVersion", None)
        key = f"{namespace}/{name}"
        with self.api.cond:
            if key in self.api.objects[collection]:
                self._json(409, _status(409, "AlreadyExists", f'{collection} "{name}" already exists'))
                return
            _, answer = self.api.write(collection, key, body)
        self._json(201, answer)

    def do_PUT(self) -> None:
        if not self._authorized("PUT"):
            return
        path = urllib.parse.urlsplit(self.path).path
        leases = _LEASES.match(path)
        body = self._body()
        if leases is None or not leases[2] or not isinstance(body, dict):
            self._json(405, _status(405, "MethodNotAllowed", f"the fake API server updates only leases, not {path}"))
            return
        if self._denied("update", "leases"):
            return
        key = f"{leases[1]}/{leases[2]}"
        with self.api.cond:
            if key not in self.api.objects["leases"]:
                self._json(404, _status(404, "NotFound", f'leases "{leases[2]}" not found'))
                return
            code, answer = self.api.write("leases", key, body)
        self._json(code, answer)

    def _configmap(self, path: str) -> None:
        api = self.api
        match = _CONFIGMAP.match(path)
        if match is None:
            self._json(404, _status(404, "NotFound", "the server could not find the requested resource"))
            return
        namespace, name = match.groups()
        if api.readable_namespaces is not None and namespace not in api.readable_namespaces:
            self._json(403, _status(403, "Forbidden", f'configmaps "{name}" is forbidden'))
            return
        data = api.configmaps.get((namespace, name))
        if data is None:
            self._json(404, _status(404, "NotFound", f'configmaps "{name}" not found'))
            return
        body = {
            "kind": "ConfigMap",
            "apiVersion": "v1",
            "metadata": {"name": name, "namespace": namespace},
            "data": data,
        }
        self._json(200, body)


@contextmanager
def fake_kube_api(workdir: Path) -> Iterator[FakeKubeApi]:
    ca = CertAuthority(workdir, "kube-ca")
    issued = ca.issue("kube-apiserver", server=True, ips=("127.0.0.1",))
    sa_dir = workdir / "serviceaccount"
    sa_dir.mkdir()
    token = "test-service-account-token"
    (sa_dir / "token").write_text(token + "\n")
    (sa_dir / "ca.crt").write_bytes(ca.path.read_bytes())
    handler: type[_Handler] = type("Handler", (_Handler,), {})  # a class per server: `api` is its own
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(issued.cert, issued.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    api = FakeKubeApi("127.0.0.1", server.server_address[1], sa_dir, token)
    handler.api = api
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield api
    finally:
        with api.cond:
            api.closing = True
            api.cond.notify_all()
        server.shutdown()
        server.server_close()
        thread.join(10)


# -- hostile answers for ``FakeKubeApi.answer`` --------------------------------------------------------------------

Respond = Callable[[BaseHTTPRequestHandler], None]


def only(path: str, respond: Respond) -> Callable[[BaseHTTPRequestHandler, str], bool]:
    """``respond`` to GETs of ``path``; every other request is answered as the API server would."""

    def answered(handler: BaseHTTPRequestHandler, asked: str) -> bool:
        if asked != path:
            return False
        respond(handler)
        return True

    return answered


def raw(body: bytes) -> Respond:
    """A 200 carrying ``body`` as it is (a nesting bomb, say)."""

    def respond(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    return respond


def dripping(started: threading.Event) -> Respond:
    """A 200 whose body comes a byte every half second for five minutes: only the client's deadline ends it."""

    def respond(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", "1000000")
        handler.end_headers()
        started.set()
        try:
            for _ in range(600):
                handler.wfile.write(b" ")
                handler.wfile.flush()
                time.sleep(0.5)
        except OSError:
            pass  # the client gave up: what the deadline is for
        handler.close_connection = True

    return respond
