"""Rule sets side by side on a kept ``rules_cost.py --keep`` run: the fair comparison on a shared, loaded machine.

A Prometheus started bare on the run's data (no rules, no scrapes) evaluates every rule of each set at the run's
window end, the same rule of every set back to back (rules paired by group and name, not by position, so that
one set's heavy query and the garbage it leaves fall beside its own counterpart), the order of the sets rotating
every round; per rule the median of the rounds' evalTotalTime. Per set: the per-15 s total of the groups faster
than 5 m (a 1 m group's rule counts a quarter), the 5 m and 1 h groups per evaluation, and the bytes Prometheus
allocates for one minute's worth of evaluations (``go_memstats_alloc_bytes_total``, each expression wrapped in
``count()`` so the answer's encoding is next to nothing): a figure the machine's load does not move.

Usage: ``python bench/rules_cost_ab.py RUN_DIR --baseline bench/baseline-billing --rules now=DIR [--rules ...]``,
DIR a directory of rule files ``gpuscope generate`` wrote for the run's spec (``clusters/bench/rules``).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path

import httpx

from common import Prom, child, free_port, prometheus_cmd, wait_ready
from rule_sets import BASELINE_FILES, Rule, baseline_files, plain, rules_of
from rules_cost import _bare_config

SLOW_S = 300.0


def _sets(baseline: Path, others: list[str]) -> dict[str, dict[tuple[str, str], Rule]]:
    texts = {"baseline": list(baseline_files(baseline).values())}
    for spec in others:
        name, _, path = spec.partition("=")
        texts[name] = [(Path(path) / f).read_text() for f in BASELINE_FILES]
    out: dict[str, dict[tuple[str, str], Rule]] = {}
    for name, files in texts.items():
        rules: dict[tuple[str, str], Rule] = {}
        for rule in rules_of(files, 15.0):
            key = (plain(rule.group), rule.name.removeprefix("baseline:").removeprefix("Baseline"))
            while key in rules:  # an alert name used twice in a group (two severities)
                key = (key[0], key[1] + "'")
            rules[key] = rule
        out[name] = rules
    return out


def _allocated(client: httpx.Client, url: str) -> float:
    text = client.get(f"{url}/metrics").raise_for_status().text
    found = re.search(r"^go_memstats_alloc_bytes_total (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def compare(run_dir: Path, baseline: Path, others: list[str], rounds: int) -> None:
    size_dir = sorted(run_dir.glob("n*"))[0]
    at = json.loads((run_dir / "rules-cost.json").read_text())["sizes"][0]["end"]
    sets = _sets(baseline, others)
    keys = list(dict.fromkeys(k for rules in sets.values() for k in rules))
    names = list(sets)
    times: dict[tuple[str, tuple[str, str]], list[float]] = {}
    port, log = free_port(), size_dir / "prometheus-ab.log"
    with child(prometheus_cmd(_bare_config(size_dir), size_dir / "data", port), log, "prometheus") as proc:
        prom = Prom(f"http://127.0.0.1:{port}")
        wait_ready(prom, proc, log, timeout=900)
        with httpx.Client(timeout=300) as client:

            def query(expr: str) -> dict[str, object]:
                params = {"query": expr, "time": f"{at:.3f}", "stats": "all"}
                body: dict[str, object] = (
                    client.get(f"{prom.url}/api/v1/query", params=params).raise_for_status().json()
                )
                return body

            for round_ in range(rounds):
                order = names[round_ % len(names) :] + names[: round_ % len(names)]
                for key in keys:
                    for name in (n for n in order if key in sets[n]):
                        stats = query(sets[name][key].expr)["data"]["stats"]  # type: ignore[index]
                        times.setdefault((name, key), []).append(float(stats["timings"]["evalTotalTime"]) * 1e3)
            allocated = {}
            for name in names:
                before = _allocated(client, prom.url)
                for rule in sets[name].values():
                    for _ in range(round(60 / rule.interval_s) if rule.interval_s < SLOW_S else 0):
                        query(f"count(\n{rule.expr}\n)")
                allocated[name] = (_allocated(client, prom.url) - before) / 4 / 2**20
    print(f"{rounds} rounds, at the window's end of {size_dir}; per rule the median, in ms")
    for name in names:
        med = {k: statistics.median(times[(name, k)]) for k in sets[name]}
        fast = {k: v * 15 / sets[name][k].interval_s for k, v in med.items() if sets[name][k].interval_s < SLOW_S}
        slow = sum(v for k, v in med.items() if sets[name][k].interval_s >= SLOW_S)
        print(
            f"{name}: per 15 s {sum(fast.values()):.1f} ms, 5 m and 1 h groups per evaluation {slow:.1f} ms, "
            f"{allocated[name]:.1f} MiB allocated per 15 s"
        )
        for (group, rule), cost in sorted(fast.items(), key=lambda kv: -kv[1])[:8]:
            print(f"    {cost:7.2f} ms per 15 s  {group} / {rule}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", type=Path, help="a kept rules_cost.py run (its rules-cost.json and n*/data)")
    parser.add_argument("--baseline", type=Path, required=True, help="frozen rule files (bench/baseline-*)")
    parser.add_argument("--rules", action="append", default=[], metavar="NAME=DIR", help="generated rule files")
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    if not (args.run_dir / "rules-cost.json").is_file():
        parser.error(f"{args.run_dir}: no rules-cost.json there (a directory rules_cost.py --keep left)")
    if any("=" not in spec for spec in args.rules):
        parser.error("--rules takes NAME=DIR")
    compare(args.run_dir, args.baseline, args.rules, max(1, args.rounds))


if __name__ == "__main__":
    main()
