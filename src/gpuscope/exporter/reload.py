"""Reloading the configuration of a running exporter (SIGHUP, or a rewritten ``-f`` file), as dcgm-exporter does:
never an exit.

A reload re-reads the collectors CSV (or the ConfigMap of ``-m``) and the web config file. SIGHUP asks for one;
so does a new version of a watched file (``filewatch``: the ``-f`` collectors file, which dcgm-exporter watches),
noticed by ``poll_files`` on the serving loop. Everything is read and
checked first; only when all of it is good does the new configuration replace the old, so a bad file keeps the old
configuration serving. Each outcome is one log line and the runtime's own reload state, which every scrape exports as
two self-metrics named after Prometheus's own (``exporter/selfmetrics.py``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gpuscope.errors import GpuscopeError
from gpuscope.exporter.filewatch import FileWatch
from gpuscope.exporter.runtime import NodeRuntime
from gpuscope.fields.collectors import CollectorSet
from gpuscope.flagnames import flag_names

if TYPE_CHECKING:  # the web config is loaded (by the caller's load_web) only with --web-config-file
    from gpuscope.httpd.webconfig import WebConfig

log = logging.getLogger(__name__)

# Applies a checked web config to the running server (None: the file gave no web config).
WebApplier = Callable[["WebConfig | None"], None]


class Reloader:
    """Re-reads and applies the configuration of every node of this process; one reload at a time."""

    def __init__(
        self,
        runtimes: Sequence[NodeRuntime],
        load_collectors: Callable[[], CollectorSet],
        load_web: Callable[[], WebConfig | None],
        *,
        clock: Callable[[], float] = time.time,
        watched: Sequence[str] = (),
    ) -> None:
        self.runtimes = tuple(runtimes)
        self.watches = tuple(FileWatch(path) for path in watched)
        self._load_collectors = load_collectors
        self._load_web = load_web
        self._clock = clock
        self._lock = threading.Lock()
        self.apply_web: WebApplier | None = None  # set by the server once it runs
        started = clock()
        for runtime in self.runtimes:
            runtime.reload_succeeded(started)

    def reload(self) -> bool:
        """SIGHUP: read, check and apply; False (old configuration kept, one log line) on any problem. Blocking
        I/O: run it off the event loop."""
        if not self._lock.acquire(blocking=False):
            log.info("SIGHUP: a reload is already running; ignored")
            return False
        try:
            return self._reload("SIGHUP reload failed", "SIGHUP: configuration reloaded")
        finally:
            self._lock.release()

    def poll_files(self) -> bool | None:
        """Reload if a watched file has a new, settled version: the outcome, or None when there was nothing to do
        (no new version, or a reload running). Blocking I/O (a ``stat`` per file): run it off the event loop."""
        if not self.watches or not self._lock.acquire(blocking=False):
            return None
        try:
            changed = next((w.path for w in self.watches if w.poll()), None)
            if changed is None:
                return None
            why = f"{changed} was rewritten"
            return self._reload(f"{why}: reload failed", f"{why}: configuration reloaded")
        finally:
            self._lock.release()

    def _reload(self, failed: str, done: str) -> bool:
        for watch in self.watches:  # what this reload reads is seen, whichever way it was asked for
            watch.mark()
        try:
            collectors = self._load_collectors()
            web = self._load_web()
            if self.apply_web is not None:
                self.apply_web(web)
        except GpuscopeError as exc:
            for runtime in self.runtimes:
                runtime.reload_failed()
            # The library names -m or the web config by its parameter; the user set a flag, and reads it here as at
            # start-up, where the CLI words the same error.
            log.error("%s, keeping the previous configuration: %s", failed, exc.worded(flag_names("exporter")))
            return False
        applied = self._clock()
        for runtime in self.runtimes:
            runtime.reconfigure(collectors)
            runtime.reload_succeeded(applied)
        log.info("%s (%d fields from %s)", done, len(collectors.metrics), collectors.source)
        return True
