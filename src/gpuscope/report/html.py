"""The report as one self-contained HTML page (pure): inline CSS, plots as inline SVG, no scripts, no network.

Plots use matplotlib's SVG backend: static, vector (crisp when printed), embeddable as text, deterministic with a
fixed hash salt, and no JavaScript runtime to ship or to fetch when the file is opened offline.
"""

from __future__ import annotations

import html
import io
import itertools
from datetime import UTC, datetime

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from gpuscope.report.collect import Report
from gpuscope.report.compute import BUCKETS, DAY, DECIMALS
from gpuscope.rules.accounting import UNIT_NOTE

matplotlib.rcParams["svg.hashsalt"] = "gpuscope-report"
matplotlib.rcParams["svg.fonttype"] = "none"
# Group names come from label values: "$\\foo$" would be parsed as mathtext (a ParseFatalException at savefig).
# Every text of the plots is plain text.
matplotlib.rcParams["text.parse_math"] = False

_CSS = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#1c2530}
h1{margin-bottom:0}h2{border-bottom:1px solid #ccd;padding-bottom:.2em;margin-top:1.6em}
table{border-collapse:collapse;width:100%;font-size:.9em}th,td{padding:.3em .6em;border-bottom:1px solid #e3e6ea}
th{text-align:left;background:#f3f5f7}td.n{text-align:right;font-variant-numeric:tabular-nums}
.meta{color:#56606b}.cards{display:flex;gap:1em;flex-wrap:wrap}.card{border:1px solid #dde;border-radius:6px;
padding:.6em 1em;min-width:10em}.card b{display:block;font-size:1.5em}pre{background:#f6f8fa;padding:.6em;
white-space:pre-wrap;font-size:.8em}.plots{display:flex;gap:1em;flex-wrap:wrap}.plots svg{max-width:540px;height:auto}
"""


def _date(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M")


def _day(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d")


def _svg(fig: Figure) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg") :]


# The time axis' unit: the first in which the range is under two of the next (a 15-minute report in minutes, not
# 0.000 to 0.010 days).
TIME_UNITS = (("minutes", 60.0), ("hours", 3600.0), ("days", DAY))


def time_unit(seconds: float) -> tuple[str, float]:
    """The unit (its name and its seconds) of a time axis spanning ``seconds``."""
    for (name, size), (_, bigger) in itertools.pairwise(TIME_UNITS):
        if seconds < 2 * bigger:
            return name, size
    return TIME_UNITS[-1]


def _line_plot(series: dict[str, dict[float, float]], title: str, ylabel: str, span: tuple[float, float]) -> str:
    """Series over the report's range ``span``, on a time axis since its start in the unit the range calls for."""
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    unit, size = time_unit(span[1] - span[0])
    for name, points in series.items():
        ax.plot([(t - span[0]) / size for t in points], list(points.values()), label=name, linewidth=1.2)
    ax.set_title(title)
    ax.set_xlabel(f"{unit} since {_date(span[0])} UTC")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize=8)
    return _svg(fig)


def _bars(labels: list[str], values: list[float], title: str, ylabel: str) -> str:
    fig, ax = plt.subplots(figsize=(5.0, 3.0))
    ax.bar(labels, values, color=["#c0392b", "#e67e22", "#27ae60"][: len(values)] or None)
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    return _svg(fig)


def _efficiency_plot(report: Report) -> str:
    rows = report.rows[:12]
    fig, ax = plt.subplots(figsize=(6.4, 0.4 * len(rows) + 1.2))
    names = [r.group or "(none)" for r in rows][::-1]
    ax.barh(names, [r.gpu_hours_held for r in rows][::-1], color="#d5dbe1", label="held")
    ax.barh(names, [r.active_gpu_hours for r in rows][::-1], color="#2e86c1", label="active")
    ax.set_xlabel("GPU-hours")
    ax.set_title(f"GPU-hours held vs active, by {report.group_by}")
    ax.legend(fontsize=8)
    return _svg(fig)


def _n(value: float) -> str:
    """A GPU-hour, GPU count, kWh or cost, with the decimals every figure of the report has."""
    return f"{value:,.{DECIMALS}f}"


def _money(value: float | None) -> str:
    return "—" if value is None else _n(value)


def _unpriced(report: Report) -> str:
    """The fleet's models without a --gpu-hour-cost, said where the idle cost is shown (their hours are in no cost)."""
    if not report.unpriced:
        return ""
    models = ", ".join(html.escape(m) for m in report.unpriced)
    return (
        f"<p class=meta>No price for {models}: their idle GPU-hours are in no idle cost "
        "(<code>--gpu-hour-cost 'MODEL=PRICE'</code> prices them).</p>"
    )


def _group_table(report: Report) -> str:
    if not report.rows:
        return (
            "<p>No allocations in this range: no <code>gpuscope_gpu_workload_info</code> series, so nothing is held "
            "by anyone. Run the exporter with workload attribution (<code>--workload-labels info</code>).</p>"
        )
    unit = html.escape(report.cost_unit)
    head = (
        f"<tr><th>{html.escape(report.group_by)}</th><th>GPU-h held</th><th>active GPU-h</th><th>efficiency</th>"
        f"<th>idle GPU-h</th><th>idle cost ({unit})</th><th>kWh</th><th>energy cost ({unit})</th>"
        "<th>top jobs (GPU-h)</th></tr>"
    )
    body = []
    for r in report.rows:
        jobs = ", ".join(f"{html.escape(j or '(no name)')} ({_n(h)})" for j, h in r.top_jobs) or "—"
        body.append(
            f"<tr><td>{html.escape(r.group or '(none)')}</td><td class=n>{_n(r.gpu_hours_held)}</td>"
            f"<td class=n>{_n(r.active_gpu_hours)}</td><td class=n>{r.efficiency:.1%}</td>"
            f"<td class=n>{_n(r.idle_gpu_hours)}</td><td class=n>{_money(r.idle_cost)}</td>"
            f"<td class=n>{_n(r.energy_kwh)}</td><td class=n>{_money(r.energy_cost)}</td><td>{jobs}</td></tr>"
        )
    return f"<table>{head}{''.join(body)}</table>"


def _distribution(report: Report) -> str:
    """The buckets in physical GPUs, as capacity counts them, and what each holds: whole GPUs, MIG instances."""
    d = report.distribution
    labels = {BUCKETS[0]: "below 10%", BUCKETS[1]: "10&ndash;50%", BUCKETS[2]: "above 50%"}

    def parts(b: str) -> str:
        what = [f"{d.whole[b]} whole GPU{'s' if d.whole[b] != 1 else ''}"] if d.whole[b] else []
        what += [f"{d.instances[b]} MIG instance{'s' if d.instances[b] != 1 else ''}"] if d.instances[b] else []
        if b == BUCKETS[0] and d.unpartitioned:
            what.append(f"{_n(d.unpartitioned)} GPUs of MIG slices in no instance")
        return f"{labels[b]}: <b>{_n(d.gpus[b])}</b>" + (f" ({', '.join(what)})" if what else "")

    total = sum(d.gpus.values()) + d.no_reading
    missing = f" · no activity reading: {_n(d.no_reading)}" if d.no_reading else ""
    return (
        f"<p>GPUs by mean activity over the range, {_n(total)} GPUs in all (the fleet at the range's end; a MIG "
        f"instance counts as its share of its GPU): {' · '.join(parts(b) for b in BUCKETS)}{missing}.</p>"
    )


def _incidents(report: Report) -> str:
    if report.incidents is None and not report.attributed:
        return "<p>Incidents need workload attribution: no <code>gpuscope_gpu_workload_info</code> in this range.</p>"
    if report.incidents is None:
        return "<p>Incidents need the raw tier (per-GPU series); this range was read from the 1 h rollups.</p>"
    if not report.incidents:
        return "<p>None in this range.</p>"
    rows = "".join(
        f"<tr><td>{html.escape(i.kind)}</td><td>{html.escape(i.subject)}</td><td>{_date(i.start)}</td>"
        f"<td class=n>{_n((i.end - i.start) / 3600)} h</td><td>{html.escape(i.detail)}</td></tr>"
        for i in report.incidents
    )
    return f"<table><tr><th>kind</th><th>where</th><th>from</th><th>lasting</th><th>detail</th></tr>{rows}</table>"


def _forecast(report: Report) -> str:
    f = report.forecast
    if f is None:
        return "<p>Too few days in the range to fit a trend (three or more are needed).</p>"
    trend = f"{f.slope_per_day:+.2f} ± {f.slope_stderr:.2f} GPUs/day (fitted to {f.days_fitted} daily means)"
    if f.full_at is None:
        when = "not at the current trend (allocation is not growing)"
    else:
        high = "never (the trend may be flat)" if f.full_high is None else _day(f.full_high)
        low = _day(f.full_low) if f.full_low is not None else "?"
        when = f"<b>{_day(f.full_at)}</b> (95% interval {low} &ndash; {high})"
    return (
        f"<p>Allocation trend: {trend}. Allocated now: {_n(f.latest)} of {_n(f.capacity)} GPUs. "
        f"Fully allocated: {when}.</p>"
    )


def _appendix(report: Report) -> str:
    parts = []
    for n, q in enumerate(report.queries, 1):
        parts.append(
            f"<h3>{n}. {html.escape(q.name)}</h3><p class=meta>{html.escape(q.kind)}; {html.escape(q.how)}</p>"
            f"<pre>{html.escape(q.expr)}</pre>"
        )
    return "".join(parts)


def _dropped(report: Report) -> str:
    """Points the store answered that no figure counts (infinite, or beyond a physical bound), said up front."""
    if not report.dropped:
        return ""
    items = "".join(f"<li>{html.escape(d.describe())}</li>" for d in report.dropped)
    head = "<p><b>Left out of every figure below</b> (no measurement can be this):</p>"
    return f"<div class=dropped>{head}<ul>{items}</ul></div>"


def render_html(report: Report) -> str:
    tier = (
        f"raw exporter series ({report.step} s steps) · each sample counts for one scrape interval, "
        f"{report.scrape_interval} s ({report.scrape_source})"
        if report.tier == "raw"
        else "the cold tier's 1 h chargeback rollups (each hour's record read at the step after it)"
    )
    total_held = sum(r.gpu_hours_held for r in report.rows)
    total_active = sum(r.active_gpu_hours for r in report.rows)
    total_kwh = sum(r.energy_kwh for r in report.rows)
    idle_costs = [r.idle_cost for r in report.rows if r.idle_cost is not None]
    d = report.distribution
    fallback = report.units - report.prof_gpus
    source = (
        f"Activity is SM active (profiling counters) for {report.prof_gpus} of the {report.units} GPUs and MIG "
        "instances"
        + (f"; graphics-engine active or NVML utilization (coarser fallbacks) for {fallback}" if fallback > 0 else "")
        + "."
    )
    cards = [
        ("GPU-hours held", _n(total_held)),
        ("active GPU-hours", _n(total_active)),
        ("efficiency", f"{total_active / total_held:.1%}" if total_held else "—"),
        ("energy", f"{_n(total_kwh)} kWh"),
    ]
    if idle_costs:
        cards.append(("idle cost", f"{_n(sum(idle_costs))} {report.cost_unit}"))
    span = (report.start, report.end)
    plots = [
        _line_plot({"fleet mean activity": report.fleet_activity}, "Fleet utilization", "activity (ratio)", span),
        _bars(list(d.gpus), list(d.gpus.values()), "GPUs by mean activity", "GPUs (MIG instances: their share)"),
    ]
    capacity = _line_plot(
        {"allocated": report.allocated, "capacity": report.capacity}, "Allocation and capacity", "GPUs", span
    )
    return "".join(
        [
            "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>gpuscope report</title>",
            f"<style>{_CSS}</style></head><body>",
            "<h1>GPU efficiency and chargeback</h1>",
            f"<p class=meta>{_date(report.start)} &ndash; {_date(report.end)} UTC · read from {tier} · "
            f"grouped by {html.escape(report.group_by)} (label <code>{html.escape(report.group_label)}</code>) · "
            f"{report.query_count} queries, {report.bytes_fetched:,} bytes read from Prometheus</p>",
            f"<p class=meta>Holders: {html.escape(report.attribution.summary())}.</p>",
            _dropped(report),
            "<div class=cards>",
            *(f"<div class=card>{html.escape(k)}<b>{html.escape(v)}</b></div>" for k, v in cards),
            "</div>",
            _unpriced(report),
            f"<p class=meta>{html.escape(UNIT_NOTE)}</p>",
            "<h2>Fleet utilization</h2>",
            f"<p>{source}</p>",
            _distribution(report),
            f"<div class=plots>{''.join(plots)}</div>",
            f"<h2>By {html.escape(report.group_by)}</h2>",
            _efficiency_plot(report) if report.rows else "",
            _group_table(report),
            "<h2>Incidents: zombie GPU memory and allocated-but-idle GPUs</h2>",
            _incidents(report),
            "<h2>Capacity</h2>",
            _forecast(report),
            capacity,
            "<h2>Appendix: the PromQL behind every number</h2>",
            _appendix(report),
            "</body></html>\n",
        ]
    )
