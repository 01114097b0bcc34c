"""Workload attribution and web config options shared by ``gpuscope exporter`` and ``gpuscope sim``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from gpuscope.cli._app import choice
from gpuscope.exporter.workloads.model import DEFAULT_SOCKET

# The CLI imports this module at start-up: grpc, ssl contexts and YAML load only when a command needs them.
if TYPE_CHECKING:
    from gpuscope.exporter.webconfig import WebConfig
    from gpuscope.exporter.workloads.source import WorkloadSettings

__all__ = ["DEFAULT_SOCKET", "web_config", "workload_settings"]
GPU_ID_TYPES = ("uid", "device-name")
WORKLOAD_MODES = ("info", "labels", "off")


def workload_settings(
    mode: str, *, kubernetes: bool, socket_path: str, gpu_id_type: str, resource_names: str, hpc_dir: str
) -> WorkloadSettings:
    """Validate the attribution flags (one clear error naming the flag) into settings."""
    from gpuscope.exporter.workloads.model import WorkloadLabels
    from gpuscope.exporter.workloads.source import WorkloadSettings

    choice(gpu_id_type, GPU_ID_TYPES, "--kubernetes-gpu-id-type")
    names = tuple(n.strip() for n in resource_names.split(",") if n.strip())
    # gRPC's C core logs reconnect chatter to stderr by default; the exporter reports kubelet trouble itself.
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    return WorkloadSettings(
        mode=WorkloadLabels(choice(mode, WORKLOAD_MODES, "--workload-labels")),
        kubernetes=kubernetes,
        socket_path=socket_path,
        resource_names=names,
        hpc_dir=hpc_dir,
    )


def web_config(path: str) -> WebConfig | None:
    """Load and check ``--web-config-file`` at start-up (None when not given)."""
    if not path:
        return None
    from gpuscope.exporter.webconfig import load_web_config

    return load_web_config(path)
