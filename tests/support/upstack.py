"""A real ``gpuscope up --fast`` in a subprocess, driven the way a user drives it: the CLI and the stack's APIs."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import httpx

from gpuscope.prom import Client, Endpoint, Limits, api
from tests.support.net import wait_for

T = TypeVar("T")
GPUSCOPE = [sys.executable, "-m", "gpuscope"]
# Alerts a healthy local stack raises by design: the teams mix's idle team and open notebook hold GPUs they do not
# use (backends/sim/teams.py), so the workload ticket fires within minutes. They are out of sight of the checks
# for a healthy stack and of ``notifications``; ``all_notifications`` and the workload test see them.
STORY_ALERTS = frozenset({"GPUAllocatedButIdle"})


def _story(alert: dict[str, Any]) -> bool:
    return alert["labels"].get("alertname") in STORY_ALERTS


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GPUSCOPE, *args], capture_output=True, text=True, timeout=timeout, check=False)


@dataclass
class UpStack:
    proc: subprocess.Popen[bytes]
    data_dir: Path
    log: Path
    seen: int = 0  # notifications received before the current test: ``notifications`` leaves them out

    @property
    def state(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.data_dir / "stack.json").read_text())
        return data

    def url(self, name: str) -> str:
        return str(self.state["urls"][name])

    def status(self) -> dict[str, Any]:
        body: dict[str, Any] = httpx.get(f"{self.url('control')}/status", timeout=10).json()
        return body

    def notifications(self) -> list[dict[str, Any]]:
        """The webhook calls received since the stack was last found healthy (``wait_healthy``), less those
        carrying only the story's alerts (``STORY_ALERTS``)."""
        return [n for n in self._all_notifications()[self.seen :] if not all(_story(a) for a in n["alerts"])]

    def all_notifications(self) -> list[dict[str, Any]]:
        """Every webhook call the stack received."""
        return self._all_notifications()

    def _all_notifications(self) -> list[dict[str, Any]]:
        body: list[dict[str, Any]] = httpx.get(f"{self.url('control')}/notifications", timeout=10).json()
        return body

    def alive(self) -> bool:
        return self.proc.poll() is None

    def exited(self) -> str | None:
        """Why the stack is gone (``gpuscope up`` exited, with its log's last lines), or None while it runs: a
        wait on a stack that has exited fails at once, saying why."""
        code = self.proc.poll()
        return None if code is None else f"gpuscope up exited with status {code}; its log ends:\n{self.log_tail()}"

    def until(self, check: Callable[[], T | Literal[False] | None], timeout: float, what: str) -> T:
        """``wait_for`` ``check``, failing at once if ``gpuscope up`` exits meanwhile."""
        return wait_for(check, timeout=timeout, interval=0.5, what=what, gave_up=self.exited)

    def reset(self) -> None:
        """Back to the known state a test starts from: every fault cleared, then ``wait_healthy``."""
        self.clear()
        self.wait_healthy()

    def wait_healthy(self) -> None:
        """Wait until every component runs, the Phase 1 floor is green (all exporters up in both replicas of every
        cluster, every GPU in the global store), no replica has a GPU alert pending or firing and Alertmanager
        holds no unresolved alert (the story's alerts aside); then put the notifications so far out of sight. An
        alert left open by an earlier test would share an Alertmanager group with a later test's alert, and its
        resolution would notify that group, the later alert included, once more. (The Prometheus self-monitoring
        alerts go pending now and then on a loaded machine, and never reach Alertmanager unless they hold; the
        Alertmanager check covers them.)"""

        wrong: list[str] = ["not asked yet"]  # what was still wrong at the last look, for the timeout's message

        def healthy() -> bool:
            wrong[0] = self._unhealthy()
            return not wrong[0]

        try:
            self.until(healthy, timeout=180, what="the stack to be healthy")
        except AssertionError as exc:
            raise AssertionError(f"{exc}\nstill wrong at the last look: {wrong[0]}\n{self.log_tail()}") from None
        self.seen = len(self._all_notifications())

    def _unhealthy(self) -> str:
        """What keeps the stack from being healthy (``wait_healthy``), or "" when nothing does."""
        status = self.status()
        stopped = [c["name"] for c in status["components"] if not c["running"]]
        if stopped:
            return f"not running: {stopped}"
        floor = [check for check in status["floor"] if not check["ok"]]
        if not status["floor"] or floor:
            return f"Phase 1 floor: {floor or 'no checks yet'}"
        held = [a["labels"] for a in self.am_alerts() if not _story(a)]
        if held:
            return f"Alertmanager holds {held}"
        replicas = [c["name"] for c in status["components"] if c["name"].startswith("prometheus-")]
        pending = [
            (name, a["state"], a["labels"])
            for name in replicas
            for a in self.rule_alerts(name)
            if a["labels"]["alertname"].startswith("GPU") and not _story(a)
        ]
        return f"GPU alerts in the replicas: {pending}" if pending else ""

    def inject(self, *args: str) -> str:
        done = cli("inject", *args, "--data-dir", str(self.data_dir))
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def clear(self) -> None:
        done = cli("clear", "--data-dir", str(self.data_dir))
        assert done.returncode == 0, done.stderr

    def query(self, component: str, expr: str) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self._data(component, "/api/v1/query", [("query", expr)])["result"]
        return result

    def _data(self, component: str, path: str, params: list[tuple[str, str]]) -> Any:
        with Client(Endpoint(self.url(component), flag=component), limits=Limits(timeout_s=10)) as c:
            return c.run(api.raw(path, params, envelope=True))

    def value(self, component: str, expr: str) -> float | None:
        result = self.query(component, expr)
        return float(result[0]["value"][1]) if result else None

    def rule_alerts(self, component: str) -> list[dict[str, Any]]:
        """The alerts a Prometheus has pending or firing."""
        alerts: list[dict[str, Any]] = self._data(component, "/api/v1/alerts", [])["alerts"]
        return alerts

    def am_alerts(self) -> list[dict[str, Any]]:
        """Every alert Alertmanager holds, inhibited and silenced ones included."""
        response = httpx.get(f"{self.url('alertmanager')}/api/v2/alerts", timeout=10)
        response.raise_for_status()
        alerts: list[dict[str, Any]] = response.json()
        return alerts

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def notified(
    notes: list[dict[str, Any]], alertname: str, status: str = "firing", **labels: str
) -> list[dict[str, Any]]:
    """Notifications (one per webhook call) carrying ``alertname`` in ``status`` with these labels."""
    return [
        n
        for n in notes
        if any(
            a["labels"].get("alertname") == alertname
            and a["status"] == status
            and all(a["labels"].get(k) == v for k, v in labels.items())
            for a in n["alerts"]
        )
    ]


@contextmanager
def running_stack(data_dir: Path, *args: str, fast: bool = True, ready_s: float = 90) -> Iterator[UpStack]:
    """``gpuscope up --fast --no-tui`` (production timings with ``fast=False``) until the Phase 1 floor is green;
    SIGKILLed afterwards if a test left it up."""
    log = data_dir.parent / f"{data_dir.name}-up.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*GPUSCOPE, "up", *(["--fast"] if fast else []), "--no-tui", "--data-dir", str(data_dir), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    stack = UpStack(proc, data_dir, log)
    try:
        stack.until(
            lambda: (data_dir / "stack.json").exists() and stack.status().get("floor"),
            timeout=ready_s,
            what="the stack to come up",
        )
        yield stack
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is not running: it only waits for its parent to reap it
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except (OSError, IndexError):
        return True


class StackPool:
    """One running stack for a test module, replaced by a fresh one when a test has stopped it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.started = 0
        self.running = contextlib.ExitStack()
        self.current: UpStack | None = None

    def get(self, healthy: bool = True) -> UpStack:
        """The running stack, every fault cleared and healthy again; with ``healthy=False``, as the last test left
        it (for a test that only stops it). A fresh one if a test stopped it."""
        if self.current is not None and self.current.alive():
            if healthy:
                self.current.reset()
            return self.current
        self.close()
        self.started += 1
        self.current = self.running.enter_context(running_stack(self.root / f"data-{self.started}"))
        if healthy:
            self.current.wait_healthy()
        return self.current

    def close(self) -> None:
        self.running.close()
        self.current = None


# Alertmanager's 5m group_interval, 15x faster (--fast): a duplicate notification would arrive within this.
GROUP_INTERVAL_S = 20


def resolved(stack: UpStack, alertname: str, labels: dict[str, str]) -> list[dict[str, Any]]:
    """The notifications so far that resolve ``alertname`` with these labels."""
    return notified(stack.notifications(), alertname, "resolved", **labels)


def first_notified(stack: UpStack, alertname: str, **labels: str) -> dict[str, Any]:
    """The first notification of ``alertname`` with these labels at the webhook receiver (waited for)."""
    return stack.until(
        lambda: notified(stack.notifications(), alertname, **labels),
        timeout=120,
        what=f"{alertname} {labels} at the webhook receiver\n{stack.log_tail()}",
    )[0]


def generated_builtin_bundle(directory: Path) -> Path:
    """The built-in fleet's bundle, generated by the CLI into ``directory``/bundle."""
    from gpuscope.runner.plan import builtin_spec_text

    (directory / "fleet.yaml").write_text(builtin_spec_text())
    done = cli("generate", str(directory / "fleet.yaml"), "-o", str(directory / "bundle"))
    assert done.returncode == 0, done.stderr
    return directory / "bundle"
