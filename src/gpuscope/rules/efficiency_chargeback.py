"""Chargeback rollups: GPUs held, active GPUs and power per cluster, namespace, team and model, for the cold tier.

A held GPU is one a workload info series names (a MIG instance counts as one slice). Active is the held GPUs
weighted by their activity: SM active where the profiling counters exist, else graphics-engine active, else
NVML utilization (coarse: one busy SM reads as 100%). Power comes from the energy counter, so a year of kWh per
team is a sum of 1 h rollups rather than a scan of raw samples. Labels are bounded (no pod): the series count is
clusters x namespaces x teams x models. ``gpuscope report`` reads the ``*_rollup1h`` series for long ranges.
"""

from __future__ import annotations

from gpuscope.rules.model import Group, Recording
from gpuscope.rules.promql import Promql, alternatives

HELD_5M = "chargeback:gpus_held:count_rollup5m"
ACTIVE_5M = "chargeback:gpus_active:sum_rollup5m"
POWER_5M = "chargeback:gpu_power_watts:sum_rollup5m"
GPUS_5M = "chargeback:gpus:count_rollup5m"
HELD_1H = "chargeback:gpus_held:avg_rollup1h"
ACTIVE_1H = "chargeback:gpus_active:avg_rollup1h"
POWER_1H = "chargeback:gpu_power_watts:avg_rollup1h"
GPUS_1H = "chargeback:gpus:avg_rollup1h"
GPU_ACTIVITY_1H = "chargeback:gpu_activity:avg_rollup1h"
# The pod label (from the exporter's allowlist) that names a team, when the fleet has one.
TEAM_LABEL = "team"


def activity_source(q: Promql, window: str) -> str:
    """Activity per GPU or MIG instance over ``window``, as a ratio, from the best source each GPU has."""
    c = q.config
    by = f"max by ({c.cluster_label}, {c.uuid_label}, GPU_I_ID)"
    util = f"avg_over_time({q.dcgm('DCGM_FI_DEV_GPU_UTIL')}[{window}])"
    return alternatives(
        f"{by} (avg_over_time({q.dcgm('DCGM_FI_PROF_SM_ACTIVE')}[{window}]))",
        f"{by} (avg_over_time({q.dcgm('DCGM_FI_PROF_GR_ENGINE_ACTIVE')}[{window}]))",
        q.base("DCGM_FI_DEV_GPU_UTIL", f"{by} ({util})"),
    )


def energy_watts(q: Promql, window: str) -> str:
    """Mean power per GPU over ``window`` from the energy counter (resets handled by ``rate``)."""
    c = q.config
    field = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"
    return q.base(field, f"max by ({c.uuid_label}) (rate({q.dcgm(field)}[{window}]))")


def power_shares(q: Promql, alloc: str, watts: str) -> str:
    """Each holder's share of its GPU's power: the energy counter is per GPU, so a MIG GPU's (or a time-sliced
    GPU's) watts are split evenly among the slices and pods holding it, never counted once per holder."""
    uuid = q.config.uuid_label
    return (
        f"(\n{alloc}\n)\n/ on ({uuid}) group_left ()\ncount by ({uuid}) (\n{alloc}\n)\n"
        f"* on ({uuid}) group_left ()\n({watts})"
    )


def allocation_with_model(q: Promql, by: str, team_label: str = TEAM_LABEL) -> str:
    """One series of value 1 per held GPU or MIG instance, labelled ``by`` and with the GPU's model."""
    c = q.config
    info = q.exporter("gpuscope_gpu_workload_info")
    temp = q.dcgm("DCGM_FI_DEV_GPU_TEMP")
    return (
        f"group by ({c.uuid_label}, GPU_I_ID, {by}) ({info})\n"
        f"* on ({c.uuid_label}) group_left (modelName)\n"
        f"group by ({c.uuid_label}, modelName) ({temp})"
    )


def chargeback_groups(q: Promql, team_label: str = TEAM_LABEL) -> tuple[Group, Group]:
    c = q.config
    keys = f"{c.cluster_label}, {c.namespace_label}, {team_label}, modelName"
    alloc = allocation_with_model(q, f"{c.cluster_label}, {c.namespace_label}, {team_label}", team_label)
    uuid = c.uuid_label
    five = (
        Recording(record=HELD_5M, expr=f"count by ({keys}) (\n{alloc}\n)", cold=True),
        Recording(
            record=ACTIVE_5M,
            expr=f"sum by ({keys}) (\n{alloc}\n* on ({uuid}, GPU_I_ID) group_left ()\n({activity_source(q, '5m')})\n)",
            cold=True,
        ),
        Recording(
            record=POWER_5M,
            expr=f"sum by ({keys}) (\n{power_shares(q, alloc, energy_watts(q, '10m'))}\n)",
            cold=True,
        ),
        Recording(
            record=GPUS_5M,
            expr=f"count by ({c.cluster_label}, modelName) "
            f"(group by ({c.cluster_label}, {uuid}, modelName) ({q.dcgm('DCGM_FI_DEV_GPU_TEMP')}))",
            cold=True,
        ),
    )
    hour = (
        *(
            Recording(record=long, expr=f"avg_over_time({short}[1h])", cold=True)
            for short, long in ((HELD_5M, HELD_1H), (ACTIVE_5M, ACTIVE_1H), (POWER_5M, POWER_1H), (GPUS_5M, GPUS_1H))
        ),
        Recording(
            record=GPU_ACTIVITY_1H,
            expr=f"avg by ({q.gpu_keys}) (avg_over_time(gpu:activity:avg_rollup5m[1h]))",
            cold=True,
        ),
    )
    return (
        Group(name="gpuscope-chargeback-5m.rules", rules=five, interval="5m"),
        Group(name="gpuscope-chargeback-1h.rules", rules=hour, interval="1h"),
    )
