"""GPU models: the published figures (memory, power, clocks, links, MIG profiles) of each SKU gpuscope knows, and
the node each one ships in (an HGX baseboard with its NVSwitch chips, or an NVL72 compute tray).

Domain data, not simulator code: the simulator imitates these models, the fleet spec validates node groups and
MIG layouts against them, and the budget sizes a node from them.

Fabric figures (docs/exporter.md "NVSwitches and NVLinks"; ../shared/reference/fabric.md section 1): NVLink 4 on
Hopper and NVLink 5 on Blackwell, 18 links per GPU on both (a count, never assumed: DCGM sizes its per-GPU link
arrays at 36, ``MAX_LINKS_PER_GPU``). An HGX H100/H200 baseboard carries 4 NVSwitch chips and an HGX B200 2 (NVIDIA
Fabric Manager guide section titles; the chip counts are unverified there). A GB200/GB300 NVL72 compute tray holds 4
GPUs and no NVSwitch: the rack's switch chips sit in its 9 switch trays, run by NVOS, so a compute tray sees them
only through its GPUs' fabric state; the 18 trays of a rack share one NVLink domain (a cluster UUID and clique id).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from gpuscope.errors import UsageError


@dataclass(frozen=True, slots=True)
class MigProfile:
    name: str
    slices: int
    memory_mib: int


@dataclass(frozen=True, slots=True)
class GpuModel:
    """Datasheet-level behaviour of one GPU SKU."""

    key: str
    name: str
    memory_mib: int
    reserved_mib: int
    tdp_w: float
    idle_w: float
    sm_clock_idle: int
    sm_clock_max: int
    mem_clock: int
    nvlinks: int
    nvlink_mbps_per_link: float  # MB/s per direction at full load
    pcie_gen: int
    gpm: bool  # Hopper and newer: profiling metrics through NVML GPM
    hbm: bool  # HBM reports a memory temperature; GDDR boards do not
    slowdown_temp: int
    shutdown_temp: int
    mig_profiles: tuple[MigProfile, ...] = ()
    encoders: bool = False
    nvlink5: bool = False  # Blackwell: NVLink5 error counters and bit-error rates
    fabric: bool = False  # NVLink fabric behind NVSwitches with a fabric state (manager, cluster, clique, health)
    nvlink_gen: int = 0  # NVLink generation (4 Hopper, 5 Blackwell); 0: none
    gpus_per_node: int = 8  # GPUs of the node it ships in (an HGX baseboard: 8, an NVL72 compute tray: 4)
    nvswitches: int = 0  # NVSwitch chips on that node's baseboard (0: none, or in separate switch trays)
    rack_trays: int = 0  # compute trays sharing one NVLink domain (18 in an NVL72 rack); 0: the node is its domain

    def mig_profile(self, name: str) -> MigProfile:
        for profile in self.mig_profiles:
            if profile.name == name:
                return profile
        known = ", ".join(p.name for p in self.mig_profiles) or "none: this model has no MIG"
        raise UsageError(f"MIG profile {name!r} does not exist on {self.key} (known: {known})")


# GB200 NVL72 compute tray; GB300 is the same tray with Blackwell Ultra GPUs.
_GB200 = GpuModel(
    key="gb200",
    name="NVIDIA GB200",
    memory_mib=189471,
    reserved_mib=740,
    tdp_w=1200.0,
    idle_w=160.0,
    sm_clock_idle=120,
    sm_clock_max=2062,
    mem_clock=3996,
    nvlinks=18,
    nvlink_mbps_per_link=50000.0,
    pcie_gen=6,
    gpm=True,
    hbm=True,
    slowdown_temp=87,
    shutdown_temp=92,
    mig_profiles=(
        MigProfile("1g.24gb", 1, 24064),
        MigProfile("1g.47gb", 1, 47104),
        MigProfile("2g.47gb", 2, 47104),
        MigProfile("3g.93gb", 3, 94208),
        MigProfile("4g.93gb", 4, 94208),
        MigProfile("7g.186gb", 7, 187904),
    ),
    nvlink5=True,
    fabric=True,
    nvlink_gen=5,
    gpus_per_node=4,
    rack_trays=18,
)

MODELS: Mapping[str, GpuModel] = MappingProxyType(
    {
        "h100": GpuModel(
            key="h100",
            name="NVIDIA H100 80GB HBM3",
            memory_mib=81559,
            reserved_mib=587,
            tdp_w=700.0,
            idle_w=72.0,
            sm_clock_idle=345,
            sm_clock_max=1980,
            mem_clock=2619,
            nvlinks=18,
            nvlink_mbps_per_link=25000.0,
            pcie_gen=5,
            gpm=True,
            hbm=True,
            slowdown_temp=87,
            shutdown_temp=92,
            mig_profiles=(
                MigProfile("1g.10gb", 1, 9856),
                MigProfile("1g.20gb", 1, 19968),
                MigProfile("2g.20gb", 2, 19968),
                MigProfile("3g.40gb", 3, 40192),
                MigProfile("4g.40gb", 4, 40192),
                MigProfile("7g.80gb", 7, 80896),
            ),
            fabric=True,
            nvlink_gen=4,
            nvswitches=4,
        ),
        "h200": GpuModel(
            key="h200",
            name="NVIDIA H200",
            memory_mib=143771,
            reserved_mib=626,
            tdp_w=700.0,
            idle_w=75.0,
            sm_clock_idle=345,
            sm_clock_max=1980,
            mem_clock=3201,
            nvlinks=18,
            nvlink_mbps_per_link=25000.0,
            pcie_gen=5,
            gpm=True,
            hbm=True,
            slowdown_temp=87,
            shutdown_temp=92,
            mig_profiles=(
                MigProfile("1g.18gb", 1, 17920),
                MigProfile("1g.35gb", 1, 35328),
                MigProfile("2g.35gb", 2, 35328),
                MigProfile("3g.71gb", 3, 70912),
                MigProfile("4g.71gb", 4, 70912),
                MigProfile("7g.141gb", 7, 142336),
            ),
            fabric=True,
            nvlink_gen=4,
            nvswitches=4,
        ),
        "b200": GpuModel(
            key="b200",
            name="NVIDIA B200",
            memory_mib=183359,
            reserved_mib=716,
            tdp_w=1000.0,
            idle_w=140.0,
            sm_clock_idle=120,
            sm_clock_max=1965,
            mem_clock=3996,
            nvlinks=18,
            nvlink_mbps_per_link=50000.0,
            pcie_gen=6,
            gpm=True,
            hbm=True,
            slowdown_temp=87,
            shutdown_temp=92,
            mig_profiles=(
                MigProfile("1g.23gb", 1, 23040),
                MigProfile("1g.45gb", 1, 45056),
                MigProfile("2g.45gb", 2, 45056),
                MigProfile("3g.90gb", 3, 90624),
                MigProfile("4g.90gb", 4, 90624),
                MigProfile("7g.180gb", 7, 181760),
            ),
            nvlink5=True,
            fabric=True,
            nvlink_gen=5,
            nvswitches=2,
        ),
        "gb200": _GB200,
        "a100": GpuModel(
            key="a100",
            name="NVIDIA A100-SXM4-80GB",
            memory_mib=81920,
            reserved_mib=513,
            tdp_w=400.0,
            idle_w=58.0,
            sm_clock_idle=210,
            sm_clock_max=1410,
            mem_clock=1593,
            nvlinks=12,
            nvlink_mbps_per_link=25000.0,
            pcie_gen=4,
            gpm=False,
            hbm=True,
            slowdown_temp=90,
            shutdown_temp=92,
            mig_profiles=(
                MigProfile("1g.10gb", 1, 9728),
                MigProfile("2g.20gb", 2, 19968),
                MigProfile("3g.40gb", 3, 40192),
                MigProfile("4g.40gb", 4, 40192),
                MigProfile("7g.80gb", 7, 80384),
            ),
            nvlink_gen=3,
        ),
        "l40s": GpuModel(
            key="l40s",
            name="NVIDIA L40S",
            memory_mib=46068,
            reserved_mib=484,
            tdp_w=350.0,
            idle_w=34.0,
            sm_clock_idle=210,
            sm_clock_max=2520,
            mem_clock=9001,
            nvlinks=0,
            nvlink_mbps_per_link=0.0,
            pcie_gen=4,
            gpm=False,
            hbm=False,
            slowdown_temp=88,
            shutdown_temp=93,
            encoders=True,
        ),
        # Blackwell Ultra: 288 GB HBM3e per GPU, same NVLink 5 switch system as GB200 (fabric.md: unverified);
        # no MIG profile is listed here until NVIDIA's table for it is read.
        "gb300": replace(
            _GB200, key="gb300", name="NVIDIA GB300", memory_mib=284208, tdp_w=1400.0, idle_w=170.0, mig_profiles=()
        ),
    }
)


def model_by_key(key: str) -> GpuModel:
    """Look up a model by its short key (h100, h200, b200, gb200, gb300, a100, l40s)."""
    try:
        return MODELS[key.lower()]
    except KeyError:
        raise UsageError(f"unknown GPU model {key!r}; choose one of: {', '.join(MODELS)}") from None


def parse_mig_layout(model: GpuModel, text: str) -> tuple[MigProfile, ...]:
    """Parse ``1g.10gb:7`` or ``3g.40gb,2g.20gb,1g.10gb`` into profiles that fit the GPU's 7 slices."""
    profiles: list[MigProfile] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, count_text = part.partition(":")
        count = 1
        if count_text:
            if not count_text.isdigit() or int(count_text) < 1:
                raise UsageError(f"MIG layout {text!r}: {part!r} needs a positive count after ':'")
            count = int(count_text)
        profiles.extend([model.mig_profile(name)] * count)
    if not profiles:
        raise UsageError(f"MIG layout {text!r} is empty; write e.g. '1g.10gb:7' or '3g.40gb,4g.40gb'")
    slices = sum(p.slices for p in profiles)
    if slices > 7:
        raise UsageError(f"MIG layout {text!r} uses {slices} compute slices; a {model.key} has 7")
    return tuple(profiles)
