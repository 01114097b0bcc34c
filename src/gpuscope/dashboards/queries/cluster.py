"""L2 Cluster: status per node and GPU, activity, allocation, and the failure signals of the GPU alerts.

The failure queries are the alerts' own sources (``rules/alerts_gpu.py``), reduced to one series per GPU and
filtered to GPUs with something to show, so each table is empty on a healthy cluster and lists exactly the
GPUs an alert is about. Each source is used only where the collectors CSV collects its field.
"""

from __future__ import annotations

from gpuscope.dashboards.model import Query
from gpuscope.dashboards.promql import PRESENCE, Q, either, largest_increase
from gpuscope.fields.clock_events import THERMAL_EVENTS, ClockEventReason
from gpuscope.fields.nvlink_errors import NVLINK_ERROR_FIELDS

_SW_THERMAL, _HW_THERMAL = int(ClockEventReason.SW_THERMAL), int(ClockEventReason.HW_THERMAL)


def gpu_status(q: Q) -> Query:
    """Per node and GPU index: 2 while a page alert fires on the GPU, 1 for a ticket, else 0 — the alerts'
    verdict, so the grid and the pager never disagree."""
    h, cl = q.host, q.in_cluster

    def firing(severity: str) -> str:
        return f'max by ({h}, gpu) (ALERTS{{alertstate="firing",severity="{severity}",{q.uuid}!="",{cl}}})'

    ok = f"0 * max by ({h}, gpu) ({q.dcgm(PRESENCE, cl)})"
    return Query(f"2 * {firing('page')}\nor {firing('ticket')}\nor {ok}", instant=True)


def node_column(q: Q, record: str, name: str, unit: str = "") -> Query:
    return Query(f"max by ({q.cluster}, {q.host}) ({q.rec(record, q.in_cluster)})", name, instant=True, unit=unit)


def lost_per_node(q: Q) -> Query:
    return Query(
        f"sum by ({q.cluster}, {q.host}) ({q.exporter('gpuscope_exporter_gpu_lost', q.in_cluster)})",
        "lost",
        instant=True,
    )


def cluster_sum(q: Q, record: str, legend: str) -> Query:
    return Query(f"sum(max by ({q.cluster}) ({q.rec(record, q.in_cluster)}))", legend)


def nodes(q: Q) -> Query:
    return Query(f"count(max by ({q.cluster}, {q.host}) ({q.rec('node:gpus_reporting:count', q.in_cluster)}))", "nodes")


def exporters_down(q: Q) -> Query:
    return Query(f"count({q.exporter('up', q.in_cluster)} == 0) or vector(0)", "down")


def activity_heatmap(q: Q) -> Query:
    """SM active where the CSV collects it, else the activity fallback (graphics engine, then utilization)."""
    if q.has("DCGM_FI_PROF_SM_ACTIVE"):
        return Query(q.rec("gpu:sm_active:avg5m", q.in_cluster), fields=("DCGM_FI_PROF_SM_ACTIVE",))
    return Query(q.rec("gpu:activity:avg5m", q.in_cluster))


def activity_by_node(q: Q) -> Query:
    return Query(
        f"max by ({q.cluster}, {q.host}) ({q.rec('node:gpu_activity:avg5m', q.in_cluster)})",
        f"{{{{{q.host}}}}}",
    )


def idle_allocated(q: Q) -> Query:
    """The 10 allocated GPUs (or MIG instances) with the least activity, of those under the idle ratio that
    GPUAllocatedButIdle fires on: one row per GPU (or instance), however many pods or jobs share it (the record
    has one series per holder, each with the GPU's activity)."""
    per_unit = f"max by ({q.gpu_by}, GPU_I_ID) ({q.rec('workload:gpu_activity:avg5m', q.in_cluster)})"
    idle = q.c.thresholds.idle_activity_ratio
    # no zero here: an idle GPU's activity is itself 0, and must read 0 %, not "none"
    return Query(f"bottomk(10, {per_unit} < {idle})", "activity", instant=True)


def namespace_activity(q: Q) -> Query | None:
    if "namespace:gpu_activity:avg5m" not in q.options.recorded:
        return None
    ns = q.c.namespace_label
    return Query(f"max by ({q.cluster}, {ns}) ({q.rec('namespace:gpu_activity:avg5m', q.in_cluster)})", f"{{{{{ns}}}}}")


def per_cluster(q: Q, record: str, legend: str) -> Query:
    return Query(f"max by ({q.cluster}) ({q.rec(record, q.in_cluster)})", legend)


def _gpu_max(q: Q, expr: str, extra: str = "") -> str:
    by = f"{q.gpu_by}, {extra}" if extra else q.gpu_by
    return f"max by ({by}) ({expr})"


def xid_events(q: Q) -> Query | None:
    """XIDs seen in the time range, per GPU and XID."""
    cl = q.in_cluster
    total = q.dcgm("DCGM_EXP_XID_ERRORS_TOTAL", cl)
    window = q.dcgm("DCGM_EXP_XID_ERRORS_COUNT", cl, 'xid!=""')
    expr = either(
        q.only("DCGM_EXP_XID_ERRORS_TOTAL", f"{_gpu_max(q, f'increase({total}[$__range])', 'xid')} > 0"),
        q.only("DCGM_EXP_XID_ERRORS_COUNT", _gpu_max(q, f"{window} > 0", "xid")),
    )
    fields = ("DCGM_EXP_XID_ERRORS_TOTAL", "DCGM_EXP_XID_ERRORS_COUNT")
    return q.needs(fields, expr, "events", instant=True, fault="xid", zero=q.reporting(cl))


def last_xid(q: Q) -> Query | None:
    """The last XID each GPU reported (dcgm-exporter's sticky gauge), where it is not 0."""
    field = "DCGM_FI_DEV_XID_ERRORS"
    expr = _gpu_max(q, f"{q.dcgm(field, q.in_cluster)} != 0", "err_code, err_msg")
    return q.needs((field,), expr, "last XID", instant=True, fault="xid", zero=q.reporting(q.in_cluster))


def ecc_events(q: Q) -> tuple[Query | None, ...]:
    """The sources of GPUDoubleBitEccErrors and GPURowRemapFailure, one table column each."""
    cl = q.in_cluster

    def grew(field: str, name: str) -> Query | None:
        expr = f"{_gpu_max(q, f'increase({q.dcgm(field, cl)}[$__range])')} > 0"
        return q.needs((field,), expr, name, instant=True, fault="ecc-dbe", zero=q.reporting(cl))

    def is_set(field: str, name: str, test: str = "== 1") -> Query | None:
        expr = f"{_gpu_max(q, q.dcgm(field, cl))} {test}"
        return q.needs((field,), expr, name, instant=True, fault="ecc-dbe", zero=q.reporting(cl))

    return (
        grew("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DBE (volatile)"),
        grew("DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", "DBE (aggregate)"),
        grew("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "rows remapped (uncorrectable)"),
        is_set("DCGM_FI_DEV_ROW_REMAP_FAILURE", "remap failed"),
        is_set("DCGM_FI_DEV_ROW_REMAP_PENDING", "remap pending"),
        is_set("DCGM_FI_DEV_RETIRED_PENDING", "pages pending retirement", "> 0"),
    )


def thermal_throttling_top(q: Q) -> Query | None:
    """The 10 GPUs throttled longest for heat: share of time, from the violation counter."""
    field = "DCGM_FI_DEV_THERMAL_VIOLATION"
    share = q.p.base(field, f"rate({q.dcgm(field, q.in_cluster)}[$__rate_interval])")
    return q.needs((field,), f"topk(10, {_gpu_max(q, share)})", q.gpu_legend)


def thermal_events(q: Q) -> Query | None:
    """GPUs with thermal clock events or at the alert's temperature (GPUThermalThrottling's other sources)."""
    cl = q.in_cluster
    t = q.c.thresholds.thermal_temperature_celsius
    reasons = q.dcgm("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", cl)
    bits = f"(floor({reasons} / {_SW_THERMAL}) % 2) + (floor({reasons} / {_HW_THERMAL}) % 2)"
    expr = either(
        # the thermal reasons only, as GPUThermalThrottling reads them (an idle GPU's gpu_idle events are no fault)
        q.only(
            "DCGM_EXP_CLOCK_EVENTS_COUNT",
            _gpu_max(q, f"{q.dcgm('DCGM_EXP_CLOCK_EVENTS_COUNT', cl, THERMAL_EVENTS)} > 0"),
        ),
        q.only("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", f"{_gpu_max(q, bits)} > 0"),
        q.only(PRESENCE, f"{_gpu_max(q, q.dcgm(PRESENCE, cl))} >= {t}"),
    )
    fields = ("DCGM_EXP_CLOCK_EVENTS_COUNT", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", PRESENCE)
    return q.needs(fields, expr, "thermal", instant=True, fault="thermal", zero=q.reporting(cl))


def nvlink_errors(q: Q) -> Query | None:
    """GPUs whose NVLink error counters grew more than GPUNVLinkErrors tolerates."""
    expr = largest_increase(q, NVLINK_ERROR_FIELDS, q.in_cluster, "$__range")
    n = q.c.thresholds.nvlink_errors_per_5m
    return q.needs(
        NVLINK_ERROR_FIELDS,
        f"{expr} > {n}" if expr else None,
        "errors",
        instant=True,
        fault="nvlink-crc",
        zero=q.reporting(q.in_cluster),
    )


def profiling_stale(q: Q) -> Query:
    """GPUs that had DCGM_FI_PROF_* series and lost them while still reporting (GPUProfilingMetricsStale)."""
    c, cl, u = q.c, q.in_cluster, q.uuid
    prof = q.dcgm("DCGM_FI_PROF_GR_ENGINE_ACTIVE", cl)
    had = _gpu_max(q, f"max_over_time({q.rec('gpu:prof_present:max1m', cl)}[$__range])")
    generic = (
        f"({had}\n  unless on ({u}) max by ({u}) (present_over_time({prof}[$__rate_interval])))\n"
        f"and on ({u}) max by ({u}) ({q.dcgm(PRESENCE, cl)})"
    )
    available = q.exporter("gpuscope_exporter_gpu_profiling_available", cl, 'reason!~"available|warming_up"')
    supported = q.exporter("gpuscope_exporter_gpu_profiling_supported", cl)
    native = _gpu_max(q, f"{available} == 0 and on ({c.uuid_label}, instance) {supported} == 1")
    expr = either(q.only("DCGM_FI_PROF_GR_ENGINE_ACTIVE", generic), native)
    assert expr is not None
    return Query(expr, "stale", instant=True, fault="profiling-lock", zero=q.reporting(cl))


def lost_gpus(q: Q) -> Query:
    """GPUs lost to the driver (XID 79 / GPU_IS_LOST) or that stopped reporting (GPUFellOffBus's sources)."""
    cl, u = q.in_cluster, q.uuid
    seen = _gpu_max(q, f"max_over_time({q.rec('gpu:present:max1m', cl)}[$__range])")
    expr = either(
        _gpu_max(q, f"{q.exporter('gpuscope_exporter_gpu_lost', cl)} == 1"),
        q.only("DCGM_FI_DEV_XID_ERRORS", _gpu_max(q, f"{q.dcgm('DCGM_FI_DEV_XID_ERRORS', cl)} == 79")),
        q.only(PRESENCE, f"{seen} unless on ({u}) {q.dcgm(PRESENCE, cl)}"),
    )
    assert expr is not None
    return Query(expr, "lost", instant=True, fault="fell-off-bus", zero=q.reporting(cl))
