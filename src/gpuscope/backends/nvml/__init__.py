"""The NVML backend: real NVIDIA GPUs through NVIDIA's ``nvidia-ml-py`` bindings (module ``pynvml``).

The only part of gpuscope that talks to NVML; ``pynvml`` is imported lazily (``library.load_pynvml``), and every
module here receives it as a parameter, so tests run the real code against a stand-in module. Layout, data first:

- ``constants``  NVML numbers (field ids, GPM metric ids, return codes) from ``nvml.h``
- ``fieldmap``   catalog field -> NVML source and conversion to DCGM's unit (pure data)
- ``plan``       which sources one GPU needs for a request (pure)
- ``evaluate``   raw results -> values and errors per field (pure)
- ``errors``     the error policy and the per-GPU memo of unsupported sources
- ``batch``, ``readers``, ``gpm``, ``mig``   the NVML calls: batched field values, individual calls, GPM, MIG
- ``device``     one GPU; ``session`` the GPUs of one nvmlInit; ``events`` the XID thread
- ``backend``    init with backoff, the ``Backend`` protocol
"""

from gpuscope.backends.nvml.backend import NvmlBackend
from gpuscope.backends.nvml.session import Timing

__all__ = ["NvmlBackend", "Timing"]
