"""Alert latency end to end: fault injected -> webhook notification, median of 3.

Three ``gpuscope up`` stacks run side by side, each one cluster of 4 nodes x 8 simulated H100s with its Prometheus
HA pair, global store, Pushgateway and Alertmanager, from the bundle ``gpuscope generate`` writes. Without
``--fast`` that is production timing: 15 s scrape and evaluation, the rules' real ``for:`` and windows,
Alertmanager's real group_wait (10 s pages, 30 s tickets). After a warm-up every fault below is injected at once
through each stack's control API, on distinct GPUs and nodes so that no alert inhibits another (Alertmanager groups
by alertname, cluster and owner, so each alert gets its own first notification). The latency of an alert is the
time from its fault's injection to the first webhook call carrying it (``received_at`` in the stack's recorder);
the three stacks give three independent runs, and the median is reported against the alert's bound (``Alert.bound``).

Alerts no local stack can be made to fire by injecting a fault (they need a kubelet, a corrupted WAL, a new GPU
model joining, ...) are listed with their promtool-measured detection time instead (``bench/alert_firing.py``, read
from docs/benchmarks.md), clearly labelled as such.

Usage: ``python bench/alert_latency.py [--quick]``; ``--quick`` runs the stacks with ``--fast`` (every duration
/15) and compares against the bounds /15.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from common import (
    GPUSCOPE,
    REPO,
    BenchError,
    Section,
    UpStack,
    fmt_duration,
    in_workdir,
    load_average,
    print_sections,
    wait_for,
)
from gpuscope.durations import prometheus_seconds
from gpuscope.rules import RulesConfig, alerts

STACKS = 3
FAST = 15  # gpuscope up --fast compresses every duration 15x


@dataclass(frozen=True)
class Fault:
    """One injection, and the alerts it is expected to raise."""

    alerts: tuple[str, ...]
    request: dict[str, Any]  # the control API's /faults body (cluster added per stack); "push-job" is ours
    what: str


FAULTS = (
    Fault(("GPUFellOffBus",), {"fault": "fell-off-bus", "node": "0", "gpu": 0}, "fell-off-bus, node 0 GPU 0"),
    Fault(("GPUXidCritical",), {"fault": "xid", "node": "0", "gpu": 1, "code": 94}, "xid --code 94, node 0 GPU 1"),
    Fault(
        ("GPUDoubleBitEccErrors", "GPURowRemapFailure"),
        {"fault": "ecc-dbe", "node": "0", "gpu": 2},
        "ecc-dbe, node 0 GPU 2",
    ),
    Fault(("GPUThermalThrottling",), {"fault": "thermal", "node": "0", "gpu": 3}, "thermal, node 0 GPU 3"),
    Fault(("GPUNVLinkErrors",), {"fault": "nvlink-crc", "node": "0", "gpu": 4}, "nvlink-crc, node 0 GPU 4"),
    Fault(
        ("GPUProfilingMetricsStale",),
        {"fault": "profiling-lock", "node": "0", "gpu": 5},
        "profiling-lock, node 0 GPU 5",
    ),
    Fault(("GPUExporterDown",), {"fault": "exporter-down", "node": "1"}, "exporter-down, node 1"),
    Fault(("GPUExporterRestarted",), {"fault": "restart", "node": "2"}, "restart, node 2"),
    Fault(
        ("GPUExporterSnapshotStale",),
        {"fault": "slow", "node": "3", "seconds": 3600.0},
        "slow --seconds 3600 (hung backend), node 3",
    ),
    Fault(("PrometheusRemoteWriteBehind",), {"fault": "global-down"}, "global-down (the long-term store stops)"),
    Fault(("PushgatewayJobStale",), {"fault": "push-job"}, "a job pushes once, then never again"),
    Fault(("GPUMemoryHeldByNoPod",), {"fault": "zombie", "node": "0", "gpu": 6}, "zombie, node 0 GPU 6"),
)

# Alerts of the rule table that no injectable fault of the local stack raises, and why.
NOT_INJECTABLE = {
    "GPUModelOutsideBudget": "needs a GPU model outside the budget to join a running fleet; the stack's is fixed",
    "PrometheusHeadSeriesOverBudget": "needs the head to grow past the budget; the stack's fleet is fixed at start",
    "PrometheusSeriesChurnHigh": "needs pod churn (a kubelet); see the churn benchmark for it firing live",
    "PrometheusTSDBWALCorruptions": "needs a corrupted WAL replayed by Prometheus",
    "PrometheusRemoteStorageFailures": "needs a store that rejects samples; the local one is only up or down",
    "PrometheusRemoteWriteDesiredShards": "needs more remote-write throughput than max_shards can carry",
    "GPUAllocatedButIdle": "needs a kubelet attributing GPUs to pods (the local stack has none) and 50 min idle",
    # The local stack's node-exporter reports the machine running it, so its host alerts are off there
    # (host_signals.node_exporter_alerts); their scenarios run under promtool.
    "GPUHostCPUSaturated": "node-exporter alerts are off locally (it reports this machine, not a GPU node)",
    "GPUHostIOWaitHigh": "node-exporter alerts are off locally (it reports this machine, not a GPU node)",
    "GPUHostMemoryPressure": "node-exporter alerts are off locally (it reports this machine, not a GPU node)",
    "GPUHostFilesystemFull": "node-exporter alerts are off locally (it reports this machine, not a GPU node)",
    "GPUHostInfiniBandPortDown": "node-exporter alerts are off locally; and no InfiniBand HCA here",
    "GPUHostInfiniBandErrors": "node-exporter alerts are off locally; and no InfiniBand HCA here",
    "GPUHostNetworkErrors": "node-exporter alerts are off locally (it reports this machine, not a GPU node)",
    "GPUNodeAllocatableShort": "the simulated kube-state-metrics offers every simulated GPU",
    "GPURequestsNearAllocatable": "the simulated pods request a fixed share of the GPUs",
    "GPUPodCPUThrottled": "the simulated cAdvisor series are not throttled",
    "GPUPodMemoryNearLimit": "the simulated cAdvisor series stay under their limits",
}


# dcgm-exporter's default list has no NVLink error counter (GPUNVLinkErrors could never fire) and no thermal
# violation time; the 100-metric list the ingest benchmark uses has both, as a production field list would.
FIELDS_CSV = REPO / "bench" / "fields-100.csv"


def spec_yaml(index: int) -> str:
    return f"""# Written by bench/alert_latency.py: one cluster per stack, as small as the faults allow.
name: bench-alerts-{index}
clusters:
  - name: alerts-{index}
    kind: baremetal
    node_groups: [{{name: h100, gpu_model: h100, gpus_per_node: 8, nodes: 4}}]
long_term_store: mimir
retention: {{cold_tier: full}}
exporter: {{collectors: {FIELDS_CSV}}}
receivers:  # replaced by the stack's webhook recorder
  infra: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  platform: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
  workload: {{webhook: {{url: "http://127.0.0.1:1/"}}}}
"""


@dataclass
class Stack(UpStack):
    """One ``gpuscope up`` of the benchmark: the tests' handle on a running stack, plus what was injected."""

    index: int = 0
    injected: dict[str, float] = field(default_factory=dict)  # alert -> injection time (epoch s)
    already_active: set[str] = field(default_factory=set)

    @property
    def cluster(self) -> str:
        return f"alerts-{self.index}"

    def check_alive(self) -> None:
        if self.proc.poll() is not None:
            tail = " | ".join(self.log.read_text(errors="replace").strip().splitlines()[-3:])
            raise BenchError(f"gpuscope up (stack {self.index}) exited with {self.proc.returncode}: {tail}")


def start(index: int, root: Path, fast: bool) -> Stack:
    data_dir = root / f"stack-{index}"
    data_dir.mkdir(parents=True)
    spec = root / f"fleet-{index}.yaml"
    spec.write_text(spec_yaml(index))
    log = root / f"stack-{index}.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*GPUSCOPE, "up", str(spec), "--no-tui", "--data-dir", str(data_dir), *(["--fast"] if fast else [])],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return Stack(proc, data_dir, log, index)


def stop(stack: Stack) -> None:
    if stack.proc.poll() is None:
        stack.proc.send_signal(signal.SIGINT)
        try:
            stack.proc.wait(90)
        except subprocess.TimeoutExpired:
            stack.proc.kill()
            stack.proc.wait(10)


def wait_green(stack: Stack, timeout: float) -> None:
    def green() -> bool:
        stack.check_alive()
        return (stack.data_dir / "stack.json").exists() and stack.status().get("floor_green_after_seconds") is not None

    wait_for(green, timeout, f"stack {stack.index}'s Phase 1 floor to turn green (log {stack.log})")


def active_alerts(stack: Stack) -> set[str]:
    response = httpx.get(f"{stack.url('alertmanager')}/api/v2/alerts", timeout=10)
    response.raise_for_status()
    return {a["labels"].get("alertname", "") for a in response.json()}


def push_job(stack: Stack) -> None:
    """A job's heartbeat, as gpuscope.jobs pushes it, once: then the job "dies" without finishing."""
    body = "# TYPE gpuscope_job_steps_total counter\ngpuscope_job_steps_total 42\n"
    url = f"{stack.url('pushgateway')}/metrics/job/bench/job_id/stale-{stack.index}/instance/bench-node"
    httpx.put(url, content=body, timeout=10).raise_for_status()


def inject_all(stack: Stack) -> None:
    measured = {a for f in FAULTS for a in f.alerts}
    stack.already_active = active_alerts(stack) & measured
    for fault in FAULTS:
        t0 = time.time()
        if fault.request["fault"] == "push-job":
            push_job(stack)
        else:
            body = {**fault.request, "cluster": stack.cluster}
            response = httpx.post(f"{stack.url('control')}/faults", json=body, timeout=30)
            if response.status_code != 200:
                raise BenchError(f"stack {stack.index}: injecting {fault.what} failed: {response.text.strip()}")
        for alert in fault.alerts:
            stack.injected[alert] = t0


def first_notifications(stack: Stack) -> dict[str, float]:
    """alert -> seconds from its injection to the first webhook call carrying it (firing)."""
    out: dict[str, float] = {}
    for note in stack.notifications():
        for alert in note.get("alerts", []):
            name = alert["labels"].get("alertname", "")
            t0 = stack.injected.get(name)
            if t0 is None or alert.get("status") != "firing" or note["received_at"] < t0:
                continue
            latency = note["received_at"] - t0
            out[name] = min(out.get(name, latency), latency)
    return out


def measure(fast: bool, root: Path, progress: Any) -> tuple[list[dict[str, float]], list[Stack], dict[str, Any]]:
    stacks = [start(i + 1, root, fast) for i in range(STACKS)]
    info: dict[str, Any] = {}
    try:
        for stack in stacks:
            wait_green(stack, 180)
        info["green_after_s"] = [s.status()["floor_green_after_seconds"] for s in stacks]
        # A fleet that has been running a while: enough samples for increase()/rate() windows before the fault.
        warmup = 10 if fast else 120
        progress(f"stacks green; warming up {warmup} s")
        time.sleep(warmup)
        info["load_start"] = load_average()
        for stack in stacks:
            inject_all(stack)
        progress("faults injected; waiting for notifications")
        expected = {a for f in FAULTS for a in f.alerts}
        # Longest expected: PrometheusRemoteWriteBehind, 2 min behind + for 15m + group_wait, ~17.5 min.
        deadline = time.monotonic() + (25 * 60) / (FAST if fast else 1)
        results: list[dict[str, float]] = [{} for _ in stacks]
        reported = 0
        while time.monotonic() < deadline:
            for i, stack in enumerate(stacks):
                stack.check_alive()
                results[i] = first_notifications(stack)
            done = sum(len(r) for r in results)
            if done > reported:
                reported = done
                progress(f"{done}/{len(expected) * len(stacks)} alert notifications received")
            if all(expected <= set(r) for r in results):
                break
            time.sleep(1.0)
        info["load_end"] = load_average()
        info["already_active"] = sorted(set().union(*(s.already_active for s in stacks)))
        return results, stacks, info
    finally:
        for stack in stacks:
            stop(stack)


def promtool_figures() -> tuple[str, dict[str, list[str]]]:
    """The latest promtool detection table in docs/benchmarks.md (written by bench/alert_firing.py)."""
    text = (REPO / "docs" / "benchmarks.md").read_text()
    marker = "### Alert detection in the promtool scenarios"
    if marker not in text:
        return "", {}
    block = text.rsplit(marker, 1)[1]
    heading = block.split("\n", 1)[0].strip(" —")
    figures: dict[str, list[str]] = {}
    for line in block.split("\n| alert |", 1)[-1].splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        figures.setdefault(cells[0], []).append(cells[2])
    return heading, figures


def section(results: list[dict[str, float]], info: dict[str, Any], fast: bool, command: str) -> Section:
    bounds = {a.name: a.bound for a in alerts(RulesConfig())}
    speed = FAST if fast else 1
    title = (
        "Alert latency, fault -> webhook, production timing (15 s scrape, real for: and Alertmanager timings)"
        if not fast
        else "Alert latency, fault -> webhook (quick: gpuscope up --fast, every duration /15 — scaled down)"
    )
    s = Section(
        title,
        command,
        f"{STACKS} `gpuscope up` stacks side by side (one cluster of 4 nodes x 8 H100 each, exporting "
        "`bench/fields-100.csv`), every fault injected "
        "at once on distinct GPUs/nodes through the stack's control API; latency = first webhook call carrying "
        "the alert minus the injection time. Median of the 3 stacks against the alert's bound"
        + (" (/15 in --fast)" if fast else "")
        + ": the bound is the promise the alert makes, so it is the fair yardstick.",
        ("alert", "fault injected", "runs", "median", "bound", "verdict"),
    )
    for fault in FAULTS:
        for alert in fault.alerts:
            runs = [r[alert] for r in results if alert in r]
            bound = bounds[alert]
            median = statistics.median(runs) if runs else None
            runs_text = ", ".join(fmt_duration(x) for x in sorted(runs)) + (
                f" ({len(results) - len(runs)} never notified)" if len(runs) < len(results) else ""
            )
            if bound[0].isdigit():
                limit = prometheus_seconds(bound) / speed
                bound_text = bound if speed == 1 else f"{bound}/15 = {fmt_duration(limit)}"
                verdict = "no notification" if median is None else "within" if median <= limit else "OVER"
            else:
                bound_text = bound
                verdict = "no notification" if median is None else "measured"
            s.rows.append(
                (
                    alert,
                    fault.what,
                    runs_text or "-",
                    fmt_duration(median) if median is not None else "-",
                    bound_text,
                    verdict,
                )
            )
    heading, figures = promtool_figures()
    for alert, why in NOT_INJECTABLE.items():
        got = figures.get(alert, [])
        shown = (min(got) + ("-" + max(got) if max(got) != min(got) else "")) if got else "n/a"
        s.rows.append(
            (
                alert,
                f"not injectable locally: {why}",
                "promtool",
                f"{shown} (promtool)",
                bounds[alert],
                "promtool figure",
            )
        )
    s.notes.append(
        "Rows marked promtool are not end-to-end: they are the rule's detection time in its promtool scenarios "
        f"(`python bench/alert_firing.py`, the docs/benchmarks.md table of {heading or 'n/a'}), without Alertmanager's "
        "group_wait; their latency is that plus 10 s (pages) or 30 s (tickets)."
    )
    if fast:
        s.notes.append(
            "Quick mode compresses every duration 15x, but not the fixed cost of each hop (collection, 1 s scrape, "
            "1 s evaluation, Alertmanager's dispatch, the webhook call) on a shared 2-core machine running three "
            "stacks: a few seconds that a 1 m/15 = 4 s bound cannot absorb. An OVER here is that floor; the "
            "production-timing table (`make bench-full`) is the one to read against the bounds."
        )
    if info.get("already_active"):
        s.notes.append(
            f"Already active before the injection (their figure is not a first notification): {info['already_active']}."
        )
    s.notes.append(
        f"Stacks' Phase 1 floor green after {', '.join(f'{x:.0f}' for x in info['green_after_s'])} s; load average "
        f"{info['load_start']} at injection, {info['load_end']} at the end."
    )
    return s


def run(fast: bool, command: str, keep: bool = False, progress: Any = print) -> list[Section]:
    results, _, info = in_workdir(
        "alerts", keep, lambda root: measure(fast, root, lambda x: progress(f"  alerts: {x}"))
    )
    return [section(results, info, fast, command)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="gpuscope up --fast: every duration /15 (make bench)")
    parser.add_argument("--keep", action="store_true", help="keep the stacks' data directories and logs")
    args = parser.parse_args()
    command = " ".join(["python bench/alert_latency.py", *sys.argv[1:]])
    print_sections("alert_latency", lambda: run(args.quick, command, args.keep))


if __name__ == "__main__":
    main()
