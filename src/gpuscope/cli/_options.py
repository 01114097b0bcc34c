"""The flags ``gpuscope exporter`` and ``gpuscope sim`` share, declared once, and the settings built from them.

Names and environment variables are dcgm-exporter's, so Helm charts and GPU Operator settings carry over.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import TYPE_CHECKING, Annotated

import typer

from gpuscope.cli._app import choice
from gpuscope.exporter.workloads.model import DEFAULT_SOCKET

# The CLI imports this module at start-up: grpc, ssl contexts and YAML load only when a command needs them.
if TYPE_CHECKING:
    from gpuscope.exporter.settings import ExporterSettings
    from gpuscope.exporter.webconfig import WebConfig
    from gpuscope.exporter.workloads.source import WorkloadSettings

__all__ = [
    "DEFAULT_SOCKET",
    "CollectInterval",
    "Collectors",
    "ConfigMapData",
    "Debug",
    "Devices",
    "DialectName",
    "FakeGpus",
    "HostLabel",
    "HpcJobMappingDir",
    "Kubernetes",
    "NvidiaResourceNames",
    "PodLogDir",
    "PodResourcesSocket",
    "ProcRoot",
    "ProcessMetrics",
    "WebConfigFile",
    "WorkloadLabelsMode",
    "exporter_settings",
    "web_config",
    "workload_settings",
]
log = logging.getLogger("gpuscope")
GPU_ID_TYPES = ("uid", "device-name")
WORKLOAD_MODES = ("info", "labels", "off")
HOST_LABELS = ("Hostname", "hostname")

Collectors = Annotated[
    str | None,
    typer.Option(
        "-f",
        "--collectors",
        envvar="DCGM_EXPORTER_COLLECTORS",
        help="Collectors CSV (dcgm-exporter format). Default: the built-in default-counters.csv.",
    ),
]
CollectInterval = Annotated[
    int,
    typer.Option(
        "-c",
        "--collect-interval",
        envvar="DCGM_EXPORTER_INTERVAL",
        min=100,
        max=3_600_000,  # an hour: beyond it the snapshot is stale to every scrape, and the health check waits on it
        help="Collection interval in milliseconds (100 to 3600000).",
    ),
]
DialectName = Annotated[
    str,
    typer.Option(
        "--dialect",
        envvar="GPUSCOPE_DIALECT",
        help="Metric names: classic (dcgm-exporter <= 4.8) or 4.9 (renamed names, base units).",
    ),
]
HostLabel = Annotated[
    str,
    typer.Option(
        "--host-label",
        envvar="GPUSCOPE_HOST_LABEL",
        help="Name of the host label: Hostname (dcgm-exporter <= 4.8.2) or hostname (>= 4.8.3).",
    ),
]
Kubernetes = Annotated[
    bool,
    typer.Option(
        "-k",
        "--kubernetes",
        envvar="DCGM_EXPORTER_KUBERNETES",
        help="Attribute GPUs to pods through the kubelet PodResources API (read every collection).",
    ),
]
PodResourcesSocket = Annotated[
    str,
    typer.Option(
        "--pod-resources-kubelet-socket",
        envvar="DCGM_POD_RESOURCES_KUBELET_SOCKET",
        help="The kubelet PodResources socket; {hostname} becomes the host label value (a socket per simulated node).",
    ),
]
NvidiaResourceNames = Annotated[
    str,
    typer.Option(
        "--nvidia-resource-names",
        envvar="NVIDIA_RESOURCE_NAMES",
        help="More resource names that carry GPUs, comma-separated (nvidia.com/gpu and nvidia.com/mig-* always).",
    ),
]
HpcJobMappingDir = Annotated[
    str,
    typer.Option(
        "--hpc-job-mapping-dir",
        envvar="DCGM_HPC_JOB_MAPPING_DIR",
        help="Directory of Slurm job mapping files named <gpu> or <gpu>.<gi>, one job id per line; "
        "{hostname} as for the socket.",
    ),
]
WorkloadLabelsMode = Annotated[
    str,
    typer.Option(
        "--workload-labels",
        envvar="GPUSCOPE_WORKLOAD_LABELS",
        help="info: one gpuscope_gpu_workload_info/job_info series per allocation (join at query time); "
        "labels: pod/namespace/container and hpc_job on every series, as dcgm-exporter; off.",
    ),
]
ProcessMetrics = Annotated[
    bool,
    typer.Option(
        "--process-metrics",
        envvar="GPUSCOPE_PROCESS_METRICS",
        help="Per-process GPU memory and utilization, summed per container, Slurm job or command (info mode), or "
        "the per-pod split of GPU_UTIL and FB_USED (--workload-labels labels); needs the host's /proc (hostPID).",
    ),
]
ProcRoot = Annotated[
    str,
    typer.Option(
        "--proc-root",
        envvar="GPUSCOPE_PROC_ROOT",
        help="Where the host's processes are seen (/proc; {hostname} as for the socket).",
    ),
]
PodLogDir = Annotated[
    str,
    typer.Option(
        "--pod-log-dir",
        envvar="GPUSCOPE_POD_LOG_DIR",
        help="The kubelet's pod log directory, naming live pods by UID (/var/log/pods; empty: none).",
    ),
]
WebConfigFile = Annotated[
    str,
    typer.Option(
        "--web-config-file",
        envvar="DCGM_EXPORTER_WEB_CONFIG_FILE",
        help="TLS and basic auth, in the Prometheus exporter-toolkit web config format.",
    ),
]
Debug = Annotated[bool, typer.Option("--debug", envvar="DCGM_EXPORTER_DEBUG", help="Debug logging.")]
Devices = Annotated[
    str,
    typer.Option(
        "-d",
        "--devices",
        envvar="DCGM_EXPORTER_DEVICES_STR",
        help="GPUs to serve: f (every GPU, MIG instances where on), g or g:0,2-3 (GPUs), i or i:0,1 (MIG instances).",
    ),
]
ConfigMapData = Annotated[
    str,
    typer.Option(
        "-m",
        "--configmap-data",
        envvar="DCGM_EXPORTER_CONFIGMAP_DATA",
        help="Read the collectors CSV from ConfigMap NAMESPACE:NAME (key metrics) with the pod's service account; "
        "none: use -f.",
    ),
]
FakeGpus = Annotated[
    bool,
    typer.Option(
        "--fake-gpus", envvar="DCGM_EXPORTER_USE_FAKE_GPUS", help="Serve simulated GPUs (same as --backend sim)."
    ),
]


def exporter_settings(
    *,
    collectors: str | None,
    collect_interval: int,
    dialect: str,
    host_label: str,
    workload_labels: str,
    kubernetes: bool,
    pod_resources_kubelet_socket: str,
    nvidia_resource_names: str,
    hpc_job_mapping_dir: str,
    kubernetes_gpu_id_type: str = "uid",
    kubernetes_pod_labels: bool = False,
    kubernetes_pod_uid: bool = False,
    kubernetes_pod_label_allowlist_regex: str = "",
    kubernetes_virtual_gpus: bool = False,
    kubernetes_dra: bool = False,
    kubernetes_node_name: str = "",
    no_hostname: bool = False,
    use_old_namespace: bool = False,
    replace_blanks_in_model_name: bool = False,
    xid_count_window_size: int = 300000,
    clock_events_count_window_size: int = 300000,
    devices: str = "f",
    collectors_text: tuple[str, str] | None = None,
    process_metrics: bool = False,
    proc_root: str = "/proc",
    pod_log_dir: str = "/var/log/pods",
) -> ExporterSettings:
    """The flags (named as the parameters) checked into settings; a bad one is one clear error naming it.

    ``collectors_text`` (CSV text, where it came from) replaces the ``collectors`` file: the ConfigMap of ``-m``.
    """
    from gpuscope.exporter.devices import parse_devices
    from gpuscope.exporter.processes.source import ProcessSettings
    from gpuscope.exporter.settings import ExporterSettings
    from gpuscope.fields.catalog import Dialect
    from gpuscope.fields.collectors import load_collectors, parse_collectors

    dialect_value = Dialect(choice(dialect, tuple(d.value for d in Dialect), "--dialect"))
    selection = parse_devices(devices)
    loaded = (
        load_collectors(collectors, dialect_value)
        if collectors_text is None
        else parse_collectors(collectors_text[0], collectors_text[1], dialect_value)
    )
    for warning in loaded.warnings:
        log.warning("%s", warning)
    return ExporterSettings(
        collectors=loaded,
        devices=selection,
        processes=ProcessSettings(enabled=process_metrics, proc_root=proc_root, pod_log_dir=pod_log_dir),
        dialect=dialect_value,
        interval_s=collect_interval / 1000.0,
        host_label=choice(host_label, HOST_LABELS, "--host-label"),
        no_hostname=no_hostname,
        use_old_namespace=use_old_namespace,
        replace_blanks_in_model_name=replace_blanks_in_model_name,
        xid_window_ms=xid_count_window_size,
        clock_events_window_ms=clock_events_count_window_size,
        workloads=workload_settings(
            workload_labels,
            kubernetes=kubernetes,
            socket_path=pod_resources_kubelet_socket,
            gpu_id_type=kubernetes_gpu_id_type,
            resource_names=nvidia_resource_names,
            hpc_dir=hpc_job_mapping_dir,
            pod_labels=kubernetes_pod_labels,
            pod_uid=kubernetes_pod_uid,
            label_allowlist=kubernetes_pod_label_allowlist_regex,
            virtual_gpus=kubernetes_virtual_gpus,
            dra=kubernetes_dra,
            node_name=kubernetes_node_name,
        ),
    )


def workload_settings(
    mode: str,
    *,
    kubernetes: bool,
    socket_path: str,
    gpu_id_type: str,
    resource_names: str,
    hpc_dir: str,
    pod_labels: bool = False,
    pod_uid: bool = False,
    label_allowlist: str = "",
    virtual_gpus: bool = False,
    dra: bool = False,
    node_name: str = "",
) -> WorkloadSettings:
    """Validate the attribution flags (one clear error naming the flag) into settings.

    ``node_name`` (``--node-name``/``NODE_NAME``) selects the pods the API server watch sees; without it the host
    name stands in (a DaemonSet should set ``NODE_NAME`` from ``spec.nodeName``, as the generated one does)."""
    from gpuscope.exporter.workloads.model import WorkloadLabels
    from gpuscope.exporter.workloads.podmeta import compile_allowlist
    from gpuscope.exporter.workloads.source import WorkloadSettings

    choice(gpu_id_type, GPU_ID_TYPES, "--kubernetes-gpu-id-type")
    compile_allowlist(label_allowlist)  # a bad pattern is one line at start, exit 2
    names = tuple(n.strip() for n in resource_names.split(",") if n.strip())
    # gRPC's C core logs reconnect chatter to stderr by default; the exporter reports kubelet trouble itself.
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    return WorkloadSettings(
        mode=WorkloadLabels(choice(mode, WORKLOAD_MODES, "--workload-labels")),
        kubernetes=kubernetes,
        socket_path=socket_path,
        resource_names=names,
        hpc_dir=hpc_dir,
        pod_labels=pod_labels,
        pod_uid=pod_uid,
        label_allowlist=label_allowlist,
        virtual_gpus=virtual_gpus,
        dra=dra,
        node_name=node_name or socket.gethostname(),
    )


def web_config(path: str) -> WebConfig | None:
    """Load and check ``--web-config-file`` at start-up (None when not given)."""
    if not path:
        return None
    from gpuscope.exporter.webconfig import load_web_config

    return load_web_config(path)
