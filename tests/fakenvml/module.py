"""The fake NVML as a ``pynvml`` *module*, and a launcher that runs a real program on it.

``FakeNvml`` stands in for ``pynvml`` where the caller takes the module as an argument (``NvmlBackend(nvml=...)``).
A program that does ``import pynvml`` itself (``gpuscope exporter --backend nvml`` as a process, nvitop-exporter)
needs a module in ``sys.modules``: ``as_module`` builds one. Every name of the real module is there (constants,
structures, error classes); each ``nvml*`` function calls the fake's method of that name, and one the fake does not
model raises ``NVMLError_FunctionNotFound``, as a driver lacking the symbol does (nothing reaches a real driver).
nvidia-ml-py's C-level hook ``_nvmlGetFunctionPointer`` is absent: the fake has no C symbols, so a program that
calls symbols directly (nvitop does, when it finds the hook) falls back to the Python functions.

Every call is counted at the module boundary (``CallLog``), modelled or not, so two programs on the same fake are
counted the same way. A collection is a burst of calls: calls closer than ``BURST_GAP_S`` to the previous one
belong to the same burst (both exporters measured with it collect every second or slower, and the whole burst
takes milliseconds); the event thread's blocking waits are not collection calls.

Launcher: ``python -m tests.fakenvml.module [--node hgx-h100] [--calls FILE] -- -m MODULE ARG...`` (run from the
repository root) runs ``MODULE`` as ``__main__`` on the fake and writes the call log as JSON to ``FILE`` at exit.
``--processes FILE`` runs processes on the GPUs: JSON ``{"<gpu index>": [{"pid": 100, "memory": 1073741824, "sm":
40}, ...]}`` (``FakeProcess`` fields); the fake's clock then moves a second at each compute-process list, so every
collection has a new utilization sample, as a driver's would.
"""

from __future__ import annotations

import argparse
import atexit
import json
import runpy
import signal
import sys
import threading
import time
import types
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pynvml as real

from tests.fakenvml.fake import BACKGROUND, FakeNvml
from tests.fakenvml.processes import FakeProcess

BURST_GAP_S = 0.25
# nvidia-ml-py's pure-Python helpers: no driver call behind them, so the real ones serve and are not counted.
_HELPERS = frozenset({"nvmlExceptionClass", "nvmlStructToFriendlyObject", "nvmlFriendlyObjectToStruct"})
_KEPT_BURSTS = 512  # bounded, so the log's own memory does not grow with the run


class CallLog:
    """Calls by function name and by collection burst; thread-safe (collections run on worker threads)."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self.by_name: Counter[str] = Counter()
        self.unmodelled: Counter[str] = Counter()
        self.bursts: deque[int] = deque(maxlen=_KEPT_BURSTS)
        self._current = 0
        self._last = float("-inf")

    def record(self, name: str, *, modelled: bool) -> None:
        now = self._monotonic()
        with self._lock:
            self.by_name[name] += 1
            if not modelled:
                self.unmodelled[name] += 1
            if name in BACKGROUND:
                return
            if now - self._last > BURST_GAP_S and self._current:
                self.bursts.append(self._current)
                self._current = 0
            self._current += 1
            self._last = now

    def summary(self) -> dict[str, Any]:
        """What the log holds, as JSON-ready data; the burst still open at the end is left out (it may be cut)."""
        with self._lock:
            return {
                "calls": dict(sorted(self.by_name.items())),
                "unmodelled": dict(sorted(self.unmodelled.items())),
                "bursts": list(self.bursts),
            }


def as_module(fake: FakeNvml, log: CallLog) -> types.ModuleType:
    """A ``pynvml`` module whose functions are ``fake``'s (see the module docstring)."""
    module = types.ModuleType("pynvml", real.__doc__)
    for name, value in vars(real).items():
        if name == "_nvmlGetFunctionPointer" or name.startswith("__"):
            continue
        if name.startswith("nvml") and isinstance(value, types.FunctionType) and name not in _HELPERS:
            module.__dict__[name] = _function(fake, log, name)
        else:
            module.__dict__[name] = value
    return module


def _function(fake: FakeNvml, log: CallLog, name: str) -> Callable[..., Any]:
    # nvidia-ml-py's nvmlInit is nvmlInitWithFlags(0); the fake models nvmlInit only.
    target = "nvmlInit" if name == "nvmlInitWithFlags" else name
    method = getattr(type(fake), target, None)

    if method is None:

        def unmodelled(*_args: Any, **_kwargs: Any) -> Any:
            log.record(name, modelled=False)
            raise real.NVMLError(real.NVML_ERROR_FUNCTION_NOT_FOUND)

        unmodelled.__name__ = name
        return unmodelled

    def call(*args: Any, **kwargs: Any) -> Any:
        log.record(name, modelled=True)
        if name == "nvmlInitWithFlags":
            return fake.nvmlInit()
        return method(fake, *args, **kwargs)

    call.__name__ = name
    return call


def _run_processes(fake: FakeNvml, module: types.ModuleType, by_gpu: dict[str, list[dict[str, Any]]]) -> None:
    for index, processes in by_gpu.items():
        fake.devices[int(index)].processes = [FakeProcess(**p) for p in processes]
    for name in ("nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2"):
        listed = module.__dict__[name]

        def ticking(*args: Any, _listed: Callable[..., Any] = listed, **kwargs: Any) -> Any:
            fake.now_us += 1_000_000
            return _listed(*args, **kwargs)

        module.__dict__[name] = ticking


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fakenvml.module", description=__doc__.splitlines()[0])
    parser.add_argument("--node", default="hgx-h100", help="a node description under tests/fakenvml/nodes")
    parser.add_argument("--calls", type=Path, help="write the call log (JSON) to this file at exit")
    parser.add_argument("--modules", type=Path, help="write the names in sys.modules, one a line, at exit")
    parser.add_argument("--processes", type=Path, help="JSON: the processes on each GPU (see the module docstring)")
    parser.add_argument("program", nargs=argparse.REMAINDER, help="-- -m MODULE ARG...")
    args = parser.parse_args(argv)
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if len(program) < 2 or program[0] != "-m":
        parser.error("name the program as: -- -m MODULE ARG...")
    log = CallLog()
    fake = FakeNvml(args.node)
    module = as_module(fake, log)
    if args.processes is not None:
        _run_processes(fake, module, json.loads(args.processes.read_text(encoding="utf-8")))
    sys.modules["pynvml"] = module
    if args.calls is not None:
        path: Path = args.calls
        atexit.register(lambda: path.write_text(json.dumps(log.summary()), encoding="utf-8"))
    # A shell's background job starts with SIGINT ignored; the program runs as from a terminal (Ctrl-C, and the
    # bench's SIGINT, end it through its own shutdown path, so the call log is written).
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if args.modules is not None:
        modules: Path = args.modules
        atexit.register(lambda: modules.write_text("".join(f"{m}\n" for m in sorted(sys.modules)), encoding="utf-8"))
    sys.argv = [program[1], *program[2:]]
    runpy.run_module(program[1], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
