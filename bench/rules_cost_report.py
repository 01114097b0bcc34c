"""The rules benchmark's tables: per group before -> after at each size with the fitted fixed and per-GPU parts,
the targets, the most expensive expressions, and the other parts at 1,000 nodes (doctor, budget, generate)."""

from __future__ import annotations

from typing import Any

from common import Section
from rule_sets import GROUP_PREFIX, Fit, Rule, fit, per_15s, plain

TARGET_GPUS = 4000
LARGEST_GPUS = 8000
SLOW_S = 300.0  # 5 m groups and longer: a short window may hold none of their evaluations


def _group_cost(size: dict[str, Any], group: str, interval_s: float, source: str) -> float | None:
    """Seconds per evaluation: the sum of the group's rules alone through the query API (``alone``), or the mean
    of Prometheus's own durations of the group's evaluations in the window (``run``; None where it saw none)."""
    if source == "alone":
        return sum(v["eval_s"] for (g, _), v in size["isolated"].items() if g == group)
    seen = size["groups"].get(group)
    if interval_s < SLOW_S and seen and seen["durations"]:
        return float(sum(seen["durations"]) / len(seen["durations"]))
    return None


def _groups(rules: list[Rule]) -> dict[str, dict[str, float]]:
    """Plain group name -> {"before"/"after": interval} in rule-file order, the generated set's groups first."""
    out: dict[str, dict[str, float]] = {}
    for rule in sorted(rules, key=lambda r: r.baseline):
        out.setdefault(plain(rule.group), {})["before" if rule.baseline else "after"] = rule.interval_s
    return out


def _full(name: str, which: str) -> str:
    return GROUP_PREFIX + name if which == "before" else name


def _ms(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1e3:,.0f}" if seconds >= 0.01 else f"{seconds * 1e3:.1f}"


def _interval(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return f"{seconds / 3600:g} h" if seconds >= 3600 else f"{seconds / 60:g} m" if seconds >= 60 else f"{seconds:g} s"


def _fit_text(f: Fit | None) -> str:
    return "—" if f is None else f"{f.fixed_s * 1e3:,.1f} ms + {f.per_gpu_s * 1e6:,.2f} µs/GPU"


def _at(sizes: list[dict[str, Any]], values: list[float], gpus: int) -> tuple[float | None, str]:
    """The value at ``gpus``: measured if that size ran, else the fitted line (labelled extrapolated)."""
    for size, value in zip(sizes, values, strict=True):
        if size["gpus"] == gpus:
            return value, "measured"
    f = fit([(s["gpus"], v) for s, v in zip(sizes, values, strict=True)])
    return (None, "not measured") if f is None else (f.at(gpus), "fitted, extrapolated")


def _per_group(
    sizes: list[dict[str, Any]], groups: dict[str, dict[str, float]], source: str
) -> dict[tuple[str, str], list[float | None]]:
    costs: dict[tuple[str, str], list[float | None]] = {}
    for name, intervals in groups.items():
        for which, interval in intervals.items():
            costs[(name, which)] = [_group_cost(s, _full(name, which), interval, source) for s in sizes]
    return costs


def _known(values: list[float | None]) -> list[float]:
    return [v or 0.0 for v in values]


def _totals(
    groups: dict[str, dict[str, float]], costs: dict[tuple[str, str], list[float | None]], n: int
) -> dict[str, Any]:
    """Per set: per 15 s over the groups faster than 5 m, and per evaluation of the 5 m and 1 h groups."""
    out: dict[str, Any] = {}
    for which in ("before", "after"):
        fast, five, hour = [0.0] * n, [0.0] * n, [0.0] * n
        for name, intervals in groups.items():
            interval = intervals.get(which)
            if interval is None:
                continue
            for i, cost in enumerate(_known(costs[(name, which)])):
                if interval < SLOW_S:
                    fast[i] += per_15s(cost, interval)
                elif interval < 3600:
                    five[i] += cost
                else:
                    hour[i] += cost
        out[which] = {"fast": fast, "five": five, "hour": hour}
    return out


ABOUT = (
    "One real Prometheus 2.42 per size on the config `gpuscope generate` writes (15 s scrape and evaluation), "
    "scraping `gpuscope sim` (N nodes x 8 H100, `bench/fields-100.csv`), with a frozen earlier rule set "
    "(`bench/baseline/` unless `--baseline` names another, renamed so the two sets write different series) "
    "evaluated beside the generated "
    "ones on the same samples at the same time: the fair baseline is the same Prometheus doing today's work. "
    "Cells: milliseconds per evaluation, before -> after; the totals count a 1 m group's evaluation as 1/4 of "
    "its time per 15 s. Fit: least squares over the sizes, fixed part + part per GPU."
)


def _cost_section(cfg: Any, sizes: list[dict[str, Any]], command: str, source: str) -> tuple[Section, dict[str, Any]]:
    rules: list[Rule] = sizes[-1]["rules"]
    groups = _groups(rules)
    if source == "run":
        groups = {n: i for n, i in groups.items() if max(i.values()) < SLOW_S}
    costs = _per_group(sizes, groups, source)
    gpus = [s["gpus"] for s in sizes]
    scale = " (quick: scaled down, fewer GPUs and a short warm-up)" if cfg.quick else ""
    at = ", ".join(f"{g:,}" for g in gpus)
    if source == "alone":
        title = f"Rule evaluation cost per group, each rule alone, before -> after, at {at} GPUs{scale}"
        how = (
            " Each group's cost here is the sum of its rules' expressions evaluated one at a time through the query "
            "API (`stats=all`, evalTotalTime, median of 5, the two sets interleaved) at the window's end, on a "
            "Prometheus started bare on the run's data (no rules, no scrapes): what the work costs without two rule "
            "sets, the scrapes and other jobs competing for the two cores."
        )
    else:
        title = f"Rule group durations during the run, both sets at once, before -> after, at {at} GPUs{scale}"
        how = (
            " Each group's cost here is Prometheus's own prometheus_rule_group_last_duration_seconds (`/api/v1/rules`"
            f" evaluationTime), the mean over the group's evaluations in the {cfg.window_s} s window, while it also "
            "scrapes the fleet and evaluates the other set: wall time, so it includes waiting for a core, and it "
            "is inflated where the machine is saturated (see the note). Groups of 5 m and 1 h are in the table above."
        )
    section = Section(
        title,
        command,
        ABOUT + how,
        ("group", "interval", *(f"{g:,} GPUs (ms)" for g in gpus), "fit before", "fit after"),
    )
    for name, intervals in groups.items():
        cells = []
        for i in range(len(sizes)):
            before = costs.get((name, "before"), [None] * len(sizes))[i]
            after = costs.get((name, "after"), [None] * len(sizes))[i]
            cells.append(f"{_ms(before)} -> {_ms(after)}")
        fits = [_fit_of(gpus, costs.get((name, w))) for w in ("before", "after")]
        interval = f"{_interval(intervals.get('before'))} -> {_interval(intervals.get('after'))}"
        section.rows.append((name, interval, *cells, *fits))
    totals = _totals(groups, costs, len(sizes))
    labels = [("fast", "every group faster than 5 m, per 15 s")]
    if source == "alone":
        labels += [("five", "5 m groups (rollups, chargeback), per evaluation"), ("hour", "1 h groups, per evaluation")]
    for key, label in labels:
        before, after = totals["before"][key], totals["after"][key]
        cells = [f"{_ms(b)} -> {_ms(a)} ({b / a if a else 0:.1f}x)" for b, a in zip(before, after, strict=True)]
        fits = [_fit_of(gpus, v) for v in (before, after)]
        section.rows.append((f"**{label}**", "", *cells, *fits))
    if source == "run":
        for size in sizes:
            section.notes.append(
                f"{size['gpus']:,} GPUs: Prometheus {size['prom_cpu_pct']:.0f}% of a core over the window (scrapes "
                f"and both rule sets), {size['prom_rss_mib']:,.0f} MiB RSS, {size['head_series']:,.0f} head series; "
                f"rule evaluation failures {size['failures']:.0f}, missed group iterations since start "
                f"{size['missed']:.0f}."
            )
    return section, {"groups": groups, "costs": costs, "totals": totals, "gpus": gpus}


def _fit_of(gpus: list[int], values: list[float | None] | list[float] | None) -> str:
    if values is None or any(v is None for v in values):
        return "—"
    return _fit_text(fit([(g, float(v or 0.0)) for g, v in zip(gpus, values, strict=True)]))


def _targets_section(sizes: list[dict[str, Any]], data: dict[str, Any], command: str) -> Section:
    section = Section(
        "Rule cost targets",
        command,
        "The issue's targets, read off the table of each rule alone above: at 4,000 GPUs the per-15 s total at "
        "most a quarter of before and at most 0.5 s; the 5 m rollups at most 0.5 s per evaluation; at 8,000 GPUs "
        "no group over 10% of its interval. A size not run is read off the fitted line and says so.",
        ("target", "before", "after", "how", "verdict"),
    )
    t = data["totals"]
    b4, _ = _at(sizes, t["before"]["fast"], TARGET_GPUS)
    a4, a4how = _at(sizes, t["after"]["fast"], TARGET_GPUS)
    ok = a4 is not None and b4 is not None and a4 <= 0.5 and a4 <= b4 / 4
    section.rows.append(
        (
            "per 15 s at 4,000 GPUs: <= 0.5 s and <= 1/4 of before",
            f"{_ms(b4)} ms",
            f"{_ms(a4)} ms" + (f" ({b4 / a4:.1f}x less)" if a4 and b4 else ""),
            a4how,
            "met" if ok else "not met",
        )
    )
    f4b, _ = _at(sizes, t["before"]["five"], TARGET_GPUS)
    f4, f4how = _at(sizes, t["after"]["five"], TARGET_GPUS)
    section.rows.append(
        (
            "5 m rollups at 4,000 GPUs: <= 0.5 s",
            f"{_ms(f4b)} ms",
            f"{_ms(f4)} ms",
            f4how,
            "met" if f4 and f4 <= 0.5 else "not met",
        )
    )
    worst = ("", 0.0, "")
    for (name, which), values in data["costs"].items():
        if which != "after":
            continue
        value, how = _at(sizes, _known(values), LARGEST_GPUS)
        share = (value or 0.0) / data["groups"][name]["after"]
        if share >= worst[1]:
            worst = (name, share, how)
    section.rows.append(
        (
            "no group over 10% of its interval at 8,000 GPUs",
            "",
            f"largest: {worst[0]}, {worst[1]:.1%} of its interval",
            worst[2],
            "met" if worst[1] <= 0.10 else "not met",
        )
    )
    return section


def _expensive_section(sizes: list[dict[str, Any]], command: str, top: int = 8) -> Section:
    largest = sizes[-1]
    section = Section(
        f"Most expensive expressions at {largest['gpus']:,} GPUs, before and after",
        command,
        "Every rule's expression evaluated alone through the query API (`stats=all`, median of 5) at the window's "
        "end, on a Prometheus started bare on the run's data, so that no scrape or rule group competes; samples are "
        "the query's "
        "totalQueryableSamples. In-run: the mean of the same rule's evaluations in the window (query log), "
        "where it ran there.",
        ("set", "group", "rule", "alone (ms)", "in-run (ms)", "samples"),
    )
    for baseline in (True, False):
        chosen = [(k, v) for k, v in largest["isolated"].items() if k[0].startswith(GROUP_PREFIX) == baseline]
        for (group, name), v in sorted(chosen, key=lambda kv: -kv[1]["eval_s"])[:top]:
            run = largest["in_run"].get((group, name))
            section.rows.append(
                (
                    "before" if baseline else "after",
                    plain(group),
                    name.removeprefix("baseline:").removeprefix("Baseline"),
                    _ms(v["eval_s"]),
                    _ms(run["eval_s"]) if run else "—",
                    f"{v['samples']:,.0f}",
                )
            )
    return section


def _other_section(sizes: list[dict[str, Any]], big: dict[str, float], command: str) -> Section:
    largest = sizes[-1]
    d = largest.get("doctor")
    section = Section(
        f"The other parts: gpuscope doctor at {largest['nodes']:,} nodes, budget and generate at 10,000 nodes",
        command,
        f"`gpuscope doctor --fleet <spec>` against the {largest['nodes']:,}-node Prometheus above (while it scrapes "
        "and evaluates both rule sets), as a user runs it: wall time, HTTP requests it made (Prometheus's "
        "prometheus_http_requests_total), its queries and the heaviest one (Prometheus's query log). "
        "`gpuscope budget` and `gpuscope generate` for `gpuscope init`'s example grown to 10,000 nodes (four "
        "Kubernetes clusters of 2,500 H100 nodes), wall time including the interpreter's start.",
        ("measurement", "result", "target"),
    )
    if d:
        h = d["heaviest"]
        heavy = "—"
        if h:
            expr = " ".join(h["params"]["query"].split())[:160]
            stats = h["stats"]
            heavy = (
                f"{stats['timings']['evalTotalTime'] * 1e3:,.0f} ms, "
                f"{stats['samples']['totalQueryableSamples']:,} samples: `{expr}`"
            )
        section.rows += [
            ("doctor: wall time (exit code)", f"{d['wall_s']:.1f} s ({d['exit']})", "under 10 s"),
            ("doctor: HTTP requests / of them queries", f"{d['requests']:,.0f} / {d['queries']:,}", ""),
            ("doctor: query time in Prometheus, all queries", f"{d['query_s'] * 1e3:,.0f} ms", ""),
            ("doctor: heaviest query", heavy, ""),
        ]
        if d["error"]:
            section.notes.append(f"doctor said: {d['error']}")
    section.rows += [
        ("budget, 10,000 nodes: wall time", f"{big['budget']:.1f} s", ""),
        ("generate, 10,000 nodes: wall time", f"{big['generate']:.1f} s", ""),
    ]
    return section


def sections(cfg: Any, result: dict[str, Any], command: str) -> list[Section]:
    sizes = result["sizes"]
    alone, data = _cost_section(cfg, sizes, command, "alone")
    in_run, _ = _cost_section(cfg, sizes, command, "run")
    return [
        alone,
        _targets_section(sizes, data, command),
        in_run,
        _expensive_section(sizes, command),
        _other_section(sizes, result["big"], command),
    ]
