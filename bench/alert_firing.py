"""Measured detection time of every alert in its promtool scenarios (time from failure start to firing).

For each firing scenario of tests/rules, binary-search the earliest evaluation (15 s steps, or the scenario's own
step) at which `promtool test rules` sees the alert firing with the expected labels. This is the rule logic's
own latency at 15 s scrape/evaluation intervals; end-to-end latency through Alertmanager is measured separately
(bench for the local stack). Usage: ``python bench/alert_firing.py [--append docs/benchmarks.md]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "src")]

from tests.rules.cases import ALERT_CASES  # noqa: E402
from tests.support.promtool import Case, alert_test, run_suite, steps  # noqa: E402

from gpuscope.rules import RulesConfig, alerts  # noqa: E402


def _fires_at(case: Case, seconds: int) -> bool:
    probe = dataclasses.replace(case, fires_by=f"{seconds}s", quiet_at=())
    with tempfile.TemporaryDirectory() as tmp:
        return run_suite(Path(tmp), [alert_test(probe)], case.config, case.interval).returncode == 0


def earliest(case: Case) -> int:
    """Seconds from failure start to the first evaluation that fires."""
    step = steps(case.interval) * 15
    lo, hi = steps(case.start) * 15 // step, steps(case.fires_by or "0s") * 15 // step
    while lo < hi:
        mid = (lo + hi) // 2
        if _fires_at(case, mid * step):
            hi = mid
        else:
            lo = mid + 1
    return lo * step - steps(case.start) * 15


def _fmt(seconds: int) -> str:
    return f"{seconds // 60}m{seconds % 60:02d}s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--append", help="append the table to this markdown file")
    args = parser.parse_args()
    bounds = {a.name: a.bound for a in alerts(RulesConfig())}
    rows = []
    for case in ALERT_CASES:
        if case.fires_by:
            rows.append((case.alert, case.title, _fmt(earliest(case)), bounds[case.alert]))
    for row in rows:
        print(" | ".join(row))
    if args.append:
        with open(args.append, "a", encoding="utf-8") as f:
            f.write(
                f"\n### Alert detection in the promtool scenarios — {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC\n\n"
            )
            f.write(
                "Command: `python bench/alert_firing.py`. Time from the failure to the first firing evaluation "
                "(15 s scrape and evaluation intervals), per scenario, against the alert's bound.\n\n"
            )
            f.write("| alert | scenario | fires after | bound |\n|---|---|---|---|\n")
            for alert, title, took, bound in rows:
                f.write(f"| {alert} | {title} | {took} | {bound} |\n")


if __name__ == "__main__":
    main()
