"""PromQL building blocks for dashboards: selectors scoped by the template variables, and legends.

Built on the rules' ``Promql`` (metric names per dialect, base-unit scaling, the exporter selector), so a panel
and the alert about the same thing read the same series. Variable matchers: ``$cluster``, ``$namespace``,
``$pod``, ``$job_id`` and ``$mig`` may be "All" (the regex ``.*``, which also matches series without the label,
as on a cluster-local Prometheus that has no ``cluster`` label); ``$node`` and ``$gpu`` are single values.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from gpuscope.dashboards.facts import Options
from gpuscope.dashboards.model import Query
from gpuscope.ruleconfig.config import RulesConfig
from gpuscope.rules.promql import Promql
from gpuscope.rules.timescale import scale

# The GPU series every exporter serves and the rules treat as "this GPU is reporting".
PRESENCE = "DCGM_FI_DEV_GPU_TEMP"


@dataclass(frozen=True)
class Q:
    options: Options

    @cached_property
    def p(self) -> Promql:
        return Promql(self.options.rules)

    @property
    def c(self) -> RulesConfig:
        return self.options.rules

    # Label names ---------------------------------------------------------------------------------------------
    @property
    def host(self) -> str:
        return self.c.host_label

    @property
    def uuid(self) -> str:
        return self.c.uuid_label

    @property
    def cluster(self) -> str:
        return self.c.cluster_label

    @property
    def gpu_by(self) -> str:
        """Labels that name one GPU on a panel (the host and the index, and the UUID for drill-down)."""
        return f"{self.cluster}, {self.host}, gpu, {self.uuid}"

    # Variable matchers -----------------------------------------------------------------------------------------
    @property
    def in_cluster(self) -> str:
        return f'{self.cluster}=~"$cluster"'

    @property
    def on_node(self) -> str:
        return f'{self.in_cluster},{self.host}="$node"'

    @property
    def on_gpu(self) -> str:
        return f'{self.uuid}="$gpu"'

    @property
    def on_mig(self) -> str:
        return f'{self.uuid}="$gpu",GPU_I_ID=~"$mig"'

    # Selectors -------------------------------------------------------------------------------------------------
    def has(self, *fields: str) -> bool:
        """Whether the collectors CSV exports any of ``fields`` (classic names)."""
        return any(f in self.options.fields for f in fields)

    def dcgm(self, field: str, *matchers: str) -> str:
        """``NAME{exporter selector, matchers}`` with the name in the configured dialect."""
        return self.p.dcgm(field, ",".join(m for m in matchers if m))

    def base(self, field: str, *matchers: str) -> str:
        """A field's value in base units (ratio, bytes, hertz, watts)."""
        return self.p.base(field, self.dcgm(field, *matchers))

    def exporter(self, metric: str, *matchers: str) -> str:
        """A series the exporter serves whatever the CSV says (``up``, ``gpuscope_*`` self-metrics)."""
        return self.p.exporter(metric, ",".join(m for m in matchers if m))

    def prom(self, metric: str, *matchers: str) -> str:
        return self.p.prom(metric, ",".join(m for m in matchers if m))

    def jobs(self, metric: str, *matchers: str) -> str:
        """A metric pushed by batch jobs through the Pushgateway (``honor_labels`` keeps their labels)."""
        inner = ",".join(m for m in (self.c.job_metrics_selector, *matchers) if m)
        return f"{metric}{{{inner}}}"

    def rec(self, name: str, *matchers: str) -> str:
        """A recorded series, with matchers."""
        inner = ",".join(m for m in matchers if m)
        return f"{name}{{{inner}}}" if inner else name

    def recorded_or(self, name: str, fallback: str, *matchers: str) -> str:
        """The recording rule where the rules define it, else the same expression inline (a rule landing later
        makes the dashboards use it on the next ``gpuscope generate``)."""
        if name in self.options.recorded:
            return self.rec(name, *matchers)
        return f"({fallback})"

    def reporting(self, scope: str) -> str:
        """Has a value exactly while GPUs in ``scope`` report: the gate of a failure signal's zero (``Query.zero``)."""
        return f"count({self.dcgm(PRESENCE, scope)})"

    def evaluating(self, scope: str) -> str:
        """Has a value exactly while the rules evaluate over reporting GPUs in ``scope`` (``ALERTS`` is empty both
        when nothing fires and when no rule runs: only the first is a zero)."""
        return f"count({self.rec('gpu:present:max1m', scope)})"

    def window(self, duration: str) -> str:
        """An alert's fixed window, compressed like the rules when the fleet runs with a ``speedup``."""
        return scale(duration, self.c.speedup)

    # Legends ---------------------------------------------------------------------------------------------------
    @property
    def gpu_legend(self) -> str:
        return f"{{{{{self.host}}}}} GPU {{{{gpu}}}}"

    @property
    def mig_legend(self) -> str:
        """Names a MIG instance by its profile as well; on whole GPUs the profile is empty."""
        return f"{{{{{self.host}}}}} GPU {{{{gpu}}}} {{{{GPU_I_PROFILE}}}}"

    # Queries ---------------------------------------------------------------------------------------------------
    def needs(
        self,
        fields: tuple[str, ...],
        expr: str | None,
        legend: str = "",
        *,
        instant: bool = False,
        fault: str = "",
        zero: str = "",
        unit: str = "",
    ) -> Query | None:
        """A query over catalog ``fields``; ``None`` (no panel target) when the CSV collects none of them."""
        if expr is None or not self.has(*fields):
            return None
        return Query(
            expr=expr,
            legend=legend,
            instant=instant,
            fields=tuple(f for f in fields if self.has(f)),
            fault=fault,
            zero=zero,
            unit=unit,
        )

    def only(self, field: str, expr: str) -> str | None:
        """``expr`` if ``field`` is collected, for building ``either`` alternatives."""
        return expr if self.has(field) else None


def either(*exprs: str | None) -> str | None:
    """``a or b``: the same signal from whichever sources exist (``None`` = not collected)."""
    kept = [e for e in exprs if e]
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else "\nor\n".join(f"({e})" for e in kept)


def largest_increase(q: Q, fields: tuple[str, ...], scope: str, window: str) -> str | None:
    """Per GPU, the largest increase of any of ``fields`` over ``window`` (GPUNVLinkErrors fires when any one
    counter grows more than it tolerates). Each counter keeps its name in a ``counter`` label: ``increase``
    drops the metric name, and two counters of one GPU would otherwise collide."""
    sides = [
        f'label_replace(increase({q.dcgm(f, scope)}[{window}]), "counter", "{f}", "", "")' for f in fields if q.has(f)
    ]
    if not sides:
        return None
    return f"max by ({q.gpu_by}) (\n  " + "\n  or ".join(sides) + "\n)"
