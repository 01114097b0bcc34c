"""The report as a terminal table (one row per check, grouped by section) or as JSON for automation."""

from __future__ import annotations

import json

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from gpuscope.doctor.results import CheckResult, Report, Section, Status
from gpuscope.doctor.timing import duration

STYLES = {Status.PASS: "green", Status.WARN: "yellow", Status.FAIL: "bold red", Status.SKIP: "dim"}


def to_json(report: Report) -> str:
    return json.dumps(report.to_json(), indent=2, sort_keys=True)


def _details(result: CheckResult, verbose: bool) -> Text:
    """The finding; its evidence (all of it for a problem or with ``verbose``, else the headline); fix, runbook."""
    text = Text(result.summary)
    problem = result.status in (Status.WARN, Status.FAIL)
    for e in result.evidence if problem or verbose else result.evidence[:1]:
        text.append("\n")
        text.append(f"{e.query} = {e.value}", style="dim")
    if problem:
        if result.fix:
            text.append(f"\nfix: {result.fix}")
        if result.runbook:
            text.append(f"\nrunbook: {result.runbook}")
    return text


def _header(report: Report) -> Text:
    d = report.detected
    cluster = f", cluster {d['cluster']}" if d.get("cluster") else ""
    hosts = "/".join(d.get("host_labels_present") or []) or "none"
    lines = [
        f"gpuscope doctor: {report.prometheus} (Prometheus {report.version}{cluster}), "
        f"look-back window {duration(report.window_s)}" + (f", speedup {report.speedup}" if report.speedup > 1 else ""),
        f"detected: exporter {d['exporter_selector']}, host label {hosts}, {d['uuid_label']}, "
        f"{d['dialect']} names, Prometheus self-metrics {d['prometheus_selector']}",
    ]
    return Text("\n".join(lines + list(report.notes)))


def _summary(report: Report) -> Text:
    counts = ", ".join(f"{report.count(s)} {s.value}" for s in Status if report.count(s))
    return Text(f"{counts}; exit code {report.exit_code}")


def to_table(report: Report, verbose: bool = False) -> Group:
    """A renderable for ``rich``: header, one table per section, summary line."""
    parts: list[Text | Table] = [_header(report)]
    for section in Section:
        table = Table(title=section.value, title_justify="left", box=box.SIMPLE_HEAD, show_lines=True, expand=True)
        table.add_column("status", no_wrap=True)
        table.add_column("check", no_wrap=True)
        table.add_column("finding, evidence (query = value), fix", ratio=1, overflow="fold")
        for result in (r for r in report.results if r.section is section):
            table.add_row(Text(result.status.value, style=STYLES[result.status]), result.id, _details(result, verbose))
        parts.append(table)
    parts.append(_summary(report))
    return Group(*parts)
