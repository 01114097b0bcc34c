"""The demo's workload half on production timings: how long after ``gpuscope up`` each view has data.

Starts ``gpuscope up --no-tui`` (no ``--fast``: 15 s scrapes, 1 m rule groups, the simulator at real speed), then
every few seconds checks, until each has data or the limit passes:

- L1: "GPUs allocated", "GPUs allocated vs actively used", "Allocation efficiency";
- L5: the pods' GPUs held, activity and efficiency, and the jobs rows;
- the Efficiency dashboard, every panel;
- ``gpuscope report`` on the running stack, as the live view's tour shows it: every team with GPU-hours held.

Dashboards are drawn by the stack's console in headless Chromium (the same panels the console test waits for,
``tests/support/browser.py``); a panel counts once it is drawn with data. Times are from the start of ``gpuscope
up``. The issue's target: all within 2 minutes.

Usage: ``python bench/demo_fill.py [--limit-s 600]``.
"""

from __future__ import annotations

import argparse
import functools
import json
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO)]

from selenium import webdriver  # noqa: E402
from tests.support.browser import WORKLOAD_PANELS, chromium, loaded, panels, wait  # noqa: E402
from tests.support.upstack import UpStack, cli, running_stack  # noqa: E402

from common import load_average, machine  # noqa: E402
from gpuscope.runner.view import tour  # noqa: E402


def dashboard_filled(driver: webdriver.Chrome, stack: UpStack, uid: str) -> bool:
    titles = WORKLOAD_PANELS[uid]
    driver.get(f"{stack.url('console')}/d/{uid}?from=now-15m&to=now")
    wait(driver, loaded, timeout=60, what=uid)
    found = [p for p in panels(driver) if titles is None or p["title"] in titles]
    return bool(found) and all(p["state"] == "data" for p in found)


def report_filled(stack: UpStack, out: Path) -> bool:
    step = next(line for line in tour(stack.status()).splitlines() if line.startswith("4. gpuscope report"))
    shown = shlex.split(step.removeprefix("4. ").split("   ")[0])
    done = cli(*shown[1:], "-o", str(out), "--format", "json", timeout=120)
    if done.returncode != 0:
        return False
    groups = json.loads(out.read_text())["groups"]
    return bool(groups) and all(g["gpu_hours_held"] > 0 for g in groups)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit-s", type=float, default=600, help="give up on a view after this long (seconds)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="demo-fill-") as tmp:
        started = time.monotonic()
        with running_stack(Path(tmp) / "stack", fast=False, ready_s=300) as stack:
            ready = time.monotonic() - started
            driver = chromium()
            try:
                checks: dict[str, Callable[[], bool]] = {
                    uid: functools.partial(dashboard_filled, driver, stack, uid) for uid in WORKLOAD_PANELS
                }
                checks["gpuscope report"] = lambda: report_filled(stack, Path(tmp) / "report.json")
                filled: dict[str, float] = {}
                while len(filled) < len(checks) and time.monotonic() - started < args.limit_s:
                    for name, check in checks.items():
                        if name not in filled and check():
                            filled[name] = time.monotonic() - started
                    time.sleep(2)
            finally:
                driver.quit()
    print(f"Machine: {machine()}.")
    print(
        "Command: `python bench/demo_fill.py`. `gpuscope up` (production timings) answered its status API after "
        f"{ready:.0f} s.\n"
    )
    print("| view | has data after |")
    print("|---|---|")
    for name in checks:
        print(f"| {name} | {f'{filled[name]:.0f} s' if name in filled else f'not within {args.limit_s:.0f} s'} |")
    print(f"\nLoad average (1/5/15 min) at the end: {load_average()}")
    return 0 if len(filled) == len(checks) else 1


if __name__ == "__main__":
    raise SystemExit(main())
