"""The report's tables as JSON or CSV (deterministic: sorted keys, fixed column order)."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from typing import Any

from gpuscope.report.collect import Report
from gpuscope.rules.accounting import UNIT_NOTE

COLUMNS = (
    "group",
    "gpu_hours_held",
    "active_gpu_hours",
    "efficiency",
    "idle_gpu_hours",
    "idle_cost",
    "energy_kwh",
    "energy_cost",
    "top_jobs",
    "currency",  # what idle_cost and energy_cost are in ("" where --currency was not given)
)


def to_json(report: Report) -> str:
    body: dict[str, Any] = {
        "range": {
            "start": report.start,
            "end": report.end,
            "step_seconds": report.step,
            "tier": report.tier,
            "scrape_interval_seconds": report.scrape_interval,
            "scrape_interval_source": report.scrape_source,
        },
        "attribution": {
            "dialect": report.attribution.dialect,
            "detected": report.attribution.detected,
            "description": report.attribution.description,
            "uuid_label": report.attribution.uuid_label,
        },
        "group_by": report.group_by,
        "unit": UNIT_NOTE,
        "groups": [asdict(r) for r in report.rows],
        "capacity_by_model": report.capacity_by_model,
        # the fleet's GPU-hours over the range (each step's mean GPUs x the step): what held is a share of
        "gpu_hours_seen": sum(report.capacity.values()) * report.step / 3600,
        # physical GPUs per bucket (a MIG instance its share), and what each bucket holds
        "distribution": report.distribution.gpus,
        "distribution_detail": {
            "whole_gpus": report.distribution.whole,
            "mig_instances": report.distribution.instances,
            "unpartitioned_gpus": report.distribution.unpartitioned,
            "no_reading_gpus": report.distribution.no_reading,
        },
        "activity_source": {"profiling": report.prof_gpus, "gpus": report.units},
        "attributed": report.attributed,
        "incidents": None if report.incidents is None else [asdict(i) for i in report.incidents],
        "forecast": None if report.forecast is None else asdict(report.forecast),
        "prices": {
            "per_kwh": report.kwh_price,
            "per_gpu_hour": report.hour_costs,
            "currency": report.currency,
            "unpriced_models": list(report.unpriced),
        },
        "queries": [asdict(q) for q in report.queries],
        # points of the answers no figure counts: infinite, or beyond the quantity's physical bound
        "dropped": [asdict(d) | {"description": d.describe()} for d in report.dropped],
    }
    return json.dumps(body, indent=2, sort_keys=True) + "\n"


def to_csv(report: Report) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in report.rows:
        jobs = ";".join(f"{name}={hours:.3f}" for name, hours in r.top_jobs)  # as the hours columns
        writer.writerow(
            [
                r.group,
                f"{r.gpu_hours_held:.3f}",
                f"{r.active_gpu_hours:.3f}",
                f"{r.efficiency:.4f}",
                f"{r.idle_gpu_hours:.3f}",
                "" if r.idle_cost is None else f"{r.idle_cost:.2f}",
                f"{r.energy_kwh:.3f}",
                "" if r.energy_cost is None else f"{r.energy_cost:.2f}",
                jobs,
                report.currency,
            ]
        )
    return out.getvalue()
