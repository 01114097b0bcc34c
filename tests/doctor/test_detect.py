"""Label detection and the rules config it yields: the part that makes one audit fit gpuscope and dcgm-exporter."""

from __future__ import annotations

import pytest

from gpuscope.cli._flagnames import flag_names
from gpuscope.doctor.detect import Detected, detect, rules_config
from gpuscope.doctor.queries import alert_queries
from gpuscope.doctor.timing import Timing
from gpuscope.errors import AuditError
from gpuscope.prom import Sample, Vector
from gpuscope.rules import RulesConfig, alerts
from gpuscope.rules.promql import Promql

LABELS = ("UUID", "gpu", "instance", "job", "modelName")


def jobs(*names: str) -> Vector:
    return tuple(Sample({"job": n}, 1.0) for n in names)


def results(classic: Vector = (), renamed: Vector = (), up: Vector = ()) -> dict[str, Vector]:
    prometheus = (Sample({"instance": "p:9090", "job": "prometheus-k8s"}, 1000.0),)
    return {
        "detect.temp.classic": classic,
        "detect.temp.4.9": renamed,
        "detect.exporter_up": up,
        "detect.prometheus": prometheus,
    }


def run(res: dict[str, Vector], labels: tuple[str, ...] = (*LABELS, "Hostname"), host: str | None = None) -> Detected:
    return detect(res, labels, {"cluster": "c1"}, url="http://p:9090", window="1h", preferred_host_label=host)


def test_dcgm_exporter_4_9_with_hostname_and_old_namespace() -> None:
    d = run(results(renamed=jobs("gpu-operator/nvidia-dcgm-exporter")), ("uuid", "gpu", "hostname", "job"))
    assert (d.dialect, d.host_label, d.uuid_label, d.cluster) == ("4.9", "hostname", "uuid", "c1")
    config = rules_config(d, RulesConfig())
    assert config.exporter_selector == 'job="gpu-operator/nvidia-dcgm-exporter"'
    assert config.prometheus_selector == 'job="prometheus-k8s"'
    assert Promql(config).dcgm("DCGM_FI_DEV_GPU_TEMP") == (
        'DCGM_FI_DEV_GPU_TEMP_CELSIUS{job="gpu-operator/nvidia-dcgm-exporter"}'
    )


def test_several_exporter_jobs_are_one_regex_selector() -> None:
    d = run(results(classic=jobs("dcgm-exporter", "dcgm.exporter-b")))
    assert rules_config(d, RulesConfig()).exporter_selector == 'job=~"dcgm-exporter|dcgm\\\\.exporter-b"'


def test_mixed_host_labels_follow_the_fleet_spec() -> None:
    both = (*LABELS, "Hostname", "hostname")
    assert run(results(classic=jobs("e")), both).host_label == "Hostname"
    assert run(results(classic=jobs("e")), both, host="hostname").host_label == "hostname"
    assert run(results(classic=jobs("e")), both).host_labels == ("Hostname", "hostname")


def test_targets_down_since_the_window_began_still_identify_the_job() -> None:
    d = run(results(up=jobs("dcgm-exporter")))
    assert d.exporter_jobs == ("dcgm-exporter",)


def test_no_gpu_metrics_is_one_line_naming_the_flag() -> None:
    """The library names the parameter (the console words it its own way); the CLI words it as the flag."""
    with pytest.raises(
        AuditError, match=r"^prometheus http://p:9090 has no GPU metrics: no DCGM_FI_DEV_GPU_TEMP"
    ) as err:
        run(results())
    assert err.value.worded(flag_names("doctor")).startswith("--prometheus http://p:9090 has no GPU metrics")
    assert "point --prometheus at the Prometheus" in err.value.worded(flag_names("doctor"))


def test_alert_backed_queries_are_the_alerts_as_loaded_at_that_speedup() -> None:
    config = RulesConfig(speedup=15)
    loaded = {a.name: a.expr for a in reversed(alerts(config))}
    queries = alert_queries(Promql(config))
    assert queries["rw.behind"] == loaded["PrometheusRemoteWriteBehind"]
    assert "[20s]" in queries["rw.behind"]  # 5m at speedup 15, as in the rule files gpuscope up --fast loads


def test_rates_skip_the_start_up_burst() -> None:
    t = Timing(now=10_000.0, window_s=3600.0, speedup=1)
    assert t.measurable(started=10_000.0 - 400) == 0.0  # 6 min settle + 1 min minimum not yet reached
    assert t.measurable(started=10_000.0 - 600) == 240.0
    assert t.measurable(started=0.0) == 3600.0
    fast = Timing(now=10_000.0, window_s=240.0, speedup=15)
    # 24 s scaled, but the TSDB, the rules and the first round take wall time: a minute at the least
    assert fast.measurable(started=10_000.0 - 50) == 0.0
    # and a rate over 4 s (one production minute) reads a burst as churn: at least 30 s of wall time
    assert fast.measurable(started=10_000.0 - 80) == 0.0
    assert fast.measurable(started=10_000.0 - 95) == 35.0
    assert fast.first_measurable_s == 90.0
