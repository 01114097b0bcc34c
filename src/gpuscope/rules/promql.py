"""PromQL building blocks shared by every rule: metric names per dialect, base-unit scaling, label sets.

Names come from the field catalog (``DCGM_FI_DEV_GPU_UTIL`` is ``DCGM_FI_DEV_GPU_UTIL_RATIO`` in the 4.9 dialect)
and so does the unit, which decides the factor to base units: a rule records ratios, bytes, watts and seconds
whatever the exporter's dialect.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuscope.escaping import promql_alternation
from gpuscope.fields.catalog import BY_NAME, RENAMED_IN_4_9, RENAMED_IN_4_10
from gpuscope.fields.schema import Aggregation, Field, Level
from gpuscope.ruleconfig.config import RulesConfig

# The fields the exporter's per-pod split of shared GPUs writes per pod (exporter/processes/exposition.py).
SPLIT_FIELDS = frozenset({"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED"})
# Factor from a catalog unit to the base unit the rules record in.
_TO_BASE = {"%": 0.01, "MiB": 1048576.0, "MHz": 1e6, "mJ": 1e-3, "ns": 1e-9, "MB/s": 1e6}


@dataclass(frozen=True, slots=True)
class Promql:
    """Metric names, selectors and label lists for one ``RulesConfig``."""

    config: RulesConfig

    def name(self, classic: str) -> str:
        """The metric name the exporter emits for a classic field name, in the configured dialect."""
        if classic not in BY_NAME:
            raise KeyError(f"{classic} is not in the field catalog")
        if self.config.dialect == "4.9":
            return RENAMED_IN_4_9.get(classic, classic)
        if self.config.dialect == "4.10":  # the built-in collectors' names (a custom CSV may keep the old ones)
            return RENAMED_IN_4_10.get(classic, RENAMED_IN_4_9.get(classic, classic))
        return classic

    def field(self, classic: str) -> Field:
        """The catalog row of the series ``name(classic)`` emits (4.10's *_PER_SECOND names are the classic rows
        under another name, same unit)."""
        return BY_NAME.get(self.name(classic)) or BY_NAME[classic]

    def dcgm(self, classic: str, extra: str = "") -> str:
        """``NAME{exporter selector[,extra]}``; the device's own series of a field the per-pod split adds to."""
        device = self._device_only(classic)
        matchers = ",".join(m for m in (self.config.exporter_selector, device, extra) if m)
        return f"{self.name(classic)}{{{matchers}}}"

    def _device_only(self, classic: str) -> str:
        """In ``info`` mode a GPU series has no pod label, but with ``virtual_gpus`` the exporter adds per-pod
        GPU_UTIL and FB_USED series beside the device's (dcgm-exporter's split, docs/shared-gpus.md): every
        per-GPU reading here means the device's, so those are left out. In ``labels`` mode every series is per
        pod already and the rules read them as such."""
        c = self.config
        if classic in SPLIT_FIELDS and c.virtual_gpus and c.workload_labels == "info":
            return f'{c.pod_label}=""'
        return ""

    def base(self, classic: str, expr: str) -> str:
        """Scale ``expr`` (a value of field ``classic``) to base units, e.g. percent to ratio."""
        factor = _TO_BASE.get(self.field(classic).unit)
        return f"({expr}) * {factor:g}" if factor else expr

    def exporter(self, metric: str, extra: str = "") -> str:
        matchers = ",".join(m for m in (self.config.exporter_selector, extra) if m)
        return f"{metric}{{{matchers}}}"

    def prom(self, metric: str, extra: str = "") -> str:
        matchers = ",".join(m for m in (self.config.prometheus_selector, extra) if m)
        return f"{metric}{{{matchers}}}"

    @property
    def up(self) -> str:
        return f"up{{{self.config.exporter_selector}}}"

    @property
    def gpu_id(self) -> str:
        """Identity labels every GPU-level alert keeps."""
        return f"instance, {self.config.uuid_label}, gpu, {self.config.host_label}"

    @property
    def gpu_keys(self) -> str:
        """Labels that identify one GPU or MIG instance in recorded series (bounded: no pod, no driver)."""
        c = self.config
        return f"{c.cluster_label}, instance, {c.host_label}, gpu, {c.uuid_label}, GPU_I_ID, GPU_I_PROFILE, modelName"

    @property
    def device_keys(self) -> str:
        """One physical GPU, whoever scrapes it: no scrape ``instance`` (a replaced exporter pod is another
        instance of the same GPU) and no GPU-instance labels (MIG repeats device-level values per instance)."""
        c = self.config
        return f"{c.cluster_label}, {c.host_label}, gpu, {c.uuid_label}, modelName"

    @property
    def unit_keys(self) -> str:
        """One accounting unit: a whole GPU, or one MIG instance of it (``GPU_I_*`` are absent on a whole GPU)."""
        return f"{self.device_keys}, GPU_I_ID, GPU_I_PROFILE"

    def keys_of(self, classic: str) -> str:
        """The labels of one value of field ``classic``: per device, or per GPU instance (the catalog's level)."""
        level = self.field(classic).level
        return self.device_keys if level is Level.DEVICE else self.unit_keys

    def per_entity(self, classic: str, expr: str) -> str:
        """``expr`` (values of field ``classic``) reduced to one series per entity of the field's level, before any
        sum or average: the copies are one reading (MIG instances repeating a device value, HA replicas, an old
        and a new exporter pod during a rollout), so their maximum is that reading.

        A counter's rate (``expr`` a ``rate`` of it) is the exception across exporter pods: each pod's series covers
        its own part of the window, and ``rate`` divides each part's increase by the whole window, so the parts
        add up (an old pod's 8 minutes and a new pod's 2 are the 10). Copies within one pod (MIG instances, HA
        replicas scraping the same pod) still count once."""
        keys = self.keys_of(classic)
        if self.field(classic).aggregation is Aggregation.RATE:
            return f"sum by ({keys}) (max by ({keys}, instance) ({expr}))"
        return f"max by ({keys}) ({expr})"

    @property
    def node_keys(self) -> str:
        """One node: its cluster and host name, not the scrape instance (which a replaced exporter pod changes)."""
        c = self.config
        return f"{c.cluster_label}, {c.host_label}"

    @property
    def cluster(self) -> str:
        return self.config.cluster_label

    def secs(self, seconds: float) -> str:
        """A threshold in seconds, compressed like every duration when the config asks for a speedup."""
        return f"{seconds / self.config.speedup:g}"

    def unless_exporter_down(self, expr: str) -> str:
        """GPU alerts stay quiet while the exporter itself is down: that is GPUExporterDown's page."""
        return f"({expr})\nunless on (instance) {self.up} == 0"


def alternatives(*exprs: str) -> str:
    """``a or b or c``, one per line, for several sources of the same signal."""
    return "\nor\n".join(f"({e})" for e in exprs)


def regex_of(values: tuple[str, ...] | tuple[int, ...]) -> str:
    """An anchored PromQL regex alternation of literal values, escaped to sit between a string's double quotes."""
    return promql_alternation(values)
