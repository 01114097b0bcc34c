"""Loopback ports and polling.

Ports come from below the kernel's ephemeral range, so neither another process's ``bind(("", 0))`` nor an
outgoing connection's source port can take one between ``free_port`` handing it out and a child binding it, and
each pytest-xdist worker has its own block of them, so two workers never hand out the same port. Within a process
a port is handed out once (the block is walked in order), and one that something else already holds is skipped.
"""

from __future__ import annotations

import itertools
import os
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal, TypeVar

T = TypeVar("T")

LOWEST = 10_000  # above the well-known and registered defaults the stack's components use (9090-9100)
BLOCKS = 32  # xdist workers gw0..gw31 each get one block; a run without xdist uses the last one


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # Linux's default


def _block() -> range:
    size = (_ephemeral_low() - LOWEST) // BLOCKS
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    index = int(worker.removeprefix("gw")) % (BLOCKS - 1) if worker.startswith("gw") else BLOCKS - 1
    start = LOWEST + index * size
    return range(start, start + size)


def _ports() -> Iterator[int]:
    block = _block()
    # Start at an offset of this process's id: separate pytest sessions on one machine start apart too.
    first = os.getpid() % len(block)
    return itertools.cycle([*block[first:], *block[:first]])


_next_port = _ports()


def _bindable(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def free_port(host: str = "127.0.0.1") -> int:
    """A port on ``host`` that nothing listens on and that no other test process will hand out."""
    for _ in range(1000):
        port = next(_next_port)
        if _bindable(host, port):
            return port
    raise AssertionError(f"no free port in {_block()} on {host}")


def wait_for(
    check: Callable[[], T | Literal[False] | None],
    timeout: float = 30.0,
    interval: float = 0.1,
    what: str = "condition",
    gave_up: Callable[[], str | None] | None = None,
) -> T:
    """Poll ``check`` until it returns something truthy; fail with ``what`` after ``timeout`` seconds.

    ``check`` may be ``lambda: len(r := ...) == 3 and r``: False until it holds, then the value wanted.
    ``gave_up`` says why waiting longer is pointless (a process that exited), or None: its answer fails at once.
    """
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        if gave_up is not None and (why := gave_up()):
            raise AssertionError(f"gave up waiting for {what}: {why}")
        try:
            result = check()
            if result:
                return result
        except Exception as exc:
            last_error = exc
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last error: {last_error})")
