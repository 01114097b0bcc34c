"""A DaemonSet's exporter container (tests/exporter/fixtures/deployments.yaml) as a local process: the image's
ENTRYPOINT from this environment, the pod's args and env with image paths rewritten to local copies, a free
loopback port in place of 9400 and a node name for ``NODE_NAME``."""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tests.support.image import ROOT, image_facts, map_paths

DEPLOYMENTS_FILE = ROOT / "tests" / "exporter" / "fixtures" / "deployments.yaml"
KUBELET_MOUNT = "/var/lib/kubelet/pod-resources"
NODE_NAME = "gpu-node-7"


def deployments() -> dict[str, dict[str, Any]]:
    """The manifests' facts, by deployment name."""
    loaded: dict[str, dict[str, Any]] = yaml.safe_load(DEPLOYMENTS_FILE.read_text(encoding="utf-8"))["deployments"]
    return loaded


def entrypoint_command(entrypoint: list[str]) -> list[str]:
    """The image's ENTRYPOINT, found on this environment's PATH (the project's venv holds the same script)."""
    found = shutil.which(entrypoint[0], path=str(Path(sys.executable).parent))
    assert found, f"{entrypoint[0]} is not installed beside {sys.executable}: run make deps"
    return [found, *entrypoint[1:]]


@dataclass(frozen=True)
class PodProcess:
    command: list[str]
    env: dict[str, str]  # the container's environment only (add it to a clean one)
    args: list[str]


def pod_process(name: str, spec: dict[str, Any], root: Path, port: int) -> PodProcess:
    """The container of deployment ``name`` (``spec``), its files under ``root``, listening on ``port``."""
    image = image_facts()
    assert spec["port"] == image.port  # the manifests' container port is the image's
    mapping = image.realise(root)
    for mount, what in spec["mounts"].items():
        if what.startswith("configmap"):
            # The Helm chart's ConfigMap holds the chart's field list; its default is the image's default file.
            local = root / mount.lstrip("/")
            local.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / "etc" / "default-counters.csv", local)
            mapping[mount] = str(local)
        elif what != "image":
            assert mount == KUBELET_MOUNT, f"{name}: replay does not know mount {mount}"
    env: dict[str, str] = {}
    for key, value in spec["env"].items():
        if value == "<fieldRef spec.nodeName>":
            env[key] = NODE_NAME
        elif key == "DCGM_EXPORTER_LISTEN":
            env[key] = value.replace(f":{spec['port']}", f":{port}")
        else:
            env[key] = map_paths(value, mapping)
    args = [map_paths(a, mapping) for a in spec["args"]]
    command = [*entrypoint_command(image.entrypoint), *(spec["entrypoint"] or []), *image.cmd, *args]
    return PodProcess(command=command, env=env, args=args)
