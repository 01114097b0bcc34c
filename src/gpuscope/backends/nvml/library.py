"""NVIDIA's bindings: loaded here and only here (importing them never touches the driver), and NVML shut down.

Both the backend and ``gpuscope job``'s device table (``jobs/devices.py``) load NVML through this module, which
imports nothing of gpuscope: a job script listing its GPUs does not load the backend's sessions and readers.
"""

from __future__ import annotations

import contextlib
from typing import Any


def load_pynvml() -> Any:
    """NVIDIA's bindings, imported here and only here. Importing them never touches the driver."""
    import pynvml

    return pynvml


def shutdown(nvml: Any) -> None:
    """``nvmlShutdown``, ignoring failure (the driver may be the reason we are shutting down)."""
    with contextlib.suppress(nvml.NVMLError):
        nvml.nvmlShutdown()
