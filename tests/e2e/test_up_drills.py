"""``gpuscope up --fast`` end to end, the longer drills: the global store's outage drained without a gap, a
zombie's memory alert and an ECC error each arriving once with a replica down, and the teams' story (who holds
which GPU, the idle team's ticket, Slurm jobs), then Ctrl-C on that stack, which must leave no process behind.
They run on a stack of their own beside test_up.py's (tests/e2e/conftest.py): the two modules together take half
the time of one.
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import time
from functools import partial

import httpx
import pytest

from tests.support.dashboards import substitute
from tests.support.net import wait_for
from tests.support.upstack import GROUP_INTERVAL_S, UpStack, cli, first_notified, notified, pid_alive, resolved

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(600)]


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
    first_notified(stack, "PrometheusRemoteWriteBehind")
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


def test_with_replica_a_down_a_zombie_and_an_ecc_error_each_alert_once_and_resolve(stack: UpStack) -> None:
    """Simulated pods share the stack's GPUs; a process left behind by a deleted pod (platform's) and a double-bit
    ECC error (infra's) each reach the receiver exactly once while replica A of their cluster is down."""
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

    stack.inject("prometheus-down", "--cluster", "gpu-a", "--replica", "a")
    status = stack.status()
    assert [c["running"] for c in status["components"] if c["name"] == "prometheus-a@gpu-a"] == [False]
    ecc = {"cluster": "gpu-a", "Hostname": "gpu-a-h100-00", "gpu": "4"}
    zombie = {"cluster": "gpu-a", "Hostname": "gpu-a-h100-00", "gpu": "6", "owner": "platform"}
    stack.inject("ecc-dbe", "--cluster", "gpu-a", "--node", "0", "--gpu", "4")
    stack.inject("zombie", "--cluster", "gpu-a", "--node", "0", "--gpu", "6")
    firsts = [
        first_notified(stack, "GPUDoubleBitEccErrors", **ecc),
        first_notified(stack, "GPUMemoryHeldByNoPod", **zombie),
    ]
    time.sleep(max(0.0, max(n["received_at"] for n in firsts) + GROUP_INTERVAL_S + 5 - time.time()))
    notes = stack.notifications()
    assert len(notified(notes, "GPUDoubleBitEccErrors", **ecc)) == 1
    assert len(notified(notes, "GPUMemoryHeldByNoPod", **zombie)) == 1
    assert len(notified(notes, "GPUMemoryHeldByNoPod")) == 1  # no other GPU
    stack.clear()
    for name, labels in (("GPUDoubleBitEccErrors", ecc), ("GPUMemoryHeldByNoPod", zombie)):
        wait_for(partial(resolved, stack, name, labels), timeout=120, interval=0.5, what=f"{name} resolved")
    assert stack.value("prometheus-a@gpu-a", 'count(up{job="dcgm-exporter"} == 1)') == 4  # replica A is back


def test_the_teams_story_idle_gpus_get_their_ticket_and_slurm_jobs_are_attributed(running: UpStack) -> None:
    """gpu-a's kubelets list the teams' pods, gpu-b's job-mapping directories the Slurm jobs; the idle team's
    GPUs raise the workload ticket within minutes, and the pushing jobs join their GPUs by UUID. It reads the story
    of a stack minutes old (the last test of the module): what other alerts the story raises by then is not its
    business, so it takes the stack as it is, not after a wait for health."""
    stack = running
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
        # 200 s of `for` (50 m at --fast) after the first 5 m average: about 4 minutes after start when idle (a
        # missed scrape no longer starts the pending alert over; several in a row on a loaded machine still can)
        timeout=480,
        interval=1,
        what="GPUAllocatedButIdle for the idle vision team",
    )
    assert first[0]["labels"]["owner"] == "workload" and first[0]["labels"]["severity"] == "ticket"


def test_ctrl_c_leaves_no_process_behind(running: UpStack) -> None:
    """Last: Ctrl-C on the stack the drills have put through outages, faults and the teams' story."""
    status = running.status()
    pids = [c["pid"] for c in status["components"] if c["running"]]
    # 2 x 2 replicas, the global store, vmalert, Alertmanager, a Pushgateway per cluster, node-exporter, the
    # remediator (dry run)
    assert len(pids) == 11
    control = running.url("control")
    running.proc.send_signal(signal.SIGINT)
    assert running.proc.wait(60) == 0
    assert not [pid for pid in pids if pid_alive(pid)]
    assert not (running.data_dir / "stack.json").exists()
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{control}/status", timeout=2)
    done = cli("status", "--data-dir", str(running.data_dir))
    assert done.returncode != 0 and "no `gpuscope up` is running" in done.stderr
