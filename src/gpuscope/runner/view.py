"""The live terminal view of ``gpuscope up`` and the one-shot ``gpuscope status`` summary (same rendering)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gpuscope.dashboards.defaults import uid_for
from gpuscope.runner import DEFAULT_DATA_DIR

INJECT_HELP = (
    "gpuscope inject thermal --cluster gpu-a --node 0 --gpu 3   "
    "(or xid --code 94, fell-off-bus, profiling-lock, ecc-dbe, nvlink-crc, restart, slow; hostengine-down, "
    "hostengine-restart, version-skew per node)\n"
    "gpuscope inject exporter-down --cluster gpu-b --node 1     gpuscope inject prometheus-down --cluster gpu-a "
    "--replica a\n"
    "gpuscope inject global-down     gpuscope clear     gpuscope status --json"
)

HOST_SIGNALS = (
    "node-exporter is real: this machine, shown under every simulated node (one real host under simulated GPUs). "
    "kube-state-metrics and the kubelets' cAdvisor are simulated for the Kubernetes clusters' pods "
    "(/sim/kube-state-metrics and /metrics/cadvisor on the simulated nodes)."
)


WORKLOADS = (
    "Who holds which GPU: each Kubernetes node's simulated kubelet (PodResources on a unix socket) lists the teams' "
    "pods: ml busy, serving time-slicing GPU 0, research on MPS, vision holding GPUs it does not use "
    "(GPUAllocatedButIdle fires within minutes), a notebook sitting on memory, llm growing node by node. "
    "Slurm clusters run jobs through the job-mapping directory; two of them push progress to the Pushgateway."
)


def tour(status: dict[str, Any]) -> str:
    """What to try first, with this stack's own URLs: the console's L1 and L5, a fault, the report."""
    urls = status.get("urls", {})
    console, store = urls.get("console", "<console>"), urls.get("global", "<global>")
    fleet = status.get("fleet", "local")

    def page(key: str) -> str:
        return f"{console}/d/{uid_for(fleet, key)}"

    lines = (
        f"1. {page('l1-fleet')}   allocation and allocation efficiency per cluster",
        f"2. {page('l5-workload')}   pods, the GPUs they hold, how well they use them; Slurm jobs",
        f"   {page('efficiency')}   GPU-hours held and active, idle GPUs, per namespace",
        "3. gpuscope inject thermal --cluster gpu-b --node 0 --gpu 3   then the console's alerts page "
        f"({console}/alerts); gpuscope clear",
        f"4. gpuscope report --prometheus {store} --from now-15m --step 15 -o report.html   per-team GPU-hours "
        "held/active and idle cost (--gpu-hour-cost 'NVIDIA H100 80GB HBM3=4')",
    )
    return "\n".join(lines) + _data_dir_hint(status.get("data_dir"))


def render(status: dict[str, Any]) -> Group:
    clusters = Table(title="Clusters", expand=True)
    for col in ("cluster", "targets up (A/B)", "GPUs reporting", "samples/s", "rules", "Alertmanager"):
        clusters.add_column(col)
    for c in status.get("clusters", []):
        a, b = c["replicas"]["a"], c["replicas"]["b"]
        total = c["targets_total"]
        clusters.add_row(
            c["name"],
            f"{a['targets_up']}/{total} · {b['targets_up']}/{total}",
            f"{c['gpus_reporting']}/{c['gpus_expected']}",
            f"{c['samples_per_second']:.0f}",
            f"{a['rule_groups']} groups" + (f", {a['rule_errors']} failing" if a["rule_errors"] else ""),
            "connected" if a["alertmanagers"] and b["alertmanagers"] else "not connected",
        )
    alerts = status.get("alerts", {})
    by_owner = alerts.get("firing_by_owner", {})
    firing = Text(
        "Firing alerts by owner: "
        + (", ".join(f"{o}: {n}" for o, n in sorted(by_owner.items())) or "none")
        + f"   Notifications received: {status.get('notifications', 0)}"
    )
    for al in alerts.get("firing", [])[:8]:
        labels = al["labels"]
        where = labels.get("Hostname") or labels.get("hostname") or labels.get("instance", "")
        firing.append(
            f"\n  {al['severity']:6} {al['alertname']} {labels.get('cluster', '')} {where} "
            f"{('GPU ' + labels['gpu']) if 'gpu' in labels else ''}"
        )
    floor = status.get("floor", [])
    ok = bool(floor) and all(c["ok"] for c in floor)
    after = status.get("floor_green_after_seconds")
    floor_text = Text("Phase 1 floor: " + ("GREEN" if ok else "not yet"), style="bold green" if ok else "yellow")
    if after is not None:
        floor_text.append(f" (green after {after:.0f}s)")
    for c in floor:
        if not c["ok"]:
            floor_text.append(f"\n  ✗ {c['name']}: {c['detail']}")
    urls = Table.grid(padding=(0, 2))
    if status.get("global_store"):
        urls.add_row("global store", status["global_store"])
    for name, url in sorted(status.get("urls", {}).items()):
        urls.add_row(name, url)
    events = Text("\n".join(status.get("events", [])[-6:]))
    remediation = status.get("remediation") or []
    return Group(
        clusters,
        Panel(floor_text),
        Panel(firing, title="Alerts"),
        *((Panel(Text("\n".join(remediation)), title="Remediation (dry run)"),) if remediation else ()),
        Panel(urls, title="URLs"),
        *((Panel(Text(HOST_SIGNALS), title="Host signals"),) if "node-exporter" in status.get("urls", {}) else ()),
        Panel(events, title="Events"),
        Panel(Text(tour(status) + "\n" + WORKLOADS), title="Try it"),
        Panel(Text(INJECT_HELP + _data_dir_hint(status.get("data_dir"))), title="Inject faults (another terminal)"),
    )


def _data_dir_hint(data_dir: str | None) -> str:
    default = str(Path(DEFAULT_DATA_DIR).resolve())
    return "" if data_dir in (None, default) else f"\n(each with --data-dir {data_dir})"
