"""Many simulated GPU nodes in one process, each an exporter on its own loopback address.

Prometheus sees N ordinary targets (``127.1.0.1:9400``, ``127.1.0.2:9400``, ...), each with its own host label, so
scrape, relabeling, ``up`` and per-target limits behave as on a real fleet. One event loop serves every node and a
few worker threads collect: no thread per node, so 1,000 nodes fit on a 2-core machine.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import resource
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from gpuscope import outputs
from gpuscope.backends.sim.node import SimNode, SimNodeConfig
from gpuscope.errors import EnvironmentProblem, InvalidValue
from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings, make_runtime
from gpuscope.hardware.models import GpuModel, MigProfile

log = logging.getLogger(__name__)

_LOOPBACK = ipaddress.IPv4Network("127.0.0.0/8")


@dataclass(frozen=True, slots=True)
class FleetNode:
    """One simulated node and where it listens."""

    config: SimNodeConfig
    address: str
    port: int

    @property
    def target(self) -> str:
        return f"{self.address}:{self.port}"


def plan_nodes(
    *,
    count: int,
    model: GpuModel,
    gpus_per_node: int,
    base_address: str = "127.1.0.1",
    port: int = 9400,
    hostname_prefix: str = "sim-node",
    mig_nodes: int = 0,
    mig_layout: tuple[MigProfile, ...] = (),
    workload: str = "mixed",
    seed: int = 0,
    profiling: str = "all",
    first_index: int = 0,
) -> list[FleetNode]:
    """Lay out ``count`` nodes on consecutive loopback addresses; the first ``mig_nodes`` run MIG."""
    if count < 1:
        raise InvalidValue("nodes", "", "{nodes} must be at least 1", refs=("nodes",))
    if not 1 <= gpus_per_node <= 16:
        raise InvalidValue("gpus_per_node", "", "{gpus_per_node} must be between 1 and 16", refs=("gpus_per_node",))
    if mig_nodes and not mig_layout:
        raise InvalidValue(
            "mig_nodes",
            "",
            "{mig_nodes} needs {mig_layout}, e.g. {mig_layout} 1g.10gb:7",
            refs=("mig_nodes", "mig_layout"),
        )
    try:
        base = ipaddress.IPv4Address(base_address)
    except ValueError:
        raise InvalidValue(
            "base_address", "", f"{{base_address}} {base_address!r} is not an IPv4 address", refs=("base_address",)
        ) from None
    last = base + (count - 1) if int(base) + count - 1 <= int(ipaddress.IPv4Address("255.255.255.255")) else None
    if base not in _LOOPBACK or last is None or last not in _LOOPBACK:
        raise InvalidValue(
            "base_address",
            "",
            f"{{base_address}} {base_address} + {count} nodes leaves 127.0.0.0/8; pick a lower base",
            refs=("base_address",),
        )
    nodes = []
    for i in range(count):
        index = first_index + i
        config = SimNodeConfig(
            hostname=f"{hostname_prefix}-{index:04d}",
            model=model,
            gpus=gpus_per_node,
            mig_layout=mig_layout if i < mig_nodes else (),
            workload=workload,
            seed=seed,
            profiling=profiling,
            # An NVL72 model's nodes are trays: every rack_trays of them share one NVLink domain (a rack).
            rack=f"{hostname_prefix}-rack-{index // model.rack_trays:03d}" if model.rack_trays else "",
        )
        nodes.append(FleetNode(config, str(base + i), port))
    return nodes


def with_simulated_processes(
    nodes: Sequence[FleetNode], settings: ExporterSettings, base_dir: Path
) -> tuple[list[FleetNode], ExporterSettings]:
    """With ``--process-metrics`` (or the per-pod split of ``--kubernetes-virtual-gpus``): each node keeps its
    simulated ``/proc`` and pod directory under ``base_dir``, and the exporter reads them there (``{hostname}`` in
    the paths is each node's own)."""
    if not settings.processes.reads:
        return list(nodes), settings
    placed = [replace(n, config=replace(n.config, process_dir=str(base_dir / n.config.hostname))) for n in nodes]
    processes = replace(
        settings.processes,
        proc_root=str(base_dir / "{hostname}" / "proc"),
        pod_log_dir=str(base_dir / "{hostname}" / "pods"),
    )
    return placed, replace(settings, processes=processes)


def build_listeners(nodes: Sequence[FleetNode], settings: ExporterSettings) -> list[Listener]:
    """One runtime per node. Process metrics are left out: they would describe the shared process N times."""
    return [
        Listener(
            node.address,
            node.port,
            make_runtime(SimNode(node.config), settings, node.config.hostname, own_process_metrics=False),
        )
        for node in nodes
    ]


def write_targets_file(path: str, nodes: Sequence[FleetNode], labels: Mapping[str, str] | None = None) -> None:
    """Write a Prometheus ``file_sd`` JSON file listing every node (atomic replace)."""
    groups = [{"targets": [node.target for node in nodes], "labels": dict(labels or {})}]
    try:
        outputs.write_text(path, json.dumps(groups, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        raise InvalidValue(
            "targets_file",
            "",
            f"cannot write targets file {path!r} ({{targets_file}}): {exc.strerror or exc}",
            refs=("targets_file",),
        ) from None


def raise_fd_limit(needed: int) -> None:
    """Each node holds a listening socket plus scrape connections; lift the soft fd limit to what is needed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return
    target = needed if hard == resource.RLIM_INFINITY else min(hard, max(needed, soft))
    if target < needed:
        raise EnvironmentProblem(
            f"{needed} file descriptors are needed but the hard limit is {hard}; "
            "raise it (ulimit -Hn) or run fewer nodes"
        )
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
