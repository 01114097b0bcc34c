"""The live terminal view of ``gpuscope up`` and the one-shot ``gpuscope status`` summary (same sections).

``gpuscope status`` prints every section (``render``); the live view (``LiveView``) redraws in place, and rich cuts
whatever is taller than the terminal: it keeps to the terminal's height by summarising, least useful first (the
inject help, the host-signals note, the events, the URLs, then the longer sections to one line each), so the
clusters and the tour stay in sight at 80x24.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from gpuscope.dashboards.defaults import uid_for
from gpuscope.runner import DEFAULT_DATA_DIR
from gpuscope.runner.plan import FAST_SPEEDUP
from gpuscope.runner.status import STORY_ALERT

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


def workloads(status: dict[str, Any]) -> str:
    """Who holds which GPU, and when the idle team's alert arrives (``story``)."""
    return (
        "Who holds which GPU: each Kubernetes node's simulated kubelet (PodResources on a unix socket) lists the "
        "teams' pods: ml busy, serving time-slicing GPU 0, research on MPS, vision holding GPUs it does not use"
        f" ({story(status) or STORY_ALERT}), a notebook sitting on memory, llm growing node by node. "
        "Slurm clusters run jobs through the job-mapping directory; two of them push progress to the Pushgateway."
    )


def story(status: dict[str, Any]) -> str:
    """When GPUAllocatedButIdle fires, as the stack's own rules have it (``status["story_alert"]``, from
    ``runner.status.story_alert``): its ``for`` is 50 minutes at real time, 15x shorter with ``--fast``."""
    alert = status.get("story_alert")
    if not isinstance(alert, dict):
        return ""
    text = (
        f"{alert['alert']} fires once the GPU has been idle for {alert['for']}: "
        f"about {_minutes(alert['fires_after_seconds'])} after the stack started"
    )
    if not status.get("fast") and alert["fires_after_seconds"] > 15 * 60:
        text += f"; `gpuscope up --fast` runs the rules {FAST_SPEEDUP}x faster"
    return text


def _parenthesised(text: str) -> str:
    return f" ({text})" if text else ""


def _minutes(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{round(seconds / 60)} minutes"


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


def alerting(cluster: dict[str, Any]) -> str:
    """The cluster's Alertmanager column: connected when any replica delivers (the pair exists so that one can
    fail), naming the replica that does not."""
    missing = [r for r, replica in sorted(cluster["replicas"].items()) if not replica["alertmanagers"]]
    if not missing:
        return "connected"
    if len(missing) == len(cluster["replicas"]):
        return "not connected"
    return "connected; " + ", ".join(f"replica {r}" for r in missing) + " not"


def clusters_table(status: dict[str, Any], *, rows: int | None = None) -> Table:
    """The clusters, the first ``rows`` of them and one line counting the rest when ``rows`` is given."""
    table = Table(title="Clusters", expand=True)
    table.add_column("cluster", no_wrap=True)
    for col in ("targets up (A/B)", "GPUs reporting", "samples/s", "rules", "Alertmanager"):
        table.add_column(col)
    every = status.get("clusters", [])
    for c in every[:rows]:
        a, b = c["replicas"]["a"], c["replicas"]["b"]
        total = c["targets_total"]
        table.add_row(
            c["name"],
            f"{a['targets_up']}/{total} · {b['targets_up']}/{total}",
            f"{c['gpus_reporting']}/{c['gpus_expected']}",
            f"{c['samples_per_second']:.0f}",
            f"{a['rule_groups']} groups" + (f", {a['rule_errors']} failing" if a["rule_errors"] else ""),
            alerting(c),
        )
    if rows is not None and len(every) > rows:
        table.add_row(f"+{len(every) - rows} more", "gpuscope status lists every cluster")
    return table


def _alerts_summary(status: dict[str, Any]) -> str:
    by_owner = status.get("alerts", {}).get("firing_by_owner", {})
    return (
        "Firing alerts by owner: "
        + (", ".join(f"{o}: {n}" for o, n in sorted(by_owner.items())) or "none")
        + f"   Notifications received: {status.get('notifications', 0)}"
    )


def _alerts(status: dict[str, Any], shown: int) -> Text:
    firing = Text(_alerts_summary(status))
    every = status.get("alerts", {}).get("firing", [])
    for al in every[:shown]:
        labels = al["labels"]
        where = labels.get("Hostname") or labels.get("hostname") or labels.get("instance", "")
        firing.append(
            f"\n  {al['severity']:6} {al['alertname']} {labels.get('cluster', '')} {where} "
            f"{('GPU ' + labels['gpu']) if 'gpu' in labels else ''}"
        )
    if len(every) > shown:
        firing.append(f"\n  +{len(every) - shown} more: gpuscope status")
    return firing


def _floor(status: dict[str, Any], failing_shown: int | None) -> Text:
    floor = status.get("floor", [])
    ok = bool(floor) and all(c["ok"] for c in floor)
    after = status.get("floor_green_after_seconds")
    floor_text = Text("Phase 1 floor: " + ("GREEN" if ok else "not yet"), style="bold green" if ok else "yellow")
    if after is not None:
        floor_text.append(f" (green after {after:.0f}s)")
    failing = [c for c in floor if not c["ok"]]
    for c in failing[:failing_shown]:
        floor_text.append(f"\n  ✗ {c['name']}: {c['detail']}")
    if failing_shown is not None and len(failing) > failing_shown:
        sep = "\n  " if failing_shown else ", "
        floor_text.append(f"{sep}{len(failing) - failing_shown} checks failing: gpuscope status")
    return floor_text


def _urls(status: dict[str, Any]) -> Table:
    urls = Table.grid(padding=(0, 2))
    if status.get("global_store"):
        urls.add_row("global store", status["global_store"])
    for name, url in sorted(status.get("urls", {}).items()):
        urls.add_row(name, url)
    return urls


def _try_it_line(status: dict[str, Any]) -> Text:
    console = status.get("urls", {}).get("console", "<console>")
    return Text(f"Try it: {console}   (the tour and every URL: gpuscope status){_parenthesised(story(status))}")


# A section's forms, fullest first; an empty form leaves the section out.
Forms = Sequence[Callable[[], Sequence[RenderableType]]]


def sections(status: dict[str, Any]) -> dict[str, Forms]:
    remediation = status.get("remediation") or []
    events = status.get("events", [])
    host = "node-exporter" in status.get("urls", {})
    inject = Text(INJECT_HELP + _data_dir_hint(status.get("data_dir")))
    return {
        "clusters": [lambda: [clusters_table(status)]],
        "floor": [
            lambda: [Panel(_floor(status, None))],
            lambda: [Panel(_floor(status, 4))],
            lambda: [_floor(status, 0)],
        ],
        "alerts": [
            lambda: [Panel(_alerts(status, 8), title="Alerts")],
            lambda: [Panel(_alerts(status, 3), title="Alerts")],
            lambda: [Text(_alerts_summary(status))],
        ],
        "remediation": [
            lambda: [Panel(Text("\n".join(remediation)), title="Remediation (dry run)")] if remediation else [],
            lambda: [Text(f"Remediation (dry run): {len(remediation)} decisions")] if remediation else [],
        ],
        "urls": [lambda: [Panel(_urls(status), title="URLs")], list],
        "host": [lambda: [Panel(Text(HOST_SIGNALS), title="Host signals")] if host else [], list],
        "events": [
            lambda: [Panel(Text("\n".join(events[-6:])), title="Events")],
            lambda: [Panel(Text("\n".join(events[-2:])), title="Events")] if events else [],
            list,
        ],
        "try": [
            lambda: [Panel(Text(tour(status) + "\n" + workloads(status)), title="Try it")],
            lambda: [Panel(Text("\n".join(filter(None, (tour(status), story(status))))), title="Try it")],
            lambda: [_try_it_line(status)],
        ],
        "inject": [lambda: [Panel(inject, title="Inject faults (another terminal)")], list],
    }


# The order on screen, and the order in which the live view summarises sections to fit the terminal: the least
# useful first; the clusters and the tour stay, summarised last.
ORDER = ("clusters", "floor", "alerts", "remediation", "urls", "host", "events", "try", "inject")
SUMMARISE = (
    *("inject", "host", "floor", "events", "urls", "alerts", "try"),
    *("remediation", "events", "alerts", "floor", "try"),
)


def render(status: dict[str, Any]) -> Group:
    """Every section in full: ``gpuscope status`` prints it once, the terminal scrolls."""
    forms = sections(status)
    return Group(*_chosen(forms, dict.fromkeys(ORDER, 0)))


def _chosen(forms: dict[str, Forms], form: dict[str, int]) -> Iterator[RenderableType]:
    for name in ORDER:
        yield from forms[name][form[name]]()


class LiveView:
    """The sections that fit the terminal (``options.max_height``, less the cursor's line): summarised in the
    ``SUMMARISE`` order until they fit, then the clusters cut to the rows that fit, with a line counting the rest."""

    def __init__(self, status: dict[str, Any]) -> None:
        self.status = status

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        budget = max(1, options.max_height - 1)
        measure = options.update(height=None)

        def height(parts: Sequence[RenderableType]) -> int:
            return len(console.render_lines(Group(*parts), measure, pad=False))

        forms = sections(self.status)
        form = dict.fromkeys(ORDER, 0)
        steps = iter(SUMMARISE)
        parts = list(_chosen(forms, form))
        while height(parts) > budget:
            name = next(steps, None)
            if name is None:
                break
            form[name] = min(form[name] + 1, len(forms[name]) - 1)
            parts = list(_chosen(forms, form))
        clusters = len(self.status.get("clusters", []))
        rows = clusters
        while height(parts) > budget and rows > 1:
            rows -= 1
            parts = [clusters_table(self.status, rows=rows), *parts[1:]]
        yield Group(*parts)


def _data_dir_hint(data_dir: str | None) -> str:
    default = str(Path(DEFAULT_DATA_DIR).resolve())
    return "" if data_dir in (None, default) else f"\n(each with --data-dir {data_dir})"
