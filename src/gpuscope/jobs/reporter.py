"""``JobReporter``: a training job's metrics, pushed to a Pushgateway and joinable with GPU telemetry by UUID.

::

    with JobReporter("run-42", gateway="http://pushgateway:9091") as job:
        for batch in loader:
            loss = train_step(batch)
            job.step(samples=len(batch), loss=float(loss))

Entering starts one daemon thread; everything that can be slow — resolving the job's GPUs through NVML, HTTP —
happens there. ``step()`` only adds to a few numbers in memory (``ProgressRecorder``). The thread pushes the whole
group with ``PUT`` at once and every ``push_interval_s``: the info series (one per GPU), the start time and the
progress, so a gateway that restarted empty is whole again at the next push, and ``push_time_seconds`` tells
Prometheus the job is alive. Leaving the block pushes the end time and exit status (``on_finish="keep"``; the
group then expires through ``gpuscope job gc``) or deletes the group (``on_finish="delete"``), waiting at most
``close_timeout_s``. A gateway that is down or slow is logged once and retried with backoff; the job never fails
or waits because of it. Bad input — a job id, label or option the job cannot report with — raises
``InvalidJobInput`` here, before the job starts.
"""

from __future__ import annotations

import getpass
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal

from gpuscope.jobs.devices import (
    JobGpu,
    NvmlUnavailable,
    Request,
    Resolution,
    explicit,
    needs_nvml,
    plan,
    read_device_table,
    resolve,
)
from gpuscope.jobs.gateway import Gateway
from gpuscope.jobs.labels import InvalidJobInput, check_job_id, check_labels, check_value
from gpuscope.jobs.metrics import (
    Finish,
    JobIdentity,
    finish_families,
    progress_families,
    render,
    start_families,
)
from gpuscope.jobs.progress import ProgressRecorder
from gpuscope.jobs.pusher import Pusher, PushPolicy, PushStats

log = logging.getLogger("gpuscope.jobs")

DEFAULT_JOB = "gpuscope-job"
GATEWAY_ENV = "GPUSCOPE_PUSHGATEWAY"
OnFinish = Literal["keep", "delete"]


def default_user(env: Mapping[str, str]) -> str:
    """Slurm's job user (prolog and epilog run as root), else the login name, else ``unknown``."""
    if env.get("SLURM_JOB_USER"):
        return env["SLURM_JOB_USER"]
    try:
        return getpass.getuser() or "unknown"
    except (KeyError, OSError):  # a container user without a passwd entry
        return "unknown"


def default_hostname(env: Mapping[str, str]) -> str:
    """dcgm-exporter's rule: ``NODE_NAME`` (a pod's node, from the downward API) else the host name."""
    return env.get("NODE_NAME") or socket.gethostname()


def job_identity(
    job_id: str,
    *,
    job: str = DEFAULT_JOB,
    user: str | None = None,
    hostname: str | None = None,
    labels: Mapping[str, str] | None = None,
    env: Mapping[str, str] | None = None,
) -> JobIdentity:
    """Validated identity; raises ``InvalidJobInput`` naming the bad value."""
    env = os.environ if env is None else env
    host = check_value("hostname", default_hostname(env) if hostname is None else hostname)
    return JobIdentity(
        job=check_value("job name", job),
        job_id=check_job_id(job_id),
        instance=host,
        user=check_value("user", default_user(env) if user is None else user),
        hostname=host,
        labels=check_labels(labels),
    )


def gpu_request(gpus: str | Sequence[str | int], env: Mapping[str, str]) -> Request:
    """``"auto"`` (the environment), ``"none"``, ``"0,1"`` or a list of indices / UUIDs."""
    if isinstance(gpus, str):
        if gpus == "auto":
            return plan(env)
        if gpus.strip().lower() in ("", "none"):
            return Request("gpus argument")
        return explicit(gpus.split(","))
    return explicit(gpus)


def resolve_gpus(request: Request, nvml: Any = None) -> Resolution:
    """The request's GPUs, asking NVML only when needed; never raises (an unusable NVML is a ``problem``)."""
    if not needs_nvml(request):
        return resolve(request, None)
    try:
        return resolve(request, read_device_table(nvml))
    except NvmlUnavailable as exc:
        return resolve(request, None, str(exc))
    except Exception as exc:  # a broken driver must not take the job down
        return resolve(request, None, f"NVML failed: {type(exc).__name__}: {exc}")


class JobReporter:
    """Push one job's metrics from a background thread; use as a context manager (or ``start``/``finish``)."""

    def __init__(
        self,
        job_id: str,
        *,
        gateway: str | None = None,
        gpus: str | Sequence[str | int] = "auto",
        job: str = DEFAULT_JOB,
        user: str | None = None,
        hostname: str | None = None,
        labels: Mapping[str, str] | None = None,
        push_interval_s: float = 15.0,
        timeout_s: float = 5.0,
        close_timeout_s: float = 5.0,
        max_backoff_s: float = 120.0,
        on_finish: OnFinish = "keep",
        enabled: bool = True,
        env: Mapping[str, str] | None = None,
        nvml: Any = None,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.perf_counter,
    ) -> None:
        env = dict(os.environ if env is None else env)
        self.identity = job_identity(job_id, job=job, user=user, hostname=hostname, labels=labels, env=env)
        self._request = gpu_request(gpus, env)
        if on_finish not in ("keep", "delete"):
            raise InvalidJobInput(f"on_finish must be 'keep' or 'delete', got {on_finish!r}")
        self._on_finish = on_finish
        policy = PushPolicy(push_interval_s, timeout_s, max_backoff_s, close_timeout_s)
        self.enabled = enabled
        url = gateway if gateway is not None else env.get(GATEWAY_ENV, "")
        if enabled and not url.strip():
            raise InvalidJobInput(f"no Pushgateway: pass gateway='http://host:9091' or set {GATEWAY_ENV}")
        self._gateway = Gateway(url, timeout_s) if enabled else None
        self._nvml = nvml
        self._clock = clock
        self._recorder = ProgressRecorder(monotonic)
        self._resolution: Resolution | None = None
        self._resolve_lock = threading.Lock()
        self._start_time = clock()
        self._finish: Finish | None = None
        self._state: Literal["new", "running", "finished"] = "new"
        self._recording = enabled  # a disabled reporter (other ranks) does nothing at all
        self._flushed: bool | None = None
        self._pusher = Pusher(f"job_id={self.identity.job_id}", self._tick, self._final, policy)

    # --- the training loop's side ---------------------------------------------------------------------------

    def step(self, duration_s: float | None = None, *, samples: float = 0, tokens: float = 0, **gauges: float) -> None:
        """Record one finished step: its duration (default: time since the previous step), the samples and
        tokens it processed, and custom gauges (``loss=...`` -> ``gpuscope_job_loss``). Never raises, never
        does I/O."""
        if self._recording:
            self._recorder.record_step(duration_s, samples, tokens, gauges)

    def set_gauges(self, **gauges: float) -> None:
        """Set custom gauges without counting a step."""
        if self._recording:
            self._recorder.set_gauges(gauges)

    # --- lifecycle --------------------------------------------------------------------------------------------

    def start(self) -> JobReporter:
        """Start pushing (the first push, with the job's GPUs, happens at once on the background thread)."""
        if self._state == "new":
            self._state = "running"
            self._start_time = self._clock()
            if self.enabled:
                self._pusher.start()
        return self

    def finish(self, exit_code: int = 0) -> bool:
        """Push the end time and exit status (or delete the group); ``True`` when the gateway took it in time."""
        if self._state == "finished":
            return bool(self._flushed)
        self.start()
        self._state = "finished"
        self._recording = False
        self._finish = Finish(self._clock(), _exit_code(exit_code))
        self._flushed = self._pusher.stop() if self.enabled else False
        return self._flushed

    def __enter__(self) -> JobReporter:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.finish(_status_of(exc))

    # --- what the job can ask -----------------------------------------------------------------------------

    @property
    def gpus(self) -> Resolution | None:
        """The resolved GPUs, once the background thread has resolved them."""
        return self._resolution

    @property
    def stats(self) -> PushStats:
        return self._pusher.stats

    @property
    def flushed(self) -> bool | None:
        """After ``finish``: whether the final push reached the gateway in time; ``None`` before."""
        return self._flushed

    # --- the background thread's side -------------------------------------------------------------------------

    def _gpus(self) -> tuple[JobGpu, ...]:
        with self._resolve_lock:
            if self._resolution is None:
                resolution = resolve_gpus(self._request, self._nvml)
                if resolution.problem:
                    log.warning(
                        "job metrics (job_id=%s): %s. Those GPUs will not join GPU telemetry: set "
                        "CUDA_VISIBLE_DEVICES to GPU UUIDs or pass gpus=[...]",
                        self.identity.job_id,
                        resolution.problem,
                    )
                self._resolution = resolution
            return self._resolution.gpus

    def _body(self, finish: Finish | None) -> bytes:
        for problem in self._recorder.problems():
            log.warning("job metrics (job_id=%s): %s", self.identity.job_id, problem)
        families = start_families(self.identity, self._gpus(), self._start_time)
        families += progress_families(self._recorder.snapshot())
        if finish is not None:
            families += finish_families(finish)
        return render(families)

    def _tick(self, timeout_s: float) -> None:
        assert self._gateway is not None
        self._gateway.put(self.identity.grouping_key(), self._body(None), timeout_s)

    def _final(self, timeout_s: float) -> None:
        assert self._gateway is not None
        try:
            if self._on_finish == "delete":
                self._gateway.delete(self.identity.grouping_key(), timeout_s)
            else:
                self._gateway.put(self.identity.grouping_key(), self._body(self._finish), timeout_s)
        finally:
            self._gateway.close()


def _exit_code(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return 1
    try:
        return int(value)
    except (ValueError, OverflowError):  # "x", NaN, infinity
        return 1


def _status_of(exc: BaseException | None) -> int:
    """The exit status the process is about to have, as a shell would report it."""
    if exc is None:
        return 0
    if isinstance(exc, SystemExit):
        code = exc.code
        return 0 if code is None else code if isinstance(code, int) else 1
    if isinstance(exc, KeyboardInterrupt):
        return 130
    return 1
