"""The DCGM backend: GPUs through NVIDIA DCGM's host engine (embedded, or a standalone ``nv-hostengine``).

gpuscope's own ctypes binding of the part of DCGM's C API the exporter needs, written from DCGM 4.6.0's public
headers (``dcgm_structs.h``, ``dcgm_fields.h``, ``dcgm_agent.h``). It reads the profiling family
(``DCGM_FI_PROF_*``) on every data-center GPU DCGM profiles (Volta and newer), where the NVML backend has them
through GPM only on Hopper and newer. Layout, data first:

- ``structs``     DCGM's types, struct versions, return codes, blank sentinels
- ``library``     loading libdcgm (``$GPUSCOPE_LIBDCGM_PATH`` or ``libdcgm.so.4``) and one method per C call
- ``deadline``    every call on a worker thread with a timeout (a hung engine never hangs a collection)
- ``connection``  embedded vs standalone (``-r HOST:PORT`` / socket), "engine gone" as ``EngineGone``
- ``values``      field values -> values/read errors, and which fields are read where (pure)
- ``health``      health incidents -> ``DCGM_EXP_GPU_HEALTH_STATUS`` rows (pure)
- ``discovery``   GPUs, identity labels, MIG GPU instances
- ``watches``     groups, field groups, watches, per-GPU profiling watch state
- ``session``     one connection and one collection; ``backend`` reconnects with backoff
- ``probe``       does a host engine answer here (``--backend auto``)
"""

from gpuscope.backends.dcgm.backend import DcgmBackend
from gpuscope.backends.dcgm.connection import Target, parse_target

__all__ = ["DcgmBackend", "Target", "parse_target"]
