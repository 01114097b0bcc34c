"""Job-scoped metrics pushed to a Pushgateway and joined to GPU telemetry by GPU UUID at query time.

Training and batch jobs are the one exception to pull: they may end between two scrapes, so they push what only
they know — steps, throughput, completion — never hardware counters (those come from the exporter). Each job is
one Pushgateway group, grouping key ``{job, job_id, instance}``, whose ``gpuscope_job_info{UUID, ...}`` series
name the job's GPUs so that queries join the two: ``gpu:activity:avg5m * on(UUID) group_left(job_id)
gpuscope_job_info``. Importing this package needs nothing beyond the standard library; httpx is imported by
the first push and pynvml only when GPU indices must be resolved to UUIDs.

Modules, data first: ``labels`` (what a job may report), ``devices`` (GPU resolution), ``metrics`` (the contract
and its exposition), ``progress`` (what ``step()`` records), ``gateway`` (the HTTP API), ``pusher`` (the
background thread), ``reporter`` (``JobReporter``), ``oneshot`` (the CLI's single pushes), ``expiry`` (deleting
old groups).
"""

from gpuscope.jobs.devices import JobGpu, Resolution
from gpuscope.jobs.gateway import Gateway, GatewayError
from gpuscope.jobs.labels import InvalidJobInput
from gpuscope.jobs.pusher import PushStats
from gpuscope.jobs.reporter import DEFAULT_JOB, GATEWAY_ENV, JobReporter

__all__ = [
    "DEFAULT_JOB",
    "GATEWAY_ENV",
    "Gateway",
    "GatewayError",
    "InvalidJobInput",
    "JobGpu",
    "JobReporter",
    "PushStats",
    "Resolution",
]
