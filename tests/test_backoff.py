"""The one backoff schedule (gpuscope.backoff) and each retry loop that follows it, on their own numbers."""

from __future__ import annotations

import pytest

from gpuscope.backoff import Backoff
from gpuscope.kube.reflector import JITTER


def test_backoff_doubles_to_its_cap_with_bounded_jitter_and_resets() -> None:
    # The API server watch's schedule: 1 s doubling to 60 s, each wait up to JITTER (20 %) longer.
    exact = Backoff(1.0, 60.0, jitter=JITTER, random=lambda: 0.0)
    assert [exact.next() for _ in range(8)] == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
    exact.reset()
    assert exact.next() == 1.0
    most = Backoff(1.0, 60.0, jitter=JITTER, random=lambda: 0.999)  # the longest a wait can be: 20 % over its step
    assert [round(most.next(), 2) for _ in range(3)] == [1.2, 2.4, 4.8]


def test_jitter_both_ways_and_no_overflow_after_days_of_failures() -> None:
    # The Pushgateway pusher's schedule: from the push interval to max_backoff_s, jitter within +-10 %.
    early = Backoff(15.0, 120.0, jitter=0.1, random=lambda: -1.0)
    late = Backoff(15.0, 120.0, jitter=0.1, random=lambda: 1.0)
    assert [early.next() for _ in range(3)] == pytest.approx([13.5, 27.0, 54.0])
    assert [late.next() for _ in range(3)] == pytest.approx([16.5, 33.0, 66.0])
    plain = Backoff(15.0, 120.0)
    assert [plain.next() for _ in range(6)] == [15, 30, 60, 120, 120, 120]
    assert [plain.next() for _ in range(5000)][-1] == 120.0


def test_the_cap_caps_the_first_wait_and_zero_retries_at_once() -> None:
    assert [Backoff(15.0, 5.0).next() for _ in range(2)] == [5.0, 5.0]  # a push interval over max_backoff_s
    zero = Backoff(0.0, 60.0)
    assert [zero.next() for _ in range(3)] == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(("initial", "cap"), [(-1.0, 1.0), (1.0, -1.0)])
def test_a_negative_wait_is_refused(initial: float, cap: float) -> None:
    with pytest.raises(ValueError, match="never negative"):
        Backoff(initial, cap)
