"""Collection scheduling for one or many node runtimes, on a small pool of daemon worker threads.

One event-loop task decides when each node is due; collections run on worker threads so a slow or hung backend
never blocks the HTTP side. A node whose previous collection has not finished is skipped (no pile-up); its
snapshot simply ages. Workers are daemon threads, so a call wedged inside a driver cannot block process exit.

The pool starts with ``workers`` threads and adds one whenever every thread is taken, up to one per node: a node
has at most one collection in flight, so hung nodes each hold one thread and healthy ones always find another.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import queue
import threading
from collections.abc import Callable, Sequence

from gpuscope.exporter.runtime import NodeRuntime

log = logging.getLogger(__name__)


class WorkerPool:
    """Daemon threads running callables: ``workers`` of them, more (up to ``max_workers``) while all are taken."""

    def __init__(self, workers: int, name: str = "collect", max_workers: int | None = None) -> None:
        self._queue: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._name = name
        self._lock = threading.Lock()
        self._max = max(1, workers, max_workers or 0)
        self._threads = 0
        self._outstanding = 0  # submitted jobs not finished yet
        for _ in range(max(1, workers)):
            self._spawn()

    @property
    def threads(self) -> int:
        return self._threads

    def _spawn(self) -> None:
        self._threads += 1
        threading.Thread(target=self._run, name=f"{self._name}-{self._threads - 1}", daemon=True).start()

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            try:
                job()
            except Exception:  # a job's failure is its own business; the worker lives on
                log.exception("collection job failed")
            finally:
                with self._lock:
                    self._outstanding -= 1

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            self._outstanding += 1
            if self._outstanding > self._threads and self._threads < self._max:
                self._spawn()
        self._queue.put(job)

    def close(self) -> None:
        with self._lock:
            for _ in range(self._threads):
                self._queue.put(None)


class Scheduler:
    """Collects every runtime once at start, then every ``interval``, spread evenly over the interval."""

    def __init__(self, runtimes: Sequence[NodeRuntime], interval_s: float, workers: int = 1) -> None:
        self.runtimes = list(runtimes)
        self.interval_s = interval_s
        self.pool = WorkerPool(workers, max_workers=len(self.runtimes))

    def _start(self, runtime: NodeRuntime, loop: asyncio.AbstractEventLoop) -> None:
        if runtime.busy:
            return  # still collecting (slow or hung backend): skip this tick
        runtime.busy = True

        def job() -> None:
            try:
                runtime.collect()
            finally:
                loop.call_soon_threadsafe(setattr, runtime, "busy", False)

        self.pool.submit(job)

    async def run(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        n = len(self.runtimes)
        start = loop.time()
        heap = [(start + self.interval_s * (1 + i / n), i) for i in range(n)]
        heapq.heapify(heap)
        for runtime in self.runtimes:
            self._start(runtime, loop)
        try:
            while not stop.is_set():
                due, index = heap[0]
                delay = due - loop.time()
                if delay > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), timeout=delay)
                    continue
                heapq.heappop(heap)
                self._start(self.runtimes[index], loop)
                next_due = due + self.interval_s
                if next_due < loop.time():  # fell behind (suspended machine): realign instead of bursting
                    next_due = loop.time() + self.interval_s
                heapq.heappush(heap, (next_due, index))
        finally:
            self.pool.close()
