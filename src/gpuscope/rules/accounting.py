"""The accounting unit: what share of a physical GPU each unit is, and what share of it each holder holds.

Capacity, GPUs held, active GPU-hours and idle cost are all counted in one unit, the physical GPU:

- a whole GPU is 1;
- a MIG instance is its profile's share of compute slices, ``g / 7`` for a ``<g>g.<memory>`` profile (``g / 4``
  on an A30). Compute slices, not memory slices, because they add up: the instances of one GPU never use more
  than its 7 compute slices, whereas a 7g profile takes all 8 memory slices and a 1g only one, so memory shares
  would not sum to the GPU. Activity is measured per compute slice too (SM active is the instance's SMs). A
  profile whose name does not start with ``<g>g.`` counts as one slice (the least it can be);
- holders of one unit (pods time-slicing it, MPS clients) split it evenly: together they hold the unit once.

Every sum of held shares is then at most the GPUs it is a sum over, at every step and for any grouping; active is
held x the unit's activity, idle is held - active, and a holder's power is its held share of its GPU's watts.
The same expressions serve the recording rules, the chargeback rollups and ``gpuscope report``'s raw tier, so the
report and the dashboards count alike.
"""

from __future__ import annotations

from gpuscope.fields.labels import JOB_LABEL
from gpuscope.hardware.models import MODELS
from gpuscope.rules.promql import Promql

# What every GPU count, GPU-hour and idle cost is counted in, said where those numbers are shown.
UNIT_NOTE = (
    "Counted in physical GPUs: a whole GPU is 1, a MIG instance its share of compute slices (g/7; g/4 on an A30), "
    "and the holders of a shared (time-sliced, MPS) GPU split it evenly."
)
# A whole GPU carries no GPU-instance profile; a MIG instance does. A whole GPU's share is 1 by definition, so
# weighted sums only need the share joined in for MIG instances (``recording.weighted_mean``).
WHOLE = 'GPU_I_PROFILE=""'
MIG = 'GPU_I_PROFILE!=""'
PRESENCE = "DCGM_FI_DEV_GPU_TEMP"  # a device-level gauge every exporter serves for every GPU and MIG instance
# The pod label (from the exporter's allowlist) that names a team, when the fleet has one: the per-holder records
# carry it, so the chargeback rollups and the report sum by it.
TEAM_LABEL = "team"
GPU_SLICES = 7  # compute slices of every MIG-capable GPU in the catalog (A100, H100, H200, B200, GB200)
# Compute-slice counts the catalog's MIG profiles use (1g, 2g, 3g, 4g, 7g).
PROFILE_SLICES = tuple(sorted({p.slices for m in MODELS.values() for p in m.mig_profiles}))
# MIG GPUs with fewer compute slices, by model name: the A30 has 4 (profiles 1g.6gb, 2g.12gb, 4g.24gb; NVIDIA MIG
# user guide, "Supported MIG Profiles").
SMALL_MIG = ((".*A30.*", 4, (1, 2, 4)),)


def profile_matcher(slices: int) -> str:
    r"""Matches profiles of ``slices`` compute slices (``3g.40gb``, ``1g.10gb+me``), escaped for PromQL quotes."""
    return f'GPU_I_PROFILE=~"{slices}g\\\\..*"'


def unit_share(q: Promql, keys: str) -> str:
    """One series per unit (labels ``keys``, which must include the GPU-instance labels) valued with its share of
    its physical GPU, from the presence gauge's labels. ``or`` keeps the first term that names a unit, so the
    model-specific terms come before the general ones and the catch-all last.

    The whole GPUs are one term and the MIG terms are parenthesised after it: ``a or b`` hashes every series of
    ``a``, so in the left-leaning chain ``a or b or c ...`` every GPU was hashed once per term (ten times); here
    the whole GPUs once, and the MIG chain only over MIG instances. The terms are disjoint but for the catch-all,
    so the value is the same."""

    def term(matchers: str, slices: int = 1, total: int = 1) -> str:
        group = f"group by ({keys}) ({q.dcgm(PRESENCE, matchers)})"
        return f"({group} * {slices} / {total})" if total > 1 else f"({group})"

    mig: list[str] = []
    for model, total, sizes in SMALL_MIG:
        mig += [term(f'{profile_matcher(g)},modelName=~"{model}"', g, total) for g in sizes]
    mig += [term(profile_matcher(g), g, GPU_SLICES) for g in PROFILE_SLICES]
    mig.append(term(MIG, 1, GPU_SLICES))
    return term(WHOLE) + "\nor (\n" + "\nor ".join(mig) + "\n)"


def unit_match(q: Promql) -> str:
    """The labels that name one unit across series of different label sets (a holder, a unit, an activity)."""
    return f"{q.cluster}, {q.config.uuid_label}, GPU_I_ID"


def share_per_holder(q: Promql, holders: str, shares: str) -> str:
    """Each holder's share: its unit's share split evenly among the unit's holders, with the unit's model.

    ``holders``: one series per (unit, holder) with the unit-match labels; ``shares``: one series per unit with
    the unit-match labels and ``modelName`` (``unit_share`` or its recording). A holder of a unit that reports
    nothing holds nothing: a pod cannot hold more than the GPUs there are."""
    m = unit_match(q)
    return (
        f"(\n{holders}\n)\n/ on ({m}) group_left ()\ncount by ({m}) (\n{holders}\n)\n"
        f"* on ({m}) group_left (modelName)\n({shares})"
    )


def holders(q: Promql, by: str) -> str:
    """One series of value 1 per (unit, holder), labelled ``by`` as well where the holder has those labels: pods
    and Slurm jobs (``hpc_job``; a job is in no namespace or team, so it sums into the groups' unlabelled row). The
    pod is the holder whatever the grouping, so two pods of one namespace sharing a GPU each hold half of it, in
    the namespace table and in the team table alike, and a GPU a pod and a job share is split between them as the
    allocation rules split it.

    Holders are read where the fleet's exporters put them (``RulesConfig.workload_labels``): gpuscope's info series
    (``gpuscope_gpu_workload_info``, ``gpuscope_gpu_job_info``), or the pod and job labels on the device series
    themselves, as dcgm-exporter writes them (``labels``: its ``-k`` mode; the label names are the config's, so
    ``-o``'s ``pod_name`` and a ServiceMonitor's ``exported_pod`` read alike). Both are instant reads of series
    the exporter serves every scrape, so a holder ends when its series does (a staleness marker), never five
    minutes later. In ``labels`` mode the holder is read from the presence gauge, which every GPU and MIG instance
    has, and never from a recorded 5 m average (whose window would keep a replaced pod for five minutes); a
    "holder" that is the scrape target's own pod is no holder: with ``honorLabels: true`` the exporter pod's target
    labels fill a GPU series that has no pod (an idle GPU), and would bill every idle GPU to the exporter."""
    c = q.config
    extra = "".join(
        f", {label}" for label in by.split(", ") if label and label not in (c.namespace_label, c.pod_label, q.cluster)
    )
    m = unit_match(q)
    pods = f"{m}, {c.namespace_label}, {c.pod_label}{extra}"
    if c.workload_labels == "labels":
        own = f"group by ({q.cluster}, {c.namespace_label}, {c.pod_label}) ({q.up})"
        on_pods = q.dcgm(PRESENCE, f'{c.pod_label}!=""')
        on_jobs = q.dcgm(PRESENCE, f'{JOB_LABEL}!=""')
        return (
            f"(\n(group by ({pods}) ({on_pods})\nunless on ({q.cluster}, {c.namespace_label}, {c.pod_label}) {own})"
            f"\nor\ngroup by ({m}, {JOB_LABEL}) ({on_jobs})\n)"
        )
    info = q.exporter("gpuscope_gpu_workload_info")
    jobs = q.exporter("gpuscope_gpu_job_info")
    return f"(\ngroup by ({pods}) ({info})\nor\ngroup by ({m}, {JOB_LABEL}) ({jobs})\n)"


def held(q: Promql, by: str, shares: str | None = None) -> str:
    """One series per (unit, holder) valued with the holder's share of a physical GPU, labelled ``by``, the holder
    and ``modelName``. ``shares``: one series per unit (unit-match labels and ``modelName``); by default the
    raw-series form the report's raw tier sums, the chargeback rollups pass the recorded unit share."""
    if shares is None:
        shares = unit_share(q, f"{unit_match(q)}, GPU_I_PROFILE, modelName")
    return share_per_holder(q, holders(q, by), shares)
