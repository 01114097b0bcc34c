"""Supervised children and the data-directory lock, with real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gpuscope.errors import EnvironmentProblem
from gpuscope.runner.process import ManagedProcess, stop_all
from gpuscope.runner.state import StackLock, write_state
from tests.support.net import wait_for
from tests.support.upstack import pid_alive


def _child(tmp_path: Path, name: str, script: str) -> ManagedProcess:
    return ManagedProcess(name, ["sh", "-c", script], tmp_path / f"{name}.log", "http://127.0.0.1:1/-/ready")


def test_a_crash_is_reported_then_restarted_after_backoff(tmp_path: Path) -> None:
    child = _child(tmp_path, "crashy", "exit 3")
    child.start()
    assert child.proc is not None
    child.proc.wait(5)
    now = time.time()
    assert child.check(now) == "crashy exited with code 3; restarting in 1s"
    assert child.check(now + 0.5) is None  # still backing off
    line = child.check(now + 1.0)
    assert line is not None and line.startswith("crashy restarted (restart #1")
    assert child.restarts == 1
    child.proc.wait(5)
    assert child.check(now + 2) == "crashy exited with code 3; restarting in 2s"  # backoff doubles


def test_a_deliberate_stop_is_not_a_crash(tmp_path: Path) -> None:
    child = _child(tmp_path, "svc", "sleep 30")
    child.start()
    child.stop()
    assert not child.running() and child.stopped_on_purpose
    assert child.check(time.time() + 100) is None and child.restarts == 0


def test_stop_all_kills_what_ignores_sigterm(tmp_path: Path) -> None:
    stubborn = _child(tmp_path, "stubborn", "trap '' TERM; while :; do sleep 0.1; done")
    polite = _child(tmp_path, "polite", "sleep 30")
    for c in (stubborn, polite):
        c.start()
    time.sleep(0.3)  # let the shell install its trap
    pids = [c.pid for c in (stubborn, polite)]
    started = time.monotonic()
    stop_all([stubborn, polite], timeout=1.0)
    assert time.monotonic() - started < 8
    assert not [p for p in pids if p is not None and pid_alive(p)]


def test_a_second_stack_on_the_same_data_dir_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "stack.json"
    first = StackLock(tmp_path / "lock")
    first.acquire(state)
    write_state(state, {"pid": os.getpid()})  # a live owner
    with pytest.raises(EnvironmentProblem, match=rf"another `gpuscope up` \(pid {os.getpid()}\) is running on"):
        StackLock(tmp_path / "lock").acquire(state)
    assert first.held
    first.release()
    again = StackLock(tmp_path / "lock")
    again.acquire(state)  # free once released
    again.release()


# A supervisor that starts one child (a sleep), prints its pid, and waits to be killed.
_SUPERVISOR = """
import sys, time
from pathlib import Path
from gpuscope.runner.process import ManagedProcess
child = ManagedProcess("sleeper", ["/bin/sleep", "120"], Path(sys.argv[1]), "http://127.0.0.1:1/")
child.start()
print(child.pid, flush=True)
time.sleep(120)
"""


@pytest.mark.parametrize("path", ["setpriv", "prctl"], ids=["setpriv", "preexec-prctl"])
def test_children_die_with_a_sigkilled_supervisor(tmp_path: Path, path: str) -> None:
    # "prctl": no setpriv on PATH, so the pre-exec hook sets PR_SET_PDEATHSIG; both must leave nothing behind.
    env = {**os.environ, "PATH": os.environ["PATH"] if path == "setpriv" else str(tmp_path)}
    with subprocess.Popen(
        [sys.executable, "-c", _SUPERVISOR, str(tmp_path / "sleeper.log")], stdout=subprocess.PIPE, env=env
    ) as supervisor:
        try:
            assert supervisor.stdout is not None
            child = int(supervisor.stdout.readline())
            assert pid_alive(child)
            supervisor.send_signal(signal.SIGKILL)
            supervisor.wait(10)
            wait_for(lambda: not pid_alive(child), timeout=10, what="the child to die with its supervisor")
        finally:
            if supervisor.poll() is None:
                supervisor.kill()


# A supervisor as `up` runs one: it locks the data directory and starts a child that inherits the lock; the child
# stops slowly on SIGTERM (as a Prometheus replica flushing remote write does), until the test lets it go.
_LOCKING_SUPERVISOR = """
import os, sys, time
from pathlib import Path
from gpuscope.runner.process import ManagedProcess
from gpuscope.runner.state import StackLock, write_state
data = Path(sys.argv[1])
lock = StackLock(data / "lock")
lock.acquire(data / "stack.json")
write_state(data / "stack.json", {"pid": os.getpid()})
script = "trap 'while [ ! -e release ]; do sleep 0.05; done; exit 0' TERM; touch trapped; while :; do sleep 0.1; done"
child = ManagedProcess("replica", ["sh", "-c", script], data / "replica.log", "http://127.0.0.1:1/", cwd=data)
child.inherit_fds = (lock.fd,)
child.start()
print(child.pid, flush=True)
time.sleep(120)
"""


def test_a_sigkilled_supervisor_keeps_the_data_dir_locked_until_its_children_exit(tmp_path: Path) -> None:
    with subprocess.Popen([sys.executable, "-c", _LOCKING_SUPERVISOR, str(tmp_path)], stdout=subprocess.PIPE) as sup:
        try:
            assert sup.stdout is not None
            child = int(sup.stdout.readline())
            wait_for(lambda: (tmp_path / "trapped").exists(), timeout=10, what="the child's SIGTERM trap")
            sup.send_signal(signal.SIGKILL)
            sup.wait(10)
            # The child got SIGTERM with its supervisor's death and is still stopping: a new `up` is refused.
            with pytest.raises(EnvironmentProblem, match=r"has exited but its child processes still hold"):
                StackLock(tmp_path / "lock").acquire(tmp_path / "stack.json")
            assert pid_alive(child)
            (tmp_path / "release").touch()
            wait_for(lambda: not pid_alive(child), timeout=10, what="the child to finish stopping")
            again = StackLock(tmp_path / "lock")
            again.acquire(tmp_path / "stack.json")  # free once the last holder has exited
            again.release()
        finally:
            if sup.poll() is None:
                sup.kill()
            (tmp_path / "release").touch()
