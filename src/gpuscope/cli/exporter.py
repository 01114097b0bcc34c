"""``gpuscope exporter``: the dcgm-exporter compatible node exporter."""

from __future__ import annotations

import asyncio
import atexit
import logging
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gpuscope.cli._app import LOG_FORMATS, app, choice, setup_logging
from gpuscope.cli._dcgm_flags import DCGM_LOG_LEVELS, log_inert, needs_kubernetes_lines, was_set
from gpuscope.cli._options import (
    DEFAULT_SOCKET,
    CollectInterval,
    Collectors,
    ConfigMapData,
    Debug,
    Devices,
    DialectName,
    FakeGpus,
    HostLabel,
    HpcJobMappingDir,
    Kubernetes,
    NvidiaResourceNames,
    PodLogDir,
    PodResourcesSocket,
    ProcessMetrics,
    ProcRoot,
    WebConfigFile,
    WorkloadLabelsMode,
    exporter_settings,
    web_config,
)

if TYPE_CHECKING:
    import socket

    from gpuscope.backends.sim.node import SimNodeConfig
    from gpuscope.exporter.configmap import ConfigMapRef
    from gpuscope.exporter.settings import ExporterSettings

log = logging.getLogger("gpuscope")


def _bool_opt(name: str, env: str, help_: str) -> Any:
    return typer.Option(name, envvar=env, help=help_)


@app.command("exporter")
def exporter_command(
    ctx: typer.Context,
    collectors: Collectors = None,
    address: Annotated[
        str, typer.Option("-a", "--address", envvar="DCGM_EXPORTER_LISTEN", help="Listen address, HOST:PORT.")
    ] = ":9400",
    collect_interval: CollectInterval = 15000,
    no_hostname: Annotated[
        bool,
        typer.Option("-n", "--no-hostname", envvar="DCGM_EXPORTER_NO_HOSTNAME", help="Omit the host label."),
    ] = False,
    use_old_namespace: Annotated[
        bool,
        typer.Option(
            "-o",
            "--use-old-namespace",
            envvar="DCGM_EXPORTER_USE_OLD_NAMESPACE",
            help="dcgm-exporter 1.x label names (uuid instead of UUID).",
        ),
    ] = False,
    xid_count_window_size: Annotated[
        int,
        typer.Option(
            "-x",
            "--xid-count-window-size",
            envvar="DCGM_EXPORTER_XID_COUNT_WINDOW_SIZE",
            min=1000,
            max=7 * 86_400_000,  # a week of events is what a counter window can usefully hold
            help="Window of DCGM_EXP_XID_ERRORS_COUNT in milliseconds (1000 to a week).",
        ),
    ] = 300000,
    clock_events_count_window_size: Annotated[
        int,
        typer.Option(
            "--clock-events-count-window-size",
            envvar="DCGM_EXPORTER_CLOCK_EVENTS_COUNT_WINDOW_SIZE",
            min=1000,
            max=7 * 86_400_000,  # a week of events is what a counter window can usefully hold
            help="Window of DCGM_EXP_CLOCK_EVENTS_COUNT in milliseconds (1000 to a week).",
        ),
    ] = 300000,
    replace_blanks_in_model_name: Annotated[
        bool,
        typer.Option(
            "-rbmn",
            "--replace-blanks-in-model-name",
            envvar="DCGM_EXPORTER_REPLACE_BLANKS_IN_MODEL_NAME",
            help="Replace spaces in the modelName label with dashes.",
        ),
    ] = False,
    devices: Devices = "f",
    configmap_data: ConfigMapData = "none",
    fake_gpus: FakeGpus = False,
    web_systemd_socket: Annotated[
        bool,
        typer.Option(
            "--web-systemd-socket",
            envvar="DCGM_EXPORTER_SYSTEMD_SOCKET",
            help="Serve on the socket systemd passes (socket activation) instead of -a.",
        ),
    ] = False,
    enable_pprof: Annotated[
        bool,
        typer.Option(
            "--enable-pprof",
            envvar="DCGM_EXPORTER_ENABLE_PPROF",
            help="Serve /debug/pprof/: thread stacks (goroutine) and allocation sites (heap).",
        ),
    ] = False,
    switch_devices: Annotated[
        str,
        typer.Option(
            "-s", "--switch-devices", envvar="DCGM_EXPORTER_OTHER_DEVICES_STR", help="NvSwitch selector (accepted)."
        ),
    ] = "f",
    cpu_devices: Annotated[
        str,
        typer.Option("-p", "--cpu-devices", envvar="DCGM_EXPORTER_CPU_DEVICES_STR", help="CPU selector (accepted)."),
    ] = "f",
    kubernetes_enable_pod_labels: Annotated[
        bool,
        _bool_opt(
            "--kubernetes-enable-pod-labels",
            "DCGM_EXPORTER_KUBERNETES_ENABLE_POD_LABELS",
            "Add the pod's labels (watched on the API server, one watch per node; needs -k and get/list/watch "
            "on pods).",
        ),
    ] = False,
    kubernetes_enable_pod_uid: Annotated[
        bool,
        _bool_opt(
            "--kubernetes-enable-pod-uid",
            "DCGM_EXPORTER_KUBERNETES_ENABLE_POD_UID",
            "Add the pod_uid label (from the API server's pod watch; needs -k).",
        ),
    ] = False,
    kubernetes_pod_label_allowlist_regex: Annotated[
        str,
        typer.Option(
            "--kubernetes-pod-label-allowlist-regex",
            envvar="DCGM_EXPORTER_KUBERNETES_POD_LABEL_ALLOWLIST_REGEX",
            help="Comma-separated regular expressions; only pod labels whose key one of them matches (unanchored) "
            "are added. Empty: every label.",
        ),
    ] = "",
    kubernetes_virtual_gpus: Annotated[
        bool,
        _bool_opt(
            "--kubernetes-virtual-gpus",
            "KUBERNETES_VIRTUAL_GPUS",
            "Shared GPUs (time-slicing/MPS ::N, GKE /vgpuN): one attribution per sharing pod and replica, "
            "with a vgpu label.",
        ),
    ] = False,
    kubernetes_enable_dra: Annotated[
        bool,
        _bool_opt(
            "--kubernetes-enable-dra",
            "KUBERNETES_ENABLE_DRA",
            "Attribute GPUs allocated through DRA ResourceClaims (dra_* labels; watches the node's ResourceSlices).",
        ),
    ] = False,
    enable_dcgm_log: Annotated[
        bool, _bool_opt("--enable-dcgm-log", "DCGM_EXPORTER_ENABLE_DCGM_LOG", "Accepted.")
    ] = False,
    dcgm_log_level: Annotated[
        str,
        typer.Option("--dcgm-log-level", envvar="DCGM_EXPORTER_DCGM_LOG_LEVEL", help="Accepted: NONE ... VERB."),
    ] = "NONE",
    dump_enabled: Annotated[bool, _bool_opt("--dump-enabled", "DCGM_EXPORTER_DUMP_ENABLED", "Accepted.")] = False,
    dump_directory: Annotated[
        str, typer.Option("--dump-directory", envvar="DCGM_EXPORTER_DUMP_DIRECTORY", help="Accepted.")
    ] = "/tmp/dcgm-exporter-debug",
    dump_retention: Annotated[
        int, typer.Option("--dump-retention", envvar="DCGM_EXPORTER_DUMP_RETENTION", min=0, help="Accepted.")
    ] = 24,
    dump_compression: Annotated[
        bool,
        typer.Option(
            "--dump-compression/--no-dump-compression", envvar="DCGM_EXPORTER_DUMP_COMPRESSION", help="Accepted."
        ),
    ] = True,
    disable_startup_validate: Annotated[
        bool, _bool_opt("--disable-startup-validate", "DISABLE_STARTUP_VALIDATE", "Accepted.")
    ] = False,
    enable_gpu_bind_unbind_watch: Annotated[
        bool,
        _bool_opt("--enable-gpu-bind-unbind-watch", "DCGM_EXPORTER_ENABLE_GPU_BIND_UNBIND_WATCH", "Accepted."),
    ] = False,
    gpu_bind_unbind_poll_interval: Annotated[
        str,
        typer.Option(
            "--gpu-bind-unbind-poll-interval", envvar="DCGM_EXPORTER_GPU_BIND_UNBIND_POLL_INTERVAL", help="Accepted."
        ),
    ] = "1s",
    backend: Annotated[
        str,
        typer.Option(
            "--backend",
            envvar="GPUSCOPE_BACKEND",
            help="auto (dcgm if a host engine answers, else nvml if a driver is present, else sim), sim, nvml or dcgm.",
        ),
    ] = "auto",
    remote_hostengine_info: Annotated[
        str,
        typer.Option(
            "-r",
            "--remote-hostengine-info",
            envvar="DCGM_REMOTE_HOSTENGINE_INFO",
            help="DCGM host engine HOST:PORT (port 5555 by default) or unix socket path; empty: embedded.",
        ),
    ] = "",
    dialect: DialectName = "classic",
    host_label: HostLabel = "Hostname",
    node_name: Annotated[
        str | None,
        typer.Option("--node-name", envvar="NODE_NAME", help="Host label value (default: hostname)."),
    ] = None,
    sim_model: Annotated[
        str, typer.Option("--sim-model", help="Simulated GPU model: h100, h200, a100, l40s, b200, gb200.")
    ] = "h100",
    sim_gpus: Annotated[int, typer.Option("--sim-gpus", min=1, max=16, help="Simulated GPUs.")] = 8,
    sim_mig_layout: Annotated[
        str, typer.Option("--sim-mig-layout", help="Put every simulated GPU in MIG mode, e.g. 1g.10gb:7.")
    ] = "",
    sim_workload: Annotated[
        str, typer.Option("--sim-workload", help="mixed, idle, training, inference or bursty.")
    ] = "mixed",
    sim_seed: Annotated[int, typer.Option("--sim-seed", help="Seed of the simulated workloads.")] = 0,
    sim_profiling: Annotated[
        str, typer.Option("--sim-profiling", help="Which simulated GPUs have PROF metrics: all, gpm, none.")
    ] = "all",
    kubernetes: Kubernetes = False,
    pod_resources_kubelet_socket: PodResourcesSocket = DEFAULT_SOCKET,
    kubernetes_gpu_id_type: Annotated[
        str,
        typer.Option(
            "--kubernetes-gpu-id-type",
            envvar="DCGM_EXPORTER_KUBERNETES_GPU_ID_TYPE",
            help="uid or device-name. Accepted for compatibility: both GPU UUIDs and nvidia<N> names are recognised.",
        ),
    ] = "uid",
    nvidia_resource_names: NvidiaResourceNames = "",
    hpc_job_mapping_dir: HpcJobMappingDir = "",
    workload_labels: WorkloadLabelsMode = "info",
    process_metrics: ProcessMetrics = False,
    proc_root: ProcRoot = "/proc",
    pod_log_dir: PodLogDir = "/var/log/pods",
    web_config_file: WebConfigFile = "",
    debug: Debug = False,
    log_format: Annotated[
        str, typer.Option("--log-format", envvar="DCGM_EXPORTER_LOG_FORMAT", help="text or json.")
    ] = "text",
) -> None:
    """Serve GPU metrics on /metrics, dcgm-exporter compatible (flags and env vars as dcgm-exporter).

    Every flag of dcgm-exporter is accepted; one that has no effect here says why in one line at start. SIGHUP
    re-reads the collectors CSV (or ConfigMap) and the web config; a bad new file keeps the old one serving.
    """
    from gpuscope.backends import choose_backend, open_backend
    from gpuscope.backends.dcgm.connection import parse_target
    from gpuscope.backends.sim.node import SimNodeConfig
    from gpuscope.errors import UsageError
    from gpuscope.exporter.app import local_hostname, parse_address, serve
    from gpuscope.exporter.configmap import parse_configmap_ref
    from gpuscope.exporter.reload import Reloader
    from gpuscope.exporter.server import Extension, Listener
    from gpuscope.exporter.settings import make_runtime
    from gpuscope.hardware.models import model_by_key, parse_mig_layout
    from gpuscope.simulator.routes import FAULT_ROUTES

    setup_logging(debug, choice(log_format, LOG_FORMATS, "--log-format"))
    if fake_gpus:
        if backend == "nvml":
            raise UsageError("--fake-gpus asks for simulated GPUs and --backend nvml for real ones: drop one of them")
        backend = "sim"
    _check_accepted(ctx, dcgm_log_level, switch_devices, cpu_devices, kubernetes)
    host, port = parse_address(address, "-a/--address")
    ref = parse_configmap_ref(configmap_data)
    if ref is not None and collectors is not None:
        log.info("-m/--configmap-data %s is set: the collectors come from it, not from -f %s", ref, collectors)

    def settings_now() -> ExporterSettings:
        return exporter_settings(
            collectors=collectors,
            collectors_text=_configmap_csv(ref) if ref is not None else None,
            devices=devices,
            collect_interval=collect_interval,
            dialect=dialect,
            host_label=host_label,
            workload_labels=workload_labels,
            kubernetes=kubernetes,
            pod_resources_kubelet_socket=pod_resources_kubelet_socket,
            nvidia_resource_names=nvidia_resource_names,
            hpc_job_mapping_dir=hpc_job_mapping_dir,
            process_metrics=process_metrics,
            proc_root=proc_root,
            pod_log_dir=pod_log_dir,
            kubernetes_gpu_id_type=kubernetes_gpu_id_type,
            kubernetes_pod_labels=kubernetes_enable_pod_labels,
            kubernetes_pod_uid=kubernetes_enable_pod_uid,
            kubernetes_pod_label_allowlist_regex=kubernetes_pod_label_allowlist_regex,
            kubernetes_virtual_gpus=kubernetes_virtual_gpus,
            kubernetes_dra=kubernetes_enable_dra,
            kubernetes_node_name=node_name or "",
            no_hostname=no_hostname,
            use_old_namespace=use_old_namespace,
            replace_blanks_in_model_name=replace_blanks_in_model_name,
            xid_count_window_size=xid_count_window_size,
            clock_events_count_window_size=clock_events_count_window_size,
        )

    settings = settings_now()
    web = web_config(web_config_file)
    sockets = _systemd_sockets() if web_systemd_socket else []
    hostname = local_hostname(node_name)
    model = model_by_key(sim_model)
    sim_config = SimNodeConfig(
        hostname=hostname,
        model=model,
        gpus=sim_gpus,
        mig_layout=parse_mig_layout(model, sim_mig_layout) if sim_mig_layout else (),
        workload=sim_workload,
        seed=sim_seed,
        profiling=sim_profiling,
    )
    parse_target(remote_hostengine_info)  # a bad -r is a usage error before anything starts
    chosen = choose_backend(backend, remote_hostengine_info)
    settings, sim_config = _simulated_processes(chosen, settings, sim_config)
    runtime = make_runtime(open_backend(chosen, sim_config, remote_hostengine_info), settings, hostname)
    if was_set(ctx, "remote_hostengine_info") and chosen != "dcgm":
        log.info(
            "-r/--remote-hostengine-info %s recorded: only the dcgm backend uses it; the %s backend reads the GPUs "
            "itself",
            remote_hostengine_info,
            chosen,
        )
    if sockets:
        bound = sockets[0].getsockname()
        listener = Listener(bound[0], bound[1], runtime, sock=sockets[0])
    else:
        listener = Listener(host, port, runtime)
    reloader = Reloader([runtime], lambda: settings_now().collectors, lambda: web_config(web_config_file))
    # Only a simulated node takes faults: a real exporter serves no /sim/faults at all.
    extensions: list[Extension] = [FAULT_ROUTES] if chosen == "sim" else []
    if enable_pprof:
        from gpuscope.exporter.pprof import PPROF_ROUTES

        extensions.append(PPROF_ROUTES)

    url = listener.url.replace("http://", "https://") if web is not None and web.tls is not None else listener.url

    def ready() -> None:
        log.info(
            "serving %s GPU metrics on %s/metrics (collect every %gs, %d fields from %s)",
            chosen,
            url,
            settings.interval_s,
            len(settings.collectors.metrics),
            settings.collectors.source,
        )

    flag = "--web-systemd-socket" if sockets else "-a/--address"
    asyncio.run(
        serve(
            [listener],
            settings.interval_s,
            on_ready=ready,
            web_config=web,
            extensions=extensions,
            reloader=reloader,
            flag=flag,
        )
    )


def _check_accepted(
    ctx: typer.Context, dcgm_log_level: str, switch_devices: str, cpu_devices: str, kubernetes: bool
) -> None:
    """Check the accepted-only flags' syntax (a typo is still an error) and say which of them have no effect
    (the Kubernetes attribution flags, too, when -k is not set)."""
    for line in needs_kubernetes_lines(ctx, kubernetes):
        log.info("%s", line)
    from gpuscope.exporter.devices import parse_devices

    choice(dcgm_log_level, DCGM_LOG_LEVELS, "--dcgm-log-level")
    parse_devices(switch_devices, "-s/--switch-devices (env DCGM_EXPORTER_OTHER_DEVICES_STR)")
    parse_devices(cpu_devices, "-p/--cpu-devices (env DCGM_EXPORTER_CPU_DEVICES_STR)")
    log_inert(ctx)


def _configmap_csv(ref: ConfigMapRef) -> tuple[str, str]:
    from gpuscope.exporter.configmap import read_configmap_csv

    return read_configmap_csv(ref), f"ConfigMap {ref} (key metrics)"


def _systemd_sockets() -> list[socket.socket]:
    from gpuscope.exporter.systemd import inherited_sockets

    sockets = inherited_sockets()
    if len(sockets) > 1:
        log.info("--web-systemd-socket: %d sockets passed; serving on the first, closing the others", len(sockets))
        for extra in sockets[1:]:
            extra.close()
    return sockets[:1]


def exporter_command_click(root: Any) -> Any:
    """The click command of ``gpuscope exporter`` inside the root group (its parameters name the flags)."""
    return root.commands["exporter"]


def _simulated_processes(
    chosen: str, settings: ExporterSettings, sim_config: SimNodeConfig
) -> tuple[ExporterSettings, SimNodeConfig]:
    """``--backend sim --process-metrics``: the simulated node's /proc and pod directory, in a directory of its own."""
    if settings.processes.enabled and chosen == "dcgm":
        log.warning(
            "--process-metrics: the dcgm backend reads no per-process data, so every GPU reports no processes; "
            "use --backend nvml for per-process metrics"
        )
    if chosen != "sim" or not settings.processes.enabled:
        return settings, sim_config
    from gpuscope.simulator.fleet import FleetNode, with_simulated_processes

    base = Path(tempfile.mkdtemp(prefix="gpuscope-sim-processes-"))
    atexit.register(shutil.rmtree, base, True)
    (placed,), settings = with_simulated_processes([FleetNode(sim_config, "127.0.0.1", 9400)], settings, base)
    return settings, placed.config
