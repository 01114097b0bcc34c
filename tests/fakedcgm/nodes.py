"""Node descriptions for the fake libdcgm (its command language) that the DCGM tests share."""

from __future__ import annotations

A100 = "NVIDIA A100-SXM4-80GB"


def two_a100s() -> list[str]:
    """Two A100s, the second with two MIG GPU instances (DCGM entity ids 0 and 1)."""
    return [
        f"gpu 0 GPU-0aaa0000-0000-0000-0000-000000000000 00000000:07:00.0 {A100}",
        f"gpu 1 GPU-1bbb0000-0000-0000-0000-000000000000 00000000:0F:00.0 {A100}",
        "gi 0 1 1 1 1g.10gb MIG-1bbb0000-0000-0000-0000-00000000000a",
        "gi 1 1 2 3 3g.40gb MIG-1bbb0000-0000-0000-0000-00000000000b",
        "ci 0 0 0",
        "value none 0 1 s 550.54.15",
        "value none 0 2 s 12.550.54",
    ]
