"""``gpuscope exporter``: the dcgm-exporter compatible node exporter."""

from __future__ import annotations

import asyncio
import atexit
import logging
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gpuscope.cli._app import app, listen_address, setup_logging
from gpuscope.cli._dcgm_flags import (
    ExporterFlags,
    check_choices,
    clamped,
    inert_lines,
    log_lines,
    needs_kubernetes_lines,
    row,
    was_set,
    with_flags,
)
from gpuscope.cli._options import (
    Attribution,
    attribution,
    exporter_settings,
    http_limits,
    web_config,
    with_config_file,
)

if TYPE_CHECKING:
    import socket

    from gpuscope.backends.base import Backend
    from gpuscope.backends.sim.node import SimNodeConfig
    from gpuscope.exporter.configfile import ConfigFile
    from gpuscope.exporter.configmap import ConfigMapRef
    from gpuscope.exporter.processes.nvml_lists import ProcessLists
    from gpuscope.exporter.server import Extension
    from gpuscope.exporter.settings import ExporterSettings

log = logging.getLogger("gpuscope")


@app.command("exporter")
@with_flags("exporter")
def exporter_command(
    ctx: typer.Context,
    *,
    flags: ExporterFlags,
    sim_model: Annotated[
        str, typer.Option("--sim-model", help="Simulated GPU model: h100, h200, a100, l40s, b200, gb200, gb300.")
    ] = "h100",
    sim_gpus: Annotated[
        int,
        typer.Option(
            "--sim-gpus", min=0, max=16, help="Simulated GPUs (0: the model's node, 8 on HGX, 4 on an NVL72 tray)."
        ),
    ] = 0,
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
) -> None:
    """Serve GPU metrics on /metrics, dcgm-exporter compatible (flags and env vars as dcgm-exporter).

    Every flag of dcgm-exporter is accepted; one that has no effect here says why in one line at start. SIGHUP
    re-reads the collectors CSV (or ConfigMap) and the web config, and so does a rewrite of the -f file; a bad new
    file keeps the old one serving.
    """
    sim = SimOptions(sim_model, sim_gpus, sim_mig_layout, sim_workload, sim_seed, sim_profiling)
    entry = ctx.obj.get("entry", "gpuscope") if isinstance(ctx.obj, dict) else "gpuscope"
    serve_exporter(flags, sim, lambda name: was_set(ctx, name), entry)


@dataclass(frozen=True, slots=True)
class SimOptions:
    """The command's own ``--sim-*`` options (the simulated node of ``--backend sim``)."""

    sim_model: str = "h100"
    sim_gpus: int = 0  # 0: as many as the model's node has
    sim_mig_layout: str = ""
    sim_workload: str = "mixed"
    sim_seed: int = 0
    sim_profiling: str = "all"


def run_parsed(values: Mapping[str, Any], set_names: frozenset[str], entry: str = "gpuscope") -> None:
    """Serve with the values ``_quickargs`` read (every parameter of the command, by name)."""
    names = {f.name for f in fields(SimOptions)}
    flags = ExporterFlags(**{k: v for k, v in values.items() if k not in names})
    sim = SimOptions(**{k: v for k, v in values.items() if k in names})
    serve_exporter(flags, sim, set_names.__contains__, entry)


def serve_exporter(
    flags: ExporterFlags, sim: SimOptions, is_set: Callable[[str], bool], entry: str = "gpuscope"
) -> None:
    """The exporter, from its flags; ``is_set`` says whether a parameter was given (command line or env var),
    ``entry`` the command that was run (``gpuscope`` or the image's ``dcgm-exporter``)."""
    # Imported here, and each feature's modules only when its flag is on (the simulator, DCGM, TLS, the kubelet
    # client, process metrics): an exporter's memory is what its flags need (docs/exporter.md, import weight).
    from gpuscope.backends import choose_backend, open_backend
    from gpuscope.exporter.app import local_hostname, serve
    from gpuscope.exporter.configmap import parse_configmap_ref
    from gpuscope.exporter.reload import Reloader
    from gpuscope.exporter.server import Listener
    from gpuscope.exporter.settings import make_runtime
    from gpuscope.hardware.models import model_by_key, parse_mig_layout

    check_choices(flags)  # --log-format among them, before the logging it sets up
    setup_logging(flags.debug, flags.log_format)
    backend = _backend_name(flags)
    _check_accepted(is_set, flags)
    flags, config, chosen_attribution = _flags_and_file(flags, is_set, entry)
    address = listen_address(flags.address, "-a/--address")
    ref = parse_configmap_ref(flags.configmap_data)
    if ref is not None and flags.collectors is not None:
        log.info("-m/--configmap-data %s is set: the collectors come from it, not from -f %s", ref, flags.collectors)

    def settings_now() -> ExporterSettings:
        return exporter_settings(flags, collectors_text=_configmap_csv(ref) if ref is not None else None, config=config)

    settings = settings_now()
    web = web_config(flags.web_config_file)
    sockets = _systemd_sockets() if flags.web_systemd_socket else []
    hostname = local_hostname(flags.node_name)
    model = model_by_key(sim.sim_model)  # the --sim-* flags are checked whatever the backend
    mig_layout = parse_mig_layout(model, sim.sim_mig_layout) if sim.sim_mig_layout else ()
    _check_remote(flags.remote_hostengine_info)
    chosen = choose_backend(backend, flags.remote_hostengine_info)
    sim_config: SimNodeConfig | None = None
    if chosen == "sim":  # the simulator is imported by a simulated node only
        from gpuscope.backends.sim.node import SimNodeConfig

        sim_config = SimNodeConfig(
            hostname=hostname,
            model=model,
            gpus=sim.sim_gpus or model.gpus_per_node,
            mig_layout=mig_layout,
            workload=sim.sim_workload,
            seed=sim.sim_seed,
            profiling=sim.sim_profiling,
        )
    settings, sim_config = _simulated_processes(chosen, settings, sim_config)
    backend_used = open_backend(
        chosen, sim_config, flags.remote_hostengine_info, settings.watches, settings.rediscover_s
    )
    _check_devices(backend_used, settings, flags.devices)
    runtime = make_runtime(backend_used, settings, hostname, process_lists=_process_lists(chosen, settings))
    _say_watches(chosen, is_set, config, settings)
    if is_set("remote_hostengine_info") and chosen != "dcgm":
        log.info(
            "-r/--remote-hostengine-info %s recorded: only the dcgm backend uses it; the %s backend reads the GPUs "
            "itself",
            flags.remote_hostengine_info,
            chosen,
        )
    if sockets:
        bound = sockets[0].getsockname()
        listener = Listener(bound[0], bound[1], runtime, sock=sockets[0])
    else:
        listener = Listener(address.host or None, address.port, runtime)
    reloader = Reloader(
        [runtime],
        lambda: settings_now().collectors,
        lambda: web_config(flags.web_config_file),
        watched=_watched(flags, ref),
    )
    extensions = _extensions(chosen, flags)

    url = listener.url.replace("http://", "https://") if web is not None and web.tls is not None else listener.url

    def ready() -> None:
        log.info("%s", chosen_attribution.line)  # once serving: a refused start stays one error line
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
            limits=http_limits(flags),
            extensions=extensions,
            reloader=reloader,
            flag=flag,
        )
    )


def _flags_and_file(
    flags: ExporterFlags, is_set: Callable[[str], bool], entry: str
) -> tuple[ExporterFlags, ConfigFile | None, Attribution]:
    """``--config-file`` laid under the flags, then each bounded value clamped with a warning (a flag or env var
    that was set wins over the file, and is clamped after it), and the attribution mode decided (``entry``: the
    command that was run)."""
    flags, config = with_config_file(flags, is_set)
    chosen = attribution(flags, is_set, entry)
    return replace(clamped(flags), workload_labels=chosen.mode), config, chosen


def _check_remote(target: str) -> None:
    """A bad ``-r`` is a usage error before anything starts (empty: DCGM embedded)."""
    if target.strip():
        from gpuscope.backends.dcgm.connection import parse_target

        parse_target(target)


def _say_watches(
    chosen: str, is_set: Callable[[str], bool], config: ConfigFile | None, settings: ExporterSettings
) -> None:
    """Field-watch and bind/unbind settings act on DCGM only: said once with any other backend."""
    if chosen == "dcgm":
        return
    if settings.rediscover_s is not None:
        log.info(
            "--enable-gpu-bind-unbind-watch: the %s backend re-probes its GPUs on its own schedule (NVML: a lost GPU "
            "every minute; the simulator has fixed GPUs); the poll interval applies with --backend dcgm",
            chosen,
        )
    given = [row(n).flag.long for n in ("watch_max_keep_age", "watch_max_keep_samples") if is_set(n)]
    if config is not None and (
        config.watch_groups
        or config.retention.max_keep_age_s is not None
        or config.retention.max_keep_samples is not None
    ):
        given.append(f"{config.path}'s watch groups and retention")
    if given:
        log.info(
            "%s: DCGM field-watch settings, without effect on the %s backend (it reads every field each collection, "
            "-c); they apply with --backend dcgm",
            ", ".join(given),
            chosen,
        )


def _watched(flags: ExporterFlags, ref: ConfigMapRef | None) -> list[str]:
    """dcgm-exporter reloads when its -f file is rewritten; the ConfigMap of -m, when set, is the source instead."""
    return [flags.collectors] if flags.collectors is not None and ref is None else []


def _extensions(chosen: str, flags: ExporterFlags) -> list[Extension]:
    """The routes mounted beside the exporter's, each imported only when served."""
    extensions: list[Extension] = []
    # Only a simulated node takes faults: a real exporter serves no /sim/faults at all.
    if chosen == "sim":
        from gpuscope.simulator.routes import FAULT_ROUTES

        extensions.append(FAULT_ROUTES)
    if flags.enable_pprof:
        from gpuscope.exporter.server import Extension
        from gpuscope.httpd.pprof import PPROF_ROUTES

        extensions.append(Extension(routes=PPROF_ROUTES, links=(("/debug/pprof/", "profiling (--enable-pprof)"),)))
    return extensions


def _backend_name(flags: ExporterFlags) -> str:
    """``--fake-gpus`` is dcgm-exporter's way to say ``--backend sim``."""
    if not flags.fake_gpus:
        return flags.backend
    if flags.backend == "nvml":
        from gpuscope.errors import UsageError

        raise UsageError("--fake-gpus asks for simulated GPUs and --backend nvml for real ones: drop one of them")
    return "sim"


def _check_accepted(is_set: Callable[[str], bool], flags: ExporterFlags) -> None:
    """Check the accepted-only flags' syntax (a typo is still an error) and say which of them have no effect
    (the Kubernetes attribution flags, too, when -k is not set)."""
    log_lines(needs_kubernetes_lines(is_set, flags.kubernetes))
    from gpuscope.exporter.devices import parse_devices

    for name in ("switch_devices", "cpu_devices"):
        f = row(name).flag
        parse_devices(getattr(flags, name), f"{f.display} (env {f.env})")
    log_lines(inert_lines(is_set))


def _check_devices(backend: Backend, settings: ExporterSettings, text: str) -> None:
    """A ``-d`` naming GPU or instance ids is checked against the backend's GPUs at start, as dcgm-exporter checks
    it. A backend that cannot read its GPUs yet (no driver loaded, no host engine) is not judged: its collections
    retry, and an id still missing then is one warning (``exporter/collector.py``)."""
    d = settings.devices
    if d.ids is None and d.instance_ids is None:
        return
    from gpuscope.backends.base import BackendUnavailable, ReadRequest

    try:
        inventory = backend.collect(ReadRequest(field_ids=frozenset()))
    except BackendUnavailable:
        return
    try:
        d.check_present(inventory, text)
    except Exception:
        backend.close()
        raise


def _configmap_csv(ref: ConfigMapRef) -> tuple[str, str]:
    from gpuscope.exporter.configmap import read_configmap_csv

    return read_configmap_csv(ref), f"ConfigMap {ref} (key metrics)"


def _systemd_sockets() -> list[socket.socket]:
    from gpuscope.httpd.systemd import inherited_sockets

    sockets = inherited_sockets()
    if len(sockets) > 1:
        log.info("--web-systemd-socket: %d sockets passed; serving on the first, closing the others", len(sockets))
        for extra in sockets[1:]:
            extra.close()
    return sockets[:1]


def exporter_command_click(root: Any) -> Any:
    """The click command of ``gpuscope exporter`` inside the root group (its parameters name the flags)."""
    return root.commands["exporter"]


def _process_lists(chosen: str, settings: ExporterSettings) -> ProcessLists | None:
    """The dcgm backend reads no processes: for ``--process-metrics`` and the per-pod split they are read through
    NVML beside it, as dcgm-exporter reads them (``exporter/processes/nvml_lists.py``)."""
    if chosen != "dcgm" or not settings.processes.reads:
        return None
    from gpuscope.backends.nvml import NvmlBackend
    from gpuscope.exporter.processes.nvml_lists import ProcessLists

    return ProcessLists(NvmlBackend(watch_events=False))


def _simulated_processes(
    chosen: str, settings: ExporterSettings, sim_config: SimNodeConfig | None
) -> tuple[ExporterSettings, SimNodeConfig | None]:
    """``--backend sim --process-metrics`` (or the split): the simulated node's /proc and pod directory, in a
    directory of its own."""
    if sim_config is None or not settings.processes.reads:
        return settings, sim_config
    from gpuscope.simulator.fleet import FleetNode, with_simulated_processes

    base = Path(tempfile.mkdtemp(prefix="gpuscope-sim-processes-"))
    atexit.register(shutil.rmtree, base, True)
    (placed,), settings = with_simulated_processes([FleetNode(sim_config, "127.0.0.1", 9400)], settings, base)
    return settings, placed.config
