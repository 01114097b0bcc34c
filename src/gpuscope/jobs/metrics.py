"""The job metrics contract and its text exposition: what one Pushgateway group of a job contains.

Grouping key ``{job, job_id, instance}`` (the Pushgateway adds those labels to every series of the group), then:

- ``gpuscope_job_info{user, UUID, Hostname, [gpu], [GPU_I_ID], [extra labels]} 1`` — one series per GPU, the
  join key to GPU telemetry (``device`` instead of ``UUID`` for a GPU that could not be resolved);
- ``gpuscope_job_start_time_seconds``, and once finished ``gpuscope_job_end_time_seconds`` and
  ``gpuscope_job_exit_code``;
- progress: ``gpuscope_job_steps_total`` (counter), ``gpuscope_job_step_duration_seconds`` (the last step),
  ``gpuscope_job_samples_per_second``, ``gpuscope_job_tokens_per_second``, custom ``gpuscope_job_<name>`` gauges.

Pure: values in, bytes out. No timestamps (the Pushgateway rejects them); HELP texts are constants because
the Pushgateway serves one family per name across all groups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from gpuscope.exposition import family, labels, sample, shortest
from gpuscope.jobs.devices import JobGpu

INFO = "gpuscope_job_info"
START = "gpuscope_job_start_time_seconds"
END = "gpuscope_job_end_time_seconds"
EXIT_CODE = "gpuscope_job_exit_code"
STEPS = "gpuscope_job_steps_total"
STEP_DURATION = "gpuscope_job_step_duration_seconds"
SAMPLES_RATE = "gpuscope_job_samples_per_second"
TOKENS_RATE = "gpuscope_job_tokens_per_second"

_HELP = {
    INFO: "One series per GPU of a job (value 1); join GPU telemetry on UUID (and GPU_I_ID for MIG).",
    START: "Unix time the job started.",
    END: "Unix time the job finished; absent while it runs.",
    EXIT_CODE: "Exit status of the finished job (0 = success); absent while it runs.",
    STEPS: "Steps the job has completed.",
    STEP_DURATION: "Duration of the job's last step.",
    SAMPLES_RATE: "Samples per second over the steps since the previous push.",
    TOKENS_RATE: "Tokens per second over the steps since the previous push.",
}
_CUSTOM_HELP = "Job-defined gauge reported through gpuscope.jobs."

Labels = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class JobIdentity:
    """Who the job is: its grouping key and the static labels of its info series."""

    job: str
    job_id: str
    instance: str
    user: str
    hostname: str
    labels: Labels = ()

    def grouping_key(self) -> Labels:
        return (("job", self.job), ("job_id", self.job_id), ("instance", self.instance))


@dataclass(frozen=True, slots=True)
class Progress:
    """What the job reported since it started; ``None`` = never reported."""

    steps: int | None = 0  # None: not reported (a CLI step call without --steps)
    step_duration_s: float | None = None
    samples_per_s: float | None = None
    tokens_per_s: float | None = None
    gauges: Mapping[str, float] = field(default_factory=dict)  # full metric name -> value


@dataclass(frozen=True, slots=True)
class Finish:
    end_time: float
    exit_code: int


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    type: str
    samples: tuple[tuple[Labels, float], ...]


def render(families: Iterable[Family]) -> bytes:
    """Prometheus text format 0.0.4, families sorted by name (same input, same bytes); values in Python's shortest
    form (``1.0``, ``NaN``), as client_python pushes them."""
    return "".join(
        family(
            fam.name,
            fam.type,
            _HELP.get(fam.name, _CUSTOM_HELP),
            [sample(fam.name, labels(pairs), shortest(value)) for pairs, value in fam.samples],
        )
        for fam in sorted(families, key=lambda f: f.name)
    ).encode()


def info_family(identity: JobIdentity, gpus: Iterable[JobGpu]) -> Family:
    """One series per GPU; a job with no known GPU still gets one (no ``UUID``), so its user is on record."""
    base = (("user", identity.user), ("Hostname", identity.hostname))
    rows = [base + gpu.labels() + identity.labels for gpu in gpus] or [base + identity.labels]
    return Family(INFO, "gauge", tuple((labels, 1.0) for labels in rows))


def start_families(identity: JobIdentity, gpus: Iterable[JobGpu], start_time: float) -> list[Family]:
    return [info_family(identity, gpus), _gauge(START, start_time)]


def progress_families(progress: Progress) -> list[Family]:
    out = [] if progress.steps is None else [Family(STEPS, "counter", (((), float(progress.steps)),))]
    for name, value in (
        (STEP_DURATION, progress.step_duration_s),
        (SAMPLES_RATE, progress.samples_per_s),
        (TOKENS_RATE, progress.tokens_per_s),
    ):
        if value is not None:
            out.append(_gauge(name, value))
    out += [_gauge(name, value) for name, value in sorted(progress.gauges.items())]
    return out


def finish_families(finish: Finish) -> list[Family]:
    return [_gauge(END, finish.end_time), _gauge(EXIT_CODE, float(finish.exit_code))]


def _gauge(name: str, value: float) -> Family:
    return Family(name, "gauge", (((), value),))
