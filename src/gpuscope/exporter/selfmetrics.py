"""The exporter's own metrics (``gpuscope_exporter_*`` and ``process_*``): what dcgm-exporter never told you.

Static families are rendered once per collection with the DCGM ones; the dynamic tail (snapshot age, connection
counts, process figures, the last reload) is rendered per scrape because it changes between collections. The
records of that tail's state are held by the runtime: ``ReloadStatus`` lives here, the HTTP server's counts
(``ConnectionStats``, ``AuthStats``) in ``gpuscope.httpd.stats``.
"""

from __future__ import annotations

import functools
import os
import resource
from collections.abc import Iterator
from dataclasses import dataclass

from gpuscope.backends.base import ProfilingState
from gpuscope.exporter.attribution.exposition import render_api_status
from gpuscope.exporter.render import RenderConfig, build_info_line
from gpuscope.exporter.snapshot import Snapshot
from gpuscope.exposition import COUNTER, GAUGE, family, fixed, general, integer, label, label_suffix, labels, sample
from gpuscope.httpd.stats import AUTH_OUTCOMES, HTTP_TIMEOUTS, AuthStats, ConnectionStats

_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = resource.getpagesize()


def _gpu_labels(index: int, uuid: str, config: RenderConfig) -> str:
    host = "," + label(config.host_label, config.hostname) if config.hostname is not None else ""
    return f'gpu="{index}",{label(config.uuid_label, uuid)}{host}'


def _single(name: str, kind: str, help_text: str, value: str | None) -> str:
    """A family of one unlabelled sample; none when ``value`` is None."""
    return family(name, kind, help_text, [] if value is None else [sample(name, "", value)])


def render_self(snapshot: Snapshot, config: RenderConfig, interval_s: float, dialect: str) -> str:
    """The static self-metrics of one snapshot."""
    s = snapshot
    parts = [
        build_info_line(s.backend, dialect),
        _single(
            "gpuscope_exporter_start_time_seconds",
            GAUGE,
            "When this exporter (or simulated node) started, in seconds since the epoch.",
            fixed(s.started_at, 3),
        ),
        family(
            "gpuscope_exporter_backend_up",
            GAUGE,
            "1 if the last collection could read the GPU backend, 0 if the backend is unavailable.",
            [sample("gpuscope_exporter_backend_up", label("backend", s.backend), integer(s.backend_up))],
        ),
        _single(
            "gpuscope_exporter_collections_total", COUNTER, "Collections attempted since start.", integer(s.collections)
        ),
        _single(
            "gpuscope_exporter_collection_failures_total",
            COUNTER,
            "Collections that could not read the backend since start.",
            integer(s.failures),
        ),
        _single(
            "gpuscope_exporter_collection_duration_seconds",
            GAUGE,
            "How long the last collection took.",
            fixed(s.last_duration, 6),
        ),
        _single(
            "gpuscope_exporter_collection_interval_seconds",
            GAUGE,
            "The configured collection interval.",
            general(interval_s),
        ),
        _single(
            "gpuscope_exporter_last_collection_timestamp_seconds",
            GAUGE,
            "When the served reading was taken, in seconds since the epoch.",
            None if s.reading_at is None else fixed(s.reading_at, 3),
        ),
        *_dcgm_families(s),
        *_gpu_families(s, config),
        *_workload_families(s),
    ]
    if s.kernel_log is not None:
        from gpuscope.exporter.kernellog import render  # loaded with --kernel-log only

        parts.append(render(s.kernel_log))
    return "".join(parts)


def _dcgm_families(s: Snapshot) -> Iterator[str]:
    info = s.reading.dcgm if s.reading is not None else None
    if info is None:
        return
    name = "gpuscope_exporter_dcgm_info"
    pairs = (("client_version", info.client_version), ("hostengine_version", info.hostengine_version))
    yield family(
        name,
        GAUGE,
        "The DCGM versions in use: this exporter's libdcgm and the host engine (skew: keep client >= engine).",
        [sample(name, labels(pairs), "1")],
    )


def _workload_families(s: Snapshot) -> Iterator[str]:
    status = s.workload_status
    if status is None:
        return
    if status.kubernetes:
        yield _single(
            "gpuscope_exporter_kubelet_up",
            GAUGE,
            "1 if the last kubelet PodResources List succeeded (pod attribution is current).",
            integer(status.kubelet_up),
        )
        yield _single(
            "gpuscope_exporter_kubelet_errors_total",
            COUNTER,
            "Failed kubelet PodResources List calls since start.",
            integer(status.kubelet_errors),
        )
    yield render_api_status(status)
    if status.hpc:
        yield _single(
            "gpuscope_exporter_hpc_job_mapping_dir_readable",
            GAUGE,
            "1 if the HPC job mapping directory could be read at the last collection.",
            integer(status.hpc_dir_readable),
        )
    yield _single(
        "gpuscope_exporter_workload_unmatched_devices",
        GAUGE,
        "Devices (kubelet device ids, mapping file names) naming no GPU or MIG instance of this node.",
        integer(len(s.attribution.unmatched)),
    )


def _gpu_families(s: Snapshot, config: RenderConfig) -> Iterator[str]:
    gpus = sorted(s.reading.gpus, key=lambda g: g.identity.index) if s.reading else []
    name = "gpuscope_exporter_gpu_lost"
    yield family(
        name,
        GAUGE,
        "1 if the GPU has fallen off the bus or is otherwise lost (NVML GPU_IS_LOST, XID 79).",
        [sample(name, _gpu_labels(g.identity.index, g.identity.uuid, config), integer(g.lost)) for g in gpus],
    )
    profiled = [g for g in gpus if g.profiling is not ProfilingState.NOT_REQUESTED and not g.lost]
    name = "gpuscope_exporter_gpu_profiling_supported"
    yield family(
        name,
        GAUGE,
        "1 if the GPU can deliver DCGM_FI_PROF_* metrics at all; 0 means it never will (no GPM/DCP).",
        [
            sample(
                name,
                _gpu_labels(g.identity.index, g.identity.uuid, config),
                integer(g.profiling is not ProfilingState.UNSUPPORTED),
            )
            for g in profiled
        ],
    )
    name = "gpuscope_exporter_gpu_profiling_available"
    yield family(
        name,
        GAUGE,
        "1 if DCGM_FI_PROF_* values are flowing for the GPU now; see the reason label when 0.",
        [
            sample(
                name,
                _gpu_labels(g.identity.index, g.identity.uuid, config) + label_suffix((("reason", g.profiling.value),)),
                integer(g.profiling is ProfilingState.AVAILABLE),
            )
            for g in profiled
        ],
    )
    name = "gpuscope_exporter_field_unsupported"
    yield family(
        name,
        GAUGE,
        "1 for each requested field the GPU does not support (its series is left out).",
        [
            sample(name, f'gpu="{idx}",{label(config.uuid_label, uuid)},{label("field", field)}', "1")
            for idx, uuid, field in sorted(s.unsupported)
        ],
    )
    name = "gpuscope_exporter_field_read_errors_total"
    yield family(
        name,
        COUNTER,
        "Failed reads of a requested field, by GPU, field and reason (the series is left out that collection).",
        [
            sample(
                name,
                f'gpu="{idx}",{label(config.uuid_label, uuid)}' + label_suffix((("field", field), ("reason", reason))),
                integer(count),
            )
            for (idx, uuid, field, reason), count in sorted(s.read_errors.items())
        ],
    )


@dataclass(frozen=True, slots=True)
class ProcessStats:
    cpu_seconds: float
    resident_bytes: int
    virtual_bytes: int
    start_time: float
    open_fds: int
    max_fds: int


@functools.cache
def _boot_time() -> int:
    # Read once: it never changes, and /proc/stat is the longest of the files a scrape would otherwise read.
    with open("/proc/stat", encoding="ascii") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("btime"))


def read_process_stats() -> ProcessStats | None:
    """This process's figures from /proc (Linux); ``None`` elsewhere."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        btime = _boot_time()
        fds = len(os.listdir("/proc/self/fd"))
    except (OSError, StopIteration, IndexError, ValueError):
        return None
    # Fields after the command name: state is [0], utime [11], stime [12], starttime [19], vsize [20], rss [21].
    return ProcessStats(
        cpu_seconds=(int(fields[11]) + int(fields[12])) / _CLK_TCK,
        resident_bytes=int(fields[21]) * _PAGE,
        virtual_bytes=int(fields[20]),
        start_time=btime + int(fields[19]) / _CLK_TCK,
        open_fds=fds,
        max_fds=resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    )


@dataclass(frozen=True, slots=True)
class ReloadStatus:
    """The last configuration reload's outcome (SIGHUP); the configuration read at start is the first success."""

    successful: bool
    success_at: float


RELOAD_SUCCESSFUL = "gpuscope_exporter_config_last_reload_successful"
RELOAD_SUCCESS_TIMESTAMP = "gpuscope_exporter_config_last_reload_success_timestamp_seconds"


def _connection_families(c: ConnectionStats) -> list[str]:
    name = "gpuscope_exporter_http_connections"
    timed_out = "gpuscope_exporter_http_connections_timed_out_total"
    return [
        family(
            name,
            GAUGE,
            "Open connections to this listener, by state (tls_handshake: handshake not finished).",
            [
                sample(name, label("state", "tls_handshake"), integer(c.handshaking)),
                sample(name, label("state", "established"), integer(c.open - c.handshaking)),
            ],
        ),
        _single(
            "gpuscope_exporter_http_connections_idle",
            GAUGE,
            "Open connections with no request in progress; at the connection limit the least recently active goes.",
            integer(c.idle()),
        ),
        _single(
            "gpuscope_exporter_http_connection_limit",
            GAUGE,
            "Most connections this listener keeps open at once; more are closed on arrival.",
            integer(c.limit),
        ),
        _single(
            "gpuscope_exporter_http_connections_rejected_total",
            COUNTER,
            "Connections closed on arrival because the connection limit was reached and no open one was idle.",
            integer(c.rejected),
        ),
        _single(
            "gpuscope_exporter_http_connections_evicted_total",
            COUNTER,
            "Idle connections closed to admit a new one because the connection limit was reached.",
            integer(c.evicted),
        ),
        family(
            timed_out,
            COUNTER,
            "Connections cut for a timeout: a request not received whole in time (request), or a response the "
            "client stopped reading (write).",
            [sample(timed_out, label("timeout", t), integer(c.timed_out.get(t, 0))) for t in HTTP_TIMEOUTS],
        ),
    ]


def _auth_families(a: AuthStats) -> list[str]:
    checks = "gpuscope_exporter_auth_checks_total"
    runs = "gpuscope_exporter_auth_bcrypt_verifications_total"
    return [
        family(
            checks,
            COUNTER,
            "Basic-auth checks, by how they were answered (known and unknown users alike).",
            [sample(checks, label("outcome", o), integer(a.outcomes.get(o, 0))) for o in AUTH_OUTCOMES],
        ),
        family(
            runs,
            COUNTER,
            "bcrypt verifications run, by the cost of the hash checked (an unknown user's: the highest configured).",
            [sample(runs, label("cost", str(cost)), integer(n)) for cost, n in sorted(a.verifications.items())],
        ),
    ]


def _reload_families(r: ReloadStatus) -> list[str]:
    # Named after Prometheus's own prometheus_config_last_reload_* pair.
    return [
        _single(
            RELOAD_SUCCESSFUL,
            GAUGE,
            "Whether the last configuration reload attempt was successful.",
            integer(r.successful),
        ),
        _single(
            RELOAD_SUCCESS_TIMESTAMP,
            GAUGE,
            "Timestamp of the last successful configuration reload.",
            fixed(r.success_at, 3),
        ),
    ]


def _process_families(p: ProcessStats) -> list[str]:
    # client_python's process collector: the same names, help texts and two decimals.
    return [
        _single(
            "process_cpu_seconds_total",
            COUNTER,
            "Total user and system CPU time spent in seconds.",
            fixed(p.cpu_seconds, 2),
        ),
        _single("process_resident_memory_bytes", GAUGE, "Resident memory size in bytes.", integer(p.resident_bytes)),
        _single("process_virtual_memory_bytes", GAUGE, "Virtual memory size in bytes.", integer(p.virtual_bytes)),
        _single(
            "process_start_time_seconds",
            GAUGE,
            "Start time of the process since unix epoch in seconds.",
            fixed(p.start_time, 2),
        ),
        _single("process_open_fds", GAUGE, "Number of open file descriptors.", integer(p.open_fds)),
        _single("process_max_fds", GAUGE, "Maximum number of open file descriptors.", integer(p.max_fds)),
    ]


def render_dynamic(
    snapshot: Snapshot,
    now: float,
    process: ProcessStats | None,
    connections: ConnectionStats | None = None,
    reload: ReloadStatus | None = None,
    auth: AuthStats | None = None,
) -> str:
    """The per-scrape tail: snapshot age, the listener's connection counts, process figures, the last reload, basic
    auth's counts."""
    age = snapshot.age(now)
    parts = [
        _single(
            "gpuscope_exporter_snapshot_age_seconds",
            GAUGE,
            "Age of the served reading; grows when collections fail or hang.",
            None if age is None else fixed(age, 3),
        )
    ]
    if connections is not None:
        parts += _connection_families(connections)
    if process is not None:
        parts += _process_families(process)
    if reload is not None:
        parts += _reload_families(reload)
    if auth is not None and auth.configured:
        parts += _auth_families(auth)
    return "".join(parts)
