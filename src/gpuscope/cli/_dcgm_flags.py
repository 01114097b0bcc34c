"""The flag table: every flag of dcgm-exporter (and gpuscope's own settings flags), one row each.

``ExporterFlags`` is the table and the settings record at once: each field is one flag, named as the flag
(``--kubernetes-enable-pod-labels`` is the field ``kubernetes_enable_pod_labels``), typed, with its default, and
its row (short and long name, env var, help, status) in the field's metadata. From it come the typer options of
``gpuscope exporter`` (and ``dcgm-exporter``) and ``gpuscope sim`` (``with_flags``), the inert-flag log lines, the
Kubernetes-only lines and the README's flag table (``markdown_table``); ``cli/_options.py`` maps the record to
``ExporterSettings`` in one function. A new dcgm-exporter flag is one new field here, nothing else.

The rows follow dcgm-exporter's ``pkg/cmd/app.go`` (checked against NVIDIA/dcgm-exporter 4.5.3-4.8.2, commit
d5e5f51; the rows of 4.8.3/4.8.4, from ``--config-file`` to ``--container-runtime-socket``, against the stored
``pkg/cmd/app.go`` that carries the 4.8.4 flags, PRs #711 and #745), in its order, then gpuscope's own. A flag
the GPU Operator, dcgm-exporter's Helm chart or a user's values pass must never stop the exporter (a pod that
exits on start crash-loops), so every one of them is accepted; the ones with no effect here (``inert``) say so in
one log line at start, and only when they were set (flag or env var).
Defaults are gpuscope's where they differ (``-c`` 15000, ``-r`` empty: DCGM embedded, ``-f`` the built-in list;
docs/exporter.md says why), and ``--workload-labels``' follows how the exporter was started (``cli/_options.py``
``attribution``).
"""

from __future__ import annotations

import functools
import inspect
import logging
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Annotated, Any

import typer

from gpuscope.cli._app import choice
from gpuscope.exporter.attribution.resolve import DEFAULT_SOCKET

log = logging.getLogger("gpuscope")

EXPORTER = frozenset({"exporter"})
BOTH = frozenset({"exporter", "sim"})
WEEK_MS = 7 * 86_400_000  # a week of events is what a counter window can usefully hold


@dataclass(frozen=True, slots=True)
class Flag:
    """One row of the table: how a flag is spelled, documented and treated (its name, type and default are the
    ``ExporterFlags`` field that holds it)."""

    long: str
    help: str
    short: str = ""
    env: str = ""
    commands: frozenset[str] = EXPORTER
    dcgm: bool = True  # dcgm-exporter's flag (False: gpuscope's own)
    inert: str = ""  # why it has no effect here (logged once at start when set); empty: it works
    needs_kubernetes: bool = False  # acts only with -k/--kubernetes, as dcgm-exporter's
    choices: tuple[str, ...] = ()  # checked at start, naming the flag
    min: int | None = None
    max: int | None = None
    # Non-empty: why min/max bound the value here. dcgm-exporter takes any integer for the flag, so a value outside
    # is clamped with one warning naming the flag (and this reason), never refused: a pod that exits crash-loops.
    clamp: str = ""
    off: str = ""  # the negative form of a boolean that defaults on
    slice: bool = False  # dcgm-exporter's StringSliceFlag: a repeated flag adds its values (comma-joined here)
    doc_name: str = ""  # after the names in the README's flag column: a unit or the value's form
    doc_default: str = ""  # the README's default column
    doc: str = ""  # the README's status column, after implemented/accepted/gpuscope's

    @property
    def display(self) -> str:
        """The flag as the log and error lines name it: ``-s/--switch-devices``."""
        return "/".join(n for n in (self.short, self.long) if n)

    @property
    def status(self) -> str:
        if self.inert:
            return "accepted"
        return "implemented" if self.dcgm else "gpuscope's"


def _row(default: Any, flag: Flag) -> Any:
    return field(default=default, metadata={"flag": flag})


DCGM_LOG_LEVELS = ("NONE", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "VERB")
# Why the count windows are bounded (the reason said when a value is clamped).
_WINDOW = (
    "the window keeps a sample per GPU and collection: under a second it spans about one collection, over a week "
    "it holds a week of them"
)
# dcgm-exporter's IntFlag is Go's int (64 bits): a value beyond it stops dcgm-exporter as well, so it is refused.
GO_INT = 2**63
_NEEDS_K = "needs `-k`"


@dataclass(frozen=True, slots=True, kw_only=True)
class ExporterFlags:
    """Every exporter flag's value, one field per flag, named as the flag. The field's row is its metadata."""

    collectors: str | None = _row(None, Flag(
        "--collectors", "Collectors CSV (dcgm-exporter format). Default: the built-in default-counters.csv.",
        short="-f", env="DCGM_EXPORTER_COLLECTORS", commands=BOTH,
        doc_default="built-in list = dcgm-exporter's `default-counters.csv` (also in `etc/`)",
        doc="; re-read on SIGHUP and when the file is rewritten"))  # fmt: skip
    config_file: str = _row("", Flag(
        "--config-file", "dcgm-exporter's YAML configuration file (version 1 or 2): metric source, collection "
        "interval, per-field watch groups, retention; flags and env vars that are set win.",
        env="DCGM_EXPORTER_CONFIG_FILE", doc_default="none", doc=": versions 1 and 2, read at start "
        "([the configuration file](#the-configuration-file))"))  # fmt: skip
    address: str = _row(":9400", Flag(
        "--address", "Listen address: HOST:PORT, :PORT (every interface) or [IPv6]:PORT.", short="-a",
        env="DCGM_EXPORTER_LISTEN"))  # fmt: skip
    web_read_timeout: str = _row("10s", Flag(
        "--web-read-timeout", "Longest a client may take to send a request (Go duration).",
        env="DCGM_EXPORTER_WEB_READ_TIMEOUT", doc_name="(duration)",
        doc=": the connection's request deadline; an unparsable value keeps 10s with a warning, as "
        "dcgm-exporter"))  # fmt: skip
    web_write_timeout: str = _row("30s", Flag(
        "--web-write-timeout", "Longest a response write may stall (Go duration).",
        env="DCGM_EXPORTER_WEB_WRITE_TIMEOUT", doc_name="(duration)",
        doc=": the connection's write deadline (a stalled reader is dropped); unparsable: 30s with a "
        "warning"))  # fmt: skip
    max_concurrent_scrapes: int = _row(16, Flag(
        "--max-concurrent-scrapes", "Accepted (1 or more, as dcgm-exporter 4.8.4 checks it): scrapes never collect, "
        "every one is served the last render.",
        env="DCGM_EXPORTER_MAX_CONCURRENT_SCRAPES", min=1,  # dcgm-exporter's validateConfig refuses 0 or less too
        inert="a scrape never collects or renders: every concurrent /metrics request is served the bytes the last "
        "collection rendered once (dcgm-exporter's coalescing, always on here); connections are capped at 512 "
        "(503 beyond)"))  # fmt: skip
    enable_exporter_metrics: bool = _row(False, Flag(
        "--enable-exporter-metrics", "Accepted: gpuscope always serves process_* and gpuscope_exporter_*.",
        env="DCGM_EXPORTER_ENABLE_EXPORTER_METRICS",
        inert="gpuscope always serves its process_* family and its own state as gpuscope_exporter_*; go_* and "
        "promhttp_* are Go's client library's, with no counterpart here"))  # fmt: skip
    collect_interval: int = _row(15000, Flag(
        "--collect-interval", "Collection interval in milliseconds (clamped to 100 to 3600000, with a warning).",
        short="-c", env="DCGM_EXPORTER_INTERVAL", commands=BOTH, min=100, max=3_600_000, doc_name="(ms)",
        doc="; default 15000, not dcgm-exporter's 30000: the 15 s scrape gets a new sample every time "
        "([why](#where-gpuscope-differs-from-dcgm-exporter))",
        clamp="gpuscope reads the GPUs every interval in the background: faster keeps a worker thread busy, slower "
        "than an hour serves hour-old values and /health waits three intervals"))  # fmt: skip
    watch_max_keep_age: str = _row("10m", Flag(
        "--watch-max-keep-age", "How long DCGM keeps each watched field's samples (Go duration; 0s: no age limit "
        "when a sample limit is set).", env="DCGM_EXPORTER_WATCH_MAX_KEEP_AGE", doc_name="(duration)",
        doc="with `--backend dcgm` (the watches' `maxKeepAge`); logged once as without effect by the other "
        "backends"))  # fmt: skip
    watch_max_keep_samples: int = _row(0, Flag(
        "--watch-max-keep-samples", "How many samples DCGM keeps per watched field (0: no count limit when an age "
        "limit is set).", env="DCGM_EXPORTER_WATCH_MAX_KEEP_SAMPLES", min=0, max=2**31 - 1,
        doc="with `--backend dcgm` (the watches' `maxKeepSamples`); both limits 0 is an error, as "
        "dcgm-exporter"))  # fmt: skip
    kubernetes: bool = _row(False, Flag(
        "--kubernetes", "Attribute GPUs to pods through the kubelet PodResources API (read every collection).",
        short="-k", env="DCGM_EXPORTER_KUBERNETES", commands=BOTH, doc="(kubelet PodResources)"))  # fmt: skip
    use_old_namespace: bool = _row(False, Flag(
        "--use-old-namespace", "dcgm-exporter 1.x label names (uuid instead of UUID).", short="-o",
        env="DCGM_EXPORTER_USE_OLD_NAMESPACE", doc_default="off (`uuid` label when on)"))  # fmt: skip
    cpu_devices: str = _row("f", Flag(
        "--cpu-devices", "CPU selector (accepted).", short="-p", env="DCGM_EXPORTER_CPU_DEVICES_STR",
        inert="gpuscope serves GPU and GPU-instance entities only, not CPUs or CPU cores (Grace)"))  # fmt: skip
    configmap_data: str = _row("none", Flag(
        "--configmap-data", "Read the collectors CSV from ConfigMap NAMESPACE:NAME (key metrics) with the pod's "
        "service account; none: use -f.", short="-m", env="DCGM_EXPORTER_CONFIGMAP_DATA",
        doc=": `NAMESPACE:NAME`, key `metrics`, pod's service account; SIGHUP re-reads it; one 10 s deadline for "
        "the whole read, no redirect followed (the token goes to the API server only)"))  # fmt: skip
    remote_hostengine_info: str = _row("", Flag(
        "--remote-hostengine-info", "DCGM host engine HOST:PORT (port 5555 by default) or unix socket path; "
        "empty: embedded.", short="-r", env="DCGM_REMOTE_HOSTENGINE_INFO",
        doc_name="(`HOST:PORT` or socket path)", doc_default="empty: DCGM embedded in the exporter",
        doc="by `--backend dcgm`; recorded and logged with the other backends"))  # fmt: skip
    kubernetes_enable_pod_labels: bool = _row(False, Flag(
        "--kubernetes-enable-pod-labels", "Add the pod's labels (watched on the API server, one watch per node; "
        "needs -k and get/list/watch on pods).", env="DCGM_EXPORTER_KUBERNETES_ENABLE_POD_LABELS",
        needs_kubernetes=True, doc=": one API server watch per node (`spec.nodeName`); needs `-k` "
        "([docs/kubernetes-attribution.md](kubernetes-attribution.md))"))  # fmt: skip
    kubernetes_enable_pod_uid: bool = _row(False, Flag(
        "--kubernetes-enable-pod-uid", "Add the pod_uid label (from the API server's pod watch; needs -k).",
        env="DCGM_EXPORTER_KUBERNETES_ENABLE_POD_UID", needs_kubernetes=True,
        doc=f": `pod_uid`, from the same watch; {_NEEDS_K}"))  # fmt: skip
    kubernetes_gpu_id_type: str = _row("uid", Flag(
        "--kubernetes-gpu-id-type", "uid or device-name. Accepted for compatibility: both GPU UUIDs and "
        "nvidia<N> names are recognised.", env="DCGM_EXPORTER_KUBERNETES_GPU_ID_TYPE",
        choices=("uid", "device-name"), doc="(both forms are recognised either way)"))  # fmt: skip
    kubernetes_pod_label_allowlist_regex: str = _row("", Flag(
        "--kubernetes-pod-label-allowlist-regex", "Comma-separated regular expressions; only pod labels whose key "
        "one of them matches (unanchored) are added. Empty: every label.",
        env="DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX", needs_kubernetes=True, slice=True,
        doc_default="none (every label)", doc=": comma-separated, unanchored, repeatable (the values add up), RE2 "
        "(linear time); an invalid pattern is skipped with a warning, as dcgm-exporter"))  # fmt: skip
    devices: str = _row("f", Flag(
        "--devices", "GPUs to serve: f (every GPU, MIG instances where on), g or g:0,2-3 (GPUs), i or i:0,1 "
        "(MIG instances), g:0+i:1 (both).", short="-d", env="DCGM_EXPORTER_DEVICES_STR",
        doc=": `f`, `g`, `g:0,2-3`, `i`, `i:0,1`, combined `g:0+i:1` (dcgm-exporter 4.8.3)"))  # fmt: skip
    no_hostname: bool = _row(False, Flag(
        "--no-hostname", "Omit the host label.", short="-n", env="DCGM_EXPORTER_NO_HOSTNAME"))  # fmt: skip
    health_require_gpus: bool = _row(False, Flag(
        "--health-require-gpus", "/health answers 503 while no GPU is visible (a liveness probe then restarts the "
        "exporter).", env="DCGM_EXPORTER_HEALTH_REQUIRE_GPUS"))  # fmt: skip
    switch_devices: str = _row("f", Flag(
        "--switch-devices", "NVSwitches and ports to serve: f (all), g or g:0,2 (switches, no port), g:0+i:0-7 "
        "(switches and those ports).", short="-s", env="DCGM_EXPORTER_OTHER_DEVICES_STR",
        doc=": `f`, `g`, `g:0-3`, `g:0+i:0-7` (switch ids, then port indices), as dcgm-exporter"))  # fmt: skip
    fake_gpus: bool = _row(False, Flag(
        "--fake-gpus", "Serve simulated GPUs (same as --backend sim).", env="DCGM_EXPORTER_USE_FAKE_GPUS",
        doc=": the simulator (`--backend sim`)"))  # fmt: skip
    web_config_file: str = _row("", Flag(
        "--web-config-file", "TLS and basic auth, in the Prometheus exporter-toolkit web config format.",
        env="DCGM_EXPORTER_WEB_CONFIG_FILE", commands=BOTH, doc_default="none (plain HTTP, no auth)",
        doc="; SIGHUP re-reads it"))  # fmt: skip
    xid_count_window_size: int = _row(300000, Flag(
        "--xid-count-window-size", "Window of DCGM_EXP_XID_ERRORS_COUNT in milliseconds (clamped to 1000 to a "
        "week, with a warning).", short="-x", env="DCGM_EXPORTER_XID_COUNT_WINDOW_SIZE", min=1000, max=WEEK_MS,
        doc_name="(ms)", clamp=_WINDOW))  # fmt: skip
    replace_blanks_in_model_name: bool = _row(False, Flag(
        "--replace-blanks-in-model-name", "Replace spaces in the modelName label with dashes.", short="-rbmn",
        env="DCGM_EXPORTER_REPLACE_BLANKS_IN_MODEL_NAME"))  # fmt: skip
    debug: bool = _row(False, Flag(
        "--debug", "Debug logging.", env="DCGM_EXPORTER_DEBUG", commands=BOTH))  # fmt: skip
    clock_events_count_window_size: int = _row(300000, Flag(
        "--clock-events-count-window-size", "Window of DCGM_EXP_CLOCK_EVENTS_COUNT in milliseconds (clamped to 1000 "
        "to a week, with a warning).", env="DCGM_EXPORTER_CLOCK_EVENTS_COUNT_WINDOW_SIZE", min=1000, max=WEEK_MS,
        doc_name="(ms)", clamp=_WINDOW))  # fmt: skip
    enable_dcgm_log: bool = _row(False, Flag(
        "--enable-dcgm-log", "Accepted.", env="DCGM_EXPORTER_ENABLE_DCGM_LOG",
        inert="gpuscope reports DCGM errors in its own log (stderr); DCGM's own log is not forwarded"))  # fmt: skip
    dcgm_log_level: str = _row("NONE", Flag(
        "--dcgm-log-level", "Accepted: NONE ... VERB.", env="DCGM_EXPORTER_DCGM_LOG_LEVEL", choices=DCGM_LOG_LEVELS,
        inert="DCGM's own log is not forwarded; use --debug for gpuscope's detail"))  # fmt: skip
    log_format: str = _row("text", Flag(
        "--log-format", "text or json.", env="DCGM_EXPORTER_LOG_FORMAT", choices=("text", "json")))  # fmt: skip
    pod_resources_kubelet_socket: str = _row(DEFAULT_SOCKET, Flag(
        "--pod-resources-kubelet-socket", "The kubelet PodResources socket; {hostname} becomes the host label "
        "value (a socket per simulated node).", env="DCGM_POD_RESOURCES_KUBELET_SOCKET", commands=BOTH))  # fmt: skip
    hpc_job_mapping_dir: str = _row("", Flag(
        "--hpc-job-mapping-dir", "Directory of Slurm job mapping files named <gpu> or <gpu>.<gi>, one job id per "
        "line; {hostname} as for the socket.", env="DCGM_HPC_JOB_MAPPING_DIR", commands=BOTH,
        doc_default="none"))  # fmt: skip
    container_labels: bool = _row(False, Flag(
        "--container-labels", "Accepted.", env="DCGM_EXPORTER_CONTAINER_LABELS",
        inert="labels from the container runtime's socket are not read; pods and containers come from the kubelet "
        "(-k), processes from /proc (--process-metrics)"))  # fmt: skip
    container_runtime_socket: str = _row("", Flag(
        "--container-runtime-socket", "Accepted.", env="DCGM_CONTAINER_RUNTIME_SOCKET",
        inert="see --container-labels"))  # fmt: skip
    nvidia_resource_names: str = _row("", Flag(
        "--nvidia-resource-names", "More resource names that carry GPUs, comma-separated (nvidia.com/gpu and "
        "nvidia.com/mig-* always).", env="NVIDIA_RESOURCE_NAMES", commands=BOTH, doc_name="(comma-separated)",
        slice=True, doc_default="none (`nvidia.com/gpu`, `nvidia.com/mig-*` always)",
        doc="; repeatable (the values add up)"))  # fmt: skip
    kubernetes_virtual_gpus: bool = _row(False, Flag(
        "--kubernetes-virtual-gpus", "Shared GPUs (time-slicing/MPS ::N, GKE /vgpuN): one attribution per sharing "
        "pod and replica, with a vgpu label, and GPU_UTIL and FB_USED split per pod from the GPUs' process lists, "
        "as dcgm-exporter (needs the host's /proc).", env="KUBERNETES_VIRTUAL_GPUS",
        needs_kubernetes=True, doc=": `vgpu` label, one attribution per sharing pod and replica; the per-pod split "
        "of GPU_UTIL/FB_USED in `info` and `labels` mode ([docs/shared-gpus.md](shared-gpus.md)); needs "
        "`-k`"))  # fmt: skip
    dump_enabled: bool = _row(False, Flag(
        "--dump-enabled", "Accepted.", env="DCGM_EXPORTER_DUMP_ENABLED",
        inert="file dumps of DCGM calls are not implemented; /health and the self-metrics (gpuscope_exporter_*) "
        "carry the exporter's state"))  # fmt: skip
    dump_directory: str = _row("/tmp/dcgm-exporter-debug", Flag(
        "--dump-directory", "Accepted.", env="DCGM_EXPORTER_DUMP_DIRECTORY",
        inert="file dumps are not implemented (see --dump-enabled)"))  # fmt: skip
    dump_retention: int = _row(24, Flag(
        "--dump-retention", "Accepted.", env="DCGM_EXPORTER_DUMP_RETENTION", min=0, doc_name="(hours)",
        inert="file dumps are not implemented (see --dump-enabled)"))  # fmt: skip
    dump_compression: bool = _row(True, Flag(
        "--dump-compression", "Accepted.", env="DCGM_EXPORTER_DUMP_COMPRESSION", off="--no-dump-compression",
        inert="file dumps are not implemented (see --dump-enabled)"))  # fmt: skip
    kubernetes_enable_dra: bool = _row(False, Flag(
        "--kubernetes-enable-dra", "Attribute GPUs allocated through DRA ResourceClaims (dra_* labels; watches the "
        "node's ResourceSlices).", env="KUBERNETES_ENABLE_DRA", needs_kubernetes=True,
        doc=f": `dra_*` labels, devices resolved through the node's ResourceSlices; {_NEEDS_K}"))  # fmt: skip
    disable_startup_validate: bool = _row(False, Flag(
        "--disable-startup-validate", "Accepted.", env="DISABLE_STARTUP_VALIDATE",
        inert="gpuscope never exits on a missing GPU or driver: it serves /health 503 and retries every "
        "collection"))  # fmt: skip
    enable_gpu_bind_unbind_watch: bool = _row(False, Flag(
        "--enable-gpu-bind-unbind-watch", "With --backend dcgm: list DCGM's GPUs every poll interval, so a GPU "
        "bound or unbound rebuilds the watches and its series at once.",
        env="DCGM_EXPORTER_ENABLE_GPU_BIND_UNBIND_WATCH",
        doc="with `--backend dcgm`: DCGM's GPU list is read every poll interval (not every minute) and a changed one "
        "rebuilds the watches and series; NVML and the simulator say once they re-probe on their own "
        "schedule"))  # fmt: skip
    gpu_bind_unbind_poll_interval: str = _row("1s", Flag(
        "--gpu-bind-unbind-poll-interval", "How often DCGM's GPU list is read with --enable-gpu-bind-unbind-watch "
        "(Go duration).", env="DCGM_EXPORTER_GPU_BIND_UNBIND_POLL_INTERVAL", doc_name="(duration)",
        doc="; unparsable: 1s with a warning, as dcgm-exporter"))  # fmt: skip
    enable_pprof: bool = _row(False, Flag(
        "--enable-pprof", "Serve /debug/pprof/: thread stacks (goroutine) and allocation sites (heap).",
        env="DCGM_EXPORTER_ENABLE_PPROF", doc=", Python flavour: `/debug/pprof/goroutine` (thread stacks), "
        "`/debug/pprof/heap` (tracemalloc)"))  # fmt: skip
    web_systemd_socket: bool = _row(False, Flag(
        "--web-systemd-socket", "Serve on the socket systemd passes (socket activation) instead of -a.",
        env="DCGM_EXPORTER_SYSTEMD_SOCKET", doc=": serves on the socket systemd passes (`LISTEN_FDS`)"))  # fmt: skip
    # gpuscope's own.
    node_name: str | None = _row(None, Flag(
        "--node-name", "Host label value (default: hostname).", env="NODE_NAME", dcgm=False,
        doc_name="(host label value)", doc_default="the machine's hostname"))  # fmt: skip
    backend: str = _row("auto", Flag(
        "--backend", "auto (dcgm if a host engine answers, else nvml if a driver is present, else sim), sim, nvml "
        "or dcgm.", env="GPUSCOPE_BACKEND", dcgm=False, doc_name="`auto\\|sim\\|nvml\\|dcgm`"))  # fmt: skip
    dialect: str = _row("classic", Flag(
        "--dialect", "Metric names: classic (dcgm-exporter <= 4.8), 4.9 (renamed names, base units) or 4.10 (4.9's "
        "and the *_BYTES_PER_SECOND PROF rates).",
        env="GPUSCOPE_DIALECT", commands=BOTH, dcgm=False, choices=("classic", "4.9", "4.10")))  # fmt: skip
    host_label: str = _row("Hostname", Flag(
        "--host-label", "Name of the host label: Hostname (dcgm-exporter <= 4.8.2) or hostname (>= 4.8.3).",
        env="GPUSCOPE_HOST_LABEL", commands=BOTH, dcgm=False, choices=("Hostname", "hostname")))  # fmt: skip
    workload_labels: str = _row("info", Flag(
        "--workload-labels", "info: one gpuscope_gpu_workload_info/job_info series per allocation (join at query "
        "time); labels: pod/namespace/container and hpc_job on every series, as dcgm-exporter; off. Unset: labels "
        "when started as dcgm-exporter is (-k, DCGM_EXPORTER_KUBERNETES or the dcgm-exporter command), else info.",
        env="GPUSCOPE_WORKLOAD_LABELS", commands=BOTH, dcgm=False, choices=("info", "labels", "off"),
        doc_default="`labels` under `-k`/`DCGM_EXPORTER_KUBERNETES` or the `dcgm-exporter` command; else `info`",
        doc=": the mode in force and why is one line at start ([the attribution default]"
        "(kubernetes-attribution.md#the-default-follows-how-the-exporter-was-started)); `gpuscope sim`: "
        "`info`"))  # fmt: skip
    process_metrics: bool = _row(False, Flag(
        "--process-metrics", "Per-process GPU memory and utilization, summed per container, Slurm job or command "
        "(info mode), or the per-pod split of GPU_UTIL and FB_USED (--workload-labels labels; with "
        "--kubernetes-virtual-gpus in info mode too); needs the host's /proc (hostPID).",
        env="GPUSCOPE_PROCESS_METRICS", commands=BOTH, dcgm=False))  # fmt: skip
    proc_root: str = _row("/proc", Flag(
        "--proc-root", "Where the host's processes are seen (/proc; {hostname} as for the socket).",
        env="GPUSCOPE_PROC_ROOT", commands=BOTH, dcgm=False))  # fmt: skip
    pod_log_dir: str = _row("/var/log/pods", Flag(
        "--pod-log-dir", "The kubelet's pod log directory, naming live pods by UID (/var/log/pods; empty: none).",
        env="GPUSCOPE_POD_LOG_DIR", commands=BOTH, dcgm=False))  # fmt: skip
    kernel_log: str = _row("", Flag(
        "--kernel-log", "Count XID and NVSwitch SXid lines of the kernel log: /dev/kmsg or a growing text file "
        "(journalctl -kf output, kern.log); empty: off.", env="GPUSCOPE_KERNEL_LOG", dcgm=False,
        doc_default="off"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Row:
    """A field of ``ExporterFlags`` with its row: the name is the settings field and the typer parameter."""

    name: str
    type: Any
    default: Any
    flag: Flag


@functools.cache
def rows() -> tuple[Row, ...]:
    hints = typing.get_type_hints(ExporterFlags)
    return tuple(Row(f.name, hints[f.name], f.default, f.metadata["flag"]) for f in fields(ExporterFlags))


def row(name: str) -> Row:
    return next(r for r in rows() if r.name == name)


def check_choices(flags: ExporterFlags, command: str = "exporter") -> None:
    """A value outside a flag's choices is one line naming the flag (exit 2)."""
    for r in rows():
        if r.flag.choices and command in r.flag.commands:
            choice(getattr(flags, r.name), r.flag.choices, r.flag.long)


# ---- the typer options ----


def _option(r: Row) -> inspect.Parameter:
    f = r.flag
    names = [f"{f.long}/{f.off}"] if f.off else [n for n in (f.short, f.long) if n]
    # A clamped row's bounds are applied after parsing (``clamped``), with a warning: click would refuse the value.
    bounds = () if f.clamp else (("min", f.min), ("max", f.max))
    extra: dict[str, Any] = {k: v for k, v in bounds if v is not None}
    option = typer.Option(*names, envvar=f.env or None, help=f.help, **extra)
    return inspect.Parameter(
        r.name, inspect.Parameter.KEYWORD_ONLY, default=r.default, annotation=Annotated[r.type, option]
    )


def with_flags(command: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Give a command function's ``flags: ExporterFlags`` parameter one typer option per row of ``command``.

    Typer sees the rows in place of ``flags`` (in the table's order, among the function's own options); the
    function gets them back as one record, the rows ``command`` does not have at their defaults."""
    chosen = [r for r in rows() if command in r.flag.commands]

    def wrap(func: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(func, eval_str=True)
        params: list[inspect.Parameter] = []
        for p in signature.parameters.values():
            params.extend([_option(r) for r in chosen] if p.name == "flags" else [p.replace(kind=p.KEYWORD_ONLY)])

        @functools.wraps(func)
        def run(**values: Any) -> None:
            flags = ExporterFlags(**{r.name: values.pop(r.name) for r in chosen})
            func(flags=flags, **values)

        run.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in params} | {"return": None}
        return run

    return wrap


# ---- what the table says at start ----


def was_set(ctx: typer.Context, name: str) -> bool:
    """True when a parameter came from the command line or its env var, not from its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")


def inert_lines(is_set: Callable[[str], bool]) -> list[str]:
    """One line per inert flag that was set (``is_set``: given on the command line or by its env var), naming it
    and why it has no effect."""
    return [
        f"{r.flag.display} is accepted and has no effect: {r.flag.inert}"
        for r in rows()
        if r.flag.inert and is_set(r.name)
    ]


def needs_kubernetes_lines(is_set: Callable[[str], bool], kubernetes: bool) -> list[str]:
    """One line per Kubernetes attribution flag that was set without -k/--kubernetes (then it has no effect)."""
    if kubernetes:
        return []
    k = row("kubernetes").flag
    return [
        f"{r.flag.display} has no effect without {k.display} (env {k.env})"
        for r in rows()
        if r.flag.needs_kubernetes and is_set(r.name)
    ]


def clamp_value(r: Row, value: int, what: str) -> int:
    """``value`` within ``r``'s bounds; outside them, the nearest bound and one warning naming ``what`` (the flag,
    or the config file's key) and why. Beyond Go's int it is refused, as dcgm-exporter refuses it."""
    from gpuscope.errors import UsageError

    f = r.flag
    if not -GO_INT <= value < GO_INT:
        raise UsageError(f"{what}: not a 64-bit integer (dcgm-exporter refuses it too); use {f.min} to {f.max}")
    bounded = value if f.min is None else max(f.min, value)
    bounded = bounded if f.max is None else min(f.max, bounded)
    if bounded != value:
        log.warning(
            "%s is outside %s to %s: using %d (dcgm-exporter takes any value; %s)", what, f.min, f.max, bounded, f.clamp
        )
    return bounded


def clamped(flags: ExporterFlags, command: str = "exporter") -> ExporterFlags:
    """The flags with each clamped row's value within its bounds (one warning per flag that was outside)."""
    changes: dict[str, Any] = {}
    for r in rows():
        if r.flag.clamp and command in r.flag.commands:
            value = getattr(flags, r.name)
            bounded = clamp_value(r, value, f"{r.flag.display} {value}")
            if bounded != value:
                changes[r.name] = bounded
    return replace(flags, **changes)


def log_lines(lines: Iterable[str]) -> None:
    for line in lines:
        log.info("%s", line)


# ---- the README's table ----


def _cell_default(r: Row) -> str:
    if r.flag.doc_default:
        return r.flag.doc_default
    if isinstance(r.default, bool):
        return "on" if r.default else "off"
    return f"`{r.default}`"


def _cell_flag(f: Flag) -> str:
    names = " ".join(f"`{n}`" for n in (f.short, f.long) if n)
    forms = " `" + "\\|".join(f.choices) + "`" if f.choices else ""
    return names + forms + (f" {f.doc_name}" if f.doc_name else "")


def _cell_status(f: Flag) -> str:
    if f.inert:
        return f"accepted: {f.inert}"
    bounds = f"; outside {f.min} to {f.max}: clamped, with a warning (dcgm-exporter takes any value)" if f.clamp else ""
    if not f.doc:
        return f.status + bounds
    return f.status + ("" if f.doc[0] in ":;," else " ") + f.doc + bounds


def markdown_table() -> str:
    """The README's flag table: every row, in the table's order."""
    lines = ["| flag | env | default | status here |", "|---|---|---|---|"]
    for r in rows():
        env = f"`{r.flag.env}`" if r.flag.env else ""
        lines.append(f"| {_cell_flag(r.flag)} | {env} | {_cell_default(r)} | {_cell_status(r.flag)} |")
    return "\n".join(lines) + "\n"


# ---- dcgm-exporter's argument forms ----

_TRUE = frozenset({"1", "t", "true", "yes", "y", "on"})
_FALSE = frozenset({"0", "f", "false", "no", "n", "off"})


@dataclass(frozen=True, slots=True)
class _Spelling:
    """How one Go-style spelling of a table flag is written for click."""

    row: Row
    option: str  # click's long name (``--collectors``); for a boolean, the name that sets it on
    positive: bool = True  # False: the boolean's negative name (``--no-dump-compression``)
    off: str | None = None  # a boolean's negative name, for ``--flag=false``
    is_bool: bool = False


def _spellings(command: Any, name: str) -> dict[str, _Spelling]:
    """Every name Go's flag package (urfave/cli v2, dcgm-exporter's parser) accepts for the table's rows of
    command ``name``: each long name and alias with one dash or two (``-collectors``, ``--collectors``, ``--f``)."""
    params = {p.name: p for p in command.params}
    out: dict[str, _Spelling] = {}
    for r in rows():
        param = params.get(r.name)
        if name not in r.flag.commands or param is None:
            continue
        long = next((o for o in param.opts if o.startswith("--")), param.opts[0])
        is_bool = bool(getattr(param, "is_flag", False) and getattr(param, "is_bool_flag", False))
        off = next((o for o in param.secondary_opts if o.startswith("--")), None)
        for opt in param.opts:
            spelling = _Spelling(r, long, off=off, is_bool=is_bool)
            bare = opt.lstrip("-")
            out["-" + bare] = out["--" + bare] = spelling
        for opt in param.secondary_opts:
            bare = opt.lstrip("-")
            out["-" + bare] = out["--" + bare] = _Spelling(r, long, positive=False, off=off, is_bool=True)
    return out


def normalise_dcgm_args(command: Any, args: Sequence[str], name: str = "exporter") -> list[str]:
    """dcgm-exporter's argument forms, as urfave/cli v2 reads them, rewritten into the forms click reads.

    The one place they are rewritten, driven by the flag table (rows of command ``name``, ``command`` its click
    command): a long flag or alias with one dash or two, its value attached with ``=`` or as the next argument
    (``-collectors x``, ``-collect-interval=500``, ``-c=500``) becomes ``--long=value``; a boolean's
    ``--flag=<bool>`` becomes ``--flag`` or its ``--no-`` form (a value that is not a boolean is left for click to
    refuse); a repeated ``slice`` flag (``StringSliceFlag``) adds its values, comma-joined where it first appears.
    Anything else (click's own forms such as ``-c500``, ``--help``, unknown options) is left as it is."""
    spellings = _spellings(command, name)
    out: list[str] = []
    slices: dict[str, int] = {}  # row name -> where its joined value is in ``out``
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            out.extend(args[i:])
            break
        opt, sep, value = arg.partition("=")
        spelling = spellings.get(opt)
        if spelling is None:
            out.append(arg)
            i += 1
            continue
        i += 1
        if spelling.is_bool:
            out.extend(_bool_form(spelling, arg, value if sep else None))
            continue
        if not sep:
            if i >= len(args):
                out.append(spelling.option)  # no value: click says so
                continue
            value, i = args[i], i + 1
        if spelling.row.flag.slice and spelling.row.name in slices:
            at = slices[spelling.row.name]
            out[at] = f"{out[at]},{value}"
            continue
        if spelling.row.flag.slice:
            slices[spelling.row.name] = len(out)
        out.append(f"{spelling.option}={value}")
    return out


def _bool_form(spelling: _Spelling, arg: str, value: str | None) -> list[str]:
    if value is None:
        return [spelling.option if spelling.positive else spelling.off or arg]
    text = value.lower()
    if not spelling.positive or text not in _TRUE | _FALSE:
        return [arg]  # click refuses it, naming the flag
    if text in _TRUE:
        return [spelling.option]
    return [spelling.off] if spelling.off is not None else []  # false: the default of a flag without a --no- form
