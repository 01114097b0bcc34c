"""Threshold colours and value mappings, taken from the alerts' own thresholds so a panel turns red exactly
where the matching alert fires (``RulesConfig.thresholds``, the head-series budget, the scrape timeout)."""

from __future__ import annotations

from gpuscope.dashboards.facts import Options
from gpuscope.dashboards.model import Steps, ValueText
from gpuscope.durations import prometheus_seconds

GREEN, ORANGE, RED = "green", "orange", "red"
NEUTRAL = "text"  # Grafana's text colour: a state that is neither good nor bad

# Alerts fire on "increase > n"; Grafana colours a step from its value up, so the step sits just above n.
_ABOVE = 0.001
# PrometheusRemoteWriteBehind (prometheus-mixin v2.42.0): the newest sent sample is over 2 minutes behind.
REMOTE_WRITE_BEHIND_S = 120.0


def above(n: float) -> float:
    return n + _ABOVE


def any_is_bad() -> Steps:
    """Counts of bad things (lost GPUs, new XIDs, DBEs): any is red."""
    return Steps(GREEN, ((above(0), RED),), source="red from the first one: any is an incident")


def errors_per_window(o: Options) -> Steps:
    """NVLink errors: GPUNVLinkErrors fires above the tolerated increase."""
    n = o.rules.thresholds.nvlink_errors_per_5m
    return Steps(GREEN, ((above(n), RED),), source=f"red above {n} (GPUNVLinkErrors, thresholds.nvlink_errors_per_5m)")


def temperature(o: Options) -> Steps:
    """GPUThermalThrottling's temperature source."""
    t = o.rules.thresholds.thermal_temperature_celsius
    return Steps(
        GREEN,
        ((t - 5, ORANGE), (t, RED)),
        source=f"orange from {t - 5} °C, red from {t} °C (GPUThermalThrottling, "
        "thresholds.thermal_temperature_celsius)",
    )


def throttled_share(o: Options) -> Steps:
    """GPUThermalThrottling's violation-time source: share of time throttled."""
    r = o.rules.thresholds.thermal_violation_ratio
    return Steps(
        GREEN,
        ((above(r), RED),),
        source=f"red above {r:.0%} of the time (GPUThermalThrottling, thresholds.thermal_violation_ratio)",
    )


def activity_of_allocated(o: Options) -> Steps:
    """GPUAllocatedButIdle: an allocated GPU below the idle ratio is wasted."""
    r = o.rules.thresholds.idle_activity_ratio
    return Steps(
        RED,
        ((r, GREEN),),
        source=f"red below {r:.0%} activity (GPUAllocatedButIdle, thresholds.idle_activity_ratio)",
    )


def snapshot_age_intervals(o: Options) -> Steps:
    """GPUExporterSnapshotStale: the snapshot is older than N collection intervals."""
    n = o.rules.thresholds.snapshot_stale_intervals
    return Steps(
        GREEN,
        ((n - 1, ORANGE), (above(n), RED)),
        source=f"orange from {n - 1}, red above {n} collection intervals (GPUExporterSnapshotStale, "
        "thresholds.snapshot_stale_intervals)",
    )


def head_series(o: Options) -> Steps:
    """PrometheusHeadSeriesOverBudget: ticket at the warn ratio, page over the budget."""
    budget, warn = o.rules.head_series_budget, o.rules.head_series_warn_ratio
    return Steps(
        GREEN,
        ((above(warn * budget), ORANGE), (above(budget), RED)),
        source=f"orange above {warn:.0%} of the budget, red above {budget:,} head series "
        "(PrometheusHeadSeriesOverBudget, the spec's budget.head_series)",
    )


def churn(o: Options) -> Steps:
    """PrometheusSeriesChurnHigh: series created per hour over head series."""
    r = o.rules.thresholds.churn_ratio_per_hour
    return Steps(
        GREEN,
        ((above(r), RED),),
        source=f"red above {r:g} new series per hour per head series (PrometheusSeriesChurnHigh, "
        "thresholds.churn_ratio_per_hour)",
    )


def scrape_duration(o: Options) -> Steps:
    """A scrape that reaches the timeout fails (``up`` = 0, GPUExporterDown)."""
    t = o.scrape_timeout_s
    return Steps(
        GREEN,
        ((0.8 * t, ORANGE), (t, RED)),
        source=f"orange from 80% of the scrape timeout, red at it ({t:g} s, scrape_timeout): a scrape that "
        "reaches it fails (GPUExporterDown)",
    )


def remote_write_lag(o: Options) -> Steps:
    s = REMOTE_WRITE_BEHIND_S / o.rules.speedup
    return Steps(GREEN, ((above(s), RED),), source=f"red above {s:g} s behind (PrometheusRemoteWriteBehind)")


def job_age(o: Options) -> Steps:
    """PushgatewayJobStale: no push for longer than ``job_stale_after``."""
    after = o.rules.thresholds.job_stale_after
    return Steps(
        GREEN,
        ((above(prometheus_seconds(after)), RED),),
        source=f"red after {after} without a push (PushgatewayJobStale, thresholds.job_stale_after)",
    )


def up() -> Steps:
    return Steps(RED, ((1, GREEN),), source="red when down (GPUExporterDown pages after 2 minutes)")


# GPU status as the status grid computes it from firing alerts.
STATUS = (
    ValueText("0", "OK", GREEN),
    ValueText("1", "ticket", ORANGE),
    ValueText("2", "page", RED),
)
STATUS_STEPS = Steps(
    GREEN, ((1, ORANGE), (2, RED)), source="orange while a ticket alert fires on the GPU, red while a page does"
)

# A failure signal's 0 while nothing is wrong (``zeros``): green, and a word, not a bare number.
NONE = ValueText("0", "none", GREEN)

YES_NO_BAD = (ValueText("0", "no", GREEN), ValueText("1", "yes", RED))

# DCGM_FI_DEV_GPU_RECOVERY_ACTION (NVML's recovery actions) and DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY.
RECOVERY_ACTION = (
    ValueText("0", "none", GREEN),
    ValueText("1", "GPU reset", RED),
    ValueText("2", "node reboot", RED),
    ValueText("3", "drain P2P", ORANGE),
    ValueText("4", "drain and reset", RED),
)

HEALTH = (
    ValueText("0", "pass", GREEN),
    ValueText("10", "warn", ORANGE),
    ValueText("20", "fail", RED),
)

# The NVLink fabric (dashboards/fabric.py): DCGM_FI_DEV_NVLINK_GET_STATE (NVML's link state), the NVSwitch port
# status DCGM_FI_DEV_NVSWITCH_LINK_STATUS (dcgm_fields.h: UNKNOWN -1, OFF 0, SAFE 1, ACTIVE 2, ERROR 3) and the
# fabric health summary DCGM_FI_DEV_FABRIC_HEALTH_SUMMARY (NVML: 0 not supported, 1 healthy, 2 unhealthy, 3 limited).
LINK_STATE = (ValueText("1", "up", GREEN), ValueText("0", "down", RED))
PORT_STATUS = (
    ValueText("-1", "unknown", ORANGE),
    ValueText("0", "off", NEUTRAL),
    ValueText("1", "safe", ORANGE),
    ValueText("2", "active", GREEN),
    ValueText("3", "error", RED),
)
FABRIC_HEALTH = (
    ValueText("0", "n/a", NEUTRAL),
    ValueText("1", "healthy", GREEN),
    ValueText("2", "unhealthy", RED),
    ValueText("3", "limited capacity", ORANGE),
)
