"""The exporter's own metrics (``gpuscope_exporter_*`` and ``process_*``): what dcgm-exporter never told you.

Static families are rendered once per collection with the DCGM ones; the dynamic tail (snapshot age, process
figures) is rendered per scrape because it changes between collections.
"""

from __future__ import annotations

import functools
import os
import resource
from collections.abc import Iterator
from dataclasses import dataclass

from gpuscope.backends.base import ProfilingState
from gpuscope.exporter.render import RenderConfig, build_info_line, escape
from gpuscope.exporter.snapshot import Snapshot
from gpuscope.exporter.workloads.exposition import render_api_status

_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = resource.getpagesize()


def _family(name: str, kind: str, help_text: str, lines: list[str]) -> str:
    if not lines:
        return ""
    return f"# HELP {name} {help_text}\n# TYPE {name} {kind}\n" + "".join(lines)


def _gpu_labels(index: int, uuid: str, config: RenderConfig) -> str:
    host = f',{config.host_label}="{escape(config.hostname)}"' if config.hostname is not None else ""
    return f'gpu="{index}",{config.uuid_label}="{escape(uuid)}"{host}'


def render_self(snapshot: Snapshot, config: RenderConfig, interval_s: float, dialect: str) -> str:
    """The static self-metrics of one snapshot."""
    s = snapshot
    parts = [
        build_info_line(s.backend, dialect),
        _family(
            "gpuscope_exporter_start_time_seconds",
            "gauge",
            "When this exporter (or simulated node) started, in seconds since the epoch.",
            [f"gpuscope_exporter_start_time_seconds {s.started_at:.3f}\n"],
        ),
        _family(
            "gpuscope_exporter_backend_up",
            "gauge",
            "1 if the last collection could read the GPU backend, 0 if the backend is unavailable.",
            [f'gpuscope_exporter_backend_up{{backend="{s.backend}"}} {int(s.backend_up)}\n'],
        ),
        _family(
            "gpuscope_exporter_collections_total",
            "counter",
            "Collections attempted since start.",
            [f"gpuscope_exporter_collections_total {s.collections}\n"],
        ),
        _family(
            "gpuscope_exporter_collection_failures_total",
            "counter",
            "Collections that could not read the backend since start.",
            [f"gpuscope_exporter_collection_failures_total {s.failures}\n"],
        ),
        _family(
            "gpuscope_exporter_collection_duration_seconds",
            "gauge",
            "How long the last collection took.",
            [f"gpuscope_exporter_collection_duration_seconds {s.last_duration:.6f}\n"],
        ),
        _family(
            "gpuscope_exporter_collection_interval_seconds",
            "gauge",
            "The configured collection interval.",
            [f"gpuscope_exporter_collection_interval_seconds {interval_s:g}\n"],
        ),
        _family(
            "gpuscope_exporter_last_collection_timestamp_seconds",
            "gauge",
            "When the served reading was taken, in seconds since the epoch.",
            []
            if s.reading_at is None
            else [f"gpuscope_exporter_last_collection_timestamp_seconds {s.reading_at:.3f}\n"],
        ),
        *_dcgm_families(s),
        *_gpu_families(s, config),
        *_workload_families(s),
    ]
    return "".join(parts)


def _dcgm_families(s: Snapshot) -> Iterator[str]:
    info = s.reading.dcgm if s.reading is not None else None
    if info is None:
        return
    yield _family(
        "gpuscope_exporter_dcgm_info",
        "gauge",
        "The DCGM versions in use: this exporter's libdcgm and the host engine (skew: keep client >= engine).",
        [
            f'gpuscope_exporter_dcgm_info{{client_version="{escape(info.client_version)}"'
            f',hostengine_version="{escape(info.hostengine_version)}"}} 1\n'
        ],
    )


def _workload_families(s: Snapshot) -> Iterator[str]:
    status = s.workload_status
    if status is None:
        return
    if status.kubernetes:
        yield _family(
            "gpuscope_exporter_kubelet_up",
            "gauge",
            "1 if the last kubelet PodResources List succeeded (pod attribution is current).",
            [f"gpuscope_exporter_kubelet_up {int(status.kubelet_up)}\n"],
        )
        yield _family(
            "gpuscope_exporter_kubelet_errors_total",
            "counter",
            "Failed kubelet PodResources List calls since start.",
            [f"gpuscope_exporter_kubelet_errors_total {status.kubelet_errors}\n"],
        )
    yield render_api_status(status)
    if status.hpc:
        yield _family(
            "gpuscope_exporter_hpc_job_mapping_dir_readable",
            "gauge",
            "1 if the HPC job mapping directory could be read at the last collection.",
            [f"gpuscope_exporter_hpc_job_mapping_dir_readable {int(status.hpc_dir_readable)}\n"],
        )
    yield _family(
        "gpuscope_exporter_workload_unmatched_devices",
        "gauge",
        "Devices (kubelet device ids, mapping file names) naming no GPU or MIG instance of this node.",
        [f"gpuscope_exporter_workload_unmatched_devices {len(s.attribution.unmatched)}\n"],
    )


def _gpu_families(s: Snapshot, config: RenderConfig) -> Iterator[str]:
    gpus = sorted(s.reading.gpus, key=lambda g: g.identity.index) if s.reading else []
    yield _family(
        "gpuscope_exporter_gpu_lost",
        "gauge",
        "1 if the GPU has fallen off the bus or is otherwise lost (NVML GPU_IS_LOST, XID 79).",
        [
            f"gpuscope_exporter_gpu_lost{{{_gpu_labels(g.identity.index, g.identity.uuid, config)}}} {int(g.lost)}\n"
            for g in gpus
        ],
    )
    profiled = [g for g in gpus if g.profiling is not ProfilingState.NOT_REQUESTED and not g.lost]
    yield _family(
        "gpuscope_exporter_gpu_profiling_supported",
        "gauge",
        "1 if the GPU can deliver DCGM_FI_PROF_* metrics at all; 0 means it never will (no GPM/DCP).",
        [
            f"gpuscope_exporter_gpu_profiling_supported{{{_gpu_labels(g.identity.index, g.identity.uuid, config)}}}"
            f" {int(g.profiling is not ProfilingState.UNSUPPORTED)}\n"
            for g in profiled
        ],
    )
    yield _family(
        "gpuscope_exporter_gpu_profiling_available",
        "gauge",
        "1 if DCGM_FI_PROF_* values are flowing for the GPU now; see the reason label when 0.",
        [
            f"gpuscope_exporter_gpu_profiling_available{{{_gpu_labels(g.identity.index, g.identity.uuid, config)}"
            f',reason="{g.profiling.value}"}} {int(g.profiling is ProfilingState.AVAILABLE)}\n'
            for g in profiled
        ],
    )
    yield _family(
        "gpuscope_exporter_field_unsupported",
        "gauge",
        "1 for each requested field the GPU does not support (its series is left out).",
        [
            f'gpuscope_exporter_field_unsupported{{gpu="{idx}",{config.uuid_label}="{escape(uuid)}"'
            f',field="{name}"}} 1\n'
            for idx, uuid, name in sorted(s.unsupported)
        ],
    )
    yield _family(
        "gpuscope_exporter_field_read_errors_total",
        "counter",
        "Failed reads of a requested field, by GPU, field and reason (the series is left out that collection).",
        [
            f'gpuscope_exporter_field_read_errors_total{{gpu="{idx}",{config.uuid_label}="{escape(uuid)}"'
            f',field="{name}",reason="{reason}"}} {count}\n'
            for (idx, uuid, name, reason), count in sorted(s.read_errors.items())
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


@dataclass(slots=True)
class ConnectionStats:
    """One listener's connection counts, kept by the HTTP guard on the event loop and read by scrapes."""

    limit: int
    open: int = 0
    handshaking: int = 0  # of ``open``: TLS handshakes not finished yet
    rejected: int = 0  # refused because ``limit`` connections were open


def _connection_families(c: ConnectionStats) -> list[str]:
    return [
        _family(
            "gpuscope_exporter_http_connections",
            "gauge",
            "Open connections to this listener, by state (tls_handshake: handshake not finished).",
            [
                f'gpuscope_exporter_http_connections{{state="tls_handshake"}} {c.handshaking}\n',
                f'gpuscope_exporter_http_connections{{state="established"}} {c.open - c.handshaking}\n',
            ],
        ),
        _family(
            "gpuscope_exporter_http_connection_limit",
            "gauge",
            "Most connections this listener keeps open at once; more are closed on arrival.",
            [f"gpuscope_exporter_http_connection_limit {c.limit}\n"],
        ),
        _family(
            "gpuscope_exporter_http_connections_rejected_total",
            "counter",
            "Connections closed on arrival because the connection limit was reached.",
            [f"gpuscope_exporter_http_connections_rejected_total {c.rejected}\n"],
        ),
    ]


def render_dynamic(
    snapshot: Snapshot, now: float, process: ProcessStats | None, connections: ConnectionStats | None = None
) -> str:
    """The per-scrape tail: snapshot age, process figures and the listener's connection counts."""
    age = snapshot.age(now)
    parts = [
        _family(
            "gpuscope_exporter_snapshot_age_seconds",
            "gauge",
            "Age of the served reading; grows when collections fail or hang.",
            [] if age is None else [f"gpuscope_exporter_snapshot_age_seconds {age:.3f}\n"],
        )
    ]
    if connections is not None:
        parts += _connection_families(connections)
    if process is not None:
        p = process
        parts += [
            _family(
                "process_cpu_seconds_total",
                "counter",
                "Total user and system CPU time spent in seconds.",
                [f"process_cpu_seconds_total {p.cpu_seconds:.2f}\n"],
            ),
            _family(
                "process_resident_memory_bytes",
                "gauge",
                "Resident memory size in bytes.",
                [f"process_resident_memory_bytes {p.resident_bytes}\n"],
            ),
            _family(
                "process_virtual_memory_bytes",
                "gauge",
                "Virtual memory size in bytes.",
                [f"process_virtual_memory_bytes {p.virtual_bytes}\n"],
            ),
            _family(
                "process_start_time_seconds",
                "gauge",
                "Start time of the process since unix epoch in seconds.",
                [f"process_start_time_seconds {p.start_time:.2f}\n"],
            ),
            _family(
                "process_open_fds",
                "gauge",
                "Number of open file descriptors.",
                [f"process_open_fds {p.open_fds}\n"],
            ),
            _family(
                "process_max_fds",
                "gauge",
                "Maximum number of open file descriptors.",
                [f"process_max_fds {p.max_fds}\n"],
            ),
        ]
    return "".join(parts)
