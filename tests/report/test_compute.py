"""The report's pure arithmetic where the backfilled fleet does not reach: flat and shrinking trends, gaps in runs."""

from __future__ import annotations

import pytest

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
    means = dict(enumerate([0.0, 0.0999, 0.1, 0.5, 0.5001, 1.0]))
    keys = {i: (f"GPU-{i}", "") for i in means}
    d = distribution({keys[i]: m for i, m in means.items()}, dict.fromkeys(keys.values(), 1.0))
    assert d.gpus == {"<10%": 2, "10-50%": 2, ">50%": 2} and d.whole == d.gpus


def test_distribution_weighs_mig_instances_and_counts_idle_slices() -> None:
    """A MIG instance counts its share; the slices of a MIG GPU in no instance count below 10%; a unit with a share
    and no reading is in no bucket but said; a unit gone by the end (no share) is not counted: the buckets and the
    unread add up to the GPUs with a share, each GPU once."""
    means = {("A", "1"): 0.9, ("A", "2"): 0.3, ("B", ""): 0.05, ("gone", ""): 0.7}
    shares = {("A", "1"): 3 / 7, ("A", "2"): 2 / 7, ("B", ""): 1.0, ("C", ""): 1.0}
    d = distribution(means, shares)
    assert d.gpus == pytest.approx({"<10%": 1 + 2 / 7, "10-50%": 2 / 7, ">50%": 3 / 7})
    assert d.unpartitioned == pytest.approx(2 / 7) and d.no_reading == 1.0
    assert d.instances == {"<10%": 0, "10-50%": 1, ">50%": 1} and d.whole == {"<10%": 1, "10-50%": 0, ">50%": 0}
    assert sum(d.gpus.values()) + d.no_reading == pytest.approx(3)
