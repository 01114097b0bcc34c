"""Chargeback rollups: GPUs held, active GPUs and power per cluster, namespace, team and model, for the cold tier.

Counted in the accounting unit (``rules/accounting.py``): a whole GPU is 1, a MIG instance its compute-slice
share, holders of a shared GPU split it, so GPUs held never exceed the GPUs there are. Active is held weighted by
the unit's activity: SM active where the profiling counters exist, else graphics-engine active, else NVML
utilization (coarse: one busy SM reads as 100%). Power comes from the energy counter, once per GPU, each holder
its held share of it, so a year of kWh per team is a sum of 1 h rollups rather than a scan of raw samples. Every
rollup is a time-weighted mean over its whole period (``period_mean``): the 5 m rollups of the once-a-minute
per-holder records, the 1 h rollups of the 5 m ones, so the hour is the mean of its five-minute rollups however
holders came and went (docs/counting.md, "Over time"). Labels are bounded (no pod): the series count is clusters x
namespaces x teams x models, whichever attribution labels the exporters write. ``gpuscope report`` reads the
``*_rollup1h`` series for long ranges, and it and the Efficiency dashboard read every rollup through
``rollup_sum``, which counts each cluster once across its HA replicas.
"""

from __future__ import annotations

from gpuscope.durations import prometheus_seconds
from gpuscope.rules.accounting import TEAM_LABEL, unit_match, unit_share
from gpuscope.rules.promql import Promql, alternatives
from gpuscope.rules.recording import HELD, HELD_ACTIVE, HELD_POWER, UNIT_ACTIVE, UNIT_SHARE
from gpuscope.rules.records import MINUTE_INTERVAL, Group, Recording

HELD_5M = "chargeback:gpus_held:count_rollup5m"
ACTIVE_5M = "chargeback:gpus_active:sum_rollup5m"
POWER_5M = "chargeback:gpu_power_watts:sum_rollup5m"
GPUS_5M = "chargeback:gpus:count_rollup5m"
HELD_1H = "chargeback:gpus_held:avg_rollup1h"
ACTIVE_1H = "chargeback:gpus_active:avg_rollup1h"
POWER_1H = "chargeback:gpu_power_watts:avg_rollup1h"
GPUS_1H = "chargeback:gpus:avg_rollup1h"
GPU_ACTIVITY_1H = "chargeback:gpu_activity:avg_rollup1h"
# Over every unit, held or not, by cluster and model: share x activity, and the shares activity is measured on.
UNITS_ACTIVE_5M = "chargeback:gpu_units_active:sum_rollup5m"
UNITS_5M = "chargeback:gpu_units:sum_rollup5m"
UNITS_ACTIVE_1H = "chargeback:gpu_units_active:avg_rollup1h"
UNITS_1H = "chargeback:gpu_units:avg_rollup1h"


def activity_source(q: Promql, window: str) -> str:
    """Activity per GPU or MIG instance over ``window``, as a ratio, from the best source each GPU has."""
    by = f"max by ({unit_match(q)})"
    util = f"avg_over_time({q.dcgm('DCGM_FI_DEV_GPU_UTIL')}[{window}])"
    return alternatives(
        f"{by} (avg_over_time({q.dcgm('DCGM_FI_PROF_SM_ACTIVE')}[{window}]))",
        f"{by} (avg_over_time({q.dcgm('DCGM_FI_PROF_GR_ENGINE_ACTIVE')}[{window}]))",
        q.base("DCGM_FI_DEV_GPU_UTIL", f"{by} ({util})"),
    )


def held_active(q: Promql, held: str, activity: str) -> str:
    """Each holder's held share times its unit's activity (one series per unit: ``activity_source`` over the raw
    series, or the recorded unit activity): active GPU-equivalents."""
    return f"{held}\n* on ({unit_match(q)}) group_left ()\n({activity})"


def units_active(q: Promql, by: str, window: str) -> tuple[str, str]:
    """Over every unit, held or not, from the raw series: (sum of share x activity, sum of the shares with an
    activity) by ``by``; their ratio is the fleet's activity, each MIG instance weighed by its size."""
    m = unit_match(q)
    shares = f"({unit_share(q, f'{m}, GPU_I_PROFILE, modelName')})"
    act = f"({activity_source(q, window)})"
    return (
        f"sum by ({by}) (\n{shares}\n* on ({m}) group_left ()\n{act}\n)",
        f"sum by ({by}) (\n{shares}\nand on ({m})\n{act}\n)",
    )


def rollup_sum(q: Promql, selector: str, by: str, team_label: str = TEAM_LABEL) -> str:
    """A chargeback rollup summed ``by`` some of its labels, each cluster once: a federating global store keeps
    both replicas of an HA pair (their ``replica`` label tells them apart), so the copies are first reduced to one
    per rollup key, whichever the grouping, then summed. Thanos and Mimir deduplicate before this; it is then a
    no-op. ``selector`` may be a GPU-count rollup, whose key is the cluster and the model."""
    c = q.config
    keys = (
        f"{c.cluster_label}, modelName"
        if selector.startswith((GPUS_5M, GPUS_1H, UNITS_5M, UNITS_1H, UNITS_ACTIVE_5M, UNITS_ACTIVE_1H))
        else f"{c.cluster_label}, {c.namespace_label}, {team_label}, modelName"
    )
    return f"sum by ({by}) (max by ({keys}) ({selector}))"


def period_mean(record: str, period: str, every: str) -> str:
    """The time-weighted mean of ``record`` (recorded every ``every``) over the ``period`` just ended, with the
    intervals in which it has no sample counted as 0. A series exists only while its group holds something (a
    namespace with no pod on a GPU has no held series), so ``avg_over_time``, the mean of the samples there are,
    billed a namespace that held a GPU for ten minutes of the hour as holding it all hour.

    The period is cut into its intervals on the clock's grid (a subquery at ``every``), each interval takes the
    record's last sample in it if the record still exists at the interval's end, and the sum is divided by the
    number of intervals: each evaluation of the record counts for exactly one interval, whenever in the interval
    its group runs, and an interval in which nobody evaluated it (Prometheus down) counts as nothing held. Both
    windows stop a millisecond short, because Prometheus 2 range selectors and subqueries include both ends. So
    the sum of a period's means is the sum of what they average, at every grouping: the hour is exactly the mean
    of its twelve five-minute rollups."""
    period_ms, every_ms = round(prometheus_seconds(period) * 1000), round(prometheus_seconds(every) * 1000)
    # ``and`` the record itself: a series that ended at the interval's evaluation (its staleness marker) holds
    # nothing in that interval, though its last sample may still lie inside the window.
    last = f"(last_over_time({record}[{every_ms - 1}ms]) and {record})"
    return f"sum_over_time({last}[{period_ms - 1}ms:{every}]) / {period_ms // every_ms}"


def chargeback_groups(q: Promql) -> tuple[Group, Group]:
    """The 5 m rollups are time-weighted means of the once-a-minute per-holder records (each holder's share of a
    GPU, that share x its unit's activity, x its GPU's billed watts; ``recording.efficiency_group``), summed by
    cluster, namespace, team and model: a pod that held a GPU for two of the five minutes counts for two, and
    capacity is the mean of the minute's GPU counts. The 1 h rollups are time-weighted means of the 5 m ones, so
    an hour is exactly the mean of its twelve five-minute rollups, whatever held what when."""
    c = q.config
    keys = f"{c.cluster_label}, {c.namespace_label}, {TEAM_LABEL}, modelName"
    by_model = f"{c.cluster_label}, modelName"

    def minutes(record: str, by: str) -> str:
        return f"sum by ({by}) (\n{period_mean(record, '5m', MINUTE_INTERVAL)}\n)"

    five = (
        Recording(record=HELD_5M, expr=minutes(HELD, keys), cold=True),
        Recording(record=ACTIVE_5M, expr=minutes(HELD_ACTIVE, keys), cold=True),
        Recording(record=POWER_5M, expr=minutes(HELD_POWER, keys), cold=True),
        Recording(record=GPUS_5M, expr=minutes("cluster:gpus:count_by_model", by_model), cold=True),
        Recording(record=UNITS_ACTIVE_5M, expr=f"sum by ({by_model}) ({UNIT_ACTIVE})", cold=True),
        Recording(record=UNITS_5M, expr=f"sum by ({by_model}) ({UNIT_SHARE} and {UNIT_ACTIVE})", cold=True),
    )
    pairs = (
        (HELD_5M, HELD_1H),
        (ACTIVE_5M, ACTIVE_1H),
        (POWER_5M, POWER_1H),
        (GPUS_5M, GPUS_1H),
        (UNITS_ACTIVE_5M, UNITS_ACTIVE_1H),
        (UNITS_5M, UNITS_1H),
    )
    hour = (
        *(Recording(record=long, expr=period_mean(short, "1h", "5m"), cold=True) for short, long in pairs),
        Recording(
            record=GPU_ACTIVITY_1H,
            expr=f"max by ({q.unit_keys}) (avg_over_time(gpu:activity:avg_rollup5m[1h]))",
            cold=True,
        ),
    )
    return (
        Group(name="gpuscope-chargeback-5m.rules", rules=five, interval="5m"),
        Group(name="gpuscope-chargeback-1h.rules", rules=hour, interval="1h"),
    )
