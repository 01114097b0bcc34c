"""A bounded local copy of one Kubernetes API collection, kept current with list + watch on a daemon thread.

One reflector per collection per node (a collection whose API version is not served, HTTP 404, is tried at the
next version given). It lists once (``fieldSelector``, usually ``spec.nodeName=<node>``), then
watches from the list's ``resourceVersion``, resuming from the last version it saw whenever the server ends the
watch (``timeoutSeconds``). A ``410 Gone`` (the version was compacted away) relists; every relist and every retry
after a failure waits first, capped exponential with jitter (1 s doubling to 60 s, ``Backoff``), and only a watch
that stayed open resets the schedule: a server answering 410 right after each good list costs a request every
minute, not a hundred in twenty seconds. So a node costs the API server a request every few minutes, never one per
collection, and the collection thread only reads the last copy (an atomic reference swap, so it never waits on the
network).

Every request goes through ``gpuscope.kube.client`` (a total deadline, no redirect, a capped body; a watch ends by
its ``timeoutSeconds`` plus a grace, its own watchdog ending one that keeps talking past that). Memory is
bounded: a list is read in pages of ``PAGE_LIMIT`` objects (``limit``/``continue``), each page answer at most
``MAX_PAGE_BYTES`` (a server that ignores ``limit`` and sends more is refused, and the log says so), an event line
is at most ``MAX_EVENT_BYTES``, and at most ``max_objects`` objects are kept (``decode`` keeps only what attribution
needs of each), weighing at most a ``Budget``'s bytes together when one is given: counts alone let 2,048 pods of 64
labels of 700 characters hold 175 MiB. Past the budget an object is kept in its ``shrink`` form (a pod without its
labels: attribution still finds it) when that fits, else not kept; either is counted (``full``) and logged. An
object ``decode`` cannot read (``containerStatuses: 5``) is skipped with a warning, never the list; an answer
nested past the parser's depth is one ``bad_response`` line, not a traceback. What each collection keeps of an
object (pods, ResourceSlices) is its user's decoder (``gpuscope.exporter.attribution``).
"""

from __future__ import annotations

import contextlib
import http.client
import logging
import random
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from gpuscope.backoff import Backoff
from gpuscope.kube.client import ERROR_ANSWER_BYTES, ApiServer, Watchdog, WatchError, fetch, json_object, pages

log = logging.getLogger(__name__)

MAX_EVENT_BYTES = 4 * 1024 * 1024  # one watch event: a pod object is a few KiB, a large one tens
# One page of a list: PAGE_LIMIT pods of a few KiB (tens for a large one). Parsed JSON takes several times its
# bytes, so the cap keeps a list's peak far below the DaemonSet's 128 MiB memory limit whatever the node runs.
PAGE_LIMIT = 100
MAX_PAGE_BYTES = 8 * 1024 * 1024
MAX_PAGES = 64  # PAGE_LIMIT x MAX_PAGES objects is far past max_objects: a server that never ends a list is refused
LIST_DEADLINE_S = 30.0  # one page, request and whole answer
WATCH_TIMEOUT_S = 300  # the server ends each watch after this; the reflector resumes from the last version
BACKOFF_S = (1.0, 60.0)
JITTER = 0.2  # each wait is up to 20 % longer, so a DaemonSet's nodes do not retry in step

T = TypeVar("T")
# An object of the collection -> (key, what to keep), or None to skip it.
Decoder = Callable[[Mapping[str, Any]], tuple[str, T] | None]


class _Gone(Exception):
    """The resourceVersion is too old: relist."""


class _NotServed(WatchError):
    """HTTP 404 on the collection: this API version is not served; the next one is tried."""


@dataclass(frozen=True, slots=True)
class Budget(Generic[T]):
    """A byte budget for a reflector's copy: ``weigh`` estimates an object's memory (an upper bound), ``shrink``
    gives the smaller form kept past the budget (None: such objects are not kept at all)."""

    max_bytes: int
    weigh: Callable[[T], int]
    shrink: Callable[[T], T] | None = None
    shrunk: str = "kept in a smaller form"  # what the log says ``shrink`` left out


@dataclass(frozen=True, slots=True)
class ReflectorStatus:
    """How the reflector fares, for the self-metrics."""

    up: bool = False  # the last list or watch request succeeded
    synced: bool = False  # a list has completed at least once: the copy is the server's
    objects: int = 0
    bytes: int = 0  # the copy's weight under its ``Budget`` (0 without one)
    requests: int = 0  # HTTP requests made since start (lists and watches)
    errors: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


class Reflector(Generic[T]):
    """Keeps ``items()`` equal to the server's collection (as ``decode`` sees it), from a daemon thread."""

    def __init__(
        self,
        server: ApiServer,
        paths: tuple[str, ...],
        decode: Decoder[T],
        *,
        field_selector: str = "",
        max_objects: int = 2048,
        budget: Budget[T] | None = None,
        watch_timeout_s: int = WATCH_TIMEOUT_S,
        read_grace_s: float = 30.0,
        backoff_s: tuple[float, float] = BACKOFF_S,
        what: str = "objects",
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self.server = server
        self.paths = paths  # the collection's path in each API version, newest first: a 404 tries the next
        self.path = paths[0]
        self.decode = decode
        self.field_selector = field_selector
        self.max_objects = max_objects
        self.budget = budget
        self._bytes = 0  # the copy's weight, when there is a budget
        self.watch_timeout_s = watch_timeout_s
        self.read_grace_s = read_grace_s
        self.backoff_s = backoff_s
        self.backoff = Backoff(backoff_s[0], backoff_s[1], jitter=JITTER, random=jitter)
        self.what = what
        self._items: Mapping[str, T] = MappingProxyType({})
        self._stop = threading.Event()
        self._synced_event = threading.Event()
        self._lock = threading.Lock()  # guards the counters and the live connection, never held over I/O
        self._conn: http.client.HTTPSConnection | None = None
        self._thread: threading.Thread | None = None
        self._up = False
        self._synced = False
        self._requests = 0
        self._errors: dict[str, int] = {}
        self._problem = ""
        self._malformed_problem = ""

    def items(self) -> Mapping[str, T]:
        """The current copy (read-only; replaced whole on every change, so it is consistent)."""
        return self._items

    def status(self) -> ReflectorStatus:
        with self._lock:
            return ReflectorStatus(
                up=self._up,
                synced=self._synced,
                objects=len(self._items),
                bytes=self._bytes,
                requests=self._requests,
                errors=MappingProxyType(dict(self._errors)),
            )

    def wait_synced(self, timeout_s: float) -> bool:
        """Wait until the first list has completed (or ``timeout_s`` passed); True when it has."""
        return self._synced_event.wait(timeout_s)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"kube-watch-{self.what}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            conn = self._conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):
                conn.sock.shutdown(socket.SHUT_RDWR)  # unblocks a watch read at once
        if self._thread is not None:
            self._thread.join(10)

    def _run(self) -> None:
        version: str | None = None
        while not self._stop.is_set():
            try:
                if version is None:
                    version = self._list()
                started = time.monotonic()
                version = self._watch(version)
                if time.monotonic() - started >= min(1.0, self.watch_timeout_s / 2):
                    self.backoff.reset()  # a watch that stayed open: the server is well, start the schedule over
                    continue
                # Ended at once without an error (a proxy closing streams?): never a tight loop of watches.
                self._stop.wait(self.backoff.next())
            except _NotServed as exc:
                if self.path == self.paths[0]:  # every version tried: none is served (no DRA on this cluster?)
                    self._retry(exc)
            except _Gone:
                version = None  # relist, after a wait: a server answering 410 to every watch must not be hammered
                self._retry(WatchError("expired", "resourceVersion too old (410 Gone): relisting"))
            except WatchError as exc:
                self._retry(exc)
            except Exception:  # a bug here must not end the watch for good: log it, back off, try again
                log.exception("Kubernetes %s watch failed", self.what)
                self._retry(WatchError("bad_response", "unexpected error"))

    def _retry(self, exc: WatchError) -> None:
        """Count the failure, say it, and wait before the next attempt (``Backoff``)."""
        delay = self.backoff.next()
        self._failed(exc, delay)
        self._stop.wait(delay)

    def _failed(self, exc: WatchError, delay: float | None = None) -> None:
        with self._lock:
            self._up = False
            self._errors[exc.reason] = self._errors.get(exc.reason, 0) + 1
        after = "" if delay is None else f"; next try in {delay:.1f}s"
        if exc.reason == "expired":
            log.info("Kubernetes %s watch: %s%s", self.what, exc, after)
        elif str(exc) != self._problem:
            self._problem = str(exc)
            log.warning("Kubernetes %s from the API server unavailable (%s): %s%s", self.what, exc.reason, exc, after)

    def _ok(self) -> None:
        with self._lock:
            self._up = True
        if self._problem:
            log.info("Kubernetes %s: the API server answers again", self.what)
            self._problem = ""

    def _url(self, **params: str) -> str:
        query = {"fieldSelector": self.field_selector, **params} if self.field_selector else params
        return f"{self.path}?{urllib.parse.urlencode(query)}" if query else self.path

    def _request(self, url: str, timeout_s: float) -> tuple[http.client.HTTPSConnection, http.client.HTTPResponse]:
        conn, token = self.server.connect(timeout_s)
        with self._lock:
            self._requests += 1
            self._conn = conn
        try:
            conn.request("GET", url, headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
            response = conn.getresponse()
        except TimeoutError:
            conn.close()
            raise WatchError("timeout", f"no answer from {self.server.where}") from None
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise WatchError("unreachable", f"{self.server.where}: {exc}") from None
        if response.status != 200:
            response.read(ERROR_ANSWER_BYTES)
            conn.close()
            if response.status == 404:
                missing, self.path = self.path, self.paths[(self.paths.index(self.path) + 1) % len(self.paths)]
                raise _NotServed("bad_response", f"HTTP 404: the API server serves no {missing}")
            raise _status_error(response.status, self.what)
        return conn, response

    def _page(self, params: Mapping[str, str]) -> dict[str, Any]:
        """One page of the list (``limit``/``continue``), read whole within its deadline."""

        def connected(conn: http.client.HTTPSConnection) -> None:
            with self._lock:
                self._requests += 1
                self._conn = conn

        status, body = fetch(
            self.server, self._url(**params), deadline_s=LIST_DEADLINE_S, max_bytes=MAX_PAGE_BYTES, on_connect=connected
        )
        if status == 404:
            missing, self.path = self.path, self.paths[(self.paths.index(self.path) + 1) % len(self.paths)]
            raise _NotServed("bad_response", f"HTTP 404: the API server serves no {missing}")
        if status != 200:
            raise _status_error(status, self.what)
        return json_object(body)

    def _list(self) -> str:
        items: dict[str, T] = {}
        dropped = shrunk = weight = 0
        malformed: list[str] = []
        version: object = None
        for document in pages(self._page, limit=PAGE_LIMIT, max_pages=MAX_PAGES, what=self.what):
            for obj in _list_items(document):
                kept = self._decode(obj, malformed)
                if kept is None:
                    continue
                fitted = self._fit(kept[1], weight, items) if len(items) < self.max_objects else None
                if fitted is None:
                    dropped += 1
                    continue
                items[kept[0]], weight, smaller = fitted
                shrunk += smaller
            metadata = document.get("metadata")
            version = metadata.get("resourceVersion") if isinstance(metadata, dict) else None
        if not isinstance(version, str) or not version:
            raise WatchError("bad_response", "list answer without metadata.resourceVersion")
        self._items = MappingProxyType(items)
        with self._lock:
            self._bytes = weight
        self._say_malformed(malformed)
        if dropped:
            self._failed(WatchError("full", f"{dropped} {self.what} over the {self._limits()} not kept"))
        if shrunk:
            self._failed(WatchError("full", self._over_budget(f"{shrunk} {self.what}")))
        with self._lock:
            self._synced = True
        self._synced_event.set()
        self._ok()
        log.debug("listed %d Kubernetes %s at resourceVersion %s", len(items), self.what, version)
        return version

    def _fit(self, value: T, weight: int, items: dict[str, T]) -> tuple[T, int, int] | None:
        """``value`` as the copy can keep it next to ``items`` (weighing ``weight``): (what is kept, the copy's new
        weight, how many objects were shrunk for it), or None when even its shrunk form cannot fit.

        Past the budget the new object is kept shrunk, and when even that does not fit, objects already kept are
        shrunk (oldest first) to make room: a pod without labels is still attributed, a pod missing is not. Objects
        kept whole stay whole otherwise (their series keep their labels: no churn)."""
        budget = self.budget
        if budget is None:
            return value, 0, 0
        size = budget.weigh(value)
        if weight + size <= budget.max_bytes:
            return value, weight + size, 0
        if budget.shrink is None:
            return None
        small = budget.shrink(value)
        size = budget.weigh(small)
        shrunk = 1
        for key in list(items) if weight + size > budget.max_bytes else ():
            was = items[key]
            smaller = budget.shrink(was)
            saved = budget.weigh(was) - budget.weigh(smaller)
            if saved > 0:
                items[key] = smaller
                weight -= saved
                shrunk += 1
                if weight + size <= budget.max_bytes:
                    break
        if weight + size > budget.max_bytes:
            return None
        return small, weight + size, shrunk

    def _limits(self) -> str:
        budget = "" if self.budget is None else f" or the {self.budget.max_bytes / 2**20:g} MiB memory budget"
        return f"limit of {self.max_objects}{budget}"

    def _over_budget(self, which: str) -> str:
        assert self.budget is not None
        return f"{which} {self.budget.shrunk}: the {self.budget.max_bytes / 2**20:g} MiB memory budget is reached"

    def _decode(self, obj: object, malformed: list[str]) -> tuple[str, T] | None:
        """What ``decode`` keeps of one object; an object it cannot read is skipped and named in ``malformed``."""
        if not isinstance(obj, dict):
            malformed.append(f"an item that is not an object ({type(obj).__name__})")
            return None
        try:
            return self.decode(obj)
        except (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError) as exc:
            reason = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
            malformed.append(f"{_name(obj)[:200]!r} ({reason})")
            return None

    def _say_malformed(self, malformed: list[str]) -> None:
        """One warning per new set of malformed objects (a relist finding the same ones says nothing again)."""
        if not malformed:
            self._malformed_problem = ""
            return
        problem = f"{len(malformed)} malformed {self.what} skipped, the others kept: " + ", ".join(malformed[:3])
        if problem != self._malformed_problem:
            self._malformed_problem = problem
            log.warning("Kubernetes %s from the API server: %s", self.what, problem)

    def _watch(self, version: str) -> str:
        url = self._url(
            watch="1",
            resourceVersion=version,
            allowWatchBookmarks="true",
            timeoutSeconds=str(self.watch_timeout_s),
        )
        # A watch that stays silent past the server's own timeout has hung: drop it and watch again. The watchdog
        # ends one that keeps talking past it (a byte a second never trips the per-read timeout).
        limit_s = self.watch_timeout_s + self.read_grace_s
        conn, response = self._request(url, timeout_s=limit_s)
        self._ok()
        watchdog = Watchdog(conn, limit_s).__enter__()
        try:
            while not self._stop.is_set():
                try:
                    line = response.readline(MAX_EVENT_BYTES + 1)
                except TimeoutError:
                    raise WatchError("timeout", "the watch went silent past its timeout") from None
                except (OSError, http.client.HTTPException) as exc:
                    if self._stop.is_set():
                        break
                    if watchdog.fired:
                        raise WatchError("timeout", f"the watch outlasted its {limit_s:g}s deadline") from None
                    raise WatchError("unreachable", f"watch dropped: {exc}") from None
                if watchdog.fired:
                    raise WatchError("timeout", f"the watch outlasted its {limit_s:g}s deadline")
                if not line:
                    break  # the server ended the watch (timeoutSeconds): resume from the last version
                if len(line) > MAX_EVENT_BYTES:
                    raise WatchError("bad_response", f"watch event over {MAX_EVENT_BYTES} bytes")
                if line.strip():
                    version = self._apply(json_object(line), version)
        finally:
            watchdog.__exit__(None, None, None)
            conn.close()
        return version

    def _apply(self, event: Mapping[str, Any], version: str) -> str:
        kind, obj = event.get("type"), event.get("object")
        if not isinstance(obj, dict):
            raise WatchError("bad_response", "watch event without an object")
        if kind == "ERROR":
            if obj.get("code") == 410:
                raise _Gone()
            code = obj.get("code")
            raise _status_error(code if isinstance(code, int) else 0, self.what)
        metadata = obj.get("metadata")
        new_version = metadata.get("resourceVersion") if isinstance(metadata, dict) else None
        if kind in ("ADDED", "MODIFIED", "DELETED"):
            self._change(kind, obj)
        if isinstance(new_version, str) and new_version:
            return new_version
        return version

    def _change(self, kind: str, obj: Mapping[str, Any]) -> None:
        malformed: list[str] = []
        kept = self._decode(obj, malformed)
        if malformed:  # skipped (and an older copy of it dropped): the watch goes on
            self._say_malformed(malformed)
        key = kept[0] if kept is not None else _key(obj)
        items = dict(self._items)
        old = items.pop(key, None)
        weight = self._bytes - (self.budget.weigh(old) if self.budget is not None and old is not None else 0)
        if kind == "DELETED" or kept is None:
            if old is None:
                return
        else:
            fitted = self._fit(kept[1], weight, items) if old is not None or len(items) < self.max_objects else None
            if fitted is None:
                # Not kept (and an older copy of it dropped: a stale one would be wrong, not just incomplete).
                self._failed(WatchError("full", f"{self.what} over the {self._limits()} are not kept"))
                if old is None:
                    return
            else:
                items[key], weight, smaller = fitted
                if smaller:
                    self._failed(WatchError("full", self._over_budget(self.what)))
        self._items = MappingProxyType(items)
        with self._lock:
            self._bytes = weight


def _key(obj: Mapping[str, Any]) -> str:
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        return ""
    uid = metadata.get("uid")
    return uid if isinstance(uid, str) and uid else f"{metadata.get('namespace', '')}/{metadata.get('name', '')}"


def _name(obj: Mapping[str, Any]) -> str:
    """``namespace/name`` (``name`` for a cluster-scoped object), as a person finds it with kubectl."""
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        return "(no metadata)"
    namespace, name = metadata.get("namespace"), metadata.get("name")
    return f"{namespace}/{name}" if isinstance(namespace, str) and namespace else str(name)


def object_key(obj: Mapping[str, Any]) -> str:
    """The key a decoder should use: ``metadata.uid`` (``namespace/name`` without one)."""
    return _key(obj)


def _list_items(document: Mapping[str, Any]) -> list[Any]:
    items = document.get("items")
    if items is None:
        return []
    if not isinstance(items, list):
        raise WatchError("bad_response", f"a list answer whose items is a {type(items).__name__}, not a list")
    return items


def _status_error(status: int, what: str) -> Exception:
    if status == 410:
        return _Gone()
    if status == 401:
        return WatchError("unauthorized", "HTTP 401: the service account token is missing, expired or not accepted")
    if status == 403:
        return WatchError(
            "forbidden",
            f"HTTP 403: grant get/list/watch on {what} to the exporter's service account (gpuscope generate does)",
        )
    if status >= 500 or status == 429:
        return WatchError("server_error", f"HTTP {status} from the API server")
    return WatchError("bad_response", f"HTTP {status} from the API server")
