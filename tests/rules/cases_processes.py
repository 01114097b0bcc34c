"""Shared-GPU scenarios: GPU memory held by no live pod (a zombie), and the near misses that must stay quiet."""

from __future__ import annotations

from gpuscope.rules import RulesConfig
from tests.rules.fixtures import change, change_missed, flat, identity, missed_up, self_labels, up
from tests.support.promtool import Case, Series

HELD = "gpuscope_gpu_unattributed_memory_used_bytes"
GIB = 1 << 30
MIB = 1 << 20


def held(gpu: int, values: str) -> Series:
    return Series(HELD, self_labels(gpu), values)


CASES = (
    Case(
        "a zombie keeps 8 GiB on GPU 2 after its pod was deleted; GPU 0 has none",
        "GPUMemoryHeldByNoPod",
        (up(), held(0, flat(0)), held(2, change(0, 8 * GIB))),
        fires_by="42m",
        expected=(identity(2),),
        quiet_at=("29m45s", "39m"),
        still_firing_at=("55m",),
    ),
    Case(
        "a failed scrape while it is pending (every series stale, up 0) does not start the 10 minutes over",
        "GPUMemoryHeldByNoPod",
        (missed_up(), held(2, change_missed(0, 8 * GIB))),
        fires_by="42m",
        expected=(identity(2),),
        quiet_at=("39m",),
    ),
    Case(
        "near miss: a process exits between NVML's list and /proc for a few collections",
        "GPUMemoryHeldByNoPod",
        (up(), held(0, f"0x119 {4 * GIB}x8 0x120")),
        quiet_at=("30m", "32m", "45m"),
    ),
    Case(
        "near miss: 200 MiB held for an hour, under the 256 MiB tolerated (a CUDA context of a host tool)",
        "GPUMemoryHeldByNoPod",
        (up(), held(0, flat(200 * MIB))),
        quiet_at=("30m", "59m"),
    ),
    Case(
        "a lower tolerance catches the small leak",
        "GPUMemoryHeldByNoPod",
        (up(), held(0, change(0, 200 * MIB, start="10m", total="30m"))),
        fires_by="22m",
        start="10m",
        expected=(identity(0),),
        config=RulesConfig(thresholds={"unattributed_memory_mib": 100}),
    ),
)
