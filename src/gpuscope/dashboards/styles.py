"""Threshold colours and value mappings, taken from the alerts' own thresholds so a panel turns red exactly
where the matching alert fires (``RulesConfig.thresholds``, the head-series budget, the scrape timeout)."""

from __future__ import annotations

from gpuscope.dashboards.model import Steps, ValueText
from gpuscope.dashboards.options import Options
from gpuscope.rules.timescale import to_seconds

GREEN, ORANGE, RED = "green", "orange", "red"

# Alerts fire on "increase > n"; Grafana colours a step from its value up, so the step sits just above n.
_ABOVE = 0.001
# PrometheusRemoteWriteBehind (prometheus-mixin v2.42.0): the newest sent sample is over 2 minutes behind.
REMOTE_WRITE_BEHIND_S = 120.0


def above(n: float) -> float:
    return n + _ABOVE


def any_is_bad() -> Steps:
    """Counts of bad things (lost GPUs, new XIDs, DBEs): any is red."""
    return Steps(GREEN, ((above(0), RED),))


def errors_per_window(o: Options) -> Steps:
    """NVLink errors: GPUNVLinkErrors fires above the tolerated increase."""
    return Steps(GREEN, ((above(o.rules.thresholds.nvlink_errors_per_5m), RED),))


def temperature(o: Options) -> Steps:
    """GPUThermalThrottling's temperature source."""
    t = o.rules.thresholds.thermal_temperature_celsius
    return Steps(GREEN, ((t - 5, ORANGE), (t, RED)))


def throttled_share(o: Options) -> Steps:
    """GPUThermalThrottling's violation-time source: share of time throttled."""
    return Steps(GREEN, ((above(o.rules.thresholds.thermal_violation_ratio), RED),))


def activity_of_allocated(o: Options) -> Steps:
    """GPUAllocatedButIdle: an allocated GPU below the idle ratio is wasted."""
    return Steps(RED, ((o.rules.thresholds.idle_activity_ratio, GREEN),))


def snapshot_age_intervals(o: Options) -> Steps:
    """GPUExporterSnapshotStale: the snapshot is older than N collection intervals."""
    n = o.rules.thresholds.snapshot_stale_intervals
    return Steps(GREEN, ((n - 1, ORANGE), (above(n), RED)))


def head_series(o: Options) -> Steps:
    """PrometheusHeadSeriesOverBudget: ticket at the warn ratio, page over the budget."""
    budget = o.rules.head_series_budget
    return Steps(GREEN, ((above(o.rules.head_series_warn_ratio * budget), ORANGE), (above(budget), RED)))


def churn(o: Options) -> Steps:
    """PrometheusSeriesChurnHigh: series created per hour over head series."""
    return Steps(GREEN, ((above(o.rules.thresholds.churn_ratio_per_hour), RED),))


def scrape_duration(o: Options) -> Steps:
    """A scrape that reaches the timeout fails (``up`` = 0, GPUExporterDown)."""
    t = o.scrape_timeout_s
    return Steps(GREEN, ((0.8 * t, ORANGE), (t, RED)))


def remote_write_lag(o: Options) -> Steps:
    return Steps(GREEN, ((above(REMOTE_WRITE_BEHIND_S / o.rules.speedup), RED),))


def job_age(o: Options) -> Steps:
    """PushgatewayJobStale: no push for longer than ``job_stale_after``."""
    return Steps(GREEN, ((above(to_seconds(o.rules.thresholds.job_stale_after)), RED),))


def up() -> Steps:
    return Steps(RED, ((1, GREEN),))


# GPU status as the status grid computes it from firing alerts.
STATUS = (
    ValueText("0", "OK", GREEN),
    ValueText("1", "ticket", ORANGE),
    ValueText("2", "page", RED),
)
STATUS_STEPS = Steps(GREEN, ((1, ORANGE), (2, RED)))

YES_NO_BAD = (ValueText("0", "no", GREEN), ValueText("1", "yes", RED))

HEALTH = (
    ValueText("0", "pass", GREEN),
    ValueText("10", "warn", ORANGE),
    ValueText("20", "fail", RED),
)
