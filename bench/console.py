"""The console: time to render L2 with every panel drawn, and Prometheus queries per dashboard load.

Two fleets:

- the built-in one of ``gpuscope up --fast`` (6 nodes, 48 GPUs), the console that ``up`` starts, reading the
  stack's global store;
- a simulated fleet of N nodes x 8 H100 (1,000 by default, 200 with ``--quick``): ``gpuscope sim`` scraped by one
  real Prometheus on the config and rules ``gpuscope generate`` writes for it, and ``gpuscope console`` on the
  generated bundle.

The system Chromium (headless, 1600x1200) opens L2 five times; a load is timed from navigation to the moment the
last panel is drawn (the page marks it), so it covers the page, the variable queries, every panel's queries
through the console's bounded client and the drawing. Queries per load are the console's own count of requests
sent to Prometheus (its /api/stats), for every dashboard. The baseline is Grafana's own behaviour: one query per
panel target plus one per query variable, which is what a dashboard costs wherever it is drawn.

Usage: ``python bench/console.py [--quick] [--nodes N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from common import (
    GPUSCOPE,
    Prom,
    Section,
    append_report,
    child,
    free_port,
    gpuscope,
    in_workdir,
    load_average,
    machine,
    print_sections,
    prometheus_cmd,
    utc_now,
    wait_for,
    wait_ready,
    wait_sim_healthy,
)

# isort: split
# (after common, which puts the repository on sys.path)
from tests.support.browser import chromium, loaded, panels, wait
from tests.support.upstack import running_stack

LOADS = 5
BASE_ADDRESS = (127, 220)  # clear of `gpuscope up` (127.20+), fleet_ingest (127.210) and the tests


def _expected_queries(model: dict[str, Any]) -> int:
    targets = sum(
        len([t for t in p.get("targets") or [] if t.get("expr") and not t.get("hide")])
        for p in model["panels"]
        if p.get("type") != "row"
    )
    variables = sum(1 for v in model["templating"]["list"] if v.get("type") == "query")
    return targets + variables


def measure_console(console: str, bundle: Path, path_prefix: str, l2_query: str = "") -> dict[str, Any]:
    driver = chromium()
    out: dict[str, Any] = {"queries": {}, "l2_ms": [], "l2_panels_ms": [], "l2_server_ms": []}
    try:
        for file in sorted((bundle / "grafana" / "dashboards").glob("*.json")):
            model = json.loads(file.read_text())
            before = httpx.get(f"{console}/api/stats", timeout=10).json()["queries"]
            driver.get(f"{console}/d/{model['uid']}?from=now-15m&to=now")
            wait(driver, loaded, timeout=300, what=file.name)
            after = httpx.get(f"{console}/api/stats", timeout=10).json()["queries"]
            out["queries"][file.stem] = (after - before, _expected_queries(model), len(panels(driver)))
        l2 = f"{console}/d/{path_prefix}-l2-cluster?from=now-15m&to=now{l2_query}"
        for _ in range(LOADS):
            driver.get(l2)
            wait(driver, loaded, timeout=300, what="L2")
            found = panels(driver)
            states = {p["state"] for p in found}
            body = driver.execute_script(
                "const ms = [...document.querySelectorAll('section.panel')].map(p => Number(p.dataset.serverMs || 0));"
                " return [document.body.dataset.readyMs, document.body.dataset.loadMs, Math.max(0, ...ms)];"
            )
            out["l2_server_ms"].append(float(body[2]))
            out["l2_ms"].append(float(body[0]))
            out["l2_panels_ms"].append(float(body[1]))
            out["l2_states"] = sorted(states)
            out["l2_data"] = sum(1 for p in found if p["state"] == "data")
            out["l2_total"] = len(found)
    finally:
        driver.quit()
    return out


def builtin_fleet(workdir: Path) -> dict[str, Any]:
    with running_stack(workdir / "data") as stack:
        wait_for(lambda: stack.status().get("floor_green_after_seconds") is not None, 120, "the Phase 1 floor")
        # the 5 m averages need a few evaluations (20 s with --fast) before every L2 panel has points
        wait_for(lambda: stack.value("global", "count(gpu:activity:avg5m)"), 120, "L2's recorded series")
        time.sleep(30)
        return measure_console(stack.url("console"), workdir / "data" / "bundle", "local")


def spec_yaml(nodes: int, port: int, prom_a: int) -> str:
    a, b = BASE_ADDRESS
    first = (a << 24) + (b << 16) + 1
    hosts = ", ".join(
        f'"{(n >> 24) & 255}.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}:{port}"' for n in range(first, first + nodes)
    )
    return f"""name: bench-console
clusters:
  - name: bench
    kind: baremetal
    node_groups: [{{name: h100, gpu_model: h100, gpus_per_node: 8, nodes: {nodes}, hosts: [{hosts}]}}]
    endpoints:
      prometheus_a: 127.0.0.1:{prom_a}
      prometheus_b: 127.0.0.1:{free_port()}
      alertmanagers: [127.0.0.1:{free_port()}]
      pushgateway: 127.0.0.1:{free_port()}
scrape_interval: 15s
scrape_timeout: 10s
evaluation_interval: 15s
long_term_store: federation
exporter:
  workload_labels: "off"
receivers:
  infra: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  platform: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  workload: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
"""


def simulated_fleet(nodes: int, workdir: Path) -> dict[str, Any]:
    port, prom_port, console_port = free_port(), free_port(), free_port()
    spec = workdir / "fleet.yaml"
    spec.write_text(spec_yaml(nodes, port, prom_port))
    gpuscope("generate", str(spec), "-o", str(workdir / "bundle"))
    a, b = BASE_ADDRESS
    sim = [*GPUSCOPE, "sim", "--nodes", str(nodes), "--base-address", f"{a}.{b}.0.1", "--port", str(port)]
    sim += ["--hostname-prefix", "bench-node", "--workload-labels", "off"]
    first = (a << 24) + (b << 16) + 1
    hosts = [
        f"{(n >> 24) & 255}.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}:{port}" for n in range(first, first + nodes)
    ]
    with child(sim, workdir / "sim.log", "gpuscope sim") as sim_proc:
        wait_sim_healthy(sim_proc, workdir / "sim.log", hosts, 300, f"{nodes} simulated nodes healthy")
        config = workdir / "bundle" / "clusters" / "bench" / "prometheus-a.yml"
        plog = workdir / "prometheus.log"
        with child(prometheus_cmd(config, workdir / "data", prom_port), plog, "prometheus") as prom_proc:
            prom = Prom(f"http://127.0.0.1:{prom_port}")
            wait_ready(prom, prom_proc, plog)
            wait_for(lambda: prom.scalar("count(gpu:activity:avg5m)") == nodes * 8, 300, "every GPU recorded")
            wait_for(lambda: prom.scalar("count(node:gpu_activity:avg5m)") == nodes, 300, "every node recorded")
            console = [*GPUSCOPE, "console", "--bundle", str(workdir / "bundle"), "--prometheus", prom.url]
            console += ["--listen", f"127.0.0.1:{console_port}", "--query-timeout", "60"]
            with child(console, workdir / "console.log", "gpuscope console"):
                url = f"http://127.0.0.1:{console_port}"
                wait_for(lambda: httpx.get(f"{url}/api/dashboards", timeout=5).status_code == 200, 60, "console")
                # the dashboards' uids are <fleet>-<dashboard>
                return measure_console(url, workdir / "bundle", "bench-console")


def sections(fleets: list[tuple[str, dict[str, Any]]], command: str) -> list[Section]:
    render = Section(
        title="Console: L2 render time",
        command=command,
        about=(
            "Headless Chromium, 1600x1200, L2 over the last 15 minutes, 5 loads each; from navigation until the "
            "last panel is drawn, and the panels' part of it (their queries and drawing)."
        ),
        headers=(
            "fleet",
            "panels with data",
            "load to last panel drawn (median / max)",
            "panels only (median)",
            "slowest panel's queries in the console (median)",
        ),
    )
    queries = Section(
        title="Console: Prometheus queries per dashboard load",
        command=command,
        about=(
            "The console's count of requests to Prometheus per load, against Grafana's "
            "(one per target and query variable)."
        ),
        headers=("fleet", "dashboard", "panels", "queries", "Grafana would send"),
    )
    for name, r in fleets:
        ms = r["l2_ms"]
        render.rows.append(
            (
                name,
                f"{r['l2_data']} of {r['l2_total']}",
                f"{statistics.median(ms):,.0f} ms / {max(ms):,.0f} ms",
                f"{statistics.median(r['l2_panels_ms']):,.0f} ms",
                f"{statistics.median(r['l2_server_ms']):,.0f} ms",
            )
        )
        if "error" in r["l2_states"]:
            render.notes.append(f"{name}: some L2 panels ended in an error (see the console's log)")
        for dash, (sent, grafana, count) in r["queries"].items():
            queries.rows.append((name, dash, str(count), str(sent), str(grafana)))
    render.notes.append(
        "A panel without data is empty by design on these fleets: they run no pods (the allocation panels) and no "
        "faults (the health-event tables); the browser tests check the same split."
    )
    return [render, queries]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 simulated nodes instead of 1,000")
    parser.add_argument("--nodes", type=int, help="simulated fleet size")
    parser.add_argument("--keep", action="store_true", help="keep the work directories")
    parser.add_argument("--append", help="append the tables to this markdown file (docs/benchmarks.md)")
    args = parser.parse_args()
    nodes = args.nodes or (200 if args.quick else 1000)
    if not 1 <= nodes <= 60000:
        parser.error("--nodes must be between 1 and 60000")
    flags = [a for a in sys.argv[1:] if not a.startswith("--append") and a != args.append]
    command = " ".join(["python bench/console.py", *flags])
    when, load0 = utc_now(), load_average()

    def run() -> list[Section]:
        builtin = in_workdir("console-up", args.keep, builtin_fleet)
        big = in_workdir("console-sim", args.keep, lambda w: simulated_fleet(nodes, w))
        done = sections(
            [("built-in (6 nodes, 48 GPUs)", builtin), (f"simulated ({nodes} nodes, {nodes * 8} GPUs)", big)], command
        )
        if args.append:
            preamble = [
                f"Machine: {machine()}. Load average (1/5/15 min) {load0} at the start, {load_average()} at the end: "
                "the machine is shared, so other work may have run alongside."
            ]
            append_report(Path(args.append), f"Console — {when}", preamble, done)
        return done

    print_sections("console", run)


if __name__ == "__main__":
    main()
