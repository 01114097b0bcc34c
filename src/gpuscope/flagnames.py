"""The flag of each library parameter an error names: the library words its errors by its own names (``group_by``),
so the console and the runner reuse its checks; the CLI prints them with the flags the user typed (``--group-by``).
A leaf below the library, not in ``cli/``: the exporter's runtime words the errors it logs itself (a failed reload,
the kubelet socket) by the flags its user set, as its start-up line does (``flag_names("exporter")``).

Per command: a name is worded as a flag only under a command that has that flag (``gpuscope up`` writes a bundle
too, but has no ``-o/--output``: there the library's words stand)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

_ACCESS = {  # the Prometheus access flags (prom/access.py)
    "ca_file": "--ca-file",
    "cert_file": "--cert-file",
    "key_file": "--key-file",
    "bearer_token_file": "--bearer-token-file",
    "basic_auth_user": "--basic-auth-user",
    "basic_auth_password_file": "--basic-auth-password-file",
}

FLAG_NAMES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "report": {  # report/collect.py ReportRequest
            "attribution": "--attribution",
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
        },
        "sim": {  # simulator/fleet.py
            "nodes": "--nodes",
            "gpus_per_node": "--gpus-per-node",
            "mig_nodes": "--mig-nodes",
            "mig_layout": "--mig-layout",
            "base_address": "--base-address",
            "targets_file": "--targets-file",
            # the exporter's flags sim shares (cli/_dcgm_flags.py BOTH)
            "web_config_file": "--web-config-file",
            "pod_resources_kubelet_socket": "--pod-resources-kubelet-socket",
        },
        "remediate": {  # remediate/run.py, ledger.py, audit.py, server.py, policy.py
            "apply": "--apply",
            "listen": "--listen",
            "bearer_token_file": "--bearer-token-file",
            "web_config_file": "--web-config-file",
            "insecure_no_auth": "--insecure-no-auth",
            "state_file": "--state-file",
            "audit_log": "--audit-log",
            "policy": "--policy",
        },
        "doctor": {"prometheus": "--prometheus", "global_store": "--global", "fleet": "--fleet", **_ACCESS},
        "generate": {"output": "-o/--output"},  # bundle.py
        "exporter": {
            "backend": "--backend",  # backends/__init__.py
            "web_config_file": "--web-config-file",  # httpd/webconfig.py, exporter/app.py
            "web_systemd_socket": "--web-systemd-socket (env DCGM_EXPORTER_SYSTEMD_SOCKET)",  # httpd/systemd.py
            "address": "-a/--address",  # httpd/systemd.py's fix
            "configmap_data": "-m/--configmap-data (env DCGM_EXPORTER_CONFIGMAP_DATA)",  # exporter/configmap.py
            "pod_resources_kubelet_socket": "--pod-resources-kubelet-socket",  # exporter/attribution/kubelet.py
        },
        # the local stack's commands (runner/state.py)
        "up": {"data_dir": "--data-dir"},
        "status": {"data_dir": "--data-dir"},
        "inject": {"data_dir": "--data-dir", "cluster": "--cluster", "node": "--node", "replica": "--replica"},
        "clear": {"data_dir": "--data-dir"},
    }
)


def flag_names(command: str) -> Mapping[str, str]:
    """The flags of ``command`` (``report``) by the library's names for the parameters; empty for another."""
    return FLAG_NAMES.get(command, {})
