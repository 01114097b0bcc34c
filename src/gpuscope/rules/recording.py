"""Recording rules, named ``level:metric:operations``: per GPU, per node, per cluster, allocation efficiency,
the coarse cold-tier rollups, and the fleet level evaluated in the global store.

Everything recorded is in base units (ratios, watts, bytes). Per-GPU 1m/5m averages keep the exporter's labels
for drill-down; aggregates and rollups keep a bounded label set (no pod, no driver version) so that what goes to
the long-term store has a predictable number of series.
"""

from __future__ import annotations

from gpuscope.rules.accounting import MIG, TEAM_LABEL, WHOLE, holders, share_per_holder, unit_match, unit_share
from gpuscope.rules.promql import Promql, alternatives
from gpuscope.rules.records import MINUTE_INTERVAL, Group, Recording

# (recorded metric name, classic field) for per-GPU activity signals.
_PROF_SIGNALS = (
    ("sm_active", "DCGM_FI_PROF_SM_ACTIVE"),
    ("tensor_active", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"),
    ("dram_active", "DCGM_FI_PROF_DRAM_ACTIVE"),
    ("gr_engine_active", "DCGM_FI_PROF_GR_ENGINE_ACTIVE"),
)
# The profiling means recorded per cluster: what the fleet dashboard plots beside the activity (graphics-engine
# active is one of the activity's sources, in ``cluster:gpu_activity:avg5m``, and has no cluster mean of its own).
_CLUSTER_SIGNALS = ("sm_active", "tensor_active", "dram_active")
# The 1 m averages something reads: the workload views' SM and tensor active across many GPUs.
_MINUTE_SIGNALS = ("sm_active", "tensor_active")
COLD_TIER_REGEX = ".+:.+_rollup(5m|1h)"
# Interval of the groups of 5 m averages and what is aggregated from them (see ``gpu_5m_group``).
AGGREGATE_INTERVAL = MINUTE_INTERVAL
# Per-GPU "seen within the hour" markers the lost-GPU and stale-profiling alerts read.
PRESENT_1H = "gpu:present:max1h"
# The PCI bus id label dcgm-exporter writes on every GPU series since 3.3.7 (``""`` where DCGM has none): with the
# host and the GPU index, the slot a GPU sits in (``presence_group``).
PCI_BUS_ID = "pci_bus_id"
# GPUs (by UUID) seen in more than one slot within the hour: moved or re-indexed, not a new GPU in a slot.
MOVED_1H = "gpu:slots:count1h"
PROF_PRESENT_1H = "gpu:prof_present:max1h"
# Per accounting unit (whole GPU or MIG instance, by UUID and GPU instance): share of its GPU, activity, both.
UNIT_SHARE = "gpu:unit_share:ratio"
UNIT_ACTIVITY = "gpu:unit_activity:avg5m"
UNIT_ACTIVE = "gpu:unit_active:avg5m"
# Per physical GPU (by UUID): power; per unit: framebuffer bytes used and free.
POWER_5M = "gpu:power_watts:avg5m"
FB_USED_5M = "gpu:fb_used_bytes:avg5m"
FB_FREE_5M = "gpu:fb_free_bytes:avg5m"
# Per physical GPU, once a minute: the energy counter's latest reading (joules), and the watts billed for the minute
# just ended (the counter's increase over it, or the power gauge where the GPU has no counter).
ENERGY_LAST = "gpu:energy_joules:last1m"
BILLED_WATTS = "gpu:power_watts:billed1m"
# Per (unit, holder): the holder's share of a GPU, that share times the unit's activity, and times its GPU's watts.
HELD = "workload:gpu_held:ratio"
HELD_ACTIVE = "workload:gpu_active:ratio"
HELD_POWER = "workload:gpu_power_watts:held1m"
FELL_OFF_BUS = "GPUFellOffBus"


def used_share(used: str, free: str) -> str:
    """used / (used + free), written as 1 / (1 + free / used): the same value (to the last bit or two of a
    float), but each side read once and one vector match instead of two. At fleet scale the reads and the matches
    are the cost, not the arithmetic. As before, no memory used gives 0 (free / 0 is +Inf) and both 0 give NaN."""
    return f"1 / (1 + {free} / {used})"


def gpu_group(q: Promql) -> Group:
    """Per-GPU 1 m averages and the memory ratio, recorded once a minute: each sample is the average of the minute
    just ended. No alert reads them (the allocation fallback of ``workload:gpu_activity:avg5m``, itself recorded
    once a minute, reads the memory ratio); the workload views read SM and tensor active across many GPUs, and the
    node view, where freshness matters, averages its own few GPUs' raw samples at query time
    (``dashboards/queries/node.py``). Recorded every 15 s they were seven reads of every GPU per evaluation, the
    largest recording cost left; the 1 m DRAM, graphics-engine, utilization and power averages, which nothing read,
    are no longer recorded (their reads paid for the accounting unit's joins)."""
    rules: list[Recording] = [
        Recording(record=f"gpu:{name}:avg1m", expr=f"avg_over_time({q.dcgm(field)}[1m])")
        for name, field in _PROF_SIGNALS
        if name in _MINUTE_SIGNALS
    ]
    used, free = q.dcgm("DCGM_FI_DEV_FB_USED"), q.dcgm("DCGM_FI_DEV_FB_FREE")
    rules.append(Recording(record="gpu:fb_used:ratio", expr=used_share(used, free)))
    return Group(name="gpuscope-gpu.rules", rules=tuple(rules), interval=AGGREGATE_INTERVAL)


def gpu_5m_group(q: Promql) -> Group:
    """Per-GPU 5 m averages, recorded every minute.

    A 5 m average moves little in a minute, so recording it every 15 s wrote four near-identical samples a minute
    and re-read 20 raw samples per GPU and signal each time: at fleet scale this group was the largest part of
    the rule cost. Every reader of these series (node, cluster and allocation aggregates, the cold tier,
    dashboards of 5 m averages) tolerates a minute; no page reads them (GPUAllocatedButIdle, with its 50 m
    ``for``, is the only alert downstream). Activity reads the averages recorded above it in this group (rules
    of a group run in order, so it sees this evaluation's values) instead of reading the raw samples again.
    """
    rules: list[Recording] = [
        Recording(record=f"gpu:{name}:avg5m", expr=f"avg_over_time({q.dcgm(field)}[5m])")
        for name, field in _PROF_SIGNALS
    ]
    util = q.base("DCGM_FI_DEV_GPU_UTIL", f"avg_over_time({q.dcgm('DCGM_FI_DEV_GPU_UTIL')}[5m])")
    rules.append(Recording(record="gpu:utilization:ratio_avg5m", expr=util))
    # Activity with a fallback: SM active where profiling metrics exist, else graphics-engine active (the
    # default CSV's PROF field), else NVML's coarse utilization. The three recorded averages keep the exporter's
    # labels, and "or" matches without the metric name, so it picks one per GPU.
    rules.append(
        Recording(
            record="gpu:activity:avg5m",
            expr=alternatives("gpu:sm_active:avg5m", "gpu:gr_engine_active:avg5m", "gpu:utilization:ratio_avg5m"),
        )
    )
    rules += unit_records(q)
    # The cluster means' signals per unit, each unit's copies one value: the cluster group sums these instead of
    # reducing every GPU's copies twice per signal (numerator and weights) itself.
    rules += [
        Recording(record=unit_signal(name), expr=f"max by ({q.unit_keys}) (gpu:{name}:avg5m)")
        for name in _CLUSTER_SIGNALS
    ]
    power = f"avg_over_time({q.dcgm('DCGM_FI_DEV_POWER_USAGE')}[5m])"
    rules.append(Recording(record=POWER_5M, expr=q.per_entity("DCGM_FI_DEV_POWER_USAGE", power)))
    for record, field in ((FB_USED_5M, "DCGM_FI_DEV_FB_USED"), (FB_FREE_5M, "DCGM_FI_DEV_FB_FREE")):
        rules.append(
            Recording(record=record, expr=q.per_entity(field, q.base(field, f"avg_over_time({q.dcgm(field)}[5m])")))
        )
    rules.append(Recording(record="gpu:fb_used:ratio_avg5m", expr=used_share(FB_USED_5M, FB_FREE_5M)))
    rules += energy_records(q)
    # No per-GPU 5 m temperature maximum: nothing read it (the cold tier's gpu:temperature_celsius:max_rollup5m
    # reads the raw samples of its own five minutes).
    return Group(name="gpuscope-gpu-5m.rules", rules=tuple(rules), interval=AGGREGATE_INTERVAL)


def presence_group(q: Promql) -> Group:
    """Cheap per-GPU presence markers at 1m, so alerts can ask "seen in the last hour?" without scanning raw data.

    The hour's answer is recorded here too, once a minute, after the minute's marker (so it includes it): an
    alert evaluated every 15 s reads one sample per GPU instead of the hour's 60, and the hour moves on by a
    minute at a time, which is the resolution of the markers it is the maximum of.
    """
    c = q.config
    # The slot (``pci_bus_id``) rides along: GPUFellOffBus tells a GPU swapped for a new one in the same slot from
    # one lost. An exporter without the label (dcgm-exporter before 3.3.7) leaves it out, and the slot is the index.
    keys = f"instance, {c.uuid_label}, gpu, {c.host_label}, {PCI_BUS_ID}"
    temp = q.dcgm("DCGM_FI_DEV_GPU_TEMP")
    prof = q.dcgm("DCGM_FI_PROF_GR_ENGINE_ACTIVE")
    slot = f"{c.uuid_label}, {c.host_label}, gpu, {PCI_BUS_ID}"
    return Group(
        name="gpuscope-presence.rules",
        rules=(
            Recording(record="gpu:present:max1m", expr=f"max by ({keys}) (present_over_time({temp}[1m]))"),
            Recording(record="gpu:prof_present:max1m", expr=f"max by ({keys}) (present_over_time({prof}[1m]))"),
            Recording(record=PRESENT_1H, expr="max_over_time(gpu:present:max1m[1h])"),
            Recording(record=PROF_PRESENT_1H, expr="max_over_time(gpu:prof_present:max1m[1h])"),
            # A series only for a GPU seen in two slots within the hour (re-indexed after another GPU of its node
            # vanished, or moved): GPUFellOffBus does not take it for a new GPU in the slot it now sits in. Recorded
            # here once a minute, the page reads next to nothing every 15 s.
            Recording(record=MOVED_1H, expr=f"count by ({c.uuid_label}) (group by ({slot}) ({PRESENT_1H})) > 1"),
        ),
        interval="1m",
    )


def energy_records(q: Promql) -> list[Recording]:
    """The watts each physical GPU is billed for, minute by minute, from its energy counter: the counter's latest
    reading once a minute, one per GPU however many copies Prometheus holds of it (MIG instances repeat it, an old
    and a new exporter pod read the same GPU's counter: their maximum is the latest reading, never a sum), and the
    minute's watts as the increase since the previous minute's reading.

    The increases telescope, so summed over any run of minutes they are the counter's increase over it: energy is
    exact over time, with no extrapolation of ``rate`` over a window a gap or a rollout only partly covers. A
    minute with no increase to read (a GPU whose exporter serves no energy counter, the GPU's first minute or the
    first after a gap, a reading below the previous one: the driver reloaded) is billed from the power gauge's
    5 m mean, which the GPU reported; a minute in which nobody saw the GPU has no record and bills nothing."""
    field = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION"
    # An instant read: a copy that ended (an old exporter pod, a pod's series where the pod labels are on the device
    # series) is stale and not read, so after a reset the largest reading is the live one.
    latest = q.base(field, f"max by ({q.device_keys}) ({q.dcgm(field)})")
    # ``or``: a GPU with no increase this minute (no energy counter, the minute after a gap, a driver reload) is
    # billed its power gauge's 5 m mean (the GPU reported in the minute; only the unseen minutes bill nothing).
    watts = f"({ENERGY_LAST} - {ENERGY_LAST} offset 1m >= 0) / {q.secs(60)}\nor\n{POWER_5M}"
    return [Recording(record=ENERGY_LAST, expr=latest), Recording(record=BILLED_WATTS, expr=watts)]


def unit_records(q: Promql) -> list[Recording]:
    """Per accounting unit (a whole GPU or a MIG instance; ``rules/accounting.py``), keyed by UUID and GPU
    instance, never by scrape instance: its share of the physical GPU, its activity, and the two multiplied
    (active GPU-equivalents). Node, cluster and workload aggregates are sums of these, so a 7-instance GPU counts
    as one GPU, an old and a new exporter pod as one, and every instance weighs by its size."""
    u = q.unit_keys
    return [
        Recording(record=UNIT_SHARE, expr=unit_share(q, u)),
        Recording(record=UNIT_ACTIVITY, expr=f"max by ({u}) (gpu:activity:avg5m)"),
        Recording(record=UNIT_ACTIVE, expr=f"{UNIT_ACTIVITY} * {UNIT_SHARE}"),
    ]


def unit_signal(name: str) -> str:
    """The recorded per-unit 5 m mean of a profiling signal (``sm_active``, ...): one series per unit."""
    return f"gpu:unit_{name}:avg5m"


def weighted_mean(per_unit: str, by: str) -> str:
    """The mean of a per-unit ratio (a recorded series' name, one series per unit: ``unit_signal``) over ``by``,
    each unit weighted by its share of a GPU: a 1g MIG instance weighs a seventh of a whole GPU. Units without the
    signal are left out of both sides.

    A whole GPU weighs 1, so only MIG instances are joined to their share: on a fleet of whole GPUs the join
    (a hash of every unit on both sides, the cost of this rule) is over nothing. A whole GPU's weight is its value
    times 0 plus 1, arithmetic on each sample, where a ``group by`` would hash every unit once more. The shares
    are read for MIG instances only, the only ones a MIG instance's labels can match (both sides are matched on
    every label, the profile included): on a fleet of whole GPUs the two reads of every unit's share were the
    larger part of the rule, and read nothing now."""
    whole, mig, shares = f"{per_unit}{{{WHOLE}}}", f"{per_unit}{{{MIG}}}", f"{UNIT_SHARE}{{{MIG}}}"
    return (
        f"sum by ({by}) (\n{whole}\nor\n({mig} * {shares})\n)\n/\n"
        f"sum by ({by}) (\n({whole} * 0 + 1)\nor\n({shares} and {mig})\n)"
    )


def physical_gpus(q: Promql, by: str) -> str:
    """One series per physical GPU (its UUID) with the labels ``by``, from the per-unit shares recorded once a
    minute (``unit_records``): a unit share is there for every presence-gauge series there is (a MIG GPU's
    instances one each, hence one per UUID), so these are the GPUs reporting. A recorded series of one sample a
    minute per unit costs under half a read of the presence gauge's raw samples, and the GPUs counted are the
    units the holders' shares come from (``workload:gpu_held:ratio`` joins the same record)."""
    return f"max by ({by}, {q.config.uuid_label}) ({UNIT_SHARE})"


def node_group(q: Promql) -> Group:
    """Per node (cluster and host name: a replaced exporter pod is the same node), from the per-unit and
    per-device records: power is a sum over distinct GPUs, activity a mean weighted by unit size, and the GPUs
    reporting are the distinct UUIDs of the per-unit shares (``physical_gpus``)."""
    n = q.node_keys
    physical = physical_gpus(q, n)
    return Group(
        name="gpuscope-node.rules",
        rules=(
            Recording(
                record="node:gpu_activity:avg5m",
                expr=f"sum by ({n}) ({UNIT_ACTIVE})\n/\nsum by ({n}) ({UNIT_SHARE} and {UNIT_ACTIVE})",
            ),
            Recording(record="node:gpu_power_watts:sum5m", expr=f"sum by ({n}) ({POWER_5M})"),
            Recording(record="node:gpus_reporting:count", expr=f"count by ({n}) ({physical})"),
        ),
        interval=AGGREGATE_INTERVAL,
    )


def lost_gpus(q: Promql) -> str:
    """GPUs lost, from GPUFellOffBus itself (its ``ALERTS`` series, one per GPU while it fires): the same
    condition on every exporter, gpuscope's or dcgm-exporter's of any version, counted once per UUID."""
    c, uuid = q.cluster, q.config.uuid_label
    firing = f'ALERTS{{alertname="{FELL_OFF_BUS}",alertstate="firing"}}'
    return f"count by ({c}) (max by ({c}, {uuid}) ({firing}))\nor on ({c})\n(cluster:gpus_reporting:count * 0)"


def cluster_group(q: Promql) -> Group:
    """Cluster aggregates, at the interval of the per-GPU averages they aggregate.

    GPUs are counted once, by model (one per physical GPU: a MIG GPU has a unit share per instance);
    the total and the zero of the lost count are sums of that count, not two more passes over every GPU. Power
    sums distinct GPUs; activity and the profiling signals are means weighted by unit size; the memory ratio is
    the bytes used over the bytes there are.
    """
    c = q.cluster
    physical = physical_gpus(q, f"{c}, modelName")
    rules = [
        Recording(record=f"cluster:gpu_{name}:avg5m", expr=weighted_mean(unit_signal(name), c))
        for name in _CLUSTER_SIGNALS
    ]
    rules += [
        # Active GPU-equivalents, and the GPU-equivalents activity is measured on: their ratio is the activity.
        Recording(record="cluster:gpu_activity:sum5m", expr=f"sum by ({c}) ({UNIT_ACTIVE})"),
        Recording(record="cluster:gpu_activity_units:count", expr=f"sum by ({c}) ({UNIT_SHARE} and {UNIT_ACTIVE})"),
        Recording(
            record="cluster:gpu_activity:avg5m", expr="cluster:gpu_activity:sum5m / cluster:gpu_activity_units:count"
        ),
        Recording(record="cluster:gpu_power_watts:sum5m", expr=f"sum by ({c}) ({POWER_5M})"),
        Recording(
            record="cluster:gpu_fb_used:ratio_avg5m",
            expr=used_share(f"sum by ({c}) ({FB_USED_5M})", f"sum by ({c}) ({FB_FREE_5M})"),
        ),
        Recording(record="cluster:gpus:count_by_model", expr=f"count by ({c}, modelName) ({physical})"),
        Recording(record="cluster:gpus_reporting:count", expr=f"sum by ({c}) (cluster:gpus:count_by_model)"),
        Recording(record="cluster:gpus_lost:count", expr=lost_gpus(q)),
    ]
    return Group(name="gpuscope-cluster.rules", rules=tuple(rules), interval=AGGREGATE_INTERVAL)


def allocation_holders(q: Promql) -> str:
    """One series per (unit, holder) for the configured attribution mode, valued 1: pods, and Slurm jobs (the
    job-mapping directory, ``hpc_job``), wherever the exporter puts them (``accounting.holders``), labelled with
    the team too, so the chargeback rollups sum these records by team without joining the info series again;
    without attribution, a unit whose memory is held (a process owns it). Scrape instances are dropped, so an old
    and a new exporter pod name one holder."""
    c = q.config
    if c.workload_labels != "off":
        return holders(q, f"{c.cluster_label}, {c.namespace_label}, {TEAM_LABEL}")
    return f"group by ({unit_match(q)}) (gpu:fb_used:ratio > 0.05)"


def allocation_source(q: Promql) -> str:
    """One series per (unit, holder), carrying the holder's and the unit's labels, valued with the unit's
    activity. Pods are the "many" side: with time-slicing several pods share one GPU (or MIG instance)."""
    m, gpu = unit_match(q), f"{q.config.host_label}, gpu, modelName, GPU_I_PROFILE"
    return f"(\n{allocation_holders(q)}\n)\n* on ({m}) group_left ({gpu})\n{UNIT_ACTIVITY}"


def efficiency_group(q: Promql) -> Group:
    """Allocation in the accounting unit: each holder holds its share of a GPU (``workload:gpu_held:ratio``),
    and the counts are sums of it, so the GPUs allocated never exceed the GPUs there are."""
    c = q.config
    t = c.thresholds.idle_activity_ratio
    cl, ns, m = c.cluster_label, c.namespace_label, unit_match(q)
    alloc = "workload:gpu_activity:avg5m"
    # Each holder once, valued 1: x ^ 0 is 1 for every sample (NaN and Inf included), arithmetic on each sample,
    # where ``group without ()`` hashed every holder's labels, twice per evaluation.
    held = share_per_holder(q, f"{alloc} ^ 0", f"max by ({m}, modelName) ({UNIT_SHARE})")
    rules = [
        Recording(record=alloc, expr=allocation_source(q)),
        Recording(record=HELD, expr=held),
        Recording(record=HELD_ACTIVE, expr=f"{HELD} * {alloc}"),
        # A holder's held share of its GPU's billed watts: a GPU's power split by the shares held on it, never
        # counted once per holder; what nobody holds is the fleet's idle power, billed to no one.
        Recording(
            record=HELD_POWER,
            expr=f"{HELD}\n* on ({cl}, {c.uuid_label}) group_left ()\nmax by ({cl}, {c.uuid_label}) ({BILLED_WATTS})",
        ),
        Recording(record="cluster:gpus_allocated:count", expr=f"sum by ({cl}) ({HELD})"),
        # 0, not nothing, when no allocated GPU is active: the efficiency is then 0.
        Recording(
            record="cluster:gpus_allocated_active:count",
            expr=f"sum by ({cl}) ({HELD} and {alloc} >= {t:g})\nor on ({cl})\n(cluster:gpus_allocated:count * 0)",
        ),
        Recording(
            record="cluster:gpu_allocation_efficiency:ratio",
            expr="cluster:gpus_allocated_active:count / cluster:gpus_allocated:count",
        ),
    ]
    if c.workload_labels != "off":
        # Pods only: a Slurm job holds GPUs (the cluster counts above) but is in no namespace.
        in_ns = f'{{{ns}!=""}}'
        rules.append(
            Recording(
                record="namespace:gpu_activity:avg5m",
                expr=f"sum by ({cl}, {ns}) ({HELD_ACTIVE}{in_ns})\n/\nsum by ({cl}, {ns}) ({HELD}{in_ns})",
            )
        )
    else:
        # The same sum as cluster:gpus_allocated:count (without attribution, the holders are the units whose
        # memory is held), read from that record, evaluated above in this group at this same instant.
        rules.append(Recording(record="cluster:gpus_memory_held:count", expr="cluster:gpus_allocated:count"))
    # It joins the per-GPU 5 m activity, recorded once a minute; its one alert (GPUAllocatedButIdle) waits
    # for 50 minutes.
    return Group(name="gpuscope-efficiency.rules", rules=tuple(rules), interval=AGGREGATE_INTERVAL)


def job_group(q: Promql) -> Group:
    """Pushed job metrics (``gpuscope.jobs``) joined to GPU telemetry by UUID, for the per-job (L5) panels, once a
    minute, the interval of the per-GPU activity it joins.

    The job side is the "many" side: two jobs whose info series both name one GPU (a shared GPU, or a finished
    job's group not yet expired) each get that GPU's activity instead of a many-to-many error. Finished jobs (an
    end time in their group) no longer claim their GPUs. ``GPU_I_ID`` is on both sides only for MIG instances,
    and an absent label matches an absent one, so whole GPUs and MIG instances join alike.
    """
    c = q.config
    sel, uuid = c.job_metrics_selector, c.uuid_label
    info = f"gpuscope_job_info{{{sel}}}"
    running = f"{info} unless on (job, job_id, instance) gpuscope_job_end_time_seconds{{{sel}}}"
    if uuid != "UUID":  # pushed info series always say UUID; dcgm-exporter -o says uuid
        running = f'label_replace({running}, "{uuid}", "$1", "UUID", "(.+)")'
    gpu = f"{c.cluster_label}, {c.host_label}, gpu, modelName"
    return Group(
        name="gpuscope-job.rules",
        rules=(
            Recording(
                record="job:gpu_activity:avg5m",
                expr=f"max by (job_id, user, {uuid}, GPU_I_ID) ({running})\n"
                f"* on ({uuid}, GPU_I_ID) group_left ({gpu})\n"
                f"max by ({uuid}, GPU_I_ID, {gpu}) ({UNIT_ACTIVITY})",
            ),
            # GPUs a job reported with a UUID (the ones its metrics can join); unresolved ones carry no UUID.
            Recording(
                record="job:gpus:count",
                expr=f'count by (job_id) (max by (job_id, UUID, GPU_I_ID) (gpuscope_job_info{{{sel},UUID!=""}}))',
            ),
        ),
        interval=AGGREGATE_INTERVAL,
    )


def rollup_groups(q: Promql) -> tuple[Group, Group]:
    """The cold tier: a few signals at 5 m and 1 h resolution, with bounded labels, one series per GPU (device
    fields) or per unit (instance fields), never per scrape instance."""
    c = q.cluster
    # The raw signals' rollups average the raw samples of the 5 minutes up to the rollup's own evaluation, not the
    # recorded per-GPU averages: those come from another group, up to a minute earlier (and, in promtool, from
    # this step or the previous one, as the groups happen to be ordered).
    five = [
        Recording(
            record=f"gpu:{name}:avg_rollup5m",
            expr=q.per_entity(field, f"avg_over_time({q.dcgm(field)}[5m])"),
            cold=True,
        )
        for name, field in _PROF_SIGNALS
    ]
    power = f"avg_over_time({q.dcgm('DCGM_FI_DEV_POWER_USAGE')}[5m])"
    temp = f"max_over_time({q.dcgm('DCGM_FI_DEV_GPU_TEMP')}[5m])"
    five += [
        Recording(record="gpu:activity:avg_rollup5m", expr=UNIT_ACTIVITY, cold=True),
        Recording(
            record="gpu:power_watts:avg_rollup5m", expr=q.per_entity("DCGM_FI_DEV_POWER_USAGE", power), cold=True
        ),
        Recording(
            record="gpu:temperature_celsius:max_rollup5m", expr=q.per_entity("DCGM_FI_DEV_GPU_TEMP", temp), cold=True
        ),
        Recording(record="gpu:fb_used:ratio_rollup5m", expr="gpu:fb_used:ratio_avg5m", cold=True),
        Recording(record="node:gpu_power_watts:sum_rollup5m", expr="node:gpu_power_watts:sum5m", cold=True),
        Recording(record="cluster:gpu_activity:avg_rollup5m", expr="cluster:gpu_activity:avg5m", cold=True),
        Recording(record="cluster:gpu_power_watts:sum_rollup5m", expr="cluster:gpu_power_watts:sum5m", cold=True),
        Recording(record="cluster:gpus_reporting:count_rollup5m", expr="cluster:gpus_reporting:count", cold=True),
        Recording(record="cluster:gpus:count_by_model_rollup5m", expr="cluster:gpus:count_by_model", cold=True),
        Recording(record="cluster:gpus_allocated:count_rollup5m", expr="cluster:gpus_allocated:count", cold=True),
        Recording(
            record="cluster:gpu_allocation_efficiency:ratio_rollup5m",
            expr="cluster:gpu_allocation_efficiency:ratio",
            cold=True,
        ),
    ]
    hour = [
        Recording(
            record="cluster:gpu_activity:avg_rollup1h",
            expr=f"avg by ({c}) (avg_over_time(cluster:gpu_activity:avg_rollup5m[1h]))",
            cold=True,
        ),
        Recording(
            record="cluster:gpu_power_watts:sum_rollup1h",
            expr=f"avg by ({c}) (avg_over_time(cluster:gpu_power_watts:sum_rollup5m[1h]))",
            cold=True,
        ),
        Recording(
            record="cluster:gpus_allocated:count_rollup1h",
            expr=f"max by ({c}) (max_over_time(cluster:gpus_allocated:count_rollup5m[1h]))",
            cold=True,
        ),
    ]
    return (
        Group(name="gpuscope-rollup-5m.rules", rules=tuple(five), interval="5m"),
        Group(name="gpuscope-rollup-1h.rules", rules=tuple(hour), interval="1h"),
    )


def fleet_group(q: Promql) -> Group:
    """Evaluated in the global store, over the clusters' recorded series.

    A federating global Prometheus sees both replicas of each cluster (their replica label tells them apart);
    ``max without`` the replica labels counts each cluster once. Thanos and Mimir deduplicate before this.
    """
    c = q.cluster

    def once(metric: str) -> str:
        return f"max by ({c}) ({metric})"

    return Group(
        name="gpuscope-fleet.rules",
        rules=(
            Recording(record="fleet:gpus_reporting:count", expr=f"sum({once('cluster:gpus_reporting:count')})"),
            Recording(record="fleet:gpu_power_watts:sum5m", expr=f"sum({once('cluster:gpu_power_watts:sum5m')})"),
            Recording(
                record="fleet:gpu_activity:avg5m",
                # Divided by activity units, not physical GPUs: a MIG GPU contributes one series per instance.
                expr=f"sum({once('cluster:gpu_activity:sum5m')}) / sum({once('cluster:gpu_activity_units:count')})",
            ),
            Recording(record="fleet:gpus_allocated:count", expr=f"sum({once('cluster:gpus_allocated:count')})"),
        ),
        file="fleet",
    )


def recording_groups(q: Promql) -> tuple[Group, ...]:
    return (
        gpu_group(q),
        gpu_5m_group(q),
        presence_group(q),
        node_group(q),
        cluster_group(q),
        efficiency_group(q),
        job_group(q),
        *rollup_groups(q),
        fleet_group(q),
    )
