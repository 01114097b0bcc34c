"""``--enable-pprof``: the Python counterpart of Go's ``/debug/pprof/`` for a live exporter.

``/debug/pprof/`` lists the profiles; ``/debug/pprof/goroutine`` (Go's name, so the same URL works) is the stack
of every thread, the first thing to look at when collection hangs; ``/debug/pprof/heap`` is the top allocation
sites while ``tracemalloc`` runs (``PYTHONTRACEMALLOC=1``), else a line saying how to turn it on.
"""

from __future__ import annotations

import sys
import threading
import traceback
import tracemalloc

from gpuscope.httpd.server import Request, Response, get

_HEAP_TOP = 50


async def _index(_request: Request) -> Response:
    return Response.text(
        "/debug/pprof/goroutine: stacks of every thread\n/debug/pprof/heap: top allocation sites (tracemalloc)\n"
    )


async def _threads(_request: Request) -> Response:
    names = {t.ident: t.name for t in threading.enumerate()}
    parts = []
    for ident, frame in sorted(sys._current_frames().items()):
        parts.append(f"thread {names.get(ident, '?')} ({ident}):\n{''.join(traceback.format_stack(frame))}")
    return Response.text("\n".join(parts))


async def _heap(_request: Request) -> Response:
    if not tracemalloc.is_tracing():
        return Response.text("tracemalloc is off: start the exporter with PYTHONTRACEMALLOC=1\n")
    stats = tracemalloc.take_snapshot().statistics("lineno")[:_HEAP_TOP]
    return Response.text("".join(f"{s}\n" for s in stats))


PPROF_ROUTES = (
    get("/debug/pprof/", _index),
    get("/debug/pprof/goroutine", _threads),
    get("/debug/pprof/heap", _heap),
)
