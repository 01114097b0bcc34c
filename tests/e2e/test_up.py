"""``gpuscope up --fast`` end to end: real Prometheus HA pairs, a global store, Alertmanager and Pushgateway on
loopback, simulated GPU nodes, and the failure modes the alert rules cover, driven through ``gpuscope inject``.

The tests share one stack (it takes a while to start) but not an order: before each, ``stack`` clears every fault
and waits until the stack is healthy again, and starts a fresh one if a test stopped it.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import signal
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from gpuscope.errors import EnvironmentProblem
from gpuscope.runner.state import StackLock
from tests.dashboards.support import substitute
from tests.support.net import wait_for
from tests.support.upstack import UpStack, cli, notified, pid_alive, running_stack

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]

GROUP_INTERVAL_S = 20  # Alertmanager's 5m group_interval, 15x faster: a duplicate would arrive within this
CLUSTERS = {"gpu-a": (4, 32), "gpu-b": (2, 16)}  # the built-in fleet: nodes, GPUs


class _Stacks:
    """One running stack for the module, replaced by a fresh one when a test has stopped it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.started = 0
        self.running = contextlib.ExitStack()
        self.current: UpStack | None = None

    def get(self) -> UpStack:
        if self.current is not None and self.current.alive():
            self.current.reset()
            return self.current
        self.close()
        self.started += 1
        self.current = self.running.enter_context(running_stack(self.root / f"data-{self.started}"))
        self.current.wait_healthy()
        return self.current

    def close(self) -> None:
        self.running.close()
        self.current = None


@pytest.fixture(scope="module")
def stacks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Stacks]:
    pool = _Stacks(tmp_path_factory.mktemp("up"))
    try:
        yield pool
    finally:
        pool.close()


@pytest.fixture
def stack(stacks: _Stacks) -> UpStack:
    return stacks.get()


def test_the_phase_1_floor_turns_green(stack: UpStack) -> None:
    status = wait_for(
        lambda: (s := stack.status()).get("floor_green_after_seconds") is not None and s,
        timeout=60,
        what="the Phase 1 floor",
    )
    assert all(check["ok"] for check in status["floor"]), status["floor"]
    # the same facts, asked of every component directly
    for cluster, (nodes, gpus) in CLUSTERS.items():
        for replica in ("a", "b"):
            prom = f"prometheus-{replica}@{cluster}"
            assert stack.value(prom, 'count(up{job="dcgm-exporter"} == 1)') == nodes
            assert stack.value(prom, 'count(count by (UUID) (DCGM_FI_DEV_GPU_TEMP{job="dcgm-exporter"}))') == gpus
            rules = httpx.get(f"{stack.url(prom)}/api/v1/rules", timeout=10).json()["data"]["groups"]
            assert rules and not [r for g in rules for r in g["rules"] if r["health"] == "err"]
            managers = httpx.get(f"{stack.url(prom)}/api/v1/alertmanagers", timeout=10).json()["data"]
            assert [m["url"] for m in managers["activeAlertmanagers"]] == [f"{stack.url('alertmanager')}/api/v2/alerts"]
        in_global = f'count(count by (UUID) (DCGM_FI_DEV_GPU_TEMP{{job="dcgm-exporter",cluster="{cluster}"}}))'
        assert stack.value("global", in_global) == gpus
        # both replicas write to the global store (replica="a"/"b"): count targets, not series
        up_targets = f'count(count by (instance) (up{{job="dcgm-exporter",cluster="{cluster}"}} == 1))'
        assert stack.value("global", up_targets) == nodes


def test_a_second_up_on_the_same_data_dir_refuses(stack: UpStack) -> None:
    done = cli("up", "--fast", "--no-tui", "--data-dir", str(stack.data_dir), timeout=60)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "another `gpuscope up`" in lines[0] and str(stack.proc.pid) in lines[0], done.stderr
    assert stack.proc.poll() is None and stack.status()["floor_green_after_seconds"] is not None


def _first(stack: UpStack, alertname: str, **labels: str) -> dict[str, Any]:
    return wait_for(
        lambda: notified(stack.notifications(), alertname, **labels),
        timeout=120,
        interval=0.5,
        what=f"{alertname} {labels} at the webhook receiver\n{stack.log_tail()}",
    )[0]


def test_failure_modes_page_once_stay_inhibited_and_resolve(stack: UpStack) -> None:
    lost = {"cluster": "gpu-a", "Hostname": "gpu-a-h100-01", "gpu": "2"}
    expected: dict[str, dict[str, str]] = {
        "GPUFellOffBus": lost,
        "GPUProfilingMetricsStale": {"cluster": "gpu-a", "Hostname": "gpu-a-h100-03", "gpu": "1"},
        "GPUDoubleBitEccErrors": {"cluster": "gpu-a", "Hostname": "gpu-a-h100-02", "gpu": "0"},
        "GPUThermalThrottling": {"cluster": "gpu-b", "Hostname": "gpu-b-a100-00", "gpu": "3"},
        "GPUExporterDown": {"cluster": "gpu-b", "instance": stack.state["nodes"][5]["url"].removeprefix("http://")},
        "GPUExporterRestarted": {
            "cluster": "gpu-a",
            "instance": stack.state["nodes"][0]["url"].removeprefix("http://"),
        },
    }
    # distinct nodes and GPUs, all at once, as an incident looks
    stack.inject("fell-off-bus", "--cluster", "gpu-a", "--node", "1", "--gpu", "2")
    stack.inject("profiling-lock", "--cluster", "gpu-a", "--node", "3", "--gpu", "1")
    stack.inject("ecc-dbe", "--cluster", "gpu-a", "--node", "2", "--gpu", "0")
    stack.inject("thermal", "--cluster", "gpu-b", "--node", "0", "--gpu", "3")
    stack.inject("exporter-down", "--cluster", "gpu-b", "--node", "1")
    stack.inject("restart", "--cluster", "gpu-a", "--node", "0")
    # the dying GPU reports one more critical XID: GPUXidCritical fires for it, and GPUFellOffBus inhibits it
    stack.inject("xid", "--code", "94", "--cluster", "gpu-a", "--node", "1", "--gpu", "2")

    firsts = {name: _first(stack, name, **labels) for name, labels in expected.items()}

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


def resolved(stack: UpStack, alertname: str, labels: dict[str, str]) -> list[dict[str, Any]]:
    """The notifications so far that resolve ``alertname`` with these labels."""
    return notified(stack.notifications(), alertname, "resolved", **labels)


def test_with_replica_a_down_alerts_still_arrive_once(stack: UpStack) -> None:
    stack.inject("prometheus-down", "--cluster", "gpu-a", "--replica", "a")
    status = stack.status()
    assert [c["running"] for c in status["components"] if c["name"] == "prometheus-a@gpu-a"] == [False]
    target = {"cluster": "gpu-a", "Hostname": "gpu-a-h100-00", "gpu": "4"}
    stack.inject("ecc-dbe", "--cluster", "gpu-a", "--node", "0", "--gpu", "4")
    first = _first(stack, "GPUDoubleBitEccErrors", **target)
    time.sleep(max(0.0, first["received_at"] + GROUP_INTERVAL_S + 5 - time.time()))
    assert len(notified(stack.notifications(), "GPUDoubleBitEccErrors", **target)) == 1
    stack.clear()
    wait_for(
        lambda: notified(stack.notifications(), "GPUDoubleBitEccErrors", "resolved", **target),
        timeout=120,
        interval=0.5,
        what="GPUDoubleBitEccErrors resolved",
    )
    assert stack.value("prometheus-a@gpu-a", 'count(up{job="dcgm-exporter"} == 1)') == 4  # replica A is back


def _metric(url: str, name: str) -> list[float]:
    """The values of every series of ``name`` on a Prometheus's own /metrics page."""
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return [float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith((f"{name}{{", f"{name} "))]


def _sent_through(stack: UpStack, replica: str) -> float:
    """The timestamp of the newest sample the replica's remote-write queue has sent (0 before its first send).
    Samples pending in its shards are no measure of a backlog: with scrapes every second, each shard holds some
    for up to its batch deadline all the time."""
    return max(_metric(stack.url(replica), "prometheus_remote_storage_queue_highest_sent_timestamp_seconds"), default=0)


def _samples(stack: UpStack, component: str, selector: str, start: float, end: float) -> list[float]:
    """The timestamps of the one series ``selector`` matches, in (start, end]."""
    range_ms = round((end - start) * 1000)
    response = httpx.get(
        f"{stack.url(component)}/api/v1/query",
        params={"query": f"{selector}[{range_ms}ms]", "time": f"{end:.3f}"},
        timeout=10,
    )
    response.raise_for_status()
    result = response.json()["data"]["result"]
    assert len(result) <= 1, result
    return [float(ts) for ts, _ in result[0]["values"]] if result else []


def _intervals(stamps: list[float]) -> set[int]:
    """The store's 1 s deduplication intervals ``(k-1, k]`` these samples fall in."""
    return {math.ceil(round(t * 1000) / 1000) for t in stamps}


def test_global_store_outage_drains_without_a_gap(stack: UpStack) -> None:
    labels = 'job="dcgm-exporter",Hostname="gpu-b-a100-00",gpu="0"'
    in_replica = f"DCGM_FI_DEV_GPU_TEMP{{{labels}}}"  # cluster and replica are external labels
    # The built-in store is VictoriaMetrics: the HA pair is one series there (the replica label dropped on
    # ingestion), one sample per 1 s interval (k-1, k] from either replica.
    in_global = f'DCGM_FI_DEV_GPU_TEMP{{{labels},cluster="gpu-b"}}'
    replica = "prometheus-a@gpu-b"
    stack.inject("global-down")
    down_at = time.time()
    _first(stack, "PrometheusRemoteWriteBehind")
    # an outage of 30 s of the replica's own samples, however slowly a loaded machine scrapes
    wait_for(
        lambda: len(_samples(stack, replica, in_replica, down_at, time.time())) >= 30,
        timeout=180,
        interval=1,
        what="30 samples in the replica during the outage",
    )
    stack.clear()
    up_at = time.time()
    wait_for(
        lambda: notified(stack.notifications(), "PrometheusRemoteWriteBehind", "resolved"),
        timeout=120,
        interval=0.5,
        what="PrometheusRemoteWriteBehind resolved once the store was back",
    )
    # The window: from before the outage to a while after it, closed once the replica holds samples past its
    # end. The alert resolving does not mean the backlog is gone: wait until the replica's queue has sent samples
    # newer than the window, then compare the store with the replica's own samples of the window.
    # The window ends on a whole second: the store keeps the newest sample of each interval (k-1, k], which for a
    # window ending inside an interval can be the peer's sample just after the end, while the replica's own
    # sample of that interval, inside the window, was the one deduplicated away.
    start, end = down_at - 10, float(math.ceil(time.time() + 5))
    wait_for(
        lambda: _samples(stack, replica, in_replica, end, time.time()),
        timeout=60,
        what="a sample in the replica after the window",
    )
    wait_for(
        lambda: _sent_through(stack, replica) > end + 2,
        timeout=180,
        interval=0.5,
        what=f"{replica}'s remote-write queue to catch up past the window",
    )
    own = _samples(stack, replica, in_replica, start, end)
    assert own and own[0] < down_at and own[-1] > up_at, (own[:1], own[-1:], down_at, up_at)
    # The queue sends from several shards, each on its own batch deadline: the shard that holds this series
    # delivers its part of the window within seconds of the newest one.
    stored: list[list[float]] = [[]]

    def delivered() -> bool:
        stored[0] = _samples(stack, "global", in_global, start, end)
        return _intervals(own) <= _intervals(stored[0])

    with contextlib.suppress(AssertionError):
        wait_for(delivered, timeout=60, interval=1, what="the window's samples in the global store")
    # every sample the replica holds for the outage reached the store, so the store has no gap the replica has not
    missing = sorted(_intervals(own) - _intervals(stored[0]))
    assert not missing, (
        f"{len(missing)} of {len(own)} samples missing in the global store, at "
        f"{[round(t - down_at, 1) for t in missing[:10]]} s from the outage's start "
        f"(it ended at {up_at - down_at:.1f} s)"
        f"\n{stack.status()['events']}"
    )
    assert len(stored[0]) == len(_intervals(stored[0])), "an interval stored twice: the pair is not deduplicated"


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


def test_a_sigkilled_supervisor_keeps_the_data_dir_until_its_children_have_exited(stack: UpStack) -> None:
    components = {c["name"]: c["pid"] for c in stack.status()["components"] if c["running"]}
    slow = components["pushgateway@gpu-a"]
    os.kill(slow, signal.SIGSTOP)  # a child that is slow to stop (a replica flushing remote write, say)
    try:
        stack.proc.send_signal(signal.SIGKILL)
        stack.proc.wait(30)
        # The other children stop with their supervisor; the stopped one still holds the data directory's lock.
        second = cli("up", "--fast", "--no-tui", "--data-dir", str(stack.data_dir), timeout=60)
        assert second.returncode == 2, second.stdout + second.stderr
        assert "has exited but its child processes still hold the directory" in second.stderr
        assert pid_alive(slow)
    finally:
        os.kill(slow, signal.SIGCONT)  # its pending SIGTERM (from the supervisor's death) now stops it
    wait_for(lambda: not any(pid_alive(p) for p in components.values()), timeout=60, what="every child to exit")

    def lock_free() -> bool:
        # A multi-threaded child's leader can show as exited a moment before its last thread closes the files.
        lock = StackLock(stack.data_dir / "lock")
        try:
            lock.acquire(stack.data_dir / "stack.json")
        except EnvironmentProblem:
            return False
        lock.release()
        return True

    wait_for(lock_free, timeout=30, what="the data directory to be free once the last child has gone")


def test_ctrl_c_leaves_no_process_behind(stack: UpStack) -> None:
    status = stack.status()
    pids = [c["pid"] for c in status["components"] if c["running"]]
    # 2 x 2 replicas, the global store, vmalert, Alertmanager, a Pushgateway per cluster, node-exporter, the
    # remediator (dry run)
    assert len(pids) == 11
    control = stack.url("control")
    stack.proc.send_signal(signal.SIGINT)
    assert stack.proc.wait(60) == 0
    assert not [pid for pid in pids if pid_alive(pid)]
    assert not (stack.data_dir / "stack.json").exists()
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{control}/status", timeout=2)
    done = cli("status", "--data-dir", str(stack.data_dir))
    assert done.returncode != 0 and "no `gpuscope up` is running" in done.stderr


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
    jobs = {r["metric"]["job"] for r in stack.query("prometheus-a@gpu-a", "up == 1")}
    assert {"node-exporter", "kube-state-metrics", "cadvisor"} <= jobs
    assert not {"kube-state-metrics", "cadvisor"} & {
        r["metric"]["job"] for r in stack.query("prometheus-a@gpu-b", "up")
    }


def test_an_exporter_restart_pages_once_with_kube_state_metrics_seeing_it(stack: UpStack) -> None:
    node = stack.state["nodes"][2]
    assert node["cluster"] == "gpu-a"
    instance = node["url"].removeprefix("http://")
    restarts = (
        'kube_pod_container_status_restarts_total{job="kube-state-metrics",container="exporter"}'
        f' * on (namespace, pod) group_left (node) kube_pod_info{{node="{node["hostname"]}"}}'
    )
    before = stack.value("prometheus-a@gpu-a", restarts)
    assert before is not None, "kube-state-metrics (simulated) has no restart count for the exporter's pod"
    stack.inject("restart", "--cluster", "gpu-a", "--node", "2")
    # both signals present: the exporter's start time changed and kube-state-metrics counted the restart
    wait_for(
        lambda: (stack.value("prometheus-a@gpu-a", restarts) or 0) > before,
        timeout=60,
        interval=0.5,
        what="kube-state-metrics counting the exporter's restart",
    )
    first = _first(stack, "GPUExporterRestarted", cluster="gpu-a", instance=instance)
    time.sleep(max(0.0, first["received_at"] + GROUP_INTERVAL_S + 5 - time.time()))
    notes = notified(stack.notifications(), "GPUExporterRestarted", cluster="gpu-a", instance=instance)
    assert len(notes) == 1, "one restart, two signals: exactly one notification"
    assert len([a for n in notes for a in n["alerts"] if a["labels"]["alertname"] == "GPUExporterRestarted"]) == 1


def test_an_injected_zombie_alerts_platform_once_and_resolves(stack: UpStack) -> None:
    """Simulated pods share the stack's GPUs; a process left behind by a deleted pod alerts exactly once."""
    per_pod = 'count(gpuscope_gpu_process_memory_used_bytes{pod!=""})'
    wait_for(lambda: (stack.value("prometheus-a@gpu-a", per_pod) or 0) > 4 * 8, timeout=60, what="per-pod series")
    # L5's shared-GPU row has data in the stack (cluster is an external label here, as the dashboards' variable
    # values come from the global store; the replica answers without it)
    l5 = json.loads((stack.data_dir / "bundle/grafana/dashboards/l5-workload.json").read_text())
    shared = [p for p in l5["panels"] if p.get("title", "").startswith(("GPU memory per", "Noisy neighbours"))]
    assert len(shared) == 3
    for panel in shared:
        expr = substitute(panel["targets"][0]["expr"], {"cluster": ".*", "namespace": ".*", "pod": ".*"})
        assert stack.query("prometheus-a@gpu-a", expr), panel["title"]
    target = {"cluster": "gpu-a", "Hostname": "gpu-a-h100-00", "gpu": "6", "owner": "platform"}
    stack.inject("zombie", "--cluster", "gpu-a", "--node", "0", "--gpu", "6")
    first = _first(stack, "GPUMemoryHeldByNoPod", **target)
    time.sleep(max(0.0, first["received_at"] + GROUP_INTERVAL_S + 5 - time.time()))
    assert len(notified(stack.notifications(), "GPUMemoryHeldByNoPod", **target)) == 1
    assert len(notified(stack.notifications(), "GPUMemoryHeldByNoPod")) == 1  # no other GPU
    stack.clear()
    wait_for(
        lambda: notified(stack.notifications(), "GPUMemoryHeldByNoPod", "resolved", **target),
        timeout=120,
        interval=0.5,
        what="GPUMemoryHeldByNoPod resolved",
    )


def test_the_remediator_runs_in_dry_run_and_the_view_says_what_it_would_drain(stack: UpStack) -> None:
    """gpu-b is a Slurm cluster: a lost GPU there is a node gpuscope remediate would drain, and only says so."""
    stack.inject("fell-off-bus", "--cluster", "gpu-b", "--node", "1", "--gpu", "2")
    line = "would drain gpu-b-a100-01: GPUFellOffBus"
    wait_for(lambda: line in stack.status().get("remediation", []), timeout=90, interval=0.5, what=line)
    shown = cli("status", "--data-dir", str(stack.data_dir))
    assert shown.returncode == 0 and line in shown.stdout
    audit = [json.loads(x) for x in (stack.data_dir / "logs/remediation.jsonl").read_text().splitlines()]
    assert audit and all(d["dry_run"] for d in audit)
    assert [d["node"] for d in audit if d["result"] == "would"] == ["gpu-b-a100-01"]


def test_the_teams_story_idle_gpus_get_their_ticket_and_slurm_jobs_are_attributed(stack: UpStack) -> None:
    """gpu-a's kubelets list the teams' pods, gpu-b's job-mapping directories the Slurm jobs; the idle team's
    GPUs raise the workload ticket within minutes, and the pushing jobs join their GPUs by UUID."""
    held = 'sum by (namespace) (workload:gpu_held:ratio{cluster="gpu-a"})'
    wait_for(
        lambda: (
            {r["metric"]["namespace"] for r in stack.query("global", held)}
            >= {"ml", "serving", "research", "vision", "notebooks"}
        ),
        timeout=60,
        what="every team holding gpu-a's GPUs in the global store",
    )
    allocated = stack.value("global", 'cluster:gpus_allocated:count{cluster="gpu-a"}')
    assert allocated is not None and 0 < allocated <= 32
    # Slurm: each gpu-b node runs three jobs on GPUs 0-6, read from the mapping files a prolog would write
    jobs = "count by (Hostname) (count by (Hostname, gpu) (gpuscope_gpu_job_info))"  # the replica: no cluster label
    wait_for(
        lambda: (
            {r["metric"]["Hostname"]: float(r["value"][1]) for r in stack.query("prometheus-a@gpu-b", jobs)}
            == {"gpu-b-a100-00": 7.0, "gpu-b-a100-01": 7.0}
        ),
        timeout=60,
        what="gpu-b's Slurm jobs on their GPUs",
    )
    # two job slots push their progress; the job rules join them to their GPUs' activity
    wait_for(
        lambda: len({r["metric"]["job_id"] for r in stack.query("global", "job:gpu_activity:avg5m")}) >= 4,
        timeout=90,
        what="the pushed jobs joined to their GPUs",
    )
    # each pushed job reaches the global store from one cluster: no gateway that two clusters scrape
    clusters = "count by (job_id) (count by (job_id, cluster) (gpuscope_job_info))"
    listed = {r["metric"]["job_id"]: r["value"][1] for r in stack.query("global", clusters)}
    assert listed and set(listed.values()) == {"1"}, f"a job under more than one cluster: {listed}"
    first = wait_for(
        lambda: [
            a
            for n in stack.all_notifications()
            for a in n["alerts"]
            if a["labels"]["alertname"] == "GPUAllocatedButIdle" and a["labels"].get("namespace") == "vision"
        ],
        # 200 s of `for` (50 m at --fast) after the first 5 m average: about 4 minutes after start when idle, more
        # when a loaded machine makes scrapes miss and the pending alert start over
        timeout=480,
        interval=1,
        what="GPUAllocatedButIdle for the idle vision team",
    )
    assert first[0]["labels"]["owner"] == "workload" and first[0]["labels"]["severity"] == "ticket"
