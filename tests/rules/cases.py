"""Every area's alert and expression scenarios, by area: what test_rules.py runs through promtool and
bench/alert_firing.py times."""

from __future__ import annotations

from tests.rules import (
    cases_fabric,
    cases_gpu,
    cases_host,
    cases_pipeline,
    cases_processes,
    cases_prometheus,
    cases_recording,
    cases_workload,
    cases_xid,
)
from tests.support.promtool import Case, ExprCase

AREAS: dict[str, tuple[Case | ExprCase, ...]] = {
    "gpu": cases_gpu.CASES,
    "xid": cases_xid.CASES,
    "fabric": cases_fabric.CASES,
    "pipeline": cases_pipeline.CASES,
    "prometheus": cases_prometheus.CASES,
    "workload": cases_workload.CASES,
    "host": cases_host.CASES,
    "processes": cases_processes.CASES,
    "recording": (*cases_recording.EXPRS, *cases_recording.JOB_EXPRS, cases_recording.FLEET),
}
ALERT_CASES: tuple[Case, ...] = tuple(c for cases in AREAS.values() for c in cases if isinstance(c, Case))
