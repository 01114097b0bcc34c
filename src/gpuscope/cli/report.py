"""``gpuscope report``: efficiency and chargeback for a time range, as one self-contained HTML file, CSV or JSON."""

from __future__ import annotations

import math
import os
import re
import time
from datetime import UTC, datetime
from typing import Annotated

import typer

from gpuscope.cli._app import app
from gpuscope.errors import UsageError
from gpuscope.flagnames import flag_names

_RELATIVE = re.compile(r"^now(?:-([0-9]{1,12})([smhd]))?$")  # ASCII digits, few: int() refuses 4,300+
_UNIT = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_time(value: str, flag: str, now: float) -> float:
    """``now``, ``now-7d``, Unix seconds, or an ISO 8601 date/time (UTC unless it names a zone)."""
    text = value.strip()
    match = _RELATIVE.match(text)
    if match:
        amount, unit = match.groups()
        return now - (int(amount) * _UNIT[unit] if amount else 0)
    try:
        seconds = float(text)
    except ValueError:
        pass
    else:
        if math.isfinite(seconds):
            return seconds
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(
            f"{flag} {value!r:.80}: give an ISO date (2026-11-01, 2026-11-01T12:00Z), Unix seconds or now-7d"
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()


def parse_costs(values: list[str]) -> tuple[tuple[str, float], ...]:
    out: dict[str, float] = {}
    for value in values:
        model, sep, price = value.rpartition("=")
        try:
            amount = float(price)
        except ValueError:
            amount = math.nan
        if not sep or not model or not math.isfinite(amount):
            raise UsageError(f"--gpu-hour-cost {value!r:.80}: write MODEL=PRICE, e.g. 'NVIDIA H100 80GB HBM3=2.50'")
        out[model] = amount
    return tuple(sorted(out.items()))


def parse_interval(value: str) -> int | None:
    """``auto`` (None: read from the store), or whole seconds: ``15``, ``15s``, ``1m``."""
    text = value.strip()
    if text == "auto":
        return None
    match = re.fullmatch(r"([0-9]{1,6})([sm]?)", text)
    if not match:
        raise UsageError(f"--scrape-interval {value!r:.80}: give seconds (15, 15s, 1m) or auto")
    return int(match.group(1)) * _UNIT[match.group(2) or "s"]


@app.command("report")
def report_command(
    prometheus: Annotated[str, typer.Option("--prometheus", help="Prometheus (or compatible) base URL.")],
    start: Annotated[str, typer.Option("--from", help="Start: ISO date/time (UTC), Unix seconds or now-30d.")],
    end: Annotated[str, typer.Option("--to", help="End: ISO date/time (UTC), Unix seconds or now.")] = "now",
    output: Annotated[str, typer.Option("-o", "--output", help="File to write (written atomically).")] = "report.html",
    fmt: Annotated[str, typer.Option("--format", help="html, csv (the group table) or json (everything).")] = "html",
    group_by: Annotated[str, typer.Option("--group-by", help="namespace, team, job (pod) or cluster.")] = "namespace",
    kwh_price: Annotated[float | None, typer.Option("--price-per-kwh", help="Energy price per kWh.")] = None,
    gpu_hour_cost: Annotated[
        list[str] | None,
        typer.Option("--gpu-hour-cost", help="MODEL=PRICE per GPU-hour (repeatable); prices idle time."),
    ] = None,
    currency: Annotated[
        str,
        typer.Option(
            "--currency", help="What the prices are in (USD, EUR, €), shown with every cost; default: cost units."
        ),
    ] = "",
    tier: Annotated[
        str, typer.Option("--tier", help="auto (raw up to --raw-max-days, else rollups), raw or rollup.")
    ] = "auto",
    raw_max_days: Annotated[float, typer.Option("--raw-max-days", help="Longest range read from raw series.")] = 15.0,
    team_label: Annotated[
        str, typer.Option("--team-label", help="Pod label naming a team (--group-by team).")
    ] = "team",
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds allowed per Prometheus query.")] = 60.0,
    step: Annotated[
        int, typer.Option("--step", help="Raw tier step in seconds: the resolution of the plots, not of the bill.")
    ] = 300,
    scrape_interval: Annotated[
        str,
        typer.Option(
            "--scrape-interval",
            help="Seconds each raw sample stands for (the exporters' scrape interval), or auto: read from the store.",
        ),
    ] = "auto",
    attribution: Annotated[
        str,
        typer.Option(
            "--attribution",
            help="Where holders are read: auto (detected), info (gpuscope_gpu_workload_info), labels (namespace/pod "
            "on DCGM series), old-labels (pod_namespace/pod_name, dcgm-exporter -o), exported (exported_namespace/"
            "exported_pod, honorLabels: false) or none.",
        ),
    ] = "auto",
) -> None:
    """Who uses the GPUs they hold, what it costs, and when the fleet runs out: one report over a time range."""
    from gpuscope.prom import Client, Endpoint, Limits
    from gpuscope.report.attribution import DIALECTS
    from gpuscope.report.collect import ReportRequest, collect
    from gpuscope.report.write import write_atomic

    if fmt not in ("html", "csv", "json"):
        raise UsageError(f"--format {fmt!r}: choose html, csv or json")
    if tier not in ("auto", "raw", "rollup"):
        raise UsageError(f"--tier {tier!r}: choose auto, raw or rollup")
    if not (math.isfinite(timeout) and timeout > 0):
        raise UsageError(f"--timeout {timeout}: give a positive number of seconds")
    if not re.fullmatch(r"[a-zA-Z_][a-zA-Z0-9_]*", team_label):
        raise UsageError(f"--team-label {team_label!r}: give a Prometheus label name")
    if attribution != "auto" and attribution not in DIALECTS:
        raise UsageError(f"--attribution {attribution!r:.80}: choose auto, {', '.join(DIALECTS)}")
    scrape = parse_interval(scrape_interval)
    now = time.time()
    request = ReportRequest(
        start=parse_time(start, "--from", now),
        end=parse_time(end, "--to", now),
        group_by=group_by,
        kwh_price=kwh_price,
        hour_costs=parse_costs(gpu_hour_cost or []),
        tier=tier,  # type: ignore[arg-type]
        raw_max_days=raw_max_days,
        team_label=team_label,
        raw_step=step,
        attribution=attribution,  # type: ignore[arg-type]
        scrape_interval=scrape,
        currency=currency,
    )
    # --timeout bounds each query; Prometheus is told the same deadline and gives up when we do.
    with Client(Endpoint(prometheus), limits=Limits(timeout_s=timeout)) as client:
        report = collect(client, request)
    if fmt == "html":
        from gpuscope.report.html import render_html

        text = render_html(report)
    else:
        from gpuscope.report.tables import to_csv, to_json

        text = to_json(report) if fmt == "json" else to_csv(report)
    write_atomic(output, text)
    if report.unpriced:
        models = ", ".join(repr(m) for m in report.unpriced)
        typer.echo(
            f"gpuscope: warning: no --gpu-hour-cost for {models}: their idle GPU-hours are in no idle cost "
            "(add --gpu-hour-cost 'MODEL=PRICE' for each)",
            err=True,
        )
    flags = flag_names("report")  # a figure "given" was given by its flag
    source = flags["scrape_interval"] if report.scrape_source == "given" else report.scrape_source
    scraped = f", {report.scrape_interval}s scrape interval ({source})" if report.tier == "raw" else ""
    # the size of the file on disk: the bytes read from Prometheus, said alone, were taken for it
    written = os.stat(output).st_size
    typer.echo(
        f"{output}: {written:,} bytes, {len(report.rows)} groups, {report.tier} tier ({report.step}s steps{scraped}), "
        f"{report.attribution.summary(given=flags['attribution'])}; read {report.bytes_fetched:,} bytes from "
        "Prometheus in "
        f"{report.query_count} queries"
    )
