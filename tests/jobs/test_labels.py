"""Bad job ids, labels and options are rejected before the job starts, with a message naming the problem."""

from __future__ import annotations

import pytest

from gpuscope.errors import UsageError
from gpuscope.jobs import InvalidJobInput, JobReporter
from gpuscope.jobs.labels import check_job_id, check_labels, gauge_metric

GW = "http://127.0.0.1:9"


@pytest.mark.parametrize(
    ("job_id", "fragment"),
    [
        ("", "job id is empty"),
        (" 42", "leading or trailing whitespace"),
        ("42\n", "leading or trailing whitespace"),
        ("4\n2", "control character '\\n'"),
        ("4\x002", "control character '\\x00'"),
        ("x" * 257, "257 characters long; the limit is 256"),
        (42, "must be a string, got int 42"),
    ],
)
def test_bad_job_ids_are_rejected_with_the_reason(job_id: object, fragment: str) -> None:
    with pytest.raises(InvalidJobInput) as err:
        JobReporter(job_id, gateway=GW, env={})  # type: ignore[arg-type]
    assert fragment in str(err.value)


@pytest.mark.parametrize("job_id", ["4242", "4242_7", "4242+1", "team/run 7", "训练-1", "a" * 256])
def test_any_printable_job_id_is_accepted_as_is(job_id: str) -> None:
    assert check_job_id(job_id) == job_id


@pytest.mark.parametrize(
    ("labels", "fragment"),
    [
        ({"1team": "x"}, "not a Prometheus label name"),
        ({"team-name": "x"}, "not a Prometheus label name"),
        ({"__meta": "x"}, "starts with '__'"),
        ({"UUID": "GPU-x"}, "set by gpuscope itself"),
        ({"job_id": "x"}, "set by gpuscope itself"),
        ({"team": "a\tb"}, "control character"),
        ({"team": 3}, "must be a string"),
        ({f"l{i}": "x" for i in range(17)}, "at most 16"),
    ],
)
def test_bad_labels_are_rejected(labels: dict[str, object], fragment: str) -> None:
    with pytest.raises(InvalidJobInput) as err:
        JobReporter("j", gateway=GW, labels=labels, env={})  # type: ignore[arg-type]
    assert fragment in str(err.value)


def test_labels_are_sorted_and_empty_values_allowed() -> None:
    assert check_labels({"team": "nlp", "project": ""}) == (("project", ""), ("team", "nlp"))


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"gateway": ""}, "no Pushgateway"),
        ({"gateway": "ftp://x"}, "not an http(s) URL"),
        ({"gateway": "http://x:9091/?a=1"}, "query or fragment"),
        ({"push_interval_s": 0.01}, "below 0.05 s"),
        ({"push_interval_s": 0}, "interval_s must be a number of seconds > 0"),
        ({"close_timeout_s": -1}, "close_timeout_s"),
        ({"on_finish": "forget"}, "on_finish must be 'keep' or 'delete'"),
        ({"gpus": ["0", "eth0"]}, "'eth0' is not a GPU index"),
        ({"job": ""}, "job name is empty"),
        ({"user": "a\x1bb"}, "control character"),
    ],
)
def test_bad_options_are_rejected(kwargs: dict[str, object], fragment: str) -> None:
    options: dict[str, object] = {"gateway": GW, "env": {}, **kwargs}
    with pytest.raises(InvalidJobInput) as err:
        JobReporter("j", **options)  # type: ignore[arg-type]
    assert fragment in str(err.value)


def test_invalid_input_is_a_usage_error_and_a_value_error() -> None:
    with pytest.raises(InvalidJobInput) as err:
        JobReporter("", gateway=GW, env={})
    assert isinstance(err.value, UsageError) and isinstance(err.value, ValueError)


def test_the_gateway_comes_from_the_environment_and_a_disabled_reporter_needs_none() -> None:
    assert JobReporter("j", env={"GPUSCOPE_PUSHGATEWAY": "pg:9091"}).enabled
    reporter = JobReporter("j", enabled=False, env={})
    with reporter as job:
        job.step(0.1, samples=3)
    assert reporter.stats.ok == reporter.stats.failed == 0 and reporter.flushed is False


@pytest.mark.parametrize(
    ("name", "metric"),
    [
        ("loss", "gpuscope_job_loss"),
        ("gpuscope_job_loss", "gpuscope_job_loss"),
        ("lr/group-0", "gpuscope_job_lr_group_0"),
        ("grad norm", "gpuscope_job_grad_norm"),
        ("1st", "gpuscope_job_1st"),
        ("___", None),
        ("steps_total", None),
        ("info", None),
        ("exit_code", None),
    ],
)
def test_custom_gauge_names_are_sanitized_or_dropped(name: str, metric: str | None) -> None:
    assert gauge_metric(name) == metric
