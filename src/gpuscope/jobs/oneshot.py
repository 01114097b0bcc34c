"""One push per call, for shell scripts and Slurm prolog/epilog (``gpuscope job start|step|finish``).

A process that lives for one command cannot keep a pusher thread, so each call sends what it knows: ``start``
replaces the group (``PUT``: info series and start time), ``step`` and ``finish`` add to it (``POST`` replaces only
the metric names they carry, so the info series stays). Each call retries for at most ``budget_s`` and then
reports failure instead of raising: whether a failed push should fail the script is the caller's choice (a
failing Slurm prolog drains the node).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpuscope.backoff import Backoff
from gpuscope.jobs.devices import Request, Resolution
from gpuscope.jobs.gateway import Gateway, GatewayError
from gpuscope.jobs.metrics import Finish, JobIdentity, Progress, finish_families, progress_families, render
from gpuscope.jobs.metrics import start_families as _start_families
from gpuscope.jobs.reporter import resolve_gpus


@dataclass(frozen=True, slots=True)
class Outcome:
    ok: bool
    attempts: int
    error: str = ""


def send(
    call: Callable[[float], None],
    budget_s: float,
    monotonic: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Outcome:
    """Call ``call(timeout)`` until it succeeds or ``budget_s`` is spent, backing off 0.25 s, 0.5 s, 1 s, ..."""
    deadline = monotonic() + budget_s
    backoff, attempts = Backoff(0.25, 4.0), 0
    while True:
        attempts += 1
        try:
            call(max(0.1, deadline - monotonic()))
            return Outcome(True, attempts)
        except GatewayError as exc:
            error = str(exc)
        pause = backoff.next()
        if monotonic() + pause >= deadline:
            return Outcome(False, attempts, error)
        sleep(pause)


def start_job(
    gateway: Gateway, identity: JobIdentity, request: Request, budget_s: float, now: float, nvml: Any = None
) -> tuple[Outcome, Resolution]:
    resolution = resolve_gpus(request, nvml)
    body = render(_start_families(identity, resolution.gpus, now))
    return send(lambda t: gateway.put(identity.grouping_key(), body, t), budget_s), resolution


def report_step(gateway: Gateway, identity: JobIdentity, progress: Progress, budget_s: float) -> Outcome:
    body = render(progress_families(progress))
    return send(lambda t: gateway.post(identity.grouping_key(), body, t), budget_s)


def finish_job(gateway: Gateway, identity: JobIdentity, finish: Finish, delete: bool, budget_s: float) -> Outcome:
    if delete:
        return send(lambda t: gateway.delete(identity.grouping_key(), t), budget_s)
    body = render(finish_families(finish))
    return send(lambda t: gateway.post(identity.grouping_key(), body, t), budget_s)
