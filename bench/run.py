"""Benchmarks at fleet scale: every part in sequence, one report.

Parts, each a script of its own in bench/:

- ``ingest``: fleet ingest and the cold tier's write reduction (``fleet_ingest.py``);
- ``rules``: rule evaluation cost per group against the rules as they were, doctor at the largest size, budget and
  generate for 10,000 nodes (``rules_cost.py``);
- ``churn``: cardinality under pod churn, info vs labels mode (``churn.py``);
- ``alerts``: alert latency, fault to webhook, median of 3 (``alert_latency.py``);
- ``exporter``: the exporter's own benchmarks, measured again in this run (``exporter.py``, ``nvml.py``,
  ``workloads.py``).

``make bench`` runs ``--quick`` (scaled-down sizes and durations, under 10 minutes on 2 cores, each table says
how it was scaled); ``make bench-full`` runs the full sizes and durations (about 70 minutes). Parts run one
after another so that none takes CPU from another's measurement. Tables are printed as each part finishes and,
with ``--append``, added to docs/benchmarks.md with the machine, the date and the command.

Usage: ``python bench/run.py [--quick] [--only exporter,ingest,rules,churn,alerts] [--append docs/benchmarks.md]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import alert_latency
import churn
import fleet_ingest
import rules_cost
from common import BenchError, Section, append_report, fmt_duration, load_average, machine, utc_now

# The exporter's micro-benchmarks first: they are the most sensitive to other load, and the alert stacks' shutdown
# (18 processes stopping at once) would otherwise land on them.
PARTS = ("exporter", "ingest", "rules", "churn", "alerts")


def exporter_sections(quick: bool, command: str) -> list[Section]:
    """The exporter's figures (render, scrape latency, RSS, NVML and DCGM calls, attribution), measured now."""
    from tests.support.kubelet import fake_kubelet

    import dcgm
    import exporter
    import nvml
    import workloads
    from gpuscope.exporter.attribution.resolve import WorkloadLabels

    s = Section(
        "Exporter figures (the exporter benchmarks, run again here)" + (" (quick: shorter runs)" if quick else ""),
        command,
        "Measured in this run by the exporter benchmarks' own scripts (bench/exporter.py, bench/nvml.py, "
        "bench/dcgm.py, bench/workloads.py), each with the baseline its section above explains: prometheus_client's "
        "generate_latest for rendering, dcgm-exporter's reported 400-500 MiB for memory, one call per field "
        "and GPU for NVML and DCGM calls, dcgm-exporter's labels mode for attribution."
        + (" Quick: 0.5 s per render timing, a 5 s scrape storm, no idle-fleet row, 50 collections." if quick else ""),
        ("measurement", "result"),
    )
    rows = exporter.bench_render(quick) + exporter.bench_scrape(quick)
    if not quick:
        rows += exporter.bench_fleet(quick)
    rows += [nvml.count_row(*case) for case in nvml.CASES]
    rows.append(nvml.time_row(*nvml.CASES[0]))
    rows += dcgm.measure(timed=(0,))
    collections = 50 if quick else 200
    base = workloads.collection_ms(workloads.runtime(None, WorkloadLabels.OFF), collections)
    rows.append(("workload attribution: collection without attribution (median)", f"{base:.2f} ms"))
    with fake_kubelet() as kubelet:
        kubelet.set_pods(workloads.pods({gpu: f"job-{gpu}-0" for gpu in range(workloads.GPUS)}))  # type: ignore[arg-type]
        for mode in (WorkloadLabels.INFO, WorkloadLabels.LABELS):
            ms = workloads.collection_ms(workloads.runtime(kubelet, mode), collections)
            rows.append(
                (
                    f"workload attribution: collection with kubelet List, {mode.value} mode",
                    f"{ms:.2f} ms (+{ms - base:.2f} ms)",
                )
            )
        for mode in (WorkloadLabels.INFO, WorkloadLabels.LABELS):
            before, after = workloads.distinct_series_after_churn(kubelet, mode)
            rows.append(
                (
                    f"{workloads.RESTARTS} pod restarts on 8 GPUs, {mode.value} mode: distinct series",
                    f"{before:,} -> {after:,} (+{after - before:,})",
                )
            )
    s.rows += [(k, v) for k, v in rows]
    s.notes.append(
        "Job metrics (`bench/jobs.py`) and the promtool detection times (`bench/alert_firing.py`) are not rerun "
        "here: see their own sections."
    )
    return [s]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="scaled-down sizes and durations (make bench)")
    parser.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts: {', '.join(PARTS)}")
    parser.add_argument("--append", help="append the tables to this markdown file (docs/benchmarks.md)")
    parser.add_argument("--keep", action="store_true", help="keep every part's work directory")
    args = parser.parse_args()
    parts = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown or not parts:
        parser.error(f"--only: unknown part(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(PARTS)}")
    if args.append and not Path(args.append).parent.is_dir():
        parser.error(f"--append: no directory {Path(args.append).parent}")
    quick = args.quick
    flags = " ".join(a for a in sys.argv[1:] if not a.startswith("--append") and a != args.append)
    command = f"python bench/run.py {flags}".strip()
    runners: dict[str, Callable[[], list[Section]]] = {
        "ingest": lambda: fleet_ingest.run(fleet_ingest.QUICK if quick else fleet_ingest.FULL, command, args.keep),
        "rules": lambda: rules_cost.run(rules_cost.QUICK if quick else rules_cost.FULL, command, args.keep),
        "churn": lambda: churn.run(churn.QUICK if quick else churn.FULL, command, args.keep),
        "alerts": lambda: alert_latency.run(quick, command, args.keep),
        "exporter": lambda: exporter_sections(quick, command),
    }
    started, load0, when = time.monotonic(), load_average(), utc_now()
    print(f"gpuscope benchmarks at fleet scale ({'quick' if quick else 'full'}): {', '.join(parts)}", flush=True)
    sections: list[Section] = []
    walls: list[str] = []
    failures: list[str] = []
    for part in parts:
        t0 = time.monotonic()
        print(f"-- {part} ...", flush=True)
        try:
            done = runners[part]()
        except BenchError as exc:
            failures.append(f"{part}: {exc}")
            print(f"{part}: error: {exc}", file=sys.stderr, flush=True)
            continue
        walls.append(f"{part} {fmt_duration(time.monotonic() - t0)}")
        for section in done:
            print("\n" + section.text() + "\n", flush=True)
        sections += done
    total = time.monotonic() - started
    print(
        f"wall time {fmt_duration(total)} ({', '.join(walls)}); load average {load0} at start, {load_average()} at end"
    )
    if args.append and sections:
        make = "make bench" if quick else "make bench-full"
        preamble = [
            f"Machine: {machine()}.",
            f"Command: `{make}` (= `{command}`). Wall time {fmt_duration(total)} ({', '.join(walls)}). "
            f"Load average (1/5/15 min) {load0} at the start, {load_average()} at the end: the machine is shared, "
            "so other work may have run alongside.",
        ]
        if quick:
            preamble.append(
                "Quick run: sizes and durations are scaled down as each table says; `make bench-full` runs full ones."
            )
        preamble += [f"Failed: {f}" for f in failures]
        append_report(Path(args.append), f"Fleet scale ({'quick' if quick else 'full'}) — {when}", preamble, sections)
        print(f"appended to {args.append}")
    if failures:
        sys.exit("bench: " + "; ".join(failures))


if __name__ == "__main__":
    main()
