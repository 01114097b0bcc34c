"""``gpuscope exporter``: the dcgm-exporter compatible node exporter."""

from __future__ import annotations

import asyncio
import logging
from typing import Annotated

import typer

from gpuscope.cli._app import LOG_FORMATS, app, choice, setup_logging
from gpuscope.cli._workloads import DEFAULT_SOCKET, web_config, workload_settings

log = logging.getLogger("gpuscope")


@app.command("exporter")
def exporter_command(
    collectors: Annotated[
        str | None,
        typer.Option(
            "-f",
            "--collectors",
            envvar="DCGM_EXPORTER_COLLECTORS",
            help="Collectors CSV (dcgm-exporter format). Default: the built-in default-counters.csv.",
        ),
    ] = None,
    address: Annotated[
        str, typer.Option("-a", "--address", envvar="DCGM_EXPORTER_LISTEN", help="Listen address, HOST:PORT.")
    ] = ":9400",
    collect_interval: Annotated[
        int,
        typer.Option(
            "-c",
            "--collect-interval",
            envvar="DCGM_EXPORTER_INTERVAL",
            min=100,
            help="Collection interval in milliseconds.",
        ),
    ] = 15000,
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
        typer.Option("--backend", envvar="GPUSCOPE_BACKEND", help="auto (nvml if a driver is present), sim or nvml."),
    ] = "auto",
    dialect: Annotated[
        str,
        typer.Option(
            "--dialect",
            envvar="GPUSCOPE_DIALECT",
            help="Metric names: classic (dcgm-exporter <= 4.8) or 4.9 (renamed names, base units).",
        ),
    ] = "classic",
    host_label: Annotated[
        str,
        typer.Option(
            "--host-label",
            envvar="GPUSCOPE_HOST_LABEL",
            help="Name of the host label: Hostname (dcgm-exporter <= 4.8.2) or hostname (>= 4.8.3).",
        ),
    ] = "Hostname",
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
    kubernetes: Annotated[
        bool,
        typer.Option(
            "-k",
            "--kubernetes",
            envvar="DCGM_EXPORTER_KUBERNETES",
            help="Attribute GPUs to pods through the kubelet PodResources API (read every collection).",
        ),
    ] = False,
    pod_resources_kubelet_socket: Annotated[
        str,
        typer.Option(
            "--pod-resources-kubelet-socket",
            envvar="DCGM_POD_RESOURCES_KUBELET_SOCKET",
            help="The kubelet PodResources socket.",
        ),
    ] = DEFAULT_SOCKET,
    kubernetes_gpu_id_type: Annotated[
        str,
        typer.Option(
            "--kubernetes-gpu-id-type",
            envvar="DCGM_EXPORTER_KUBERNETES_GPU_ID_TYPE",
            help="uid or device-name. Accepted for compatibility: both GPU UUIDs and nvidia<N> names are recognised.",
        ),
    ] = "uid",
    nvidia_resource_names: Annotated[
        str,
        typer.Option(
            "--nvidia-resource-names",
            envvar="NVIDIA_RESOURCE_NAMES",
            help="More resource names that carry GPUs, comma-separated (nvidia.com/gpu and nvidia.com/mig-* always).",
        ),
    ] = "",
    hpc_job_mapping_dir: Annotated[
        str,
        typer.Option(
            "--hpc-job-mapping-dir",
            envvar="DCGM_HPC_JOB_MAPPING_DIR",
            help="Directory of Slurm job mapping files named <gpu> or <gpu>.<gi>, one job id per line.",
        ),
    ] = "",
    workload_labels: Annotated[
        str,
        typer.Option(
            "--workload-labels",
            envvar="GPUSCOPE_WORKLOAD_LABELS",
            help="info: one gpuscope_gpu_workload_info/job_info series per allocation (join at query time); "
            "labels: pod/namespace/container and hpc_job on every series, as dcgm-exporter; off.",
        ),
    ] = "info",
    web_config_file: Annotated[
        str,
        typer.Option(
            "--web-config-file",
            envvar="DCGM_EXPORTER_WEB_CONFIG_FILE",
            help="TLS and basic auth, in the Prometheus exporter-toolkit web config format.",
        ),
    ] = "",
    debug: Annotated[bool, typer.Option("--debug", envvar="DCGM_EXPORTER_DEBUG", help="Debug logging.")] = False,
    log_format: Annotated[
        str, typer.Option("--log-format", envvar="DCGM_EXPORTER_LOG_FORMAT", help="text or json.")
    ] = "text",
) -> None:
    """Serve GPU metrics on /metrics, dcgm-exporter compatible (flags and env vars as dcgm-exporter)."""
    from gpuscope.backends import choose_backend, open_backend
    from gpuscope.backends.sim.node import SimNodeConfig
    from gpuscope.exporter.app import local_hostname, parse_address, serve
    from gpuscope.exporter.server import Listener
    from gpuscope.exporter.settings import ExporterSettings, make_runtime
    from gpuscope.fields.catalog import Dialect
    from gpuscope.fields.collectors import load_collectors
    from gpuscope.hardware.models import model_by_key, parse_mig_layout
    from gpuscope.simulator.routes import FAULT_ROUTES

    setup_logging(debug, choice(log_format, LOG_FORMATS, "--log-format"))
    host, port = parse_address(address, "-a/--address")
    dialect_value = Dialect(choice(dialect, tuple(d.value for d in Dialect), "--dialect"))
    settings = ExporterSettings(
        collectors=load_collectors(collectors, dialect_value),
        dialect=dialect_value,
        interval_s=collect_interval / 1000.0,
        host_label=choice(host_label, ("Hostname", "hostname"), "--host-label"),
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
        ),
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
    chosen = choose_backend(backend)
    runtime = make_runtime(open_backend(chosen, sim_config), settings, hostname)
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
