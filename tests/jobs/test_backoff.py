"""Retry pacing: the CLI's bounded retries (pure, with a fake clock); the pusher's schedule is
gpuscope.backoff's, tested in tests/test_backoff.py."""

from __future__ import annotations

from gpuscope.jobs.gateway import GatewayError
from gpuscope.jobs.oneshot import send
from tests.support.clock import FakeClock


def test_send_retries_within_its_budget_then_reports_the_last_error() -> None:
    clock, timeouts = FakeClock(0.0), []

    def down(timeout: float) -> None:
        timeouts.append(timeout)
        clock.t += 0.1
        raise GatewayError(f"refused #{len(timeouts)}")

    outcome = send(down, 3.0, clock, clock.sleep)
    assert not outcome.ok and outcome.error == f"refused #{outcome.attempts}"
    assert clock.slept == [0.25, 0.5, 1.0] and outcome.attempts == 4
    assert clock.t <= 3.0 and all(t <= 3.0 for t in timeouts)


def test_send_stops_at_the_first_success() -> None:
    clock, calls = FakeClock(0.0), []

    def flaky(timeout: float) -> None:
        calls.append(timeout)
        if len(calls) < 2:
            raise GatewayError("refused")

    outcome = send(flaky, 10.0, clock, clock.sleep)
    assert outcome.ok and outcome.attempts == 2 and clock.slept == [0.25]
