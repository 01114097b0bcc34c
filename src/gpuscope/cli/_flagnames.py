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
    # gpuscope remediate (remediate/run.py, ledger.py, audit.py, server.py)
    "apply": "--apply",
    "listen": "--listen",
    "bearer_token_file": "--bearer-token-file",
    "web_config_file": "--web-config-file",
    "insecure_no_auth": "--insecure-no-auth",
    "state_file": "--state-file",
    "audit_log": "--audit-log",
    "policy": "--policy",
    # gpuscope doctor (doctor/)
    "prometheus": "--prometheus",
    "global_store": "--global",
    "fleet": "--fleet",
    # gpuscope generate (bundle.py), gpuscope exporter/sim (backends/)
    "output": "-o/--output",
    "backend": "--backend",
    # the Prometheus access flags of doctor and console (prom/access.py)
    "ca_file": "--ca-file",
    "cert_file": "--cert-file",
    "key_file": "--key-file",
    "basic_auth_user": "--basic-auth-user",
    "basic_auth_password_file": "--basic-auth-password-file",
}
