"""The flag table's record mapped to ``ExporterSettings``: the one place a flag becomes a setting.

``gpuscope exporter`` and ``gpuscope sim`` get their flags from ``cli/_dcgm_flags.py`` (names and environment
variables are dcgm-exporter's, so Helm charts and GPU Operator settings carry over); this module checks the values
and builds the settings, as dcgm-exporter's ``contextToConfig`` does.
"""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpuscope.cli._dcgm_flags import ExporterFlags, check_choices, clamp_value, row

# The CLI imports this module at start-up: grpc, ssl contexts and YAML load only when a command needs them.
if TYPE_CHECKING:
    from collections.abc import Callable

    from gpuscope.backends.base import WatchPlan
    from gpuscope.exporter.attribution.source import WorkloadSettings
    from gpuscope.exporter.configfile import ConfigFile
    from gpuscope.exporter.settings import ExporterSettings
    from gpuscope.fields.collectors import CollectorSet
    from gpuscope.httpd.guard import HttpLimits
    from gpuscope.httpd.webconfig import WebConfig

__all__ = [
    "DCGM_EXPORTER_ENTRY",
    "Attribution",
    "attribution",
    "exporter_settings",
    "http_limits",
    "rediscover_s",
    "web_config",
    "with_config_file",
]
log = logging.getLogger("gpuscope")

# The config file's keys that map to a flag: flag field <- ConfigFile field.
_FROM_FILE = (
    ("collect_interval", "collect_interval_ms"),
    ("watch_max_keep_samples", None),
    ("enable_exporter_metrics", "enable_exporter_metrics"),
    ("max_concurrent_scrapes", "max_concurrent_scrapes"),
    ("enable_gpu_bind_unbind_watch", "detect_bind_unbind"),
    ("gpu_bind_unbind_poll_interval", "bind_unbind_poll_interval"),
)
_FILE_KEYS = {  # for the lines that name a key of the file
    "enable_exporter_metrics": "metrics.enableExporterMetrics",
    "max_concurrent_scrapes": "server.maxConcurrentScrapes",
    "enable_gpu_bind_unbind_watch": "sources.dcgm.detectBindUnbind.enabled",
    "gpu_bind_unbind_poll_interval": "sources.dcgm.detectBindUnbind.pollInterval",
}


def with_config_file(flags: ExporterFlags, is_set: Callable[[str], bool]) -> tuple[ExporterFlags, ConfigFile | None]:
    """``--config-file`` read once and laid under the flags: a flag or env var that was set wins (dcgm-exporter's
    precedence: flags, env vars, the file, defaults); ``-f`` or ``-m`` replace the file's metric source.

    A key that sets an accepted-only flag is said once, as the flag would be; a bad file is one ``file:line`` line.
    """
    if not flags.config_file:
        return flags, None
    from dataclasses import replace

    from gpuscope.durations import go_text
    from gpuscope.exporter.configfile import describe, load

    config = load(flags.config_file)
    changes: dict[str, object] = {}
    if is_set("collectors") or is_set("configmap_data"):
        if config.metrics_file or config.metrics_csv:
            log.info("%s: metrics.file/fields replaced by -f/-m, which were set", config.path)
        config = replace(config, metrics_file=None, metrics_csv=None)
    elif config.metrics_file:
        changes["collectors"] = config.metrics_file
    retention = config.retention
    if retention.max_keep_age_s is not None and not is_set("watch_max_keep_age"):
        # as whole nanoseconds: a float's repr (1e-05s, 3.6e+20s) is no Go duration, and its error would name the flag
        changes["watch_max_keep_age"] = go_text(retention.max_keep_age_s)
    if retention.max_keep_samples is not None and not is_set("watch_max_keep_samples"):
        changes["watch_max_keep_samples"] = retention.max_keep_samples
    for name, key in _FROM_FILE:
        value = getattr(config, key) if key else None
        if value is None or is_set(name):
            continue
        changes[name] = value
        inert = row(name).flag.inert
        if inert and name in _FILE_KEYS:
            log.info("%s: %s is accepted and has no effect: %s", config.path, _FILE_KEYS[name], inert)
    ms = changes.get("collect_interval")
    if isinstance(ms, int):  # dcgm-exporter takes any whole number of ms here: clamped with a warning, as the flag
        what = f"{config.path}: the collection interval {ms} ms (collection.interval or the all-fields collection)"
        changes["collect_interval"] = clamp_value(row("collect_interval"), ms, what)
    if config.keys:
        log.info("%s (config file version %d) sets %s", config.path, config.version, describe(config))
    return replace(flags, **changes), config  # type: ignore[arg-type]


# The command the GPU Operator and dcgm-exporter's image run (the Dockerfile's ENTRYPOINT, pyproject's
# [project.scripts]): gpuscope started in dcgm-exporter's place.
DCGM_EXPORTER_ENTRY = "dcgm-exporter"


@dataclass(frozen=True, slots=True, kw_only=True)
class Attribution:
    """The ``--workload-labels`` mode in force and why: the flag, dcgm-exporter's switches, or the default."""

    mode: str  # info, labels or off
    why: str  # what chose it, as the start-up line says it
    sources: tuple[str, ...]  # what attributes: "pod" (-k), "hpc_job" (--hpc-job-mapping-dir)

    @property
    def line(self) -> str:
        """The one start-up line: the mode in force, where attribution shows, and why."""
        if self.mode == "off" or not self.sources:
            return f"attribution: off ({self.why})"
        if self.mode == "labels":
            shown = " and ".join("pod labels" if s == "pod" else s for s in self.sources)
            return f"attribution: labels ({shown} on the DCGM series, as dcgm-exporter: {self.why})"
        families = ", ".join(
            "gpuscope_gpu_workload_info" if s == "pod" else "gpuscope_gpu_job_info" for s in self.sources
        )
        return f"attribution: info ({families}; {self.why})"


def attribution(flags: ExporterFlags, is_set: Callable[[str], bool], entry: str = "gpuscope") -> Attribution:
    """Which attribution mode ``gpuscope exporter`` runs in, and why (issue 49): the one place it is decided.

    ``--workload-labels``/``GPUSCOPE_WORKLOAD_LABELS``, when set, decides. Otherwise a command line that starts
    dcgm-exporter (``-k``/``DCGM_EXPORTER_KUBERNETES``, or the ``dcgm-exporter`` command of the image) gets what
    dcgm-exporter writes: ``namespace``/``pod``/``container`` (and ``hpc_job``) on the ``DCGM_*`` series, which
    OpenCost, KEDA, prometheus-adapter and the OpenShift console query. ``gpuscope exporter`` without them keeps
    gpuscope's ``info`` (one info series per allocation, joined at query time; docs/kubernetes-attribution.md)."""
    sources = tuple(s for s, on in (("pod", flags.kubernetes), ("hpc_job", bool(flags.hpc_job_mapping_dir))) if on)
    k = row("kubernetes").flag
    if is_set("workload_labels"):
        f = row("workload_labels").flag
        mode, why = flags.workload_labels, f"set by {f.long} or {f.env}"
    elif flags.kubernetes:
        mode, why = "labels", f"started with {k.short} or {k.env}"
    elif entry == DCGM_EXPORTER_ENTRY:
        mode, why = "labels", f"started as {DCGM_EXPORTER_ENTRY}"
    else:
        mode, why = flags.workload_labels, f"gpuscope exporter's default without {k.short} or {DCGM_EXPORTER_ENTRY}"
    if mode != "off" and not sources:
        why = f"no {k.short}, no {row('hpc_job_mapping_dir').flag.long}: nothing to attribute"
    return Attribution(mode=mode, why=why, sources=sources)


def _duration_flag(value: str, name: str, *, allow_zero: bool) -> float:
    from gpuscope.durations import go_seconds
    from gpuscope.errors import UsageError

    f = row(name).flag
    try:
        seconds = go_seconds(value)
    except ValueError as exc:
        raise UsageError(f"{f.display} (env {f.env}): {exc}") from None
    if seconds < 0 or (seconds == 0 and not allow_zero):
        raise UsageError(
            f"{f.display} (env {f.env}): {value!r:.40} must be {'0 or more' if allow_zero else 'more than 0'}"
        )
    return seconds


def watch_plan(
    flags: ExporterFlags, collectors: CollectorSet, config: ConfigFile | None, interval_s: float
) -> WatchPlan:
    """How DCGM's watches sample each field: every field at the collection interval with the retention flags,
    the config file's watch groups at theirs. Both retention limits 0 is an error, as in dcgm-exporter."""
    from types import MappingProxyType

    from gpuscope.backends.base import FieldWatch, WatchPlan
    from gpuscope.errors import UsageError

    age = _duration_flag(flags.watch_max_keep_age, "watch_max_keep_age", allow_zero=True)
    samples = flags.watch_max_keep_samples
    if age == 0 and samples == 0:
        if config is not None and config.retention_line:  # the file gave one of them: name its line, not a flag
            raise UsageError(
                f"{config.path}:{config.retention_line}: the watch retention would keep no samples (maxKeepAge 0 and "
                "maxKeepSamples 0, what the file leaves out taken from --watch-max-keep-age/--watch-max-keep-samples "
                "or their defaults 10m and 0): set one above 0"
            )
        raise UsageError(
            "--watch-max-keep-age and --watch-max-keep-samples cannot both be 0 (DCGM would keep nothing): set one"
        )
    default = FieldWatch(interval_s, age or 0.0, samples or 0)
    if config is None or not config.watch_groups:
        return WatchPlan(default)
    # Only a config file's watch groups load the file's module (an exporter without one does not carry it).
    from gpuscope.exporter.configfile import Retention, match_groups

    base = Retention(age, samples)
    rows = (*collectors.metrics, *collectors.labels, *collectors.header_only)
    names = sorted({(n, m.field.field_id) for m in rows for n in (m.name, m.field.name)})
    owners = match_groups(config.watch_groups, names, config.path)
    overrides: dict[int, FieldWatch] = {}
    for fid, group in owners.items():
        r = group.retention.over(base)
        if r.max_keep_age_s == 0 and r.max_keep_samples == 0:
            raise UsageError(f"{config.path}:{group.line}: watch group {group.name!r:.60} would keep no samples")
        overrides[fid] = FieldWatch(group.interval_ms / 1000.0, r.max_keep_age_s or 0.0, r.max_keep_samples or 0)
    return WatchPlan(default, MappingProxyType(overrides))


def rediscover_s(flags: ExporterFlags) -> float | None:
    """``--enable-gpu-bind-unbind-watch``: how often the DCGM backend lists its GPUs again (None: its own minute).
    An unparsable or non-positive poll interval keeps dcgm-exporter's 1 s, with a warning, as its parseDuration."""
    if not flags.enable_gpu_bind_unbind_watch:
        return None
    from gpuscope.durations import go_seconds

    f, value = row("gpu_bind_unbind_poll_interval").flag, flags.gpu_bind_unbind_poll_interval
    try:
        seconds = go_seconds(value)
    except ValueError as exc:
        log.warning("%s %r: %s; using 1s", f.display, value, exc)
        return 1.0
    if seconds <= 0:
        log.warning("%s %r: must be more than 0; using 1s", f.display, value)
        return 1.0
    return seconds


def http_limits(flags: ExporterFlags) -> HttpLimits:
    """``--web-read-timeout``/``--web-write-timeout`` as the connection deadlines. As dcgm-exporter, a value that
    does not parse keeps the default with a warning; 0 or less (Go's "no timeout") keeps it too: a connection
    without a deadline is one a slow client can hold for ever."""
    from gpuscope.durations import go_seconds
    from gpuscope.httpd.guard import HttpLimits

    def seconds(name: str) -> float:
        f, value, default = row(name).flag, getattr(flags, name), row(name).default
        try:
            parsed = go_seconds(value)
        except ValueError as exc:
            log.warning("%s %r: %s; using the default %s", f.display, value, exc, default)
            return go_seconds(default)
        if parsed <= 0:
            log.warning("%s %r: a connection needs a deadline; using the default %s", f.display, value, default)
            return go_seconds(default)
        return parsed

    return HttpLimits(request_timeout_s=seconds("web_read_timeout"), write_timeout_s=seconds("web_write_timeout"))


def exporter_settings(
    flags: ExporterFlags,
    *,
    command: str = "exporter",
    collectors_text: tuple[str, str] | None = None,
    config: ConfigFile | None = None,
) -> ExporterSettings:
    """The flags checked into settings; a bad one is one clear error naming it.

    ``collectors_text`` (CSV text, where it came from) replaces the ``collectors`` file: the ConfigMap of ``-m``.
    ``config`` (``with_config_file``) adds its inline ``metrics.fields`` and its watch groups.
    """
    from gpuscope.exporter.devices import SWITCH_FLAG, parse_devices
    from gpuscope.exporter.processes.source import ProcessSettings
    from gpuscope.exporter.settings import ExporterSettings
    from gpuscope.fields.catalog import Dialect
    from gpuscope.fields.collectors import load_collectors, parse_collectors

    check_choices(flags, command)
    if collectors_text is None and config is not None and config.metrics_csv is not None:
        collectors_text = (config.metrics_csv, f"{config.path} (metrics.fields)")
    dialect = Dialect(flags.dialect)
    selection = parse_devices(flags.devices)
    switches = parse_devices(flags.switch_devices, SWITCH_FLAG)
    loaded = (
        load_collectors(flags.collectors, dialect)
        if collectors_text is None
        else parse_collectors(collectors_text[0], collectors_text[1], dialect)
    )
    for warning in loaded.warnings:
        log.warning("%s", warning)
    workloads = _workload_settings(flags)
    return ExporterSettings(
        collectors=loaded,
        devices=selection,
        switches=switches,
        kernel_log=flags.kernel_log,
        processes=ProcessSettings(
            enabled=flags.process_metrics,
            proc_root=flags.proc_root,
            pod_log_dir=flags.pod_log_dir,
            split=workloads.split,
        ),
        dialect=dialect,
        interval_s=flags.collect_interval / 1000.0,
        host_label=flags.host_label,
        no_hostname=flags.no_hostname,
        use_old_namespace=flags.use_old_namespace,
        replace_blanks_in_model_name=flags.replace_blanks_in_model_name,
        xid_window_ms=flags.xid_count_window_size,
        clock_events_window_ms=flags.clock_events_count_window_size,
        workloads=workloads,
        watches=watch_plan(flags, loaded, config, flags.collect_interval / 1000.0),
        require_gpus=flags.health_require_gpus,
        rediscover_s=rediscover_s(flags),
    )


def _workload_settings(flags: ExporterFlags) -> WorkloadSettings:
    """The attribution flags into settings (a bad allowlist pattern is skipped with a warning, by the source).

    ``--node-name``/``NODE_NAME`` selects the pods the API server watch sees; without it the host name stands in
    (a DaemonSet should set ``NODE_NAME`` from ``spec.nodeName``, as the generated one does)."""
    from gpuscope.exporter.attribution.resolve import WorkloadLabels
    from gpuscope.exporter.attribution.source import WorkloadSettings

    names = tuple(n.strip() for n in flags.nvidia_resource_names.split(",") if n.strip())
    # gRPC's C core logs reconnect chatter to stderr by default; the exporter reports kubelet trouble itself.
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    return WorkloadSettings(
        mode=WorkloadLabels(flags.workload_labels),
        kubernetes=flags.kubernetes,
        socket_path=flags.pod_resources_kubelet_socket,
        resource_names=names,
        hpc_dir=flags.hpc_job_mapping_dir,
        pod_labels=flags.kubernetes_enable_pod_labels,
        pod_uid=flags.kubernetes_enable_pod_uid,
        label_allowlist=flags.kubernetes_pod_label_allowlist_regex,
        virtual_gpus=flags.kubernetes_virtual_gpus,
        dra=flags.kubernetes_enable_dra,
        node_name=flags.node_name or socket.gethostname(),
    )


def web_config(path: str) -> WebConfig | None:
    """Load and check ``--web-config-file`` at start-up (None when not given)."""
    if not path:
        return None
    from gpuscope.httpd.webconfig import load_web_config

    return load_web_config(path)
