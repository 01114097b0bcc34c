"""A synthetic fleet with known allocations and activity, written as OpenMetrics for ``promtool tsdb
create-blocks-from openmetrics``, and the truth the report must reproduce.

Three nodes of eight H100s, 5-minute samples. Teams: ``vision`` (8 GPUs, busy with a daily cycle), ``serving``
(4 GPUs on a node without profiling counters, so NVML utilization is the fallback), ``research`` (4 GPUs held and
idle), ``growth`` (one more GPU every ``GROWTH_EVERY_DAYS``: the trend the forecast must find), and one GPU nobody
holds whose memory is in use for a few hours (a zombie). Raw exporter series cover the last ``raw_days``; the 1 h
chargeback rollups cover everything, computed from the same per-step states the raw series come from.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from gpuscope.rules.efficiency_chargeback import ACTIVE_1H, GPU_ACTIVITY_1H, GPUS_1H, HELD_1H, POWER_1H

STEP = 300
DAY = 86_400
HOUR = 3_600
MODEL = "NVIDIA H100 80GB HBM3"
CLUSTER = "c1"
GROWTH_EVERY_DAYS = 3
IDLE_WATTS, WATTS_PER_ACTIVITY = 90.0, 600.0
ZOMBIE_MIB = 30_000.0


@dataclass(frozen=True)
class Gpu:
    node: int
    index: int

    @property
    def uuid(self) -> str:
        return f"GPU-{self.node:02d}{self.index:02d}0000-aaaa-bbbb-cccc-000000000000"

    @property
    def host(self) -> str:
        return f"gpu-node-{self.node}"

    @property
    def prof(self) -> bool:
        return self.node % 3 != 1  # node 1's exporter (and every third after it) has no profiling counters


GPUS = tuple(Gpu(node=n, index=i) for n in range(3) for i in range(8))


@dataclass(frozen=True)
class Fleet:
    start: int  # first step of the history
    end: int  # last step (aligned to a day)
    raw_days: int
    nodes: int = 3  # more nodes repeat the three nodes' pattern, each trio its own namespaces (for the bench)

    @property
    def gpus(self) -> tuple[Gpu, ...]:
        return tuple(Gpu(node=n, index=i) for n in range(self.nodes) for i in range(8))

    @property
    def raw_start(self) -> int:
        return self.end - self.raw_days * DAY - STEP

    def holder(self, gpu: Gpu, t: int) -> tuple[str, str, str] | None:
        """(namespace, team, pod) holding the GPU at ``t``, or None."""
        if gpu.node == 0:
            return ("ml-train", "vision", f"train-{gpu.index // 4}")
        if gpu.node == 1:
            return (
                ("serving", "serving", f"infer-{gpu.index}")
                if gpu.index < 4
                else ("research", "research", "notebook-0")
            )
        if gpu.index < 7 and t >= self.start + gpu.index * GROWTH_EVERY_DAYS * DAY:
            return ("growth", "growth", f"grow-{gpu.index}")
        return None

    def activity(self, gpu: Gpu, t: int) -> float:
        held = self.holder(gpu, t)
        if held is None:
            return 0.0
        team = held[1]
        phase = 2 * math.pi * (t % DAY) / DAY
        if team == "vision":
            return 0.55 + 0.35 * math.sin(phase)
        if team == "serving":
            return 0.30 + 0.10 * math.sin(phase)
        if team == "research":
            return 0.02
        return 0.70

    def watts(self, gpu: Gpu, t: int) -> float:
        return IDLE_WATTS + WATTS_PER_ACTIVITY * self.activity(gpu, t)

    def zombie_mib(self, gpu: Gpu, t: int) -> float:
        begin = self.end - 2 * DAY + 2 * HOUR
        return ZOMBIE_MIB if (gpu.node, gpu.index) == (self.nodes - 1, 7) and begin < t <= begin + 4 * HOUR else 0.0

    def steps(self, after: int, until: int) -> range:
        """Sample times in ``(after, until]``."""
        return range(after + STEP, until + 1, STEP)

    # --- the truth the report must reproduce -------------------------------------------------------------

    def truth(self, after: int, until: int, group: str) -> dict[str, tuple[float, float, float]]:
        """group -> (GPU-hours held, active GPU-hours, kWh) over ``(after, until]``."""
        index = {"namespace": 0, "team": 1, "job": 2}[group]
        out: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
        for t in self.steps(after, until):
            for gpu in self.gpus:
                held = self.holder(gpu, t)
                if held is None:
                    continue
                row = out[held[index]]
                row[0] += STEP / HOUR
                row[1] += self.activity(gpu, t) * STEP / HOUR
                row[2] += self.watts(gpu, t) * STEP / 3.6e6
        return {k: (v[0], v[1], v[2]) for k, v in out.items()}

    def full_on_trend(self) -> float:
        """When the growth trend fills the fleet: the staircase (one GPU every N days) averages to a line through
        the middle of each stair, 16 + 1 + (d - N/2) / N GPUs on day d, which reaches every GPU at d = 7.5 N."""
        return self.start + 7.5 * GROWTH_EVERY_DAYS * DAY

    def mean_activity(self, gpu: Gpu, after: int, until: int) -> float:
        ts = self.steps(after, until)
        return sum(self.activity(gpu, t) for t in ts) / len(ts)

    # --- OpenMetrics ---------------------------------------------------------------------------------------

    def openmetrics(self) -> str:
        lines: list[str] = []
        raw = list(self.steps(self.raw_start - STEP, self.end))
        self._raw(lines, raw)
        self._rollups(lines)
        lines.append("# EOF\n")
        return "\n".join(lines)

    def _raw(self, lines: list[str], times: list[int]) -> None:
        def base(gpu: Gpu) -> str:
            return (
                f'cluster="{CLUSTER}",job="dcgm-exporter",instance="10.0.0.{gpu.node}:9400",gpu="{gpu.index}",'
                f'UUID="{gpu.uuid}",Hostname="{gpu.host}",modelName="{MODEL}"'
            )

        lines.append("# TYPE DCGM_FI_DEV_GPU_TEMP gauge")
        for gpu in self.gpus:
            lines.extend(f"DCGM_FI_DEV_GPU_TEMP{{{base(gpu)}}} 40 {t}" for t in times)
        lines.append("# TYPE DCGM_FI_PROF_SM_ACTIVE gauge")
        for gpu in self.gpus:
            if gpu.prof:
                lines.extend(f"DCGM_FI_PROF_SM_ACTIVE{{{base(gpu)}}} {self.activity(gpu, t):.6f} {t}" for t in times)
        lines.append("# TYPE DCGM_FI_DEV_GPU_UTIL gauge")
        for gpu in self.gpus:
            if not gpu.prof:
                lines.extend(
                    f"DCGM_FI_DEV_GPU_UTIL{{{base(gpu)}}} {100 * self.activity(gpu, t):.4f} {t}" for t in times
                )
        lines.append("# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION gauge")
        for gpu in self.gpus:
            counter = 5e9
            for t in times:
                counter += self.watts(gpu, t) * STEP * 1000  # mJ over the step ending at t
                lines.append(f"DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{{{base(gpu)}}} {counter:.0f} {t}")
        lines.append("# TYPE DCGM_FI_DEV_FB_USED gauge")
        zombie = self.gpus[-1]
        lines.extend(f"DCGM_FI_DEV_FB_USED{{{base(zombie)}}} {self.zombie_mib(zombie, t):.0f} {t}" for t in times)
        self._info(lines, times)

    def _info(self, lines: list[str], times: list[int]) -> None:
        lines.append("# TYPE gpuscope_gpu_workload_info gauge")
        for gpu in self.gpus:
            series: dict[tuple[str, str, str], list[int]] = defaultdict(list)
            for t in times:
                held = self.holder(gpu, t)
                if held is not None:
                    series[held].append(t)
            for (ns, team, pod), ts in sorted(series.items()):
                labels = (
                    f'cluster="{CLUSTER}",job="dcgm-exporter",instance="10.0.0.{gpu.node}:9400",gpu="{gpu.index}",'
                    f'UUID="{gpu.uuid}",Hostname="{gpu.host}",container="main",namespace="{ns}",pod="{pod}",team="{team}"'
                )
                lines.extend(f"gpuscope_gpu_workload_info{{{labels}}} 1 {t}" for t in ts)

    def _rollups(self, lines: list[str]) -> None:
        hours = range(self.start + HOUR, self.end + 1, HOUR)
        held: dict[tuple[str, str], dict[int, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0.0, 0.0, 0.0]))
        per_gpu: dict[Gpu, dict[int, float]] = defaultdict(dict)
        for h in hours:
            for gpu in self.gpus:
                acts = []
                for t in self.steps(h - HOUR, h):
                    acts.append(self.activity(gpu, t))
                    who = self.holder(gpu, t)
                    if who is not None:
                        row = held[(who[0], who[1])][h]
                        row[0] += 1 / 12
                        row[1] += self.activity(gpu, t) / 12
                        row[2] += self.watts(gpu, t) / 12
                per_gpu[gpu][h] = sum(acts) / len(acts)
        for name, col in ((HELD_1H, 0), (ACTIVE_1H, 1), (POWER_1H, 2)):
            lines.append(f"# TYPE {name} gauge")
            for (ns, team), values in sorted(held.items()):
                labels = f'cluster="{CLUSTER}",modelName="{MODEL}",namespace="{ns}",team="{team}"'
                lines.extend(f"{name}{{{labels}}} {values[h][col]:.6f} {h}" for h in hours if h in values)
        lines.append(f"# TYPE {GPUS_1H} gauge")
        lines.extend(f'{GPUS_1H}{{cluster="{CLUSTER}",modelName="{MODEL}"}} {len(self.gpus)} {h}' for h in hours)
        lines.append(f"# TYPE {GPU_ACTIVITY_1H} gauge")
        for gpu in self.gpus:
            labels = (
                f'cluster="{CLUSTER}",instance="10.0.0.{gpu.node}:9400",gpu="{gpu.index}",UUID="{gpu.uuid}",'
                f'modelName="{MODEL}"'
            )
            lines.extend(f"{GPU_ACTIVITY_1H}{{{labels}}} {per_gpu[gpu][h]:.6f} {h}" for h in hours)
