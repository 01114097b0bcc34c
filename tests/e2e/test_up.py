"""``gpuscope up --fast`` end to end: real Prometheus HA pairs, a global store, Alertmanager and Pushgateway on
loopback, simulated GPU nodes, and the failure modes the alert rules cover, driven through ``gpuscope inject``.

The tests share one stack (it takes a while to start) but not an order: before each, ``stack`` clears every fault
and waits until the stack is healthy again, and starts a fresh one if a test stopped it (tests/e2e/conftest.py).
The test that stops the stack (SIGKILL) comes last, so the module starts one stack. The drills that take longest (an
outage of the global store, a replica down, a zombie, the teams' story) run on a stack of their own in
test_up_drills.py, beside these, and end with Ctrl-C on it.
"""

from __future__ import annotations

import json
import os
import signal
import time
from functools import partial

import httpx
import pytest

from gpuscope.errors import EnvironmentProblem
from gpuscope.runner.state import StackLock
from tests.support.net import wait_for
from tests.support.upstack import GROUP_INTERVAL_S, UpStack, cli, first_notified, notified, pid_alive, resolved

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

CLUSTERS = {"gpu-a": (4, 32), "gpu-b": (2, 16)}  # the built-in fleet: nodes, GPUs


def test_the_phase_1_floor_turns_green(stack: UpStack) -> None:
    # The floor as the live view shows it now: green once, and every check of its latest poll ok (waited for too:
    # on a loaded machine one poll's query can time out, "no answer", after the floor first turned green)
    status = wait_for(
        lambda: (
            (s := stack.status()).get("floor_green_after_seconds") is not None
            and all(check["ok"] for check in s["floor"])
            and s
        ),
        timeout=60,
        what="the Phase 1 floor",
    )
    assert status["floor"] and all(check["ok"] for check in status["floor"]), status["floor"]
    # the same facts, asked of every component directly: waited for, as the floor was (on a loaded machine one
    # scrape can time out between the floor's answer and ours, and ``up`` reads 0 until the next)
    for cluster, (nodes, gpus) in CLUSTERS.items():
        for replica in ("a", "b"):
            prom = f"prometheus-{replica}@{cluster}"
            _answers(stack, prom, 'count(up{job="dcgm-exporter"} == 1)', nodes)
            _answers(stack, prom, 'count(count by (UUID) (DCGM_FI_DEV_GPU_TEMP{job="dcgm-exporter"}))', gpus)
            rules = httpx.get(f"{stack.url(prom)}/api/v1/rules", timeout=10).json()["data"]["groups"]
            assert rules and not [r for g in rules for r in g["rules"] if r["health"] == "err"]
            managers = httpx.get(f"{stack.url(prom)}/api/v1/alertmanagers", timeout=10).json()["data"]
            assert [m["url"] for m in managers["activeAlertmanagers"]] == [f"{stack.url('alertmanager')}/api/v2/alerts"]
        in_global = f'count(count by (UUID) (DCGM_FI_DEV_GPU_TEMP{{job="dcgm-exporter",cluster="{cluster}"}}))'
        _answers(stack, "global", in_global, gpus)
        # both replicas write to the global store (replica="a"/"b"): count targets, not series
        up_targets = f'count(count by (instance) (up{{job="dcgm-exporter",cluster="{cluster}"}} == 1))'
        _answers(stack, "global", up_targets, nodes)


def _answers(stack: UpStack, component: str, query: str, expected: float) -> None:
    wait_for(
        lambda: stack.value(component, query) == expected,
        timeout=60,
        interval=1,
        what=f"{component} to answer {expected:g} to {query}",
    )


def test_the_status_is_gathered_when_asked_for(stack: UpStack) -> None:
    """Without the live view the stack gathers its status every 5 s, and whenever /status finds it older than 1 s:
    every answer is fresh, the seconds-old ones included."""
    ages = []
    for _ in range(4):
        ages.append(stack.status()["status_age_seconds"])
        time.sleep(2.5)  # between two background rounds: a status kept from the last one would be 2.5 s old
    assert all(age is not None and age <= 1.5 for age in ages), ages


def test_a_second_up_on_the_same_data_dir_refuses(stack: UpStack) -> None:
    done = cli("up", "--fast", "--no-tui", "--data-dir", str(stack.data_dir), timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "another `gpuscope up`" in lines[0] and str(stack.proc.pid) in lines[0], done.stderr
    assert stack.proc.poll() is None and stack.status()["floor_green_after_seconds"] is not None


def test_failure_modes_page_once_stay_inhibited_and_resolve(stack: UpStack) -> None:
    lost = {"cluster": "gpu-a", "Hostname": "gpu-a-h100-01", "gpu": "2"}
    restarted = stack.state["nodes"][0]
    assert restarted["cluster"] == "gpu-a"
    expected: dict[str, dict[str, str]] = {
        "GPUFellOffBus": lost,
        "GPUProfilingMetricsStale": {"cluster": "gpu-a", "Hostname": "gpu-a-h100-03", "gpu": "1"},
        "GPUDoubleBitEccErrors": {"cluster": "gpu-a", "Hostname": "gpu-a-h100-02", "gpu": "0"},
        "GPUThermalThrottling": {"cluster": "gpu-b", "Hostname": "gpu-b-a100-00", "gpu": "3"},
        "GPUExporterDown": {"cluster": "gpu-b", "instance": stack.state["nodes"][5]["url"].removeprefix("http://")},
        "GPUExporterRestarted": {"cluster": "gpu-a", "instance": restarted["url"].removeprefix("http://")},
    }
    # The restarted exporter's pod, as kube-state-metrics (simulated) counts its restarts: one restart, two signals
    # (the exporter's start time and this count), exactly one notification.
    restarts = (
        'kube_pod_container_status_restarts_total{job="kube-state-metrics",container="exporter"}'
        f' * on (namespace, pod) group_left (node) kube_pod_info{{node="{restarted["hostname"]}"}}'
    )
    before = stack.value("prometheus-a@gpu-a", restarts)
    assert before is not None, "kube-state-metrics (simulated) has no restart count for the exporter's pod"
    # distinct nodes and GPUs, all at once, as an incident looks
    stack.inject("fell-off-bus", "--cluster", "gpu-a", "--node", "1", "--gpu", "2")
    stack.inject("profiling-lock", "--cluster", "gpu-a", "--node", "3", "--gpu", "1")
    stack.inject("ecc-dbe", "--cluster", "gpu-a", "--node", "2", "--gpu", "0")
    stack.inject("thermal", "--cluster", "gpu-b", "--node", "0", "--gpu", "3")
    stack.inject("exporter-down", "--cluster", "gpu-b", "--node", "1")
    stack.inject("restart", "--cluster", "gpu-a", "--node", "0")
    # the dying GPU reports one more critical XID: GPUXidCritical fires for it, and GPUFellOffBus inhibits it
    stack.inject("xid", "--code", "94", "--cluster", "gpu-a", "--node", "1", "--gpu", "2")

    wait_for(
        lambda: (stack.value("prometheus-a@gpu-a", restarts) or 0) > before,
        timeout=60,
        interval=0.5,
        what="kube-state-metrics counting the exporter's restart",
    )
    firsts = {name: first_notified(stack, name, **labels) for name, labels in expected.items()}

    def inhibited() -> bool:
        return any(
            a["labels"]["alertname"] == "GPUXidCritical"
            and a["labels"].get("xid") == "94"
            and a["status"]["inhibitedBy"]
            for a in stack.am_alerts()
        )

    wait_for(inhibited, timeout=60, interval=0.5, what="GPUXidCritical (XID 94) inhibited by GPUFellOffBus")
    last_first = max(n["received_at"] for n in firsts.values())
    time.sleep(max(0.0, last_first + GROUP_INTERVAL_S + 5 - time.time()))

    notes = stack.notifications()
    for name, labels in expected.items():
        assert len(notified(notes, name, **labels)) == 1, f"{name} must reach the receiver exactly once"
    assert not notified(notes, "GPUXidCritical", **lost), "an inhibited alert reached the receiver"
    restart_notes = notified(notes, "GPUExporterRestarted", **expected["GPUExporterRestarted"])
    assert [a["labels"]["alertname"] for n in restart_notes for a in n["alerts"]].count("GPUExporterRestarted") == 1
    assert not [a for n in notes for a in n["alerts"] if "replica" in a["labels"]], "HA replica label leaked"
    assert {n["receiver"] for n in notes} <= {"infra-page", "infra-ticket", "platform-page", "platform-ticket"}

    # The XID stays in GPUXidCritical's window for a while; clear once it has left, or the recovered GPU would
    # rightly page for it.
    wait_for(
        lambda: not stack.query("prometheus-a@gpu-a", 'ALERTS{alertname="GPUXidCritical",xid="94"}'),
        timeout=90,
        interval=1,
        what="GPUXidCritical for XID 94 to leave its window",
    )
    stack.clear()
    for name, labels in expected.items():
        if name != "GPUExporterRestarted":  # resolves by itself, already checked once above
            wait_for(
                partial(resolved, stack, name, labels),
                timeout=120,
                interval=0.5,
                what=f"{name} resolved after clear",
            )
    assert not notified(stack.notifications(), "GPUXidCritical", **lost)


def test_a_crashed_child_is_reported_and_restarted(stack: UpStack) -> None:
    before = {c["name"]: c for c in stack.status()["components"]}["pushgateway@gpu-a"]
    os.kill(before["pid"], signal.SIGKILL)
    after = wait_for(
        lambda: (
            (c := {c["name"]: c for c in stack.status()["components"]}["pushgateway@gpu-a"])["restarts"]
            == before["restarts"] + 1
            and c["running"]
            and c
        ),
        timeout=30,
        what="pushgateway restarted",
    )
    assert after["pid"] != before["pid"]
    assert any("pushgateway@gpu-a exited with code" in e for e in stack.status()["events"])
    wait_for(lambda: httpx.get(f"{stack.url('pushgateway@gpu-a')}/-/ready", timeout=2).status_code == 200, what="ready")


def _l3_host_cpu_query(stack: UpStack) -> str:
    """The L3 host row's CPU query from the generated dashboard, its variables filled in."""
    model = json.loads((stack.data_dir / "bundle" / "grafana" / "dashboards" / "l3-node.json").read_text())
    row = next(p for p in model["panels"] if p["title"] == "Host CPU")
    expr: str = row["targets"][0]["expr"]
    return expr.replace("$cluster", ".*").replace("$node", "gpu-b-a100-01").replace("$__rate_interval", "20s")


def test_the_l3_host_row_shows_the_real_node_exporter(stack: UpStack) -> None:
    """One real host (this machine) under the simulated GPUs: the host row's query answers from node-exporter,
    joined to the simulated node by the host label, and the scrape job is the real binary's."""
    expr = _l3_host_cpu_query(stack)
    rows = wait_for(
        lambda: stack.query("prometheus-a@gpu-b", expr), timeout=60, interval=1, what=f"the L3 host row: {expr}"
    )
    assert [r["metric"] for r in rows] == [{"Hostname": "gpu-b-a100-01"}]
    assert 0 <= float(rows[0]["value"][1]) <= 1
    build = stack.query("prometheus-a@gpu-b", 'node_exporter_build_info{job="node-exporter",Hostname="gpu-b-a100-01"}')
    assert build and build[0]["metric"]["version"], build  # the real node-exporter, not a stand-in
    # kube-state-metrics and cAdvisor are simulated for the Kubernetes cluster only (gpu-b is bare metal)
    # (waited for: on a loaded machine one scrape of a 1 s timeout can fail, that target down until the next)
    wanted = {"node-exporter", "kube-state-metrics", "cadvisor"}
    wait_for(
        lambda: wanted <= {r["metric"]["job"] for r in stack.query("prometheus-a@gpu-a", "up == 1")},
        timeout=30,
        interval=1,
        what=f"{sorted(wanted)} up on gpu-a",
    )
    assert not {"kube-state-metrics", "cadvisor"} & {
        r["metric"]["job"] for r in stack.query("prometheus-a@gpu-b", "up")
    }


def test_the_remediator_runs_in_dry_run_and_the_view_says_what_it_would_drain(stack: UpStack) -> None:
    """gpu-b is a Slurm cluster: a lost GPU there is a node gpuscope remediate would drain, and only says so."""
    log = stack.data_dir / "logs/remediation.jsonl"
    earlier = len(log.read_text().splitlines()) if log.exists() else 0  # the decisions of earlier tests' faults
    stack.inject("fell-off-bus", "--cluster", "gpu-b", "--node", "1", "--gpu", "2")
    line = "would drain gpu-b-a100-01: GPUFellOffBus"
    wait_for(lambda: line in stack.status().get("remediation", []), timeout=90, interval=0.5, what=line)
    shown = cli("status", "--data-dir", str(stack.data_dir))
    assert shown.returncode == 0 and line in shown.stdout
    audit = [json.loads(x) for x in log.read_text().splitlines()[earlier:]]
    assert audit and all(d["dry_run"] for d in audit)
    assert [d["node"] for d in audit if d["result"] == "would"] == ["gpu-b-a100-01"]


def test_a_sigkilled_supervisor_keeps_the_data_dir_until_its_children_have_exited(running: UpStack) -> None:
    components = {c["name"]: c["pid"] for c in running.status()["components"] if c["running"]}
    slow = components["pushgateway@gpu-a"]
    os.kill(slow, signal.SIGSTOP)  # a child that is slow to stop (a replica flushing remote write, say)
    try:
        running.proc.send_signal(signal.SIGKILL)
        running.proc.wait(30)
        # The other children stop with their supervisor; the stopped one still holds the data directory's lock.
        second = cli("up", "--fast", "--no-tui", "--data-dir", str(running.data_dir), timeout=60)
        assert second.returncode == 2, second.stdout + second.stderr
        assert "has exited but its child processes still hold the directory" in second.stderr
        assert pid_alive(slow)
    finally:
        os.kill(slow, signal.SIGCONT)  # its pending SIGTERM (from the supervisor's death) now stops it
    wait_for(lambda: not any(pid_alive(p) for p in components.values()), timeout=60, what="every child to exit")

    def lock_free() -> bool:
        # A multi-threaded child's leader can show as exited a moment before its last thread closes the files.
        lock = StackLock(running.data_dir / "lock")
        try:
            lock.acquire(running.data_dir / "stack.json")
        except EnvironmentProblem:
            return False
        lock.release()
        return True

    wait_for(lock_free, timeout=30, what="the data directory to be free once the last child has gone")
