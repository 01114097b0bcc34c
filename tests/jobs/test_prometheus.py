"""Jobs, simulated GPU nodes, a Pushgateway and Prometheus with the generated rules, all real, on loopback.

Pushed job series are scraped with ``honor_labels`` and join the simulated GPUs' series by UUID (docs/jobs.md's
query and the recorded ``job:gpu_activity:avg5m``); a finished job leaves no stale alert and a deleted group
leaves nothing; a job killed with SIGKILL raises PushgatewayJobStale. Rules run in compressed time
(``speedup: 15``): ``job_stale_after: 1m`` is 4 s, ``for: 1m`` is 4 s.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from gpuscope.jobs import JobReporter
from gpuscope.rules import RulesConfig, Thresholds, render_rule_files
from tests.support.exporters import serving
from tests.support.fleets import scrape_config, sim_fleet
from tests.support.jobs import Pushgateway
from tests.support.net import wait_for
from tests.support.prom import Prometheus, run_prometheus

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
METRIC = "DCGM_FI_PROF_GR_ENGINE_ACTIVE"
RULES = RulesConfig(speedup=15, thresholds=Thresholds(job_stale_after="1m"))

KILLED_JOB = textwrap.dedent(
    """
    import sys, time
    from gpuscope.jobs import JobReporter

    gateway, uuid, host = sys.argv[1:4]
    job = JobReporter("killed", gateway=gateway, gpus=[uuid], job="train", hostname=host,
                      user="kim", push_interval_s=0.2, env={}).start()
    while True:
        job.step(0.05, samples=16)
        time.sleep(0.05)
    """
)


def readme_job_queries() -> list[str]:
    """The PromQL of docs/jobs.md (its ```promql block, comments left out)."""
    section = (REPO / "docs" / "jobs.md").read_text()
    block = section.split("```promql\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def prometheus_config(targets: Path, pushgateway: Pushgateway, rule_files: list[str]) -> dict[str, Any]:
    gateway = {
        "job_name": "pushgateway",
        "honor_labels": True,
        "static_configs": [{"targets": [pushgateway.url.removeprefix("http://")]}],
    }
    return scrape_config(targets, jobs=[gateway], rule_files=rule_files)


def alerts(prom: Prometheus, job_id: str) -> list[dict[str, Any]]:
    return [
        a
        for a in prom.get("/api/v1/alerts")["alerts"]
        if a["labels"].get("alertname") == "PushgatewayJobStale" and a["labels"].get("job_id") == job_id
    ]


def test_jobs_join_gpu_telemetry_finish_cleanly_and_a_killed_job_alerts(
    pushgateway: Pushgateway, tmp_path: Path
) -> None:
    fleet = sim_fleet(count=1, gpus_per_node=4)
    targets = fleet.write_targets(tmp_path / "targets.json")
    rule_files = render_rule_files(RULES)
    config = prometheus_config(targets, pushgateway, sorted(rule_files))
    join, recorded = readme_job_queries()
    with serving(fleet.listeners, 1.0), run_prometheus(config, tmp_path / "prom", files=rule_files) as prom:
        gpus = wait_for(lambda: len(r := prom.query(METRIC)) == 4 and r, timeout=60, what="4 simulated GPUs")
        by_gpu = {s["metric"]["gpu"]: s["metric"] for s in gpus}
        host = by_gpu["0"]["Hostname"]
        uuids = [by_gpu[g]["UUID"] for g in ("0", "1", "2", "3")]

        # A running job on GPUs 0 and 1, another that will be deleted on GPU 3.
        job = JobReporter(
            "run-a", gateway=pushgateway.url, gpus=uuids[:2], job="train", hostname=host, user="ann",
            push_interval_s=0.2, env={},
        ).start()  # fmt: skip
        doomed = JobReporter(
            "run-del", gateway=pushgateway.url, gpus=[uuids[3]], job="train", hostname=host, user="del",
            push_interval_s=0.2, on_finish="delete", env={},
        ).start()  # fmt: skip
        for _ in range(20):
            job.step(0.1, samples=32)
        joined = wait_for(
            lambda: len(r := [s for s in prom.query(join) if s["metric"]["job_id"] == "run-a"]) == 2 and r,
            timeout=60,
            what="the documented join for run-a",
        )
        assert {s["metric"]["UUID"] for s in joined} == set(uuids[:2])
        assert {(s["metric"]["user"], s["metric"]["Hostname"], s["metric"]["job"]) for s in joined} == {
            ("ann", host, "dcgm-exporter")
        }
        # at the join's own evaluation time: a scrape between two "now" queries changes the value
        values = {s["metric"]["UUID"]: s["value"][1] for s in prom.query(METRIC, at=float(joined[0]["value"][0]))}
        assert all(s["value"][1] == values[s["metric"]["UUID"]] for s in joined)  # the GPU's own value

        per_job = wait_for(
            lambda: len(r := prom.query(recorded.replace("my-run-7", "run-a"))) == 2 and r,
            timeout=60,
            what="job:gpu_activity:avg5m for run-a",
        )
        assert {(s["metric"]["gpu"], s["metric"]["modelName"]) for s in per_job} == {
            ("0", by_gpu["0"]["modelName"]),
            ("1", by_gpu["1"]["modelName"]),
        }
        counts = wait_for(lambda: prom.query('job:gpus:count{job_id=~"run-a|run-del"}'), what="job:gpus:count")
        assert {s["metric"]["job_id"]: s["value"][1] for s in counts} == {"run-a": "2", "run-del": "1"}
        steps = wait_for(lambda: prom.query('gpuscope_job_steps_total{job_id="run-a"} == 20'), what="steps scraped")
        assert steps[0]["metric"]["job"] == "train" and steps[0]["metric"]["instance"] == host  # honor_labels

        # Deleting finish: the group and its series are gone.
        assert doomed.finish() is True
        wait_for(lambda: not prom.query('gpuscope_job_info{job_id="run-del"}'), what="run-del's series gone")
        assert pushgateway.group("run-del") == {}

        # A job killed on GPU 2 without finishing; run-a finishes normally just before.
        killed = subprocess.Popen([sys.executable, "-c", KILLED_JOB, pushgateway.url, uuids[2], host])
        try:
            wait_for(lambda: prom.query('gpuscope_job_steps_total{job_id="killed"} > 0'), what="the doomed job's steps")
            assert job.finish(exit_code=0) is True
            wait_for(lambda: prom.query('gpuscope_job_end_time_seconds{job_id="run-a"}'), what="run-a's end time")
            killed.send_signal(signal.SIGKILL)
            killed.wait(10)
        finally:
            if killed.poll() is None:
                killed.kill()
                killed.wait(10)
        firing = wait_for(
            lambda: [a for a in alerts(prom, "killed") if a["state"] == "firing"],
            timeout=60,
            what="PushgatewayJobStale firing for the killed job",
        )
        assert firing[0]["labels"]["job"] == "train" and firing[0]["labels"]["instance"] == host
        # run-a stopped pushing earlier than the killed job, but it finished: no alert, pending or firing.
        assert alerts(prom, "run-a") == []
        # A finished job no longer claims its GPUs; the killed one still does until its group expires.
        assert not prom.query('job:gpu_activity:avg5m{job_id="run-a"}')
        assert [s["metric"]["UUID"] for s in prom.query('job:gpu_activity:avg5m{job_id="killed"}')] == [uuids[2]]
