"""Simulated fleets for tests: loopback address blocks unique per test process (so parallel tests never collide),
the nodes' exporters built the way ``gpuscope sim`` builds them, and the Prometheus config that scrapes them."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gpuscope.exporter.server import Listener
from gpuscope.exporter.settings import ExporterSettings
from gpuscope.fields.collectors import load_collectors
from gpuscope.hardware.models import GpuModel, model_by_key
from gpuscope.simulator.fleet import FleetNode, build_listeners, plan_nodes, write_targets_file
from tests.support.net import free_port

_rng = random.Random(os.getpid())


def loopback_base() -> str:
    """A fresh 127.A.B.1 base address; nodes count up from there."""
    return f"127.{_rng.randint(2, 250)}.{_rng.randint(0, 250)}.1"


@dataclass(frozen=True)
class SimFleet:
    nodes: list[FleetNode]
    listeners: list[Listener]  # serve them with tests.support.exporters.serving

    def write_targets(self, path: Path, labels: dict[str, str] | None = None) -> Path:
        """The nodes as a Prometheus file_sd JSON file at ``path``."""
        write_targets_file(str(path), self.nodes, labels)
        return path


def sim_nodes(*, count: int, gpus_per_node: int, model: GpuModel | str = "h100", **plan: Any) -> list[FleetNode]:
    """``count`` simulated nodes on a fresh loopback block and a free port; ``plan`` goes to ``plan_nodes``
    (``hostname_prefix``, ``mig_nodes``, ``mig_layout``...)."""
    return plan_nodes(
        count=count,
        model=model_by_key(model) if isinstance(model, str) else model,
        gpus_per_node=gpus_per_node,
        base_address=loopback_base(),
        port=free_port(),
        **plan,
    )


def fleet_of(nodes: list[FleetNode], settings: ExporterSettings | None = None) -> SimFleet:
    """The nodes with their exporters, built the way ``gpuscope sim`` builds them: every field of the default
    collectors, collected every second, unless ``settings`` say otherwise."""
    settings = settings or ExporterSettings(collectors=load_collectors(None), interval_s=1.0)
    return SimFleet(nodes=nodes, listeners=build_listeners(nodes, settings))


def sim_fleet(*, settings: ExporterSettings | None = None, **nodes: Any) -> SimFleet:
    """``sim_nodes(**nodes)`` with their exporters (``fleet_of``)."""
    return fleet_of(sim_nodes(**nodes), settings)


def scrape_config(targets: Path, *, jobs: Sequence[dict[str, Any]] = (), **top: Any) -> dict[str, Any]:
    """A Prometheus config that scrapes the exporters listed in the file_sd file ``targets`` as job
    ``dcgm-exporter``, every second, and evaluates rules every second; ``jobs`` are further scrape configs and
    ``top`` further top-level keys (``rule_files``...)."""
    return {
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        **top,
        "scrape_configs": [
            {"job_name": "dcgm-exporter", "file_sd_configs": [{"files": [str(targets)]}]},
            *jobs,
        ],
    }
