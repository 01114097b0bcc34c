"""The flag table's record mapped to ``ExporterSettings``: the one place a flag becomes a setting.

``gpuscope exporter`` and ``gpuscope sim`` get their flags from ``cli/_dcgm_flags.py`` (names and environment
variables are dcgm-exporter's, so Helm charts and GPU Operator settings carry over); this module checks the values
and builds the settings, as dcgm-exporter's ``contextToConfig`` does.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import TYPE_CHECKING

from gpuscope.cli._dcgm_flags import ExporterFlags, check_choices

# The CLI imports this module at start-up: grpc, ssl contexts and YAML load only when a command needs them.
if TYPE_CHECKING:
    from gpuscope.exporter.settings import ExporterSettings
    from gpuscope.exporter.webconfig import WebConfig
    from gpuscope.exporter.workloads.source import WorkloadSettings

__all__ = ["exporter_settings", "web_config"]
log = logging.getLogger("gpuscope")


def exporter_settings(
    flags: ExporterFlags, *, command: str = "exporter", collectors_text: tuple[str, str] | None = None
) -> ExporterSettings:
    """The flags checked into settings; a bad one is one clear error naming it.

    ``collectors_text`` (CSV text, where it came from) replaces the ``collectors`` file: the ConfigMap of ``-m``.
    """
    from gpuscope.exporter.devices import parse_devices
    from gpuscope.exporter.processes.source import ProcessSettings
    from gpuscope.exporter.settings import ExporterSettings
    from gpuscope.fields.catalog import Dialect
    from gpuscope.fields.collectors import load_collectors, parse_collectors

    check_choices(flags, command)
    dialect = Dialect(flags.dialect)
    selection = parse_devices(flags.devices)
    loaded = (
        load_collectors(flags.collectors, dialect)
        if collectors_text is None
        else parse_collectors(collectors_text[0], collectors_text[1], dialect)
    )
    for warning in loaded.warnings:
        log.warning("%s", warning)
    return ExporterSettings(
        collectors=loaded,
        devices=selection,
        processes=ProcessSettings(
            enabled=flags.process_metrics, proc_root=flags.proc_root, pod_log_dir=flags.pod_log_dir
        ),
        dialect=dialect,
        interval_s=flags.collect_interval / 1000.0,
        host_label=flags.host_label,
        no_hostname=flags.no_hostname,
        use_old_namespace=flags.use_old_namespace,
        replace_blanks_in_model_name=flags.replace_blanks_in_model_name,
        xid_window_ms=flags.xid_count_window_size,
        clock_events_window_ms=flags.clock_events_count_window_size,
        workloads=_workload_settings(flags),
    )


def _workload_settings(flags: ExporterFlags) -> WorkloadSettings:
    """The attribution flags into settings (a bad allowlist pattern is one clear error naming the flag).

    ``--node-name``/``NODE_NAME`` selects the pods the API server watch sees; without it the host name stands in
    (a DaemonSet should set ``NODE_NAME`` from ``spec.nodeName``, as the generated one does)."""
    from gpuscope.exporter.workloads.model import WorkloadLabels
    from gpuscope.exporter.workloads.podmeta import compile_allowlist
    from gpuscope.exporter.workloads.source import WorkloadSettings

    compile_allowlist(flags.kubernetes_pod_label_allowlist_regex)  # a bad pattern is one line at start, exit 2
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
    from gpuscope.exporter.webconfig import load_web_config

    return load_web_config(path)
