#!/usr/bin/env python3
"""`make screenshots`: L1, L2, L4, L5, Efficiency and the alerts page of a local stack with a fault injected, as PNGs.

Starts `gpuscope up --fast` in a temporary data directory, injects a thermal fault (and a GPU falling off the
bus) once the Phase 1 floor is green, waits until Alertmanager has the thermal alert and the global store has the
workload half (allocation, the chargeback rollups the Efficiency page reads), then has the system Chromium
(headless) capture each page once it has settled. Usage: scripts/screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO), str(REPO / "src")]

from tests.support.browser import chromium, errors, loaded, wait  # noqa: E402
from tests.support.net import wait_for  # noqa: E402
from tests.support.upstack import running_stack  # noqa: E402

HOT = ("gpu-b", "0", "3")
WIDTH = 1600


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else REPO / "docs" / "img")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gpuscope-shots-") as tmp, running_stack(Path(tmp) / "data") as stack:
        wait_for(lambda: stack.status().get("floor_green_after_seconds") is not None, timeout=120, what="the floor")
        cluster, node, gpu = HOT
        stack.inject("thermal", "--cluster", cluster, "--node", node, "--gpu", gpu)
        stack.inject("fell-off-bus", "--cluster", "gpu-a", "--node", "1", "--gpu", "2")
        wait_for(
            lambda: any(a["labels"]["alertname"] == "GPUThermalThrottling" for a in stack.am_alerts()),
            timeout=180,
            interval=1,
            what="GPUThermalThrottling in Alertmanager",
        )
        for expr in ("cluster:gpu_allocation_efficiency:ratio", "chargeback:gpus_held:count_rollup5m"):
            wait_for(lambda e=expr: stack.query("global", e), timeout=180, interval=1, what=f"{expr} in the store")
        host = f"{cluster}-a100-{int(node):02d}"
        uuid = stack.query("global", f'DCGM_FI_DEV_GPU_TEMP{{Hostname="{host}",gpu="{gpu}"}}')[0]["metric"]["UUID"]
        base = stack.url("console")
        pages = {  # the alerts page first, while the alert that was just waited for still fires
            "alerts": f"{base}/alerts",
            "l1-fleet": f"{base}/d/local-l1-fleet?from=now-15m&to=now",
            "l2-cluster": f"{base}/d/local-l2-cluster?from=now-15m&to=now",
            "l4-gpu": f"{base}/d/local-l4-gpu?from=now-15m&to=now&var-cluster={cluster}&var-node={host}&var-gpu={uuid}",
            "l5-workload": f"{base}/d/local-l5-workload?from=now-15m&to=now",
            "efficiency": f"{base}/d/local-efficiency?from=now-15m&to=now",
        }
        driver = chromium()
        try:
            for name, url in pages.items():
                driver.set_window_size(WIDTH, 1200)
                driver.get(url)
                wait(driver, loaded, what=name)
                height = min(int(driver.execute_script("return document.documentElement.scrollHeight")), 2400)
                driver.set_window_size(WIDTH, height)  # the whole page in one picture: load it again at that size
                driver.get(url)
                wait(driver, loaded, what=name)
                driver.save_screenshot(str(out / f"{name}.png"))
                problems = errors(driver)
                if problems:
                    print(f"screenshots: {name}: browser errors: {problems}", file=sys.stderr)
                    return 1
                print(f"screenshots: {out / (name + '.png')}")
        finally:
            driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
