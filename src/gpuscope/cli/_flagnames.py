"""The flag of each library parameter that an ``InvalidValue`` names: the library words its errors by its own
names (``group_by``), so the console and the runner reuse its checks; the CLI prints them with the flags the user
typed (``--group-by``). One table for every command: a name means the same parameter wherever it is raised."""

from __future__ import annotations

FLAG_NAMES: dict[str, str] = {
    # gpuscope report (report/collect.py ReportRequest)
    "start": "--from",
    "end": "--to",
    "range": "--from/--to",
    "group_by": "--group-by",
    "tier": "--tier",
    "team_label": "--team-label",
    "raw_step": "--step",
    "scrape_interval": "--scrape-interval",
    "currency": "--currency",
    "hour_costs": "--gpu-hour-cost",
    "kwh_price": "--price-per-kwh",
    # gpuscope sim (simulator/fleet.py)
    "nodes": "--nodes",
    "gpus_per_node": "--gpus-per-node",
    "mig_nodes": "--mig-nodes",
    "mig_layout": "--mig-layout",
    "base_address": "--base-address",
    "targets_file": "--targets-file",
}
