"""The group's exposition (the contract's names, escaping, special values) and what ``step()`` records."""

from __future__ import annotations

import math

from prometheus_client.parser import text_string_to_metric_families

from gpuscope.jobs.devices import JobGpu
from gpuscope.jobs.metrics import (
    Finish,
    JobIdentity,
    Progress,
    finish_families,
    progress_families,
    render,
    start_families,
)
from gpuscope.jobs.progress import MAX_GAUGES, ProgressRecorder
from tests.support.clock import FakeClock

IDENTITY = JobIdentity("train", "run-1", "node-a", 'o"brien\\x', "node-a", (("note", "line1\nline2"),))
GPUS = (JobGpu("GPU-aaaaaaaa-0000-4000-8000-000000000000", "0"), JobGpu(device="3"))


def parse(body: bytes) -> dict[str, list[tuple[dict[str, str], float]]]:
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(body.decode()):
        for s in family.samples:
            out.setdefault(s.name, []).append((dict(s.labels), s.value))
    return out


def test_the_group_holds_the_contracts_series_with_escaped_labels() -> None:
    progress = Progress(7, 0.25, 128.0, None, {"gpuscope_job_loss": math.nan, "gpuscope_job_lr": math.inf})
    families = start_families(IDENTITY, GPUS, 1000.0) + progress_families(progress)
    families += finish_families(Finish(2000.0, 3))
    got = parse(render(families))
    info = [labels for labels, value in got["gpuscope_job_info"] if value == 1]
    assert info == [
        {"user": 'o"brien\\x', "Hostname": "node-a", "UUID": GPUS[0].uuid, "gpu": "0", "note": "line1\nline2"},
        {"user": 'o"brien\\x', "Hostname": "node-a", "device": "3", "note": "line1\nline2"},
    ]
    assert got["gpuscope_job_steps_total"] == [({}, 7.0)]
    assert got["gpuscope_job_step_duration_seconds"] == [({}, 0.25)]
    assert got["gpuscope_job_samples_per_second"] == [({}, 128.0)]
    assert "gpuscope_job_tokens_per_second" not in got  # never reported: left out, not 0
    assert math.isnan(got["gpuscope_job_loss"][0][1]) and got["gpuscope_job_lr"][0][1] == math.inf
    assert got["gpuscope_job_start_time_seconds"] == [({}, 1000.0)]
    assert got["gpuscope_job_end_time_seconds"] == [({}, 2000.0)]
    assert got["gpuscope_job_exit_code"] == [({}, 3.0)]
    assert not any("job_id" in labels for series in got.values() for labels, _ in series)  # the gateway adds it


def test_rendering_is_deterministic_and_typed() -> None:
    families = start_families(IDENTITY, GPUS, 1.0) + progress_families(Progress(1))
    body = render(families)
    assert body == render(reversed(families))
    assert b"# TYPE gpuscope_job_steps_total counter\n" in body
    assert b"# TYPE gpuscope_job_info gauge\n" in body


def test_a_job_without_a_known_gpu_still_says_who_runs_it() -> None:
    got = parse(render(start_families(IDENTITY, (), 1.0)))
    assert [labels for labels, _ in got["gpuscope_job_info"]] == [
        {"user": 'o"brien\\x', "Hostname": "node-a", "note": "line1\nline2"}
    ]


def test_steps_rates_and_the_window() -> None:
    clock = FakeClock(100.0)
    rec = ProgressRecorder(clock)
    clock.t += 2.0
    rec.record_step(None, 64, 0, {})  # duration measured: 2 s since the recorder started
    rec.record_step(0.5, 32, 4096, {"loss": 1.5})
    first = rec.snapshot()
    assert first.steps == 2 and first.step_duration_s == 0.5
    assert first.samples_per_s == 96 / 2.5 and first.tokens_per_s == 4096 / 2.5
    assert first.gauges == {"gpuscope_job_loss": 1.5}
    rec.record_step(1.0, 10, 0, {})
    second = rec.snapshot()
    assert second.samples_per_s == 10.0 and second.tokens_per_s == first.tokens_per_s  # kept when not reported
    assert rec.snapshot().samples_per_s == 10.0  # an empty window keeps the last rate


def test_bad_values_never_raise_and_are_reported_once() -> None:
    rec = ProgressRecorder()
    for _ in range(3):
        rec.record_step("fast", 1, 1, {})  # type: ignore[arg-type]
        rec.record_step(-1.0, 1, 1, {})
        rec.record_step(0.1, object(), 1, {})  # type: ignore[arg-type]
        rec.set_gauges({"loss": "high", "steps_total": 3.0, "ok": 1})
    problems = rec.problems()
    assert len(problems) == 3, problems
    assert any("'high' is not a number" in p for p in problems)
    assert any("'steps_total'" in p and "built-in" in p for p in problems)
    assert rec.problems() == []
    snap = rec.snapshot()
    assert snap.steps == 0 and snap.gauges == {"gpuscope_job_ok": 1.0}


def test_gauges_are_bounded_however_many_names_the_caller_invents() -> None:
    rec = ProgressRecorder()
    for i in range(10 * MAX_GAUGES):
        rec.record_step(0.1, 0, 0, {f"g{i}": float(i)})
    assert len(rec.snapshot().gauges) == MAX_GAUGES
    assert any(f"more than {MAX_GAUGES} custom gauges" in p for p in rec.problems())
