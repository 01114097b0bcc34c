"""L3 Node: the GPUs of one node, per GPU (and per MIG instance where a field has its own value there).

Fields DCGM repeats on every MIG instance (temperature, power, clocks) are reduced with ``max by`` to one
series per GPU; per-instance fields (framebuffer, profiling) keep ``GPU_I_ID`` and name the instance's profile.
"""

from __future__ import annotations

from dataclasses import replace

from gpuscope.dashboards.model import Query, Steps
from gpuscope.dashboards.promql import PRESENCE, Q, largest_increase
from gpuscope.fields.clock_events import CLOCK_EVENT_REASONS
from gpuscope.fields.nvlink_errors import NVLINK_ERROR_FIELDS
from gpuscope.rules.recording import used_share


def per_gpu(q: Q, field: str, suffix: str = "") -> Query | None:
    """One series per GPU, in base units."""
    expr = f"max by ({q.gpu_by}) ({q.base(field, q.on_node)})"
    return q.needs((field,), expr, f"{q.gpu_legend}{suffix}")


def per_instance(q: Q, field: str, suffix: str = "") -> Query | None:
    """Per GPU, or per MIG instance on a MIG GPU, in base units."""
    return q.needs((field,), q.base(field, q.on_node), f"{q.mig_legend}{suffix}")


def column(q: Q, field: str, name: str, unit: str) -> Query | None:
    expr = f"max by ({q.gpu_by}) ({q.base(field, q.on_node)})"
    return q.needs((field,), expr, name, instant=True, unit=unit)


def recorded_column(q: Q, record: str, name: str, unit: str) -> Query:
    return Query(f"max by ({q.gpu_by}) ({q.rec(record, q.on_node)})", name, instant=True, unit=unit)


def lost(q: Q) -> Query:
    return Query(f"max by ({q.gpu_by}) ({q.exporter('gpuscope_exporter_gpu_lost', q.on_node)})", "lost", instant=True)


def avg1m(q: Q, field: str) -> str:
    """A field's 1 m average on this node, from its raw samples, in base units. The fleet-wide recorded
    ``gpu:*:avg1m`` series are written once a minute; averaging one node's few GPUs here costs nothing and keeps
    the panel live."""
    return q.p.base(field, f"avg_over_time({q.dcgm(field, q.on_node)}[{q.window('1m')}])")


def avg1m_per_gpu(q: Q, field: str, suffix: str = "") -> Query | None:
    """A field's 1 m average reduced to one series per GPU (MIG instances repeat the parent's value)."""
    return q.needs((field,), f"max by ({q.gpu_by}) ({avg1m(q, field)})", f"{q.gpu_legend}{suffix}")


def avg1m_per_instance(q: Q, field: str, suffix: str = "") -> Query | None:
    """A field's 1 m average per GPU, or per MIG instance on a MIG GPU."""
    return q.needs((field,), avg1m(q, field), f"{q.mig_legend}{suffix}")


def fb_used_ratio(q: Q) -> Query | None:
    """Framebuffer used over used + free, from this node's raw samples (live; ``gpu:fb_used:ratio`` is the
    fleet-wide recording, written once a minute)."""
    fields = ("DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE")
    if not all(q.has(f) for f in fields):
        return None
    used, free = (q.dcgm(f, q.on_node) for f in fields)
    return Query(used_share(used, free), q.mig_legend, fields=fields)


def throttled(q: Q, field: str, what: str) -> Query | None:
    """Share of time throttled, from a violation counter (nanoseconds of throttling per second)."""
    share = q.p.base(field, f"rate({q.dcgm(field, q.on_node)}[$__rate_interval])")
    return q.needs((field,), f"max by ({q.gpu_by}) ({share})", f"{q.gpu_legend} {what}")


def clock_reasons(q: Q, scope: str = "") -> Query | None:
    """The clock-event bitmask decoded into one series per active reason (names as gpuscope's exporter uses)."""
    field = "DCGM_FI_DEV_CLOCKS_EVENT_REASONS"
    raw = f"max by ({q.gpu_by}) ({q.dcgm(field, scope or q.on_node)})"
    sides = [
        f'label_replace(floor({raw} / {bit}) % 2 > 0, "reason", "{name}", "", "")' for bit, name in CLOCK_EVENT_REASONS
    ]
    legend = f"{q.gpu_legend} {{{{reason}}}}"
    return q.needs((field,), "\nor ".join(sides), legend, fault="thermal", zero=q.reporting(scope or q.on_node))


def clock_event_counts(q: Q) -> Query | None:
    field = "DCGM_EXP_CLOCK_EVENTS_COUNT"
    expr = f"max by ({q.gpu_by}, clock_event) ({q.dcgm(field, q.on_node)} > 0)"
    legend = f"{q.gpu_legend} {{{{clock_event}}}}"
    return q.needs((field,), expr, legend, fault="thermal", zero=q.reporting(q.on_node))


def increase_per_gpu(q: Q, field: str, suffix: str = "") -> Query | None:
    expr = f"max by ({q.gpu_by}) (increase({q.dcgm(field, q.on_node)}[$__rate_interval]))"
    return q.needs((field,), expr, f"{q.gpu_legend}{suffix}")


def nvlink_errors(q: Q) -> Query | None:
    """The largest increase of any NVLink error counter over GPUNVLinkErrors' window, per GPU."""
    expr = largest_increase(q, NVLINK_ERROR_FIELDS, q.on_node, q.window("5m"))
    return q.needs(NVLINK_ERROR_FIELDS, expr, q.gpu_legend)


def last_xid(q: Q) -> Query | None:
    field = "DCGM_FI_DEV_XID_ERRORS"
    expr = f"max by ({q.gpu_by}, err_msg) ({q.dcgm(field, q.on_node)})"
    return q.needs((field,), expr, f"{q.gpu_legend} {{{{err_msg}}}}")


def gpus_table(q: Q, temperature_steps: Steps) -> tuple[Query | None, ...]:
    fb = fb_used_ratio(q)
    temperature = column(q, PRESENCE, "temperature", "celsius")
    return (
        replace(temperature, steps=temperature_steps) if temperature else None,
        q.needs(
            ("DCGM_FI_DEV_POWER_USAGE",),
            f"max by ({q.gpu_by}) ({avg1m(q, 'DCGM_FI_DEV_POWER_USAGE')})",
            "power",
            instant=True,
            unit="watt",
        ),
        recorded_column(q, "gpu:activity:avg5m", "activity", "percentunit"),
        Query(f"max by ({q.gpu_by}) ({fb.expr})", "memory used", instant=True, unit="percentunit") if fb else None,
        lost(q),
    )
