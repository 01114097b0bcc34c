"""The PromQL behind every number of the report, per tier (pure).

Every range query is evaluated at ``from + k * step`` for ``k = 1..n``; the value at ``t`` stands for the
interval ``(t - step, t]``. The raw tier reads the exporter's series; the rollup tier reads the 1 h chargeback
rollups (``rules/efficiency_chargeback.py``), which carry cluster, namespace, team and model only.

The raw tier's bill (GPUs held, active, power, capacity) counts the time actually seen: each sample stands for one
scrape interval. Inside each step a subquery evaluates the per-instant expression at every scrape-interval
sub-step, and there every raw selector reads one scrape interval back (``last_over_time(x[<scrape - 1 ms>])``)
instead of Prometheus' 5 m lookback, so a sample makes its series present at exactly one sub-step: a 2-minute pod
bills 2 minutes whatever ``--step``, a hole in the store bills nothing, a pod that moves or hands a GPU over is
counted where it was at each sub-step. The sub-steps are aligned to the epoch, not to the step, so every ``--step``
sees the same sub-steps and only changes the resolution. Windows are written one millisecond short of their length:
Prometheus 2.x range selectors include both ends (3.x leaves the start out, and then the millisecond changes
nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from gpuscope.escaping import promql_string
from gpuscope.fields.labels import JOB_LABEL
from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.rules.accounting import PRESENCE, held, holders, unit_match, unit_share
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
    rollup_sum,
    units_active,
)
from gpuscope.rules.promql import Promql, alternatives

Tier = Literal["raw", "rollup"]
GROUP_BYS = ("namespace", "team", "job", "cluster")
# What each --group-by reads: the label on the workload info series (and, for the rollup tier, on the rollups).
ROLLUP_GROUP_BYS = ("namespace", "team", "cluster")
SCRAPE_SECONDS = 15  # the scrape interval assumed when the store does not tell (dcgm-exporter's usual interval)
# an instant query at the range's end reads what reported this long before it (Prometheus' default lookback)
LOOKBACK = "5m"
ENERGY = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"
POWER = "DCGM_FI_DEV_POWER_USAGE"


def window(seconds: float) -> str:
    """A range of ``seconds`` that holds the samples of one interval, not the one at its start (1 ms short)."""
    return f"{round(seconds * 1000) - 1}ms"


@dataclass(frozen=True, slots=True)
class Sampled(Promql):
    """Selectors that read a window back instead of the lookback (``last_over_time(selector[span])``, an instant
    vector as well), passed to the shared builders (``held``, ``unit_share``, ``holders``), which take their
    selectors from ``Promql``. With ``span`` one scrape interval (1 ms short) a sample at ``s`` makes its series
    present at the one sub-step in ``[s, s + scrape)``; with ``LOOKBACK`` a series is there at the range's end
    if it reported in the 5 minutes before it, on any store (``Queries.capacity_now``)."""

    span: str = LOOKBACK

    def dcgm(self, classic: str, extra: str = "") -> str:
        # Promql.dcgm by name: zero-argument super() does not work in a slotted dataclass
        return f"last_over_time({Promql.dcgm(self, classic, extra)}[{self.span}])"

    def exporter(self, metric: str, extra: str = "") -> str:
        return f"last_over_time({Promql.exporter(self, metric, extra)}[{self.span}])"


@dataclass(frozen=True, slots=True)
class Rolled(Promql):
    """The rollup tier's stand-in for the raw presence gauge: the 1 h per-unit activity rollup, which carries the
    same unit labels (GPU-instance profile and model included), its last record within ``span``. Lets
    ``unit_share`` weigh the units of a range the raw series no longer cover; it stands for the presence gauge only."""

    span: str = window(3600)

    def dcgm(self, classic: str, extra: str = "") -> str:
        if classic != PRESENCE:
            raise ValueError(f"the 1 h activity rollup stands for {PRESENCE} only, not {classic}")
        return f"last_over_time({GPU_ACTIVITY_1H}{{{extra}}}[{self.span}])"


@dataclass(frozen=True, slots=True)
class Queries:
    """PromQL for one tier, one grouping label and one rules config."""

    config: RulesConfig
    tier: Tier
    group_label: str
    step: int
    team_label: str = "team"
    scrape: int = SCRAPE_SECONDS

    @property
    def q(self) -> Promql:
        return Promql(self.config)

    @property
    def sampled(self) -> Sampled:
        return Sampled(self.config, span=window(self.scrape))

    def _held(self, by: str) -> str:
        """Each holder's share at one sub-step (per instant, every selector reading one scrape interval)."""
        return held(self.sampled, by)

    def _seen(self, per_instant: str) -> str:
        """The mean over each step of a per-instant expression evaluated at every scrape interval: each sub-step
        stands for one scrape interval, so the value times the step is GPU-seconds (or joules) actually seen."""
        s = self.scrape
        return f"sum_over_time((\n{per_instant}\n)[{window(self.step)}:{s}s]) * {s} / {self.step}"

    def _rollup(self, record: str, by: str) -> str:
        """A 1 h rollup summed ``by``: the 1 h group records at the hour plus an offset of its own (a hash of the
        group), so each step reads the one record of the hour before it (``last_over_time``) rather than an
        instant selector at the hour, which would see a record only within 5 m after it was written."""
        plain = rollup_sum(self.q, record, by, team_label=self.team_label)
        return plain.replace(f"({record})", f"(last_over_time({record}[{window(self.step)}]))")

    def watts(self) -> str:
        """Each GPU's power at one sub-step, once per physical GPU however many exporter pods or HA replicas scraped
        it: from the energy counter over its last two samples (``irate``, resets handled; summed over sub-steps
        it telescopes to the counter's increase, and a gap contributes nothing), else from the power gauge (a
        GPU without the counter, or the first sample after a gap, which has no sample before it to rate)."""
        q, keys = self.q, self.q.device_keys
        energy = q.base(ENERGY, f"max by ({keys}) (irate({q.dcgm(ENERGY)}[{window(2 * self.scrape)}]))")
        gauge = q.base(POWER, f"max by ({keys}) (max_over_time({q.dcgm(POWER)}[{window(self.scrape)}]))")
        return alternatives(energy, gauge)

    def held(self) -> str:
        """GPUs held, in the accounting unit (a MIG instance its share, holders of a shared GPU split it), by
        group and model, and on the raw tier by pod (the per-group top jobs)."""
        g = self.group_label
        if self.tier == "rollup":
            return self._rollup(HELD_1H, f"{g}, modelName")
        # per pod and per Slurm job as well: the top jobs come from the same answer (one evaluation of the holders'
        # shares fewer). A job has no pod label: summed by pod alone, every job of a group was one nameless "job".
        pod = self.config.pod_label
        by = f"{g}, {JOB_LABEL}, modelName" if g == pod else f"{g}, {pod}, {JOB_LABEL}, modelName"
        return self._seen(f"sum by ({by}) (\n{self._held(g)}\n)")

    def active(self) -> str:
        """Held GPUs weighted by their activity (SM active, else GR engine active, else NVML utilization)."""
        g = self.group_label
        if self.tier == "rollup":
            return self._rollup(ACTIVE_1H, f"{g}, modelName")
        act = activity_source(self.q, window(self.scrape))
        return self._seen(f"sum by ({g}, modelName) (\n{held_active(self.q, self._held(g), act)}\n)")

    def power(self) -> str:
        """Watts drawn by held GPUs, from the energy counter (else the power gauge); times the step, the energy of each
        interval."""
        g = self.group_label
        if self.tier == "rollup":
            return self._rollup(POWER_1H, f"{g}, modelName")
        # held_power reads the 5 m energy rate; the same join over the per-sub-step watts
        m = f"{self.q.cluster}, {self.config.uuid_label}"
        per_holder = f"{self._held(g)}\n* on ({m}) group_left ()\n({self.watts()})"
        return self._seen(f"sum by ({g}, modelName) (\n{per_holder}\n)")

    def capacity(self) -> str:
        """GPUs reporting (the fleet's capacity), by model."""
        if self.tier == "rollup":
            return self._rollup(GPUS_1H, "modelName")
        c = self.config
        presence = self.sampled.dcgm(PRESENCE)
        return self._seen(f"count by (modelName) (group by ({c.uuid_label}, modelName) ({presence}))")

    def capacity_now(self) -> str:
        """GPUs reporting at the range's end, by model (an instant query): on the raw tier those with a sample in the
        5 minutes before it, so a scrape missed in the last step is not a GPU gone. The window is written out: an
        instant selector looks back 5 minutes on Prometheus but only a few scrape intervals on VictoriaMetrics,
        which returned no GPU at all while remote write ran late on a loaded host (held hours over no capacity)."""
        if self.tier == "rollup":
            return self.capacity()
        c = self.config
        presence = f"last_over_time({self.q.dcgm(PRESENCE)}[{LOOKBACK}])"
        return f"count by (modelName) (group by ({c.uuid_label}, modelName) ({presence}))"

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

    def unit_shares(self) -> str:
        """Each GPU's and MIG instance's share of a physical GPU (``unit_share``) at the range's end, read back as
        ``capacity_now`` reads (the raw tier 5 minutes, the rollup tier the last step's records): the weights of
        the activity distribution, so that it counts what capacity counts."""
        q = Sampled(self.config) if self.tier == "raw" else Rolled(self.config, span=window(self.step))
        return unit_share(q, f"{unit_match(self.q)}, GPU_I_PROFILE, modelName")

    def prof_coverage(self) -> str:
        """GPUs whose activity comes from the profiling counters (the rest use NVML utilization)."""
        c = self.config
        prof = f"last_over_time({self.q.dcgm('DCGM_FI_PROF_SM_ACTIVE')}[{LOOKBACK}])"  # as ``capacity_now``
        return f"count(group by ({c.uuid_label}, GPU_I_ID) ({prof}))"

    def zombies(self) -> str:
        """GPUs and MIG instances nobody holds whose memory is in use (a leaked process): MiB used.

        Per unit, as framebuffer memory is reported (one series per MIG instance, docs/counting.md): keyed by GPU
        alone, one held instance hid a leak on its neighbour, and any holder anywhere on a GPU cleared all of it."""
        c = self.config
        # held by a pod or a Slurm job (gpuscope_gpu_job_info, or hpc_job on the series), in whichever form the
        # store has
        held = holders(self.q, "")
        unit = f"{c.uuid_label}, GPU_I_ID"
        used = f"max by ({unit}, GPU_I_PROFILE, {c.host_label}) ({self.q.dcgm('DCGM_FI_DEV_FB_USED')})"
        return f"({used} > 1024)\nunless on ({unit}) group by ({unit}) {held}"

    def idle_allocations(self, ratio: float) -> str:
        """Held GPUs below the idle activity ratio, per pod (the allocated-but-idle incidents)."""
        c = self.config
        by = f"{c.uuid_label}, GPU_I_ID, {c.namespace_label}, {c.pod_label}"
        act = activity_source(self.q, self._window(1))
        held = holders(self.q, "")
        return f"group by ({by}) {held}\n* on ({c.uuid_label}, GPU_I_ID) group_left ()\n(({act}) < {ratio:g})"

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


# Detecting the scrape interval: the GPU presence series with the most samples in a 10-minute window (a window with
# a hole, a pod's first or last minutes have fewer; another series has the full one), then the spacing of its own
# samples. Window / count alone is wrong for a store younger than the window: 2 minutes of 1 s samples read as 5 s.
PROBE_SECONDS = 600


def scrape_probe(config: RulesConfig) -> str:
    """The GPU series with the most samples in ``PROBE_SECONDS`` (its labels and its count)."""
    return f"topk(1, count_over_time({Promql(config).dcgm(PRESENCE)}[{window(PROBE_SECONDS)}]))"


def sample_times(config: RulesConfig, labels: Mapping[str, str]) -> str:
    """The timestamp of the newest sample of exactly the presence series ``labels`` (as ``scrape_probe`` answers,
    without the name), at each step: over 1 s steps its distinct values are the series' sample times."""
    matchers = ",".join(f"{k}={promql_string(v)}" for k, v in sorted(labels.items()) if k != "__name__")
    return f"timestamp({Promql(config).name(PRESENCE)}{{{matchers}}})"
