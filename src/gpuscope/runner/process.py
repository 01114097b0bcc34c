"""One supervised child process: start, readiness, stop, and restart with backoff after a crash.

Children get ``PR_SET_PDEATHSIG`` so they die with the supervisor even if it is killed with SIGKILL: a local
stack never leaves Prometheus processes behind. They also inherit the descriptors in ``inherit_fds`` (the data
directory's lock), so what the supervisor holds stays held until they have exited too. A deliberate stop (a
simulated outage) is not a crash and is not restarted until asked.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import logging
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from gpuscope.backoff import Backoff

log = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1
_MAX_BACKOFF_S = 30.0


@functools.cache
def _setpriv() -> str | None:
    """util-linux's ``setpriv`` when it knows ``--pdeathsig`` (2.33+; Debian marks util-linux essential)."""
    path = shutil.which("setpriv")
    if path is None:
        return None
    try:
        usage = subprocess.run([path, "--help"], capture_output=True, text=True, timeout=5, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return path if "--pdeathsig" in usage else None


@functools.cache
def _prctl() -> Callable[..., int] | None:
    # Resolved here, in the parent: loading a library between fork and exec can deadlock on a lock another
    # thread of the parent held when it forked.
    with contextlib.suppress(OSError, AttributeError):
        return ctypes.CDLL(None, use_errno=True).prctl
    return None


def spawn_argv(argv: Sequence[str]) -> tuple[list[str], Callable[[], None] | None]:
    """The command and the pre-exec hook that make a child die with this process (``PR_SET_PDEATHSIG``).

    ``setpriv --pdeathsig`` sets it in the child without any Python between fork and exec, so Python can spawn
    with vfork: nothing of a threaded parent (gRPC servers, the event loop) runs in the child. Without setpriv,
    a ``preexec_fn`` does the prctl; not Linux: neither, and the supervisor's shutdown still stops its children.
    """
    setpriv = _setpriv()
    if setpriv is not None:
        return [setpriv, "--pdeathsig", "TERM", "--", *argv], None
    prctl = _prctl()
    if prctl is None:
        return list(argv), None

    def die_with_parent() -> None:  # in the child between fork and exec: the bare call, nothing to load
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)

    return list(argv), die_with_parent


def _wait_until_exec_past(proc: subprocess.Popen[bytes], wrapper: str, timeout: float = 5.0) -> None:
    """Return once the child runs its own program, no longer ``wrapper`` (setpriv).

    Popen returns when setpriv has been exec'd, before setpriv has set the death signal and exec'd the real
    program: a supervisor killed in that window would leave the child running for good. setpriv sets the signal
    before its exec, so a child whose executable is no longer setpriv is armed. Bounded: a child that exits, or a
    system without /proc, ends the wait.
    """
    exe = Path(f"/proc/{proc.pid}/exe")
    wrapper_path = os.path.realpath(wrapper)
    deadline = time.monotonic() + timeout
    pause = Backoff(0.0005, 0.02)
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if os.readlink(exe) != wrapper_path:
                return
        except OSError:
            return
        time.sleep(pause.next())


@dataclass
class ManagedProcess:
    """A child such as ``prometheus-a@gpu-a``; ``ready_url`` answers 200 once it serves."""

    name: str
    argv: Sequence[str]
    log_path: Path
    ready_url: str
    cwd: Path | None = None
    inherit_fds: tuple[int, ...] = ()
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    restarts: int = 0
    stopped_on_purpose: bool = False
    last_exit: int | None = None
    _next_restart: float = 0.0
    _backoff: Backoff = field(default_factory=lambda: Backoff(1.0, _MAX_BACKOFF_S), repr=False)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        argv, preexec = spawn_argv(self.argv)
        with self.log_path.open("ab") as log_file:
            self.proc = subprocess.Popen(
                argv,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                cwd=self.cwd,
                pass_fds=self.inherit_fds,
                preexec_fn=preexec,  # noqa: PLW1509 - None where setpriv does it; else a bare prctl call
            )
        if preexec is None and argv[0] != self.argv[0]:
            _wait_until_exec_past(self.proc, argv[0])
        self.stopped_on_purpose = False

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def ready(self, timeout: float = 2.0) -> bool:
        if not self.running():
            return False
        try:
            return httpx.get(self.ready_url, timeout=timeout).status_code == 200
        except httpx.HTTPError:
            return False

    def wait_ready(self, timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.ready():
                return True
            if not self.running():
                return False
            time.sleep(0.2)
        return False

    def stop(self, timeout: float = 15.0, *, on_purpose: bool = True) -> None:
        self.stopped_on_purpose = on_purpose
        if not self.proc or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def terminate(self) -> None:
        """Ask to stop without waiting; ``stop_all`` does the waiting for many children at once."""
        self.stopped_on_purpose = True
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()

    def kill(self) -> None:
        """SIGKILL, for tests of crash handling."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)

    def check(self, now: float) -> str | None:
        """Restart a crashed child when its backoff has passed; returns an event line to report, if any."""
        if self.proc is None or self.stopped_on_purpose or self.proc.poll() is None:
            return None
        if self._next_restart == 0.0:
            self.last_exit = self.proc.returncode
            delay = self._backoff.next()
            self._next_restart = now + delay
            return f"{self.name} exited with code {self.last_exit}; restarting in {delay:.0f}s"
        if now < self._next_restart:
            return None
        self._next_restart = 0.0
        self.restarts += 1
        self.start()
        return f"{self.name} restarted (restart #{self.restarts}, pid {self.pid})"

    def settle(self) -> None:
        """After a stable stretch, the next crash starts again with a short backoff."""
        if self.running():
            self._backoff.reset()


def stop_all(children: Sequence[ManagedProcess], timeout: float = 15.0) -> None:
    """SIGTERM every child at once, wait for them together, and SIGKILL whatever outlives ``timeout``."""
    for child in children:
        child.terminate()
    deadline = time.monotonic() + timeout
    for child in children:
        if child.proc is None:
            continue
        try:
            child.proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            log.warning("%s did not stop within %.0fs; killing it", child.name, timeout)
            child.proc.kill()
            child.proc.wait(5)
