"""``gpuscope exporter``: the dcgm-exporter compatible node exporter."""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated

import typer

from gpuscope.cli._app import LOG_FORMATS, app, choice, setup_logging
from gpuscope.cli._options import (
    DEFAULT_SOCKET,
    CollectInterval,
    Collectors,
    Debug,
    DialectName,
    HostLabel,
    HpcJobMappingDir,
    Kubernetes,
    NvidiaResourceNames,
    PodResourcesSocket,
    WebConfigFile,
    WorkloadLabelsMode,
    exporter_settings,
    web_config,
)

log = logging.getLogger("gpuscope")


@app.command("exporter")
def exporter_command(
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
            help="Window of DCGM_EXP_XID_ERRORS_COUNT in milliseconds.",
        ),
    ] = 300000,
    clock_events_count_window_size: Annotated[
        int,
        typer.Option(
            "--clock-events-count-window-size",
            envvar="DCGM_EXPORTER_CLOCK_EVENTS_COUNT_WINDOW_SIZE",
            min=1000,
            help="Window of DCGM_EXP_CLOCK_EVENTS_COUNT in milliseconds.",
        ),
    ] = 300000,
    replace_blanks_in_model_name: Annotated[
        bool,
        typer.Option(
            "--replace-blanks-in-model-name",
            envvar="DCGM_EXPORTER_REPLACE_BLANKS_IN_MODEL_NAME",
            help="Replace spaces in the modelName label with dashes.",
        ),
    ] = False,
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
        str, typer.Option("--sim-model", help="Simulated GPU model: h100, h200, a100, l40s.")
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
    web_config_file: WebConfigFile = "",
    debug: Debug = False,
    log_format: Annotated[
        str, typer.Option("--log-format", envvar="DCGM_EXPORTER_LOG_FORMAT", help="text or json.")
    ] = "text",
) -> None:
    """Serve GPU metrics on /metrics, dcgm-exporter compatible (flags and env vars as dcgm-exporter)."""
    from gpuscope.backends import choose_backend, open_backend
    from gpuscope.backends.dcgm.connection import parse_target
    from gpuscope.backends.sim.node import SimNodeConfig
    from gpuscope.exporter.app import local_hostname, parse_address, serve
    from gpuscope.exporter.server import Listener
    from gpuscope.exporter.settings import make_runtime
    from gpuscope.hardware.models import model_by_key, parse_mig_layout
    from gpuscope.simulator.routes import FAULT_ROUTES

    setup_logging(debug, choice(log_format, LOG_FORMATS, "--log-format"))
    host, port = parse_address(address, "-a/--address")
    settings = exporter_settings(
        collectors=collectors,
        collect_interval=collect_interval,
        dialect=dialect,
        host_label=host_label,
        workload_labels=workload_labels,
        kubernetes=kubernetes,
        pod_resources_kubelet_socket=pod_resources_kubelet_socket,
        nvidia_resource_names=nvidia_resource_names,
        hpc_job_mapping_dir=hpc_job_mapping_dir,
        kubernetes_gpu_id_type=kubernetes_gpu_id_type,
        no_hostname=no_hostname,
        use_old_namespace=use_old_namespace,
        replace_blanks_in_model_name=replace_blanks_in_model_name,
        xid_count_window_size=xid_count_window_size,
        clock_events_count_window_size=clock_events_count_window_size,
    )
    web = web_config(web_config_file)
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
    runtime = make_runtime(open_backend(chosen, sim_config, remote_hostengine_info), settings, hostname)
    listener = Listener(host, port, runtime)
    # Only a simulated node takes faults: a real exporter serves no /sim/faults at all.
    extensions = (FAULT_ROUTES,) if chosen == "sim" else ()

    url = listener.url.replace("http://", "https://") if web is not None and web.tls is not None else listener.url

    def ready() -> None:
        log.info(
            "serving %s GPU metrics on %s/metrics (collect every %gs, %d fields)",
            chosen,
            url,
            settings.interval_s,
            len(settings.collectors.metrics),
        )

    asyncio.run(serve([listener], settings.interval_s, on_ready=ready, web_config=web, extensions=extensions))
