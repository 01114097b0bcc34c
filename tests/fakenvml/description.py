"""Device and node descriptions for the fake NVML: YAML files next to this module, read into plain dicts.

A device file may name a ``base`` device; its keys replace the base's, except ``fields`` (NVML field values),
which are merged entry by entry.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
NOT_SUPPORTED = "not_supported"
NO_PERMISSION = "no_permission"


def check(value: Any) -> Any:
    """A description value, or the NVML error it stands for (raised as the real ``NVMLError_*``)."""
    import pynvml

    if value == NOT_SUPPORTED:
        raise pynvml.NVMLError(pynvml.NVML_ERROR_NOT_SUPPORTED)
    if value == NO_PERMISSION:
        raise pynvml.NVMLError(pynvml.NVML_ERROR_NO_PERMISSION)
    if isinstance(value, dict) and "error" in value:  # any other NVML return code, e.g. {error: 999}
        raise pynvml.NVMLError(int(value["error"]))
    return value


def device(name: str) -> dict[str, Any]:
    """The description of one device model, with its base merged in."""
    raw: dict[str, Any] = yaml.safe_load((HERE / "devices" / f"{name}.yaml").read_text())
    base_name = raw.pop("base", None)
    if base_name is None:
        return raw
    merged = device(base_name)
    fields = {**merged.get("fields", {}), **raw.pop("fields", {})}
    merged.update(raw)
    merged["fields"] = fields
    return merged


def node(name: str) -> dict[str, Any]:
    """A node: driver and NVML versions, its GPUs (device names) and the NVML symbols its driver lacks."""
    raw: dict[str, Any] = yaml.safe_load((HERE / "nodes" / f"{name}.yaml").read_text())
    raw["devices"] = [device(d) for d in raw["gpus"]]
    raw.setdefault("missing", [])
    return copy.deepcopy(raw)
