"""Collection scheduling for one or many node runtimes, on a small pool of daemon worker threads.

One event-loop task decides when each node is due; collections run on worker threads so a slow or hung backend
never blocks the HTTP side. A node whose previous collection has not finished is skipped (no pile-up); its
snapshot simply ages. Workers are daemon threads, so a call wedged inside a driver cannot block process exit.
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
    """A fixed set of daemon threads running callables; results are delivered to the event loop."""

    def __init__(self, workers: int, name: str = "collect") -> None:
        self._queue: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._threads = [
            threading.Thread(target=self._run, name=f"{name}-{n}", daemon=True) for n in range(max(1, workers))
        ]
        for thread in self._threads:
            thread.start()

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            try:
                job()
            except Exception:  # a job's failure is its own business; the worker lives on
                log.exception("collection job failed")

    def submit(self, job: Callable[[], None]) -> None:
        self._queue.put(job)

    def close(self) -> None:
        for _ in self._threads:
            self._queue.put(None)


class Scheduler:
    """Collects every runtime once at start, then every ``interval``, spread evenly over the interval."""

    def __init__(self, runtimes: Sequence[NodeRuntime], interval_s: float, workers: int = 1) -> None:
        self.runtimes = list(runtimes)
        self.interval_s = interval_s
        self.pool = WorkerPool(workers)

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
