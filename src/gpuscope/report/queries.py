"""The PromQL behind every number of the report, per tier (pure).

Every range query is evaluated at ``from + k * step`` for ``k = 1..n``; the value at ``t`` stands for the
interval ``(t - step, t]``: allocation and activity are the samples in that interval, energy is the counter's
increase over it (``rate`` over two steps minus a second, which holds exactly the samples at ``t - step`` and
``t``). The raw tier reads the exporter's series; the rollup tier reads the 1 h chargeback rollups
(``rules/efficiency_chargeback.py``), which carry cluster, namespace, team and model only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gpuscope.rules.accounting import held
from gpuscope.rules.config import RulesConfig
from gpuscope.rules.efficiency_chargeback import (
    ACTIVE_1H,
    GPU_ACTIVITY_1H,
    GPUS_1H,
    HELD_1H,
    POWER_1H,
    UNITS_1H,
    UNITS_ACTIVE_1H,
    activity_source,
    held_active,
    held_power,
    rollup_sum,
    units_active,
)
from gpuscope.rules.promql import Promql

Tier = Literal["raw", "rollup"]
GROUP_BYS = ("namespace", "team", "job", "cluster")
# What each --group-by reads: the label on the workload info series (and, for the rollup tier, on the rollups).
ROLLUP_GROUP_BYS = ("namespace", "team", "cluster")


@dataclass(frozen=True, slots=True)
class Queries:
    """PromQL for one tier, one grouping label and one rules config."""

    config: RulesConfig
    tier: Tier
    group_label: str
    step: int
    team_label: str = "team"

    @property
    def q(self) -> Promql:
        return Promql(self.config)

    def _held(self, by: str) -> str:
        return held(self.q, by)

    def _rollup(self, record: str, by: str) -> str:
        return rollup_sum(self.q, record, by, team_label=self.team_label)

    def held(self) -> str:
        """GPUs held, in the accounting unit (a MIG instance its share, holders of a shared GPU split it), by
        group and model."""
        g = self.group_label
        if self.tier == "rollup":
            return self._rollup(HELD_1H, f"{g}, modelName")
        return f"sum by ({g}, modelName) (\n{self._held(g)}\n)"

    def active(self) -> str:
        """Held GPUs weighted by their activity (SM active, else GR engine active, else NVML utilization)."""
        g = self.group_label
        if self.tier == "rollup":
            return self._rollup(ACTIVE_1H, f"{g}, modelName")
        act = activity_source(self.q, self._window(1))
        return f"sum by ({g}, modelName) (\n{held_active(self.q, self._held(g), act)}\n)"

    def power(self) -> str:
        """Watts drawn by held GPUs, from the energy counter; times the step, the energy of each interval."""
        g = self.group_label
        if self.tier == "rollup":
            return self._rollup(POWER_1H, f"{g}, modelName")
        return f"sum by ({g}, modelName) (\n{held_power(self.q, self._held(g), self._window(2))}\n)"

    def capacity(self) -> str:
        """GPUs reporting (the fleet's capacity), by model."""
        if self.tier == "rollup":
            return self._rollup(GPUS_1H, "modelName")
        c = self.config
        return f"count by (modelName) (group by ({c.uuid_label}, modelName) ({self.q.dcgm('DCGM_FI_DEV_GPU_TEMP')}))"

    def fleet_activity(self) -> str:
        """Mean activity over every GPU and MIG instance of the fleet, allocated or not, each weighed by its share
        of a GPU."""
        if self.tier == "rollup":
            return f"{self._rollup(UNITS_ACTIVE_1H, '')}\n/\n{self._rollup(UNITS_1H, '')}"
        active, units = units_active(self.q, "", self._window(1))
        return f"{active}\n/\n{units}"

    def per_gpu_activity(self, seconds: int) -> str:
        """Each GPU's (or MIG instance's) mean activity over the whole range (an instant query at the range's
        end), one per unit whatever the replicas."""
        if self.tier == "rollup":
            return f"max by ({self.q.unit_keys}) (avg_over_time({GPU_ACTIVITY_1H}[{seconds}s]))"
        act = activity_source(self.q, self._window(1))
        return f"avg_over_time(({act})[{seconds}s:{self.step}s])"

    def prof_coverage(self) -> str:
        """GPUs whose activity comes from the profiling counters (the rest use NVML utilization)."""
        c = self.config
        prof = self.q.dcgm("DCGM_FI_PROF_SM_ACTIVE")
        return f"count(group by ({c.uuid_label}, GPU_I_ID) ({prof}))"

    def zombies(self) -> str:
        """GPUs nobody holds whose memory is in use (a leaked process): MiB used."""
        c = self.config
        info = self.q.exporter("gpuscope_gpu_workload_info")
        used = f"max by ({c.uuid_label}, {c.host_label}) ({self.q.dcgm('DCGM_FI_DEV_FB_USED')})"
        return f"({used} > 1024)\nunless on ({c.uuid_label}) group by ({c.uuid_label}) ({info})"

    def idle_allocations(self, ratio: float) -> str:
        """Held GPUs below the idle activity ratio, per pod (the allocated-but-idle incidents)."""
        c = self.config
        info = self.q.exporter("gpuscope_gpu_workload_info")
        by = f"{c.uuid_label}, GPU_I_ID, {c.namespace_label}, {c.pod_label}"
        act = activity_source(self.q, self._window(1))
        return f"group by ({by}) ({info})\n* on ({c.uuid_label}, GPU_I_ID) group_left ()\n(({act}) < {ratio:g})"

    def top_jobs(self) -> str:
        """GPUs held per pod, with the group it belongs to (the per-group top jobs), in the accounting unit."""
        g, c = self.group_label, self.config
        if g == c.pod_label:
            return self.held()
        return f"sum by ({g}, {c.pod_label}) (\n{self._held(g)}\n)"

    def _window(self, steps: int) -> str:
        # Prometheus 2.x range selectors include both ends: one second less keeps the sample at t - steps*step out.
        return f"{steps * self.step - 1}s"


def group_label(group_by: str, config: RulesConfig, team_label: str) -> str:
    """The label a --group-by value reads."""
    return {
        "namespace": config.namespace_label,
        "team": team_label,
        "job": config.pod_label,
        "cluster": config.cluster_label,
    }[group_by]
