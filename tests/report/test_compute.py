"""The report's pure arithmetic where the backfilled fleet does not reach: flat and shrinking trends, gaps in runs."""

from __future__ import annotations

from gpuscope.prom import Series
from gpuscope.report.compute import DAY, distribution, forecast, incidents


def test_a_flat_or_shrinking_fleet_has_no_date_to_fill_by() -> None:
    flat = {d * DAY + 3600.0: 10.0 + (0.1 if d % 2 else -0.1) for d in range(10)}
    f = forecast(flat, capacity=20)
    assert f is not None and f.slope_per_day - 1.96 * f.slope_stderr < 0 and f.full_high is None  # maybe never
    shrinking = {d * DAY + 3600.0: 15.0 - d for d in range(10)}
    f = forecast(shrinking, capacity=20)
    assert f is not None and f.slope_per_day < 0 and f.full_at is None


def test_an_exact_line_has_no_uncertainty_and_two_days_are_too_few() -> None:
    line = {d * DAY + 3600.0: 10.0 + 2 * d for d in range(5)}
    f = forecast(line, capacity=30)
    assert f is not None and f.slope_stderr < 1e-9
    # A daily mean stands for the middle of its day: 10 + 2 d at d + 0.5 reaches 30 at day 10.5.
    assert f.full_at is not None and abs(f.full_at - 10.5 * DAY) < 1 and f.full_low == f.full_high == f.full_at
    assert forecast({3600.0: 1.0, DAY + 3600.0: 2.0}, capacity=4) is None


def test_incidents_split_at_gaps_and_drop_short_runs() -> None:
    step = 300
    values: list[tuple[float, float]] = [
        *((t, 5000.0) for t in range(300, 3601, step)),
        *((t, 7000.0) for t in range(7200, 7501, step)),
    ]
    found = incidents([Series({"UUID": "GPU-1"}, tuple(values))], step, "zombie memory", ("UUID",), min_seconds=900)
    assert [(i.start, i.end, i.detail) for i in found] == [(0, 3600, "5000 MiB used")]


def test_distribution_buckets_at_the_edges() -> None:
    assert distribution([0.0, 0.0999, 0.1, 0.5, 0.5001, 1.0]) == {"<10%": 2, "10-50%": 2, ">50%": 2}
