"""``gpuscope sim``: simulated fleets and fault injection."""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import shutil
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from gpuscope.cli._app import FaultCode, FaultGpu, FaultLink, FaultSeconds, FaultSwitch, setup_logging, sim_app
from gpuscope.cli._dcgm_flags import ExporterFlags, check_choices, clamped, with_flags
from gpuscope.cli._options import exporter_settings, web_config

log = logging.getLogger("gpuscope")


@sim_app.callback()
@with_flags("sim")
def sim_command(
    ctx: typer.Context,
    *,
    nodes: Annotated[int, typer.Option("--nodes", min=1, help="Number of simulated nodes.")] = 1,
    gpus_per_node: Annotated[
        int, typer.Option("--gpus-per-node", min=0, max=16, help="GPUs per node (0: the model's node: 8, 4 on NVL72).")
    ] = 0,
    model: Annotated[
        str, typer.Option("--model", help="GPU model: h100, h200, b200, gb200, a100, l40s, gb300.")
    ] = "h100",
    mig_nodes: Annotated[int, typer.Option("--mig-nodes", min=0, help="How many nodes (the first ones) run MIG.")] = 0,
    mig_layout: Annotated[str, typer.Option("--mig-layout", help="MIG layout of MIG nodes, e.g. 1g.10gb:7.")] = "",
    workload: Annotated[
        str, typer.Option("--workload", help="mixed, idle, training, inference, bursty or teams (gpuscope up's story).")
    ] = "mixed",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulated workloads.")] = 0,
    profiling: Annotated[str, typer.Option("--profiling", help="GPUs with PROF metrics: all, gpm, none.")] = "all",
    base_address: Annotated[str, typer.Option("--base-address", help="Address of the first node.")] = "127.1.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port every node listens on.")] = 9400,
    hostname_prefix: Annotated[str, typer.Option("--hostname-prefix", help="Host label prefix.")] = "sim-node",
    flags: ExporterFlags,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Collection worker threads.")] = 4,
    targets_file: Annotated[
        str | None, typer.Option("--targets-file", help="Write a Prometheus file_sd JSON of all nodes here.")
    ] = None,
) -> None:
    """Serve --nodes simulated nodes, each an exporter on its own loopback address (127.1.0.1, 127.1.0.2, ...)."""
    if ctx.invoked_subcommand is not None:
        return
    from gpuscope.exporter.app import serve
    from gpuscope.hardware.models import model_by_key, parse_mig_layout
    from gpuscope.simulator.fleet import (
        build_listeners,
        plan_nodes,
        raise_fd_limit,
        with_simulated_processes,
        write_targets_file,
    )
    from gpuscope.simulator.routes import FAULT_ROUTES

    check_choices(flags, "sim")
    setup_logging(flags.debug, "text")
    flags = clamped(flags, "sim")
    gpu_model = model_by_key(model)
    gpus_per_node = gpus_per_node or gpu_model.gpus_per_node
    planned = plan_nodes(
        count=nodes,
        model=gpu_model,
        gpus_per_node=gpus_per_node,
        base_address=base_address,
        port=port,
        hostname_prefix=hostname_prefix,
        mig_nodes=mig_nodes,
        mig_layout=parse_mig_layout(gpu_model, mig_layout) if mig_layout else (),
        workload=workload,
        seed=seed,
        profiling=profiling,
    )
    settings = exporter_settings(flags, command="sim")
    web = web_config(flags.web_config_file)
    if flags.process_metrics:  # the simulated nodes' /proc and pod directories, under a directory of their own
        base = Path(tempfile.mkdtemp(prefix="gpuscope-sim-processes-"))
        atexit.register(shutil.rmtree, base, True)
        planned, settings = with_simulated_processes(planned, settings, base)
    raise_fd_limit(nodes * 4 + 256)
    listeners = build_listeners(planned, settings)
    if targets_file:
        write_targets_file(targets_file, planned)

    def ready() -> None:
        log.info(
            "serving %d simulated %s nodes x %d GPUs: %s ... %s",
            nodes,
            gpu_model.key,
            gpus_per_node,
            listeners[0].url,
            listeners[-1].url,
        )

    asyncio.run(
        serve(
            listeners,
            settings.interval_s,
            workers=workers,
            flag="--base-address/--port",
            on_ready=ready,
            web_config=web,
            extensions=(FAULT_ROUTES,),
        )
    )


def _fault_url(url: str) -> str:
    return url.rstrip("/") + "/sim/faults"


@sim_app.command("inject")
def sim_inject_command(
    fault: Annotated[
        str,
        typer.Argument(
            help="xid, fell-off-bus, profiling-lock, thermal, ecc-dbe, nvlink-crc, fabric-degraded, nvlink5-errors, "
            "nvlink-down, nvswitch-fatal, partition-degraded, restart, slow, hostengine-down, hostengine-restart, "
            "version-skew or zombie."
        ),
    ],
    url: Annotated[str, typer.Option("--url", help="The node's exporter, e.g. http://127.1.0.1:9400.")] = (
        "http://127.0.0.1:9400"
    ),
    gpu: FaultGpu = None,
    code: FaultCode = None,
    link: FaultLink = None,
    switch: FaultSwitch = None,
    seconds: FaultSeconds = 30.0,
    off: Annotated[bool, typer.Option("--off", help="Switch the fault off instead of on.")] = False,
) -> None:
    """Inject (or with --off, clear) one fault on a running simulated node."""
    from gpuscope.backends.sim.faults import parse_fault_request
    from gpuscope.simulator.client import send_fault

    body = {"fault": fault, "gpu": gpu, "enabled": not off, "code": code, "seconds": seconds}
    request = parse_fault_request({**body, "link": link, "switch": switch})
    active = send_fault(_fault_url(url), request)
    typer.echo(json.dumps({"active": active}))


@sim_app.command("clear")
def sim_clear_command(
    url: Annotated[str, typer.Option("--url", help="The node's exporter.")] = "http://127.0.0.1:9400",
) -> None:
    """Switch every fault off on a running simulated node."""
    from gpuscope.simulator.client import clear_faults

    clear_faults(_fault_url(url))
    typer.echo(json.dumps({"active": []}))
