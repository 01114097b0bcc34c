"""The NVML backend (real GPUs). Placeholder until the NVML issue lands: reports the backend as unavailable."""

from __future__ import annotations

from gpuscope.backends.base import BackendUnavailable, NodeReading, ReadRequest


class NvmlBackend:
    name = "nvml"

    def collect(self, request: ReadRequest) -> NodeReading:
        raise BackendUnavailable("the nvml backend is not available in this build")

    def close(self) -> None:
        """Nothing to release."""
