"""The fabric state is a byte (nvml.h ``typedef unsigned char nvmlGpuFabricState_t``): pynvml's 4-byte field holds
the struct's padding above it, which must not leak into the state."""

from __future__ import annotations

from typing import Any

import pynvml

from gpuscope.backends.nvml.readers import read_fabric


class _Nvml:
    """pynvml's real struct, filled as a driver that leaves garbage in the padding after ``state`` would."""

    c_nvmlGpuFabricInfo_v3_t = pynvml.c_nvmlGpuFabricInfo_v3_t

    def nvmlDeviceGetGpuFabricInfoV(self, _handle: Any, info_ref: Any) -> None:
        info = info_ref._obj
        info.state = 0xA5C3_0003  # state 3 (completed), padding bytes 0xA5C300
        info.status, info.cliqueId, info.healthMask, info.healthSummary = 0, 7, 0, 1


def test_only_the_low_byte_is_the_state() -> None:
    info = read_fabric(_Nvml(), object(), (), None)  # type: ignore[arg-type]
    assert (info.state, info.clique_id, info.health_summary) == (3, 7, 1)
